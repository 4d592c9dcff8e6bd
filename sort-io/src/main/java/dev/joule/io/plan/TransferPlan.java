package dev.joule.io.plan;

import dev.joule.core.memory.Alignment;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.config.TransferSizes;
import java.util.List;
import java.util.Locale;

/**
 * The transfer size of each file kind of a plan: the configuration's, capped at {@code B / }{@value
 * SortPlan#TRANSFERS_PER_BUDGET} so that a small budget (8 MiB) still merges with a fan-in above 2,
 * no larger than a known input, at least one record per run block, and for the temp files the
 * largest that still merges the runs in one pass ({@link #oneMergePassTransfer}).
 *
 * <p>Stateless.
 */
final class TransferPlan {
  private TransferPlan() {}

  /**
   * {@code transfer} capped at the budget's share; a note in {@code notes} when the caller's own
   * transfer is cut (the default adapting to a small budget is no news: {@code --explain} shows
   * it).
   */
  static int cap(int transfer, FileKind kind, long budget, List<String> notes) {
    long max =
        Math.max(
            Alignment.BYTES,
            budget / SortPlan.TRANSFERS_PER_BUDGET / Alignment.BYTES * Alignment.BYTES);
    if (transfer > max) {
      if (transfer == TransferSizes.DEFAULT_TRANSFER) {
        return (int) max;
      }
      notes.add(
          kind.name().toLowerCase(Locale.ROOT)
              + " transfer size "
              + transfer
              + " capped to "
              + max
              + " (budget / "
              + SortPlan.TRANSFERS_PER_BUDGET
              + ")");
      return (int) max;
    }
    return transfer;
  }

  /**
   * A default transfer ({@code kind}) no larger than a known input of {@code inputBytes} (rounded
   * up to a page): the pools hold a few transfers each, and a sort of 1 KB allocated, zeroed and
   * faulted in 21 MB of 4 MiB buffers before it (fresh pages cost 3-7 us each here, docs/design.md
   * D5). The output is as large as the input, but for the delimiter a last line may lack; runs (a
   * spill when the input holds more records than its sample said) may be larger, in more blocks. An
   * input of unknown size (0: a session's pushed records) keeps the default.
   */
  static int fitToInput(int transfer, FileKind kind, SortConfig c, long inputBytes) {
    if (inputBytes <= 0 || c.transferSize(kind) != TransferSizes.DEFAULT_TRANSFER) {
      return transfer; // unknown size, or the user's own transfer
    }
    long fit = (inputBytes + 1 + Alignment.BYTES - 1) / Alignment.BYTES * Alignment.BYTES;
    return (int) Math.min(transfer, fit);
  }

  /** Smallest 4096-multiple run block holding one record and the 12-byte block trailer. */
  static int blockFor(int recordSize) {
    return (recordSize + 12 + Alignment.BYTES - 1) / Alignment.BYTES * Alignment.BYTES;
  }

  /**
   * The default temp transfer {@code t}, halved while the runs of {@code records} records that
   * {@code model}'s budget forms would need more than one merge pass and a smaller transfer gives a
   * wide enough fan-in, down to {@link SortPlan#MIN_MERGE_TRANSFER}; {@code t} when one pass is out
   * of reach. Why: an extra merge pass reads and writes every run once more (0.6 to 1 CPU-s and a
   * second of I/O per 100 to 400 MB of entries here: 61 MB of numbers with duplicates at -S 64M
   * went from two passes to one and from 10.9 to 9.8 CPU-s, sort-bench/results/gnu-text.md), while
   * 1 MiB transfers still read and write temp files at 1.1 to 3.2 GB/s (sort-bench/results/io.md).
   * An estimate: the run count uses the plan's formula. (Halving further so that the final merge
   * fits a part per thread was tried on 1 GB of lines at -S 256M: two parts instead of one, no
   * faster, as that merge waits on the disk.)
   */
  static int oneMergePassTransfer(
      int t,
      MemoryModel model,
      long records,
      long budget,
      int stripes,
      long openFileLimit,
      int codecDescriptors,
      DirectIoPolicy directIo) {
    int reserve = MergePlanLimits.reserve(openFileLimit) + stripes + codecDescriptors;
    int perFile = MergePlanLimits.descriptorsPerFile(directIo) * stripes;
    for (int candidate = t; candidate >= SortPlan.MIN_MERGE_TRANSFER; candidate /= 2) {
      long perRun = model.budgetRecordsPerRun(candidate);
      if (perRun <= 0 || budget / (2L * candidate) - 1 < 2) {
        break;
      }
      long runs = (records + perRun - 1) / perRun;
      int fan;
      try {
        fan = model.memoryFanIn(candidate, openFileLimit, reserve, perFile);
      } catch (IllegalArgumentException e) {
        break; // the plan reports a too tight budget or open-file limit itself
      }
      if (runs <= fan) {
        return candidate;
      }
      if (candidate % (2 * Alignment.BYTES) != 0) {
        break;
      }
    }
    return t; // one pass is out of reach: keep the transfer that reads and writes fastest
  }
}

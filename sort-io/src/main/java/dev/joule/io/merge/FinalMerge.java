package dev.joule.io.merge;

import dev.joule.core.memory.Alignment;
import dev.joule.core.memory.DirectRegion;
import dev.joule.core.merge.MergeSplitter;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.BlockWriter;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.error.SortValidationException;
import dev.joule.io.fs.Failures;
import dev.joule.io.hooks.SortHooks;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.memory.Resources;
import dev.joule.io.output.AtomicOutput;
import dev.joule.io.output.BatchWriter;
import dev.joule.io.output.OutputValidator;
import dev.joule.io.output.RecordOutput;
import dev.joule.io.plan.SortPlan;
import dev.joule.io.prefetch.MergeInputs;
import dev.joule.io.prefetch.RunFileView;
import dev.joule.io.prefetch.SplitSearches;
import dev.joule.io.run.RunDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The final merge of a file sort into its output, in parallel parts (docs/decisions/D16).
 *
 * <p>With {@code parts > 1} the merge is cut by {@link MergeSplitter} (over {@link RunFileView}s)
 * into key ranges at ranks rounded down to whole 4096-byte pages of output (fixed records; any rank
 * for parsed ones); part j merges its range on a merge thread into its own region of the output
 * temporary ({@link AtomicOutput#regionWriter}), starting at the output bytes of the records before
 * its cut ({@code rank_j * r} for fixed records; for others the runs' record bytes before their
 * cuts, {@link RunFileView#recordBytesBefore}, plus their framing). The stable merge order makes
 * the concatenation byte-identical to one merge. Each part validates its records; the parts'
 * validators are combined at the boundaries. Unique output merges in one part.
 *
 * <p><b>Memory</b> per part: {@code k + spare} temp-block buffers (spare ≤ k, from the part's share
 * of the spare buffers) plus {@link SortPlan#OUTPUT_POOL_BUFFERS} output buffers, all made once per
 * merge on the calling thread, the output's first, and closed with it ({@link MergeBuffers}).
 * Interrupting the caller interrupts the parts, which check between blocks.
 */
final class FinalMerge {
  /**
   * Least output pages per part of a parallel final merge: below 16 × 4096-byte stretches of
   * records, a part's setup (its pool, prefetch thread and splitter search) costs more than the
   * merge work it takes over, so small final merges run as fewer parts.
   */
  static final int MIN_PAGES_PER_PART = 16;

  private final SortConfig c;
  private final EntrySpec entries;
  private final SortPlan plan;
  private final MergeBuffers buffers;
  private final MergeLoop loop;
  private final SortThreads threads;

  FinalMerge(
      SortConfig c,
      EntrySpec entries,
      SortPlan plan,
      MergeBuffers buffers,
      MergeLoop loop,
      SortThreads threads) {
    this.c = c;
    this.entries = entries;
    this.plan = plan;
    this.buffers = buffers;
    this.loop = loop;
    this.threads = threads;
  }

  /**
   * How many parts the final merge of {@code k} runs can use within the threads and the budget
   * (each part's least pools, made as {@link #merge} makes them, fit what is left); one in unique
   * mode (a part could not see that its first key equals the previous part's last).
   */
  int parts(int k, long records) {
    if (entries.unique()) {
      return 1;
    }
    long byRecords = Math.max(1, records / (recordsPerPage() * MIN_PAGES_PER_PART));
    int parts = (int) Math.max(1, Math.min(c.threads(), byRecords));
    while (parts > 1 && !leastPoolsFit(parts, k)) {
      parts--;
    }
    return parts;
  }

  /**
   * Whether {@code parts} parts of a final merge of {@code k} runs get their least pools (the
   * output's, then {@code k + 1} temp buffers each, in the order {@link #merge} makes them) from
   * the lent arenas alone, or without them from what the budget has left: more parts are worth no
   * fresh memory beside the arenas (see {@link MergeBuffers#spareBuffers}).
   */
  private boolean leastPoolsFit(int parts, int k) {
    int[] counts = new int[2 * parts];
    int[] sizes = new int[2 * parts];
    for (int j = 0; j < parts; j++) {
      counts[j] = SortPlan.OUTPUT_POOL_BUFFERS;
      sizes[j] = plan.outputTransfer();
      counts[parts + j] = k + 1;
      sizes[parts + j] = plan.tempTransfer();
    }
    int[] carved = buffers.wouldCarve(counts, sizes);
    long fresh = 0;
    for (int i = 0; i < counts.length; i++) {
      fresh += DirectRegion.bytesFor(counts[i] - carved[i], sizes[i]);
    }
    return buffers.lending() ? fresh == 0 : fresh <= buffers.room();
  }

  /**
   * Records per 4096-byte page of output: the quantum of a part's start for fixed records (so that
   * every part writes aligned), an average for parsed ones.
   */
  private long recordsPerPage() {
    if (entries.inPlace()) {
      return Alignment.recordQuantum(plan.entryBytes());
    }
    return Math.max(1, Alignment.BYTES / plan.entryBytes());
  }

  /** Whether the merge gathers fixed records in batches (else entry by entry). */
  private boolean batched() {
    return entries.inPlace() && !entries.unique();
  }

  /**
   * Merges {@code runs} into {@code out} with {@code parts} threads.
   *
   * @throws SortValidationException if a part wrote more or less than the room its cut gave it
   */
  Merges.Output merge(List<RunDescriptor> runs, AtomicOutput out, int parts) throws IOException {
    int k = runs.size();
    try (MergeInputs in = new MergeInputs(runs, entries.layout(), c.directIo(), c.notices());
        Resources pools = new Resources(buffers.meter())) {
      Cuts cuts = cuts(in, in.records(), parts);
      buffers
          .resetLent(); // the splitter's pages are closed: the pools start from the arenas' start
      // The output pools first: their size is fixed, while the read pools take what is left.
      BlockPool[] outPools = new BlockPool[parts];
      for (int j = 0; j < parts; j++) {
        outPools[j] = buffers.newPool(pools, SortPlan.OUTPUT_POOL_BUFFERS, plan.outputTransfer());
      }
      int count =
          (int)
              Math.max(k + 1, Math.min(2L * k, buffers.spareBuffers(plan.tempTransfer()) / parts));
      BlockPool[] readPools = new BlockPool[parts];
      for (int j = 0; j < parts; j++) {
        readPools[j] = buffers.newPool(pools, count, plan.tempTransfer());
      }
      OutputValidator[] validators = new OutputValidator[parts];
      MergeThreads.FirstFailure failure = new MergeThreads.FirstFailure();
      long[] written = new long[parts];
      Runnable[] bodies = new Runnable[parts];
      for (int j = 0; j < parts; j++) {
        int part = j;
        validators[j] =
            batched() ? OutputValidator.forBatches(entries) : OutputValidator.of(entries);
        bodies[j] =
            () -> {
              try (Resources res = new Resources(buffers.meter())) {
                BlockWriter w =
                    res.add(out.regionWriter(cuts.outputStart[part], outPools[part], 1));
                long[] from = cuts.ranks[part];
                long[] to = cuts.ranks[part + 1];
                if (batched()) {
                  loop.batches(
                      in,
                      from,
                      to,
                      readPools[part],
                      plan.entryBytes(),
                      new BatchWriter(
                          w,
                          validators[part],
                          plan.entryBytes(),
                          plan.outputTransfer(),
                          SortHooks.of(c).outputFault()));
                } else {
                  RecordOutput o =
                      new RecordOutput(w, entries, validators[part], SortHooks.of(c).outputFault());
                  loop.entries(
                      in,
                      from,
                      to,
                      readPools[part],
                      cur -> o.write(cur.buffer(), cur.position()),
                      () -> false);
                }
                written[part] = w.finishRegion();
              } catch (Throwable t) {
                failure.add(t);
              }
            };
      }
      MergeThreads.run(threads, bodies, running -> running.forEach(Thread::interrupt), "the merge");
      failure.rethrow();
      OutputValidator v = validators[0];
      for (int j = 1; j < parts; j++) {
        v.append(validators[j]);
      }
      for (int j = 0; j + 1 < parts; j++) {
        long room = cuts.outputStart[j + 1] - cuts.outputStart[j];
        if (written[j] != room) {
          throw new SortValidationException(
              "part "
                  + j
                  + " of the final merge wrote "
                  + written[j]
                  + " bytes into a region of "
                  + room
                  + "; nothing was published");
        }
      }
      return new Merges.Output(v, cuts.outputStart[parts - 1] + written[parts - 1]);
    } finally {
      buffers.resetLent(); // the parts have joined and closed their pools
    }
  }

  /**
   * Where the parts of a final merge start: {@code ranks[j][i]} is part j's first entry of run i
   * ({@code ranks[parts]} the runs' ends), {@code outputStart[j]} its first output byte.
   */
  private static final class Cuts {
    final long[][] ranks;
    final long[] outputStart;

    Cuts(long[][] ranks, long[] outputStart) {
      this.ranks = ranks;
      this.outputStart = outputStart;
    }
  }

  private Cuts cuts(MergeInputs in, long total, int parts) throws IOException {
    int k = in.size();
    long[][] cuts = new long[parts + 1][];
    long[] starts = new long[parts];
    cuts[0] = new long[k];
    cuts[parts] = new long[k];
    for (int i = 0; i < k; i++) {
      cuts[parts][i] = in.descriptor(i).recordCount();
    }
    if (parts == 1) {
      return new Cuts(cuts, starts);
    }
    // Fixed records: parts start at whole pages of output, so that every part writes aligned.
    long q = entries.inPlace() ? Alignment.recordQuantum(plan.entryBytes()) : 1;
    try (Resources res = new Resources(buffers.meter());
        SplitSearches searches = new SplitSearches(threads, k)) {
      BlockPool pages = buffers.newPool(res, k, Alignment.BYTES);
      RunFileView[] views = new RunFileView[k];
      RunFileView.LastEntry last = new RunFileView.LastEntry();
      List<ByteBuffer> borrowed = new ArrayList<>();
      try {
        for (int i = 0; i < k; i++) {
          ByteBuffer page = pages.acquire();
          borrowed.add(page);
          views[i] = new RunFileView(in.file(i), in.descriptor(i), page, entries.tie(), last);
        }
        for (int j = 1; j < parts; j++) {
          long rank = (total / parts) * j + (total % parts) * j / parts;
          cuts[j] = MergeSplitter.cutsAtRank(views, rank / q * q, searches);
          long start = 0;
          for (int i = 0; i < k; i++) {
            start += views[i].recordBytesBefore(cuts[j][i]) + (long) entries.framing() * cuts[j][i];
          }
          starts[j] = start;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SortCancelledException("sort cancelled while splitting the merge");
      } catch (IllegalStateException e) { // the splitter's: runs out of order
        throw new SortValidationException(
            "splitting the final merge: " + e.getMessage() + "; nothing was published");
      } catch (RuntimeException e) {
        throw Failures.translate(e); // a view's read error comes as UncheckedIOException
      } finally {
        borrowed.forEach(pages::release);
      }
    }
    return new Cuts(cuts, starts);
  }
}

package dev.joule.io.merge;

import dev.joule.core.index.TieBreaker;
import dev.joule.core.merge.RunCursor;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.error.SortValidationException;
import dev.joule.io.fs.Failures;
import dev.joule.io.output.BatchWriter;
import dev.joule.io.prefetch.MergeInputs;
import dev.joule.io.prefetch.MergeSource;
import dev.joule.io.report.PrefetchReport;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;

/**
 * The one loop that moves entries in merge order out of a {@link MergeSource}: entry by entry into
 * a sink ({@link #entries}), or fixed records in batches gathered straight into an output's buffers
 * ({@link #batches}). Every {@value #ENTRIES_PER_CHECK} entries (every batch) it reports progress,
 * checks for an interrupt and asks whether its step was stopped; it adds each merge's prefetch
 * figures to the sort's when the merge ends.
 *
 * <p>Thread-safe: the merges of a pass and the parts of a final merge run it at once.
 */
final class MergeLoop {
  /**
   * Entries merged one by one between progress updates and cancellation checks: 16 Ki entries are
   * well under a millisecond of merge work.
   */
  static final int ENTRIES_PER_CHECK = 1 << 14;

  private final TieBreaker tie;
  private final SortThreads threads;
  private final MergeProgress progress;
  private PrefetchReport prefetch = PrefetchReport.NONE; // guarded by this

  MergeLoop(TieBreaker tie, SortThreads threads, MergeProgress progress) {
    this.tie = tie;
    this.threads = threads;
    this.progress = progress;
  }

  /** What the merge does with each entry, in merge order. */
  @FunctionalInterface
  interface EntrySink {
    void accept(RunCursor entry) throws IOException;
  }

  /**
   * Merges entries {@code [from[i], to[i])} of every input into {@code sink}, one by one, on this
   * thread, until done or {@code stopped} says so (then {@link SortCancelledException}).
   */
  void entries(
      MergeInputs in,
      long[] from,
      long[] to,
      BlockPool pool,
      EntrySink sink,
      BooleanSupplier stopped)
      throws IOException {
    try (MergeSource source = new MergeSource(in, from, to, pool, tie, threads)) {
      long left = source.records();
      long done = 0;
      while (left > 0) {
        if (!source.next()) {
          throw new SortValidationException("merge ran out of records: " + left + " expected");
        }
        RunCursor cur = source.current();
        sink.accept(cur);
        done += cur.recordLength();
        left--;
        if ((left & (ENTRIES_PER_CHECK - 1)) == 0) {
          progress.report(done);
          done = 0;
          Failures.checkCancelled();
          if (stopped.getAsBoolean()) {
            throw new SortCancelledException(
                "merge stopped: its pass was cancelled or another of its merges failed");
          }
        }
      }
      progress.add(done);
      countPrefetch(source);
    }
  }

  /**
   * Merges fixed records of {@code recordSize} bytes, {@code [from[i], to[i])} of every input, in
   * batches that {@code out} hands out inside its write buffers.
   */
  void batches(
      MergeInputs in, long[] from, long[] to, BlockPool pool, int recordSize, BatchWriter out)
      throws IOException {
    try (MergeSource source = new MergeSource(in, from, to, pool, tie, threads)) {
      long left = source.records();
      while (left > 0) {
        int n = (int) Math.min(out.batchRecords(), left);
        ByteBuffer b = out.batch(n);
        for (int at = 0, end = n * recordSize; at < end; at += recordSize) {
          if (!source.next()) {
            throw new SortValidationException("merge ran out of records: " + left + " expected");
          }
          RunCursor cur = source.current();
          b.put(at, cur.buffer(), cur.position(), recordSize);
        }
        out.commit(b);
        left -= n;
        progress.report((long) n * recordSize);
        Failures.checkCancelled();
      }
      countPrefetch(source);
    }
  }

  /** Adds a finished merge's prefetch figures to the phase's (merges and parts run at once). */
  private synchronized void countPrefetch(MergeSource source) {
    long[] t = source.prefetchStats();
    prefetch = prefetch.plus(new PrefetchReport(t[0], t[1], t[2], t[3]));
  }

  /** How the prefetch of every merge finished so far kept ahead of it. */
  synchronized PrefetchReport prefetch() {
    return prefetch;
  }
}

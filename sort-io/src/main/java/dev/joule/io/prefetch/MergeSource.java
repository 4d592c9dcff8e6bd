package dev.joule.io.prefetch;

import dev.joule.core.index.TieBreaker;
import dev.joule.core.merge.RunCursor;
import dev.joule.core.merge.TournamentTree;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.fs.Failures;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The records of one merge in merge order: for records {@code [from[i], to[i])} of each run of a
 * {@link MergeInputs}, a {@link PrefetchSchedule}, a {@link BlockPrefetcher} reading the blocks in
 * that order into the caller's pool, one {@link FileRunCursor} per run and a {@link TournamentTree}
 * over them. The file sort's merges (intermediate, and each part of the final one) and the
 * session's streaming merge all pull records from here.
 *
 * <p>Order: stable (key, then run index, then position; {@code core.merge.MergeOrder}). Failures
 * surface from {@link #next()} as the checked exceptions they are ({@link Failures#translate}): a
 * {@code SortIOException} or {@code CorruptRunException} from a block read, a {@code
 * SortCancelledException} on interrupt.
 *
 * <p>Memory: the caller's pool ({@code k + 1} buffers at least; {@code 2k} lets every run read one
 * block ahead). Threads: {@link #PREFETCH_THREADS} prefetch threads from the caller's {@link
 * SortThreads}; {@link #close()} joins them and gives every buffer back. Not thread-safe: one
 * merging thread.
 */
public final class MergeSource implements AutoCloseable {
  /**
   * Prefetch threads per temp device and merge part: two reads in flight on each. With one, a
   * block's read only began when the previous one ended, and the merge read 79 blocks itself (0.5 s
   * of a 2-part merge of 1 GB of lines, JFR). 1 GB of ASCII gensort as lines at -S 256M, 6
   * alternating rounds (2026-11-25, sort-bench/results/gnu-text.md run F): median wall 4.15 s with
   * one, 3.89 s with two, and the slowest run 4.67 s against 4.08.
   */
  public static final int PREFETCH_THREADS = 2;

  private final BlockPrefetcher prefetcher;
  private final FileRunCursor[] cursors;
  private final TournamentTree tree;
  private final long records;

  /**
   * Merges records {@code [from[i], to[i])} of every run {@code i} of {@code in}, prefetching on
   * threads of {@code threads}.
   */
  public MergeSource(
      MergeInputs in, long[] from, long[] to, BlockPool pool, TieBreaker tie, SortThreads threads)
      throws IOException {
    int k = in.size();
    int[] fromBlock = new int[k];
    int[] toBlock = new int[k];
    long n = 0;
    for (int i = 0; i < k; i++) {
      int[] r = FileRunCursor.blockRange(in.descriptors[i], from[i], to[i]);
      fromBlock[i] = r[0];
      toBlock[i] = r[1];
      n += to[i] - from[i];
    }
    this.records = n;
    PrefetchSchedule schedule = PrefetchSchedule.of(in.descriptors, fromBlock, toBlock);
    this.prefetcher =
        new BlockPrefetcher(
            in.readers, fromBlock, toBlock, schedule, pool, PREFETCH_THREADS, threads);
    this.cursors = new FileRunCursor[k];
    try {
      for (int i = 0; i < k; i++) {
        cursors[i] = new FileRunCursor(in.descriptors[i], prefetcher, i, from[i], to[i]);
      }
      this.tree = new TournamentTree(tie, cursors); // primes every cursor: reads first blocks
    } catch (Throwable e) {
      Failures.closeAllAfter(e, resources());
      throw Failures.translate(e);
    }
  }

  /** Merges every entry of every run of {@code in}, ties broken by {@code tie} (may be null). */
  public static MergeSource whole(
      MergeInputs in, BlockPool pool, TieBreaker tie, SortThreads threads) throws IOException {
    long[] from = new long[in.size()];
    long[] to = new long[in.size()];
    for (int i = 0; i < to.length; i++) {
      to[i] = in.descriptors[i].recordCount();
    }
    return new MergeSource(in, from, to, pool, tie, threads);
  }

  /** Records this merge yields in all. */
  public long records() {
    return records;
  }

  /** Moves to the next record in merge order; {@code false} after the last. */
  public boolean next() throws IOException {
    try {
      return tree.next();
    } catch (RuntimeException e) {
      throw Failures.translate(e);
    }
  }

  /** The cursor at the current record (valid until {@link #next()}). */
  public RunCursor current() {
    return tree.current();
  }

  /** The index (in {@link MergeInputs} order) of the run the current record comes from. */
  public int currentRun() {
    return tree.currentRun();
  }

  /**
   * What this merge asked of its prefetcher so far: {blocks taken, taken after waiting for a read
   * in flight, read by the merge itself, nanoseconds spent waiting}.
   */
  public long[] prefetchStats() {
    return prefetcher.takeStats();
  }

  /** Gives the cursors' blocks back, stops and joins the prefetch threads. Idempotent. */
  @Override
  public void close() throws IOException {
    Failures.closeAll(resources());
  }

  private List<AutoCloseable> resources() {
    List<AutoCloseable> all = new ArrayList<>();
    for (FileRunCursor c : cursors) {
      all.add(c);
    }
    all.add(prefetcher);
    return all;
  }
}

package dev.joule.core.radix;

import dev.joule.core.index.RecordIndex;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Parallel, stable MSD radix sort of a {@link RecordIndex} by full record key.
 *
 * <p><b>Algorithm</b>: most-significant-byte-first counting sort, one key byte per level, ping-pong
 * between the index's two banks (out of place, hence stable). Key bytes 0..7 come from the key
 * word, bytes 8..9 from the ref word's tie bits. When the entries of a bucket agree on all ten, the
 * bucket's words are reloaded from the arena with the next ten key bytes (from where the keys first
 * differ, if they agree on those too), and the levels and insertion sorts go on on the words: one
 * random arena read per entry and ten bytes instead of one per byte level and per comparison; the
 * original words are put back when the bucket is sorted. Bytes that never vary are skipped without
 * moving data: a branch-free OR-of-XOR pass finds the bytes all entries of a bucket share, and a
 * histogram with a single non-empty bucket skips its byte. Mid-sized buckets ({@code
 * RadixJob.WIDE_MIN..WIDE_MAX} entries) take one 12-bit digit instead of 8 bits, which leaves about
 * one entry per bucket; if their next byte takes only 2..4 values (a few skewed prefixes), the
 * digit is that byte's rank plus 12 bits of the following byte, in one pass. Buckets of at most
 * {@link #DEFAULT_INSERTION_THRESHOLD} entries are finished by a stable insertion sort on the full
 * key (words, then the key bytes in the arena after them); when every bucket of a pass is that
 * small, one insertion pass over the whole range replaces the per-bucket loop. Parallelism: a run
 * of at least {@link #PARALLEL_SCATTER_THRESHOLD} entries gets its first level histogrammed and
 * scattered by all workers on disjoint chunks (per-chunk bucket offsets keep it stable); every
 * bucket of at least {@link #FORK_THRESHOLD} entries, at any depth, becomes its own ForkJoin task,
 * and small neighbouring buckets are grouped into tasks of about that size, so a bucket holding 25
 * % of a skewed input is split again at its next varying byte and stolen.
 *
 * <p><b>Stability</b>: equal keys keep their input order; the output does not depend on the thread
 * count. <b>Memory</b>: the index's alternate bank plus, per worker, a {@code RadixScratch} of
 * {@link #MAX_LEVELS} 256-int histograms and one wide histogram (~130 KiB), allocated at
 * construction; the sort allocates only ForkJoin task objects (one per forked bucket or group, at
 * most n / {@link #FORK_THRESHOLD} + 256 per level, and one per forked bucket that reloads its
 * words) and one job object per call. Beyond {@code MAX_LEVELS} scatter levels on one path (only
 * possible with keys over 64 bytes that differ in one record per level) a bucket falls back to a
 * stable merge sort.
 *
 * <p><b>Threads and ownership</b>: either owns a {@link ForkJoinPool} of {@code threads} daemon
 * workers named {@code joule-radix-N}, which {@link #close()} shuts down, or borrows a caller's
 * pool ({@link #RadixRunSorter(ForkJoinPool, int)}), which it never shuts down: a platform that
 * runs its compute work on its own pool keeps that pool across sorts. {@code threads} is the
 * parallelism the sort plans for (chunks of the parallel first level, scratch buffers); a borrowed
 * pool's own parallelism decides how many workers run those tasks. With one thread, or a run
 * shorter than {@code PARALLEL_SCATTER_THRESHOLD}, the caller's thread sorts alone. One sort at a
 * time.
 */
public final class RadixRunSorter implements RunSorter {
  /**
   * Buckets up to this size are finished by insertion sort. {@code RadixRunSorterBenchmark -p
   * smallBucket=8,16,32,64} (1e6 gensort records, sort-bench/results/radix.md): flat from 16 to 64
   * within noise, 8 slower on skew; before the 12-bit digit existed, 8 cost 31 ms against 23 at 32.
   */
  public static final int DEFAULT_INSERTION_THRESHOLD = 32;

  /**
   * Buckets at least this large become their own task, and small neighbours are grouped up to it.
   * Chosen, not tuned: 8192 entries are 128 KiB of index and tens of µs of work, well above a
   * fork's cost, while 1e6 entries still give over 100 tasks to balance two to four workers.
   */
  static final int FORK_THRESHOLD = 1 << 13;

  /**
   * Runs at least this large scatter their first level in parallel chunks (smaller runs are sorted
   * by the caller's thread alone). Chosen, not tuned: 8 fork-sized buckets.
   */
  static final int PARALLEL_SCATTER_THRESHOLD = 1 << 16;

  /** Scatter levels with their own histogram on one recursion path. */
  static final int MAX_LEVELS = 64;

  private static final AtomicInteger POOL_IDS = new AtomicInteger();

  private final int threads;
  private final int insertionThreshold;
  private final ForkJoinPool pool;
  private final boolean ownsPool;
  private final ArrayBlockingQueue<RadixScratch> scratch;
  private final RadixScratch callerScratch = new RadixScratch(MAX_LEVELS);
  private final int[][] chunkCounts;
  private volatile boolean closed;

  /** A sorter with {@code threads} workers and the default insertion threshold. */
  public RadixRunSorter(int threads) {
    this(threads, DEFAULT_INSERTION_THRESHOLD);
  }

  /** A sorter with an explicit insertion-sort threshold (for the threshold benchmark). */
  public RadixRunSorter(int threads, int insertionThreshold) {
    this(null, threads, insertionThreshold);
  }

  /**
   * A sorter planning for {@code threads} workers whose tasks run on the caller's {@code pool},
   * which it borrows: {@link #close()} leaves it running.
   *
   * @throws RejectedExecutionException if {@code pool} is shut down
   */
  public RadixRunSorter(ForkJoinPool pool, int threads) {
    this(Objects.requireNonNull(pool, "pool"), threads, DEFAULT_INSERTION_THRESHOLD);
  }

  private RadixRunSorter(ForkJoinPool borrowed, int threads, int insertionThreshold) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads " + threads + " must be at least 1");
    }
    if (insertionThreshold < 1) {
      throw new IllegalArgumentException("insertion threshold must be at least 1");
    }
    this.threads = threads;
    this.insertionThreshold = insertionThreshold;
    this.ownsPool = borrowed == null;
    if (borrowed != null) {
      checkOpen(borrowed);
      this.pool = borrowed;
    } else {
      int poolId = POOL_IDS.incrementAndGet();
      AtomicInteger workerIds = new AtomicInteger();
      this.pool =
          new ForkJoinPool(
              threads,
              p -> {
                ForkJoinWorkerThread t =
                    ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(p);
                t.setName(
                    "joule-radix-"
                        + (poolId > 1 ? poolId + "-" : "")
                        + workerIds.getAndIncrement());
                return t;
              },
              null,
              false);
    }
    this.scratch = new ArrayBlockingQueue<>(threads + 2);
    for (int i = 0; i <= threads; i++) {
      scratch.add(new RadixScratch(MAX_LEVELS));
    }
    this.chunkCounts = new int[chunks() + 1][RadixJob.BUCKETS_WITH_END]; // last row: ends
  }

  /** Worker threads. */
  public int threads() {
    return threads;
  }

  /**
   * The worker pool, which a {@code RecordGatherer} may borrow: this sorter's own (closed with it),
   * or the one it borrows.
   */
  public ForkJoinPool pool() {
    return pool;
  }

  /** Whether the pool is this sorter's own (shut down by {@link #close()}). */
  public boolean ownsPool() {
    return ownsPool;
  }

  private static void checkOpen(ForkJoinPool pool) {
    if (pool.isShutdown()) {
      throw new RejectedExecutionException(
          "the ForkJoinPool lent to the radix sorter is shut down");
    }
  }

  int chunks() {
    return threads == 1 ? 1 : 4 * threads;
  }

  @Override
  public void sort(RecordIndex index, int from, int to) {
    if (closed) {
      throw new IllegalStateException("RadixRunSorter is closed");
    }
    if (!ownsPool) {
      checkOpen(pool); // also on the sequential path: a sort fails the same way at any size
    }
    if (from < 0 || to > index.size() || from > to) {
      throw new IndexOutOfBoundsException("[" + from + ", " + to + ") of " + index.size());
    }
    if (to - from < 2) {
      return;
    }
    RadixJob job = new RadixJob(this, index, insertionThreshold);
    if (threads == 1 || to - from < PARALLEL_SCATTER_THRESHOLD) {
      job.sortSequential(callerScratch, from, to);
    } else {
      pool.invoke(new RadixTasks.Root(job, from, to, chunkCounts));
    }
  }

  RadixScratch acquire() {
    RadixScratch s = scratch.poll();
    // more live workers than scratches only when ForkJoin adds compensation threads
    return s != null ? s : new RadixScratch(MAX_LEVELS);
  }

  void release(RadixScratch s) {
    scratch.offer(s);
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (!ownsPool) {
      return; // borrowed: its owner shuts it down; every task of ours was joined by sort()
    }
    pool.shutdown();
    try {
      pool.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "radix(threads=" + threads + (ownsPool ? ")" : ", borrowed pool)");
  }
}

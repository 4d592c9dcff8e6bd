package dev.joule.io.prefetch;

import dev.joule.core.merge.MergeSplitter;
import dev.joule.io.block.SortThreads;
import dev.joule.io.error.SortCancelledException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;

/**
 * Runs the per-run binary searches of a merge split ({@link MergeSplitter}) on a few threads at
 * once, so that the 4 KiB page reads of the {@link RunFileView}s are in flight together instead of
 * one after another. The split of a 2-part final merge of 1 GB in 15 runs (its 529 pages) took
 * 76-92 ms with the searches one at a time and 43-52 ms at once (3 sorts each; docs/decisions/D16);
 * the merge cannot start before it ends.
 *
 * <p>A round returns only when every search of it has returned, also when one fails or the caller
 * is interrupted (the searches use the views' page buffers, which the caller releases next); the
 * workers themselves are never interrupted, since an interrupt closes the {@code FileChannel} a
 * search is reading, which the merge uses next. Owned by one caller thread; {@link #close()} joins
 * the workers.
 */
public final class SplitSearches implements MergeSplitter.RunSearches, AutoCloseable {
  /**
   * Searches at once at most: reads in flight against the temp devices. These threads wait on page
   * reads, like the prefetch threads, so their number does not follow the sort's thread count. With
   * the middle pivots of the earlier split, 8 took it from 166-245 ms to 96-118 ms and 16 gave the
   * same (109-125 ms).
   */
  public static final int MAX_THREADS = 8;

  private final ExecutorService pool;
  private final List<Thread> workers = new ArrayList<>(); // guarded by itself

  /** Up to {@code min(runs, MAX_THREADS)} workers from {@code threads}, made as needed. */
  public SplitSearches(SortThreads threads, int runs) {
    int n = Math.max(1, Math.min(runs, MAX_THREADS));
    this.pool =
        new ThreadPoolExecutor(
            n,
            n,
            0,
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = threads.newThread("split", r);
              synchronized (workers) {
                workers.add(t);
              }
              return t;
            });
  }

  @Override
  public void forEachRun(int runs, IntConsumer search) {
    AtomicBoolean stop = new AtomicBoolean();
    List<Future<?>> started = new ArrayList<>(runs);
    Throwable failure = null;
    try {
      for (int i = 0; i < runs; i++) {
        int run = i;
        started.add(
            pool.submit(
                () -> {
                  if (!stop.get()) {
                    search.accept(run);
                  }
                }));
      }
    } catch (RuntimeException | Error e) { // no thread for a search: wait for those submitted
      stop.set(true);
      failure = e;
    }
    boolean interrupted = false;
    for (Future<?> f : started) {
      while (true) {
        try {
          f.get();
          break;
        } catch (InterruptedException e) {
          interrupted = true; // the searches still running must return first
          stop.set(true);
        } catch (ExecutionException e) {
          stop.set(true);
          if (failure == null) {
            failure = e.getCause();
          } else if (failure != e.getCause()) {
            failure.addSuppressed(e.getCause());
          }
          break;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
      if (failure == null) {
        throw new UncheckedIOException(
            new SortCancelledException("sort cancelled while splitting the merge"));
      }
    }
    if (failure instanceof RuntimeException r) {
      throw r;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    if (failure != null) {
      throw new IllegalStateException("a split search failed", failure);
    }
  }

  /** Ends the workers and joins them (they have no work left once a round has returned). */
  @Override
  public void close() {
    pool.shutdown();
    List<Thread> made;
    synchronized (workers) {
      made = new ArrayList<>(workers);
    }
    // The pool reports termination before its threads have ended: join the threads themselves.
    SortThreads.joinUninterruptibly(made);
  }
}

package dev.joule.io.block;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One dedicated thread of {@link SortThreads} that runs submitted tasks one after the other, in
 * submission order: the run writer and the parser, each of which works on one chunk while the
 * caller's thread sorts the next.
 *
 * <p>Not an {@code ExecutorService}: a single-thread executor whose factory returns null queues the
 * task anyway and never runs it, so its future never completes, and its {@code awaitTermination}
 * can return while the worker thread is still alive. Here the thread is made (or refused, with the
 * factory's {@link java.util.concurrent.RejectedExecutionException}) when the worker is created,
 * and {@link #close()} joins it.
 *
 * <p>Thread-safety: one owner thread submits and closes.
 */
public final class WorkerThread implements AutoCloseable {
  private static final FutureTask<Void> STOP = new FutureTask<>(() -> null);

  private final BlockingQueue<FutureTask<?>> queue = new LinkedBlockingQueue<>();
  private final Thread thread;
  private boolean closed;

  /**
   * Starts the thread, in {@code role} (see {@link SortThreads#newThread}).
   *
   * @throws java.util.concurrent.RejectedExecutionException if {@code threads} has none to give
   */
  public WorkerThread(SortThreads threads, String role) {
    this.thread = threads.start(role, this::run);
  }

  @SuppressWarnings("ReferenceEquality") // STOP is a sentinel: identity is the point
  private void run() {
    while (true) {
      FutureTask<?> task;
      try {
        task = queue.take();
      } catch (InterruptedException e) {
        return; // nobody interrupts this thread; if someone does, close() still joins it
      }
      if (task == STOP) {
        return;
      }
      task.run(); // keeps the task's exception in its future
    }
  }

  /** Queues {@code task}; its result or failure comes from the returned future. */
  public <T> Future<T> submit(Callable<T> task) {
    if (closed) {
      throw new IllegalStateException("worker is closed");
    }
    FutureTask<T> f = new FutureTask<>(task);
    queue.add(f);
    return f;
  }

  /**
   * Cancels the tasks not started yet, lets the one in progress finish (it may be reading memory
   * its owner frees next: it is not interrupted) and joins the thread; waits through interrupts and
   * sets the flag again afterwards. Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    List<FutureTask<?>> pending = new ArrayList<>();
    queue.drainTo(pending);
    for (FutureTask<?> f : pending) {
      f.cancel(false);
    }
    queue.add(STOP);
    SortThreads.joinUninterruptibly(List.of(thread));
  }
}

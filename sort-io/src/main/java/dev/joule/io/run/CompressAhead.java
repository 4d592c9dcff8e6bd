package dev.joule.io.run;

import dev.joule.io.block.SortThreads;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * A run writer's second core: while the writer lays out block k+1 of a run from memory, this
 * compresses block k on a thread of its own ({@code joule-compress-N}). Blocks are stored back to
 * back, so block k+1's place in the file is known only once block k is compressed: the writer lays
 * out each block in a scratch buffer instead of the write-behind buffer, hands it here, and appends
 * it (compressed or raw) when the next one is sealed.
 *
 * <p>Why: zstd level 1 compresses 350–400 MB a CPU-second here, and on one thread it bounded the
 * run formation of 1 GB of text lines at 4.2 s while the other core idled (sort-bench/README.md
 * "Run compression"). Only runs written from memory use it (run formation and a session's spills):
 * a merge's writer waits for reads that may need the very scratch buffers this holds.
 *
 * <p>One block at a time: {@link #submit} after {@link #await} of the one before. Thread-safe
 * between the writer and the compressing thread; one writer.
 */
final class CompressAhead implements AutoCloseable {
  /**
   * Scratch buffers a writer holds while it compresses ahead: its block, the one compressed, and
   * the codec's output.
   */
  static final int BUFFERS = 3;

  private final BlockCodec codec;
  private final Thread thread;
  private ByteBuffer src; // guarded by this: the task
  private int used; // guarded by this
  private ByteBuffer dst; // guarded by this
  private int room; // guarded by this
  private boolean submitted; // guarded by this: a task not yet taken back by await
  private boolean done; // guarded by this: its result is ready
  private int result; // guarded by this
  private long cpuNanos; // guarded by this
  private Throwable failure; // guarded by this
  private boolean closed; // guarded by this

  /**
   * Starts the compressing thread for {@code codec} on {@code threads}.
   *
   * @throws java.util.concurrent.RejectedExecutionException if {@code threads} has none to give
   */
  CompressAhead(BlockCodec codec, SortThreads threads) {
    this.codec = codec;
    this.thread = threads.newThread("compress", this::run);
    SortThreads.startAll(List.of(thread), this::stop);
  }

  /**
   * Compresses {@code [0, used)} of {@code src} into {@code [0, room)} of {@code dst} on the
   * compressing thread; both buffers stay the caller's, untouched by it until {@link #await}.
   */
  synchronized void submit(ByteBuffer src, int used, ByteBuffer dst, int room) {
    if (submitted || closed) {
      throw new IllegalStateException("a block is already being compressed, or this is closed");
    }
    this.src = src;
    this.used = used;
    this.dst = dst;
    this.room = room;
    submitted = true;
    done = false;
    notifyAll();
  }

  /** Whether a block was submitted and not yet taken back by {@link #await}. */
  synchronized boolean busy() {
    return submitted;
  }

  /**
   * Waits for the block submitted last: its compressed length, or -1 if it did not fit in its room.
   *
   * @throws IOException if the codec failed (its exception as the cause)
   * @throws InterruptedIOException if interrupted while waiting (the block is still being
   *     compressed: {@link #close} waits for it)
   */
  synchronized int await() throws IOException {
    while (!done) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while a run block was compressed");
      }
    }
    submitted = false;
    src = null;
    dst = null;
    Throwable f = failure;
    failure = null;
    if (f instanceof RuntimeException re) {
      throw re;
    }
    if (f instanceof Error err) {
      throw err;
    }
    if (f != null) {
      throw new IOException("compressing a run block failed: " + f, f);
    }
    return result;
  }

  /** The compressing thread's CPU time for the block {@link #await} returned. */
  synchronized long cpuNanos() {
    return cpuNanos;
  }

  private void run() {
    while (true) {
      ByteBuffer s;
      ByteBuffer d;
      int u;
      int r;
      synchronized (this) {
        while (!closed && (!submitted || done)) {
          try {
            wait();
          } catch (InterruptedException e) {
            closed = true; // the sort is being torn down
          }
        }
        if (!submitted || done) {
          return; // closed, nothing left to compress
        }
        s = src;
        d = dst;
        u = used;
        r = room;
      }
      long t0 = RunCompression.threadCpuNanos();
      int c = -1;
      Throwable f = null;
      try {
        c = codec.compress(s, u, d, r);
      } catch (Throwable e) { // handed to the writer, never lost
        f = e;
      }
      long cpu = RunCompression.threadCpuNanos() - t0;
      synchronized (this) {
        result = c;
        cpuNanos = cpu;
        failure = f;
        done = true;
        notifyAll();
      }
    }
  }

  private synchronized void stop() {
    closed = true;
    notifyAll();
  }

  /**
   * Ends the compressing thread once the block it may be compressing is done (its buffers may be
   * freed after this returns). Idempotent.
   */
  @Override
  public void close() {
    stop();
    SortThreads.joinUninterruptibly(List.of(thread));
  }
}

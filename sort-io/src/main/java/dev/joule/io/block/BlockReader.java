package dev.joule.io.block;

import dev.joule.core.memory.Alignment;
import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Sequential read-ahead over a range of a {@link BlockFile}: the caller hands in empty buffers with
 * {@link #submit(ByteBuffer)} and takes them back filled, in the same order, with {@link #take()}.
 * The buffers are the caller's (a window of a record arena, or a {@link BlockPool} buffer), so
 * bytes land straight where the caller wants them, with no intermediate copy.
 *
 * <p>Algorithm: one thread ({@code joule-read-N}, or the caller's from {@link SortThreads}) fills
 * submitted buffers from consecutive file offsets, each in transfers of at most the configured
 * transfer size. Memory bound: none of its own; at most {@code maxInFlight} caller buffers are
 * held. An error on the thread is delivered, as a {@link SortIOException} naming op and path, by
 * the caller's next {@code take()} or {@code submit()} — never lost — and the thread stops.
 *
 * <p>Thread-safety: one consumer thread calls submit/take/close; the reader does not close the
 * {@link BlockFile} (the caller owns it).
 */
public final class BlockReader implements AutoCloseable {
  private static final ByteBuffer POISON = ByteBuffer.allocate(0);

  private final BlockFile file;
  private final long end;
  private final int transfer;
  private final int maxInFlight;
  private final BlockingQueue<ByteBuffer> submitted;
  private final BlockingQueue<ByteBuffer> filled;
  private final Thread thread;
  private volatile IOException failure;
  private volatile boolean closed;
  private long nextOffset;
  private long takeOffset; // where the next buffer take() returns starts: for the wait's device
  private int outstanding;

  /**
   * Starts reading {@code [start, end)} of {@code file}; {@code start} should be a multiple of
   * {@link BlockFile#ALIGNMENT} for direct reads, and so should each submitted buffer's remaining
   * length (except where the range ends).
   *
   * @param maxInFlight how many buffers may be submitted and not yet taken back
   * @param threads where the read-ahead thread comes from
   * @throws java.util.concurrent.RejectedExecutionException if {@code threads} has none to give
   */
  public BlockReader(
      BlockFile file,
      long start,
      long end,
      int transferSize,
      int maxInFlight,
      SortThreads threads) {
    if (transferSize <= 0 || transferSize % Alignment.BYTES != 0) {
      throw new IllegalArgumentException(
          "transfer size must be a positive multiple of 4096: " + transferSize);
    }
    if (maxInFlight < 1) {
      throw new IllegalArgumentException("maxInFlight must be at least 1: " + maxInFlight);
    }
    this.file = file;
    this.end = end;
    this.transfer = transferSize;
    this.maxInFlight = maxInFlight;
    this.nextOffset = start;
    this.takeOffset = start;
    this.submitted = new ArrayBlockingQueue<>(maxInFlight + 1);
    this.filled = new ArrayBlockingQueue<>(maxInFlight + 1);
    this.thread = threads.start("read", this::run);
  }

  /**
   * Passes ownership of {@code dst} to the reader, which will fill its remaining space with the
   * next bytes of the range (fewer at the end of the range).
   *
   * @throws SortIOException if the background thread has failed
   * @throws IllegalStateException if more than {@code maxInFlight} buffers would be in flight
   */
  public void submit(ByteBuffer dst) throws IOException {
    rethrow();
    if (closed) {
      throw new IllegalStateException("reader is closed");
    }
    if (outstanding >= maxInFlight) {
      throw new IllegalStateException("more than " + maxInFlight + " buffers in flight");
    }
    submitted.add(dst); // capacity maxInFlight + 1: always room, the extra slot is for close()
    outstanding++;
  }

  /**
   * Caller owns the returned buffer again: the oldest submitted one, with position at its old
   * position and limit after the bytes read. A buffer with fewer bytes than it had room for means
   * the range has ended; later buffers come back empty.
   *
   * @throws SortIOException the first error of the background thread, naming op and path
   * @throws IllegalStateException if no buffer is in flight
   */
  @SuppressWarnings("ReferenceEquality") // POISON is a sentinel: identity is the point
  public ByteBuffer take() throws IOException {
    if (outstanding == 0) {
      throw new IllegalStateException("no buffer submitted");
    }
    ByteBuffer b;
    long waitedSince = System.nanoTime();
    try {
      b = filled.take();
      // The input's share of the timeline's "waited for the device": run formation and the
      // one-pass sort stall here when the disk is slower than indexing and sorting.
      file.parts().meterAt(takeOffset).waited(System.nanoTime() - waitedSince);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for a read of " + file.path());
    }
    if (b == POISON) {
      filled.offer(POISON); // keep failing on every later call
      rethrow();
    }
    outstanding--;
    takeOffset += b.remaining();
    return b;
  }

  private void rethrow() throws IOException {
    IOException f = failure;
    if (f != null) {
      throw f;
    }
  }

  @SuppressWarnings("ReferenceEquality") // POISON is a sentinel: identity is the point
  private void run() {
    try {
      while (true) {
        ByteBuffer b = submitted.take();
        if (b == POISON) {
          return;
        }
        int start = b.position();
        long remainingRange = end - nextOffset;
        if (remainingRange < b.remaining()) {
          b.limit(start + (int) Math.max(0, remainingRange));
        }
        int limit = b.limit();
        while (b.position() < limit) {
          b.limit(Math.min(limit, b.position() + transfer));
          int n = file.read(nextOffset, b);
          nextOffset += n;
          b.limit(limit);
          if (n == 0) {
            break; // the file is shorter than the range: the caller sees a short buffer
          }
        }
        b.limit(b.position()).position(start);
        filled.put(b);
      }
    } catch (InterruptedException e) {
      Thread.currentThread()
          .interrupt(); // nobody interrupts this thread; keep the flag if someone does
    } catch (IOException e) {
      failure = e;
      filled.offer(POISON);
    } catch (RuntimeException | Error e) {
      failure = new SortIOException("read", file.path(), "read-ahead thread failed: " + e, e);
      filled.offer(POISON);
    }
  }

  /**
   * Stops the thread after its current transfer and waits for it; buffers still in flight are
   * dropped (the caller owns them). The thread is not interrupted: an interrupt during a
   * FileChannel read would close the channel, which other readers of the file may share. An
   * interrupt of the caller does not cut the wait short (the thread may still be writing into a
   * buffer its owner is about to free); it is reported once the thread has ended.
   */
  @Override
  public void close() throws InterruptedIOException {
    if (closed) {
      return;
    }
    closed = true;
    submitted.clear();
    submitted.offer(POISON);
    SortThreads.joinUninterruptibly(List.of(thread));
    if (Thread.currentThread().isInterrupted()) {
      throw new InterruptedIOException("interrupted while stopping the reader of " + file.path());
    }
  }
}

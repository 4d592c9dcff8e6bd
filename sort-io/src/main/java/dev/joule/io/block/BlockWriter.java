package dev.joule.io.block;

import dev.joule.core.memory.Alignment;
import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Sequential write-behind into a {@link BlockFile} from the buffers of a {@link BlockPool}: the
 * caller copies bytes in with {@link #write(ByteBuffer)} or lays them out in place with {@link
 * #reserve(int)}; each full buffer is queued, with its file offset, to a thread ({@code
 * joule-write-N}, or the caller's from {@link SortThreads}) that writes it there and returns it to
 * the pool. A writer of a block-striped file has a queue and a thread per segment (device), so that
 * consecutive buffers, which go to different devices, are written at the same time, and each device
 * has one write in flight at a time: its {@link DeviceMeter} then times the device, not a queue.
 *
 * <p>Algorithm: buffers are queued in stream order, each with its offset, so the file is filled
 * contiguously and every buffer but the last is a whole multiple of 4096 bytes at an aligned offset
 * (DIRECT-eligible); the last one's unaligned tail goes through the buffered channel ({@link
 * BlockFile#write}). {@link #finish(boolean)} drains the queue, truncates to the exact length and
 * optionally forces.
 *
 * <p>Memory bound: at most {@code maxInFlight} pool buffers queued or being written, plus the one
 * being filled. Errors of the thread surface as {@link SortIOException} on the caller's next call,
 * never lost. Thread-safety: one producer thread; the writer does not close the file.
 */
public final class BlockWriter implements AutoCloseable {
  private static final Pending POISON = new Pending(ByteBuffer.allocate(0), 0);

  /** Shorter waits for a buffer are the hand-off itself, not a device holding the writer up. */
  private static final long WAIT_NOTICED_NANOS = 50_000;

  /** A buffer to write and where. */
  private static final class Pending {
    final ByteBuffer buffer;
    final long offset;

    Pending(ByteBuffer buffer, long offset) {
      this.buffer = buffer;
      this.offset = offset;
    }
  }

  private final BlockFile file;
  private final BlockPool pool;
  private final List<BlockingQueue<Pending>> queues; // one per segment, or one in all
  private final List<Thread> writers;
  private final Object drained = new Object();
  private volatile int lastFreedBy; // the segment whose write last returned a buffer
  private volatile IOException failure;
  private ByteBuffer current;
  private int queued; // guarded by drained
  private long written; // bytes handed to the thread
  private long lastQueuedAt = -1; // file offset of the last buffer queued, -1 before any
  private final long startOffset; // where this writer's stream starts in the file
  private boolean finished;
  private boolean closed;

  /**
   * Writes from offset 0 of {@code file}, using buffers of {@code pool}, on a thread of {@code
   * threads}.
   *
   * @throws java.util.concurrent.RejectedExecutionException if {@code threads} has none to give
   */
  public BlockWriter(BlockFile file, BlockPool pool, int maxInFlight, SortThreads threads) {
    this(file, pool, maxInFlight, 0, 1, threads);
  }

  /**
   * Writes from offset 0 of {@code file}; with {@code perSegment}, on one thread of {@code threads}
   * per segment of the file, each buffer queued to the segment its first byte lives in, with up to
   * {@code maxInFlight} buffers queued or being written in all (at least one per segment to keep
   * every device busy).
   *
   * @throws java.util.concurrent.RejectedExecutionException if {@code threads} has none to give
   *     (then none was started)
   */
  public BlockWriter(
      BlockFile file, BlockPool pool, int maxInFlight, boolean perSegment, SortThreads threads) {
    this(file, pool, maxInFlight, 0, perSegment ? file.parts().segments() : 1, threads);
  }

  /**
   * Writes from {@code startOffset} of {@code file}: a <em>region</em> writer, several of which
   * fill disjoint regions of one file concurrently (the parallel merge). {@code startOffset} should
   * be a multiple of 4096 so that the region's transfers stay DIRECT-eligible. Finish a region
   * writer with {@link #finishRegion()}, which neither truncates nor forces the shared file.
   *
   * @throws java.util.concurrent.RejectedExecutionException if {@code threads} has none to give
   */
  public BlockWriter(
      BlockFile file, BlockPool pool, int maxInFlight, long startOffset, SortThreads threads) {
    this(file, pool, maxInFlight, startOffset, 1, threads);
  }

  private BlockWriter(
      BlockFile file,
      BlockPool pool,
      int maxInFlight,
      long startOffset,
      int writeThreads,
      SortThreads threads) {
    if (startOffset < 0) {
      throw new IllegalArgumentException("start offset " + startOffset + " is negative");
    }
    this.startOffset = startOffset;
    if (maxInFlight < 1 || writeThreads < 1) {
      throw new IllegalArgumentException(
          "maxInFlight and writeThreads must be at least 1: " + maxInFlight + ", " + writeThreads);
    }
    this.file = file;
    this.pool = pool;
    List<BlockingQueue<Pending>> qs = new ArrayList<>(writeThreads);
    List<Thread> made = new ArrayList<>(writeThreads);
    for (int i = 0; i < writeThreads; i++) {
      BlockingQueue<Pending> q = new ArrayBlockingQueue<>(maxInFlight + 1); // + 1: the poison
      qs.add(q);
      int segment = i;
      made.add(threads.newThread("write", () -> run(q, segment)));
    }
    this.queues = List.copyOf(qs);
    this.writers = List.copyOf(made);
    SortThreads.startAll(writers, this::poisonAll);
  }

  /** Bytes accepted so far (written or still buffered). */
  public long position() {
    return written + (current == null ? 0 : current.position());
  }

  /** Copies all of {@code src} into the stream ({@code src}'s position advances to its limit). */
  public void write(ByteBuffer src) throws IOException {
    checkUsable();
    while (src.hasRemaining()) {
      ByteBuffer cur = current();
      if (!cur.hasRemaining()) {
        submitCurrent(); // lazily, so that retract() can always reach the last reservation
        cur = current();
      }
      int n = Math.min(cur.remaining(), src.remaining());
      int lim = src.limit();
      src.limit(src.position() + n);
      cur.put(src);
      src.limit(lim);
    }
  }

  /**
   * Appends {@code length} bytes at absolute index {@code start} of {@code src} (its position and
   * limit unchanged): the per-record path of variable-length output, one bulk copy when the bytes
   * fit the current buffer.
   */
  public void put(ByteBuffer src, int start, int length) throws IOException {
    ByteBuffer cur = current();
    int room = cur.remaining();
    if (length <= room) {
      cur.put(cur.position(), src, start, length);
      cur.position(cur.position() + length);
      return;
    }
    checkUsable();
    int done = 0;
    while (done < length) {
      cur = current();
      if (!cur.hasRemaining()) {
        submitCurrent();
        cur = current();
      }
      int n = Math.min(cur.remaining(), length - done);
      cur.put(cur.position(), src, start + done, n);
      cur.position(cur.position() + n);
      done += n;
    }
  }

  /** Appends one byte. */
  public void put(byte b) throws IOException {
    ByteBuffer cur = current();
    if (!cur.hasRemaining()) {
      checkUsable();
      submitCurrent();
      cur = current();
    }
    cur.put(b);
  }

  /** Appends a big-endian int. */
  public void putInt(int v) throws IOException {
    ByteBuffer cur = current();
    if (cur.remaining() >= 4) {
      cur.putInt(cur.position(), v);
      cur.position(cur.position() + 4);
      return;
    }
    for (int shift = 24; shift >= 0; shift -= 8) {
      put((byte) (v >>> shift));
    }
  }

  /**
   * Returns the next {@code n} bytes of the stream as a slice of the current pool buffer for the
   * caller to fill in place (no copy); the bytes count as written. Requires {@code n} to be at most
   * the pool's buffer size and the stream position to be a multiple of 4096, so that a buffer
   * submitted early (because {@code n} did not fit) still ends on an aligned boundary.
   */
  public ByteBuffer reserve(int n) throws IOException {
    checkUsable();
    if (n > pool.bufferSize()) {
      throw new IllegalArgumentException(
          "cannot reserve " + n + " bytes in buffers of " + pool.bufferSize());
    }
    ByteBuffer cur = current();
    if (cur.remaining() < n) {
      if (cur.position() % Alignment.BYTES != 0) {
        throw new IllegalStateException("reserve at unaligned stream position " + position());
      }
      submitCurrent();
      cur = current();
    }
    ByteBuffer slice = cur.slice(cur.position(), n);
    cur.position(cur.position() + n);
    return slice;
  }

  /**
   * Takes back the last {@code n} bytes of the most recent {@link #reserve(int)} (for a block that
   * turned out shorter than reserved). Nothing may have been written or reserved since.
   */
  public void retract(int n) {
    if (current == null || n < 0 || n > current.position()) {
      throw new IllegalStateException("nothing to retract");
    }
    current.position(current.position() - n);
  }

  private ByteBuffer current() throws IOException {
    if (current == null) {
      try {
        long since = System.nanoTime();
        current = pool.acquire();
        long waited = System.nanoTime() - since;
        if (waited > WAIT_NOTICED_NANOS) {
          // Every buffer was in flight: the caller waited for a device, the one whose write had
          // just ended and freed the buffer ("time waited for it" in the timeline).
          file.parts().meter(lastFreedBy).writeWaited(waited);
        }
        // A region that starts mid-page: the first buffer ends at the next page boundary, so that
        // every later transfer is aligned (DIRECT-eligible).
        int misaligned = (int) ((startOffset + written) % Alignment.BYTES);
        if (misaligned != 0 && current.capacity() > Alignment.BYTES) {
          current.limit(current.capacity() - misaligned);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException(
            "interrupted while waiting for a buffer to write " + file.path());
      }
      rethrow();
    }
    return current;
  }

  private void submitCurrent() throws IOException {
    ByteBuffer b = current;
    current = null;
    b.flip();
    Pending p = new Pending(b, startOffset + written);
    lastQueuedAt = p.offset;
    written += b.remaining();
    synchronized (drained) {
      queued++;
    }
    try {
      queues.get(queues.size() == 1 ? 0 : file.segmentAt(p.offset)).put(p);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      pool.release(b);
      synchronized (drained) {
        queued--; // never queued: close() must not wait for it
        drained.notifyAll();
      }
      throw new InterruptedIOException("interrupted while queueing a write of " + file.path());
    }
    rethrow();
  }

  private void checkUsable() throws IOException {
    rethrow();
    if (finished || closed) {
      throw new IllegalStateException("writer of " + file.path() + " is finished");
    }
  }

  private void rethrow() throws IOException {
    IOException f = failure;
    if (f != null) {
      throw f;
    }
  }

  private void poisonAll() {
    for (BlockingQueue<Pending> q : queues) {
      q.offer(POISON); // every queue has room for it
    }
  }

  @SuppressWarnings("ReferenceEquality") // POISON is a sentinel: identity is the point
  private void run(BlockingQueue<Pending> queue, int segment) {
    boolean failed = false;
    while (true) {
      Pending p;
      try {
        p = queue.take();
      } catch (InterruptedException e) {
        return;
      }
      if (p == POISON) {
        return;
      }
      ByteBuffer b = p.buffer;
      try {
        if (!failed && failure == null) {
          file.write(p.offset, b);
        }
      } catch (IOException e) {
        fail(e);
        failed = true; // keep draining so the producer never blocks on a full queue
      } catch (RuntimeException | Error e) {
        fail(new SortIOException("write", file.path(), "write-behind thread failed: " + e, e));
        failed = true;
      } finally {
        lastFreedBy = segment;
        pool.release(b);
        synchronized (drained) {
          queued--;
          drained.notifyAll();
        }
      }
    }
  }

  private synchronized void fail(IOException e) {
    if (failure == null) {
      failure = e; // the first error of any writer thread is the one reported
    }
  }

  private void awaitDrained() throws InterruptedIOException {
    synchronized (drained) {
      while (queued > 0) {
        try {
          drained.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while draining writes to " + file.path());
        }
      }
    }
  }

  /**
   * Writes everything accepted so far, truncates the file to exactly that length and, if {@code
   * force}, forces it to the device. Returns the file's length.
   *
   * @throws SortIOException the first write error, or the fsync error
   */
  public long finish(boolean force) throws IOException {
    drain();
    file.truncate(startOffset + written);
    if (force) {
      file.force();
    }
    return written;
  }

  /** Submits the partly filled buffer, waits until every write is done, and ends the writer. */
  private void drain() throws IOException {
    checkUsable();
    if (current != null) {
      if (current.position() == 0) {
        pool.release(current);
        current = null;
      } else {
        submitCurrent();
      }
    }
    long since = System.nanoTime();
    awaitDrained();
    long waited = System.nanoTime() - since;
    if (waited > WAIT_NOTICED_NANOS && lastQueuedAt >= 0) {
      // the end of a stream waits for its last writes: on a device that binds its writers, for
      // the stall of a throttle that admitted the blocks before them at once
      file.parts().meterAt(lastQueuedAt).writeWaited(waited);
    }
    rethrow();
    finished = true;
  }

  /**
   * Writes everything accepted so far into this writer's region and waits for it; unlike {@link
   * #finish(boolean)} it leaves the file's length and durability to the file's owner (several
   * region writers share one file). Returns the bytes written to the region.
   *
   * @throws SortIOException the first write error
   */
  public long finishRegion() throws IOException {
    drain();
    return written;
  }

  /**
   * Stops the thread (after the queued writes) and returns every buffer to the pool. Idempotent. An
   * interrupt of the caller does not cut the wait short (the queued buffers are still being
   * written); it is reported once the thread has ended.
   */
  @Override
  public void close() throws InterruptedIOException {
    if (closed) {
      return;
    }
    closed = true;
    if (current != null) {
      pool.release(current);
      current = null;
    }
    boolean interrupted = false;
    synchronized (drained) {
      while (queued > 0) {
        try {
          drained.wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    poisonAll(); // the queues are empty
    SortThreads.joinUninterruptibly(writers);
    if (interrupted || Thread.currentThread().isInterrupted()) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while stopping the writer of " + file.path());
    }
  }
}

package dev.joule.io.block;

import dev.joule.core.memory.Alignment;
import dev.joule.core.memory.DirectRegion;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * A fixed set of equally sized, 4096-aligned direct buffers, allocated once when the pool is made
 * and handed out with {@link #acquire()} / {@link #release(ByteBuffer)}, from one {@link
 * DirectRegion} that {@link #close()} frees. Direct allocation zeroes memory and is slow to
 * reclaim, and each freshly touched page costs 3–7 µs of kernel time on these VMs (docs/design.md,
 * D5), so buffers are made once per sort and reused.
 *
 * <p>Memory bound: {@code count * (bufferSize + 4096)} bytes of direct memory for the pool's life
 * ({@link DirectRegion#bytesFor}).
 *
 * <p>Thread-safe. Ownership is explicit, not reference counted: {@code acquire} transfers a buffer
 * to the caller, {@code release} takes it back; releasing a foreign or already released buffer
 * fails. {@link #close()} is idempotent and requires every buffer to be back (a leak is a bug, not
 * something for the GC to tidy).
 */
public final class BlockPool implements AutoCloseable {
  private final int bufferSize;
  private final int count;
  private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();
  private final DirectRegion region; // null when the caller owns the memory (over)
  // identity, not equals: ByteBuffer.equals compares the bytes
  private final IdentityHashMap<ByteBuffer, Boolean> lent = new IdentityHashMap<>();
  private boolean closed;

  /**
   * Allocates {@code count} buffers of {@code bufferSize} bytes each; {@code bufferSize} must be a
   * positive multiple of {@link BlockFile#ALIGNMENT}.
   */
  public BlockPool(int count, int bufferSize) {
    if (count < 1) {
      throw new IllegalArgumentException("buffer count must be at least 1: " + count);
    }
    if (bufferSize <= 0 || bufferSize % Alignment.BYTES != 0) {
      throw new IllegalArgumentException(
          "buffer size must be a positive multiple of " + Alignment.BYTES + ": " + bufferSize);
    }
    this.bufferSize = bufferSize;
    this.count = count;
    this.region = DirectRegion.open();
    try {
      for (int i = 0; i < count; i++) {
        free.add(region.allocate(bufferSize));
      }
    } catch (RuntimeException | Error e) {
      region.close(); // the buffers allocated before the failure
      throw e;
    }
  }

  private BlockPool(List<ByteBuffer> buffers, int bufferSize) {
    this.bufferSize = bufferSize;
    this.count = buffers.size();
    this.region = null;
    free.addAll(buffers);
  }

  /**
   * A pool over buffers the caller already owns (for example windows of a record arena that run
   * formation no longer needs, so that the merge reuses memory whose pages are already touched
   * instead of allocating fresh ones). Each must be direct, 4096-aligned and exactly {@code
   * bufferSize} bytes of capacity (a positive multiple of 4096). The pool does not own the memory:
   * {@link #close()} only checks that every buffer came back; the buffers must stay valid until
   * then.
   */
  public static BlockPool over(List<ByteBuffer> buffers, int bufferSize) {
    if (buffers.isEmpty()) {
      throw new IllegalArgumentException("buffer count must be at least 1: 0");
    }
    if (bufferSize <= 0 || bufferSize % Alignment.BYTES != 0) {
      throw new IllegalArgumentException(
          "buffer size must be a positive multiple of " + Alignment.BYTES + ": " + bufferSize);
    }
    for (ByteBuffer b : buffers) {
      if (!b.isDirect()
          || b.capacity() != bufferSize
          || b.alignmentOffset(0, Alignment.BYTES) != 0) {
        throw new IllegalArgumentException(
            "pool buffers must be direct, 4096-aligned and " + bufferSize + " bytes");
      }
    }
    List<ByteBuffer> own = new java.util.ArrayList<>();
    for (ByteBuffer b : buffers) {
      own.add(b.duplicate().clear());
    }
    return new BlockPool(own, bufferSize);
  }

  /** Bytes per buffer. */
  public int bufferSize() {
    return bufferSize;
  }

  /** Number of buffers the pool owns. */
  public int capacity() {
    return count;
  }

  /** Buffers currently in the pool (not lent out). */
  public synchronized int available() {
    return free.size();
  }

  /**
   * Caller owns the returned buffer (cleared: position 0, limit = capacity) until it is released.
   * Waits while every buffer is lent out.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  public synchronized ByteBuffer acquire() throws InterruptedException {
    while (free.isEmpty()) {
      checkOpen();
      wait();
    }
    checkOpen();
    ByteBuffer b = free.poll();
    lent.put(b, Boolean.TRUE);
    return b.clear();
  }

  /** Like {@link #acquire()} but returns {@code null} instead of waiting. */
  public synchronized ByteBuffer tryAcquire() {
    checkOpen();
    ByteBuffer b = free.poll();
    if (b != null) {
      lent.put(b, Boolean.TRUE);
      b.clear();
    }
    return b;
  }

  /** Gives {@code b} back; the caller must not touch it afterwards. */
  public synchronized void release(ByteBuffer b) {
    if (lent.remove(b) == null) {
      throw new IllegalArgumentException(
          "buffer was not acquired from this pool or was already released");
    }
    free.add(b);
    notifyAll();
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("block pool is closed");
    }
  }

  /**
   * Drops the buffers. Idempotent.
   *
   * @throws IllegalStateException if buffers are still lent out (they are leaked; the pool is
   *     closed anyway)
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    free.clear();
    notifyAll();
    int leaked = lent.size();
    lent.clear();
    if (region != null) {
      // Leaked buffers too: their users fail with IllegalStateException on JDK 22+ rather than
      // keep the memory; owners join their I/O threads first, so none is still reading into one.
      region.close();
    }
    if (leaked != 0) {
      throw new IllegalStateException(leaked + " of " + count + " pool buffers were not released");
    }
  }
}

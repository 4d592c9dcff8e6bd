package dev.joule.io.block;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What one device (a temp stripe) has done for a sort: bytes read and written and the time its
 * transfers took, summed over every file segment on it. The write rate (bytes per busy second)
 * measures the device, not the sort: a device that waits for the others between writes is not busy
 * then. {@link dev.joule.io.stripe.TempSpace} deals more stripe units to a device that writes
 * faster.
 *
 * <p>Two {@code System.nanoTime()} calls per transfer of a few MiB. Thread-safe.
 */
public final class DeviceMeter {
  /** A meter that counts nothing, for files that are not on a temp stripe. */
  public static final DeviceMeter NONE = new DeviceMeter(false);

  private final boolean counting;
  private final AtomicLong bytesRead = new AtomicLong();
  private final AtomicLong bytesWritten = new AtomicLong();
  private final AtomicLong readNanos = new AtomicLong();
  private final AtomicLong writeNanos = new AtomicLong();
  private final AtomicLong writes = new AtomicLong();

  /** A counting meter. */
  public DeviceMeter() {
    this(true);
  }

  private DeviceMeter(boolean counting) {
    this.counting = counting;
  }

  /** The clock for {@link #read} and {@link #wrote}: 0 when this meter does not count. */
  public long start() {
    return counting ? System.nanoTime() : 0;
  }

  /** Counts a read of {@code bytes} that began at {@code startNanos} ({@link #start()}). */
  public void read(long bytes, long startNanos) {
    if (counting) {
      bytesRead.addAndGet(bytes);
      readNanos.addAndGet(System.nanoTime() - startNanos);
    }
  }

  /** Counts a write of {@code bytes} that began at {@code startNanos} ({@link #start()}). */
  public void wrote(long bytes, long startNanos) {
    if (counting) {
      bytesWritten.addAndGet(bytes);
      writeNanos.addAndGet(System.nanoTime() - startNanos);
      writes.incrementAndGet();
    }
  }

  /** Bytes read from the device. */
  public long bytesRead() {
    return bytesRead.get();
  }

  /** Bytes written to the device. */
  public long bytesWritten() {
    return bytesWritten.get();
  }

  /** Nanoseconds spent in reads (summed over concurrent reads). */
  public long readNanos() {
    return readNanos.get();
  }

  /** Nanoseconds spent in writes (summed over concurrent writes). */
  public long writeNanos() {
    return writeNanos.get();
  }

  /** Number of write calls measured. */
  public long writes() {
    return writes.get();
  }

  /** Bytes per second of busy write time; 0 before any write. */
  public double writeRate() {
    long ns = writeNanos.get();
    return ns <= 0 ? 0 : bytesWritten.get() * 1e9 / ns;
  }
}

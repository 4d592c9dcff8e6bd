package dev.joule.io.block;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one device (a temp stripe) has done for a sort: bytes read and written and the time its
 * transfers took, summed over every file segment on it. The write rate (bytes per busy second)
 * measures the device, not the sort: a device that waits for the others between writes is not busy
 * then. {@link dev.joule.io.stripe.TempSpace} deals more stripe units to a device that writes
 * faster.
 *
 * <p>The sort's timeline samples these counters once per interval: besides the totals it reads the
 * transfers in flight at that instant and the time the sort's consumers spent waiting for this
 * device ({@link #waited}), which tells a slow device from a busy CPU.
 *
 * <p>Two {@code System.nanoTime()} calls and four atomic additions per transfer of a few MiB.
 * Thread-safe.
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
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicLong waitNanos = new AtomicLong();

  /** A counting meter. */
  public DeviceMeter() {
    this(true);
  }

  private DeviceMeter(boolean counting) {
    this.counting = counting;
  }

  /**
   * Begins a transfer: the clock for {@link #read} and {@link #wrote} (0 when this meter does not
   * count). Every start must end in exactly one of {@link #read}, {@link #wrote} or {@link
   * #failed}, or the transfer stays counted as in flight.
   */
  public long start() {
    if (!counting) {
      return 0;
    }
    inFlight.incrementAndGet();
    return System.nanoTime();
  }

  /** Ends a transfer begun by {@link #start()} that threw: no bytes, no time. */
  public void failed() {
    if (counting) {
      inFlight.decrementAndGet();
    }
  }

  /**
   * Counts {@code nanos} that a consumer of this device (the input's reader, the merge's cursors)
   * spent waiting for a read from it, or reading itself.
   */
  public void waited(long nanos) {
    if (counting) {
      waitNanos.addAndGet(nanos);
    }
  }

  /** Counts a read of {@code bytes} that began at {@code startNanos} ({@link #start()}). */
  public void read(long bytes, long startNanos) {
    if (counting) {
      bytesRead.addAndGet(bytes);
      readNanos.addAndGet(System.nanoTime() - startNanos);
      inFlight.decrementAndGet();
    }
  }

  /** Counts a write of {@code bytes} that began at {@code startNanos} ({@link #start()}). */
  public void wrote(long bytes, long startNanos) {
    if (counting) {
      bytesWritten.addAndGet(bytes);
      writeNanos.addAndGet(System.nanoTime() - startNanos);
      writes.incrementAndGet();
      inFlight.decrementAndGet();
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

  /** Transfers begun and not yet ended, at this instant. */
  public int inFlight() {
    return inFlight.get();
  }

  /** Nanoseconds consumers spent waiting for this device (see {@link #waited}). */
  public long waitNanos() {
    return waitNanos.get();
  }

  /** Whether this meter counts (false only for {@link #NONE}). */
  public boolean counting() {
    return counting;
  }

  /** Bytes per second of busy write time; 0 before any write. */
  public double writeRate() {
    long ns = writeNanos.get();
    return ns <= 0 ? 0 : bytesWritten.get() * 1e9 / ns;
  }
}

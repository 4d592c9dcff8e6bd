package dev.joule.io.block;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

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
 * <p><b>A rate-limited device.</b> Bytes per busy second are the device's speed when a transfer's
 * cost shows in its call, as on a disk that moves one block at a time. A device limited by a rate
 * (a cloud volume's throughput cap, a cgroup throttle) admits writes at once while its allowance
 * lasts and then stalls one for the rest of its period: its write calls are mostly instant, and
 * their busy rate says 204–346 MB/s of a device that sustains 131 (sort-bench/README.md "Run
 * compression"). What does not lie is the rate over time while the device holds its writers up: the
 * meter cuts the writes into windows of {@value #WINDOW_NANOS} ns and, over the windows in which
 * the writers waited for a buffer or a drain ({@link #writeWaited}) at least {@value
 * #BOUND_WAIT_SHARE} of the time, sums bytes and time; {@link #sustainedWriteRate()} is the lower
 * of that rate and the busy one.
 *
 * <p>Two {@code System.nanoTime()} calls and four atomic additions per transfer of a few MiB, and a
 * short lock per write. Thread-safe.
 */
public final class DeviceMeter {
  /** A meter that counts nothing, for files that are not on a temp stripe. */
  public static final DeviceMeter NONE = new DeviceMeter(false);

  private final boolean counting;
  private final LongSupplier clock; // System::nanoTime but in tests
  private final AtomicLong bytesRead = new AtomicLong();
  private final AtomicLong bytesWritten = new AtomicLong();
  private final AtomicLong readNanos = new AtomicLong();
  private final AtomicLong writeNanos = new AtomicLong();
  private final AtomicLong writes = new AtomicLong();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicLong waitNanos = new AtomicLong();
  private final AtomicLong writeWaitNanos = new AtomicLong();

  /**
   * The length of a window of writes. Long against a throttle's period (the kernel's block throttle
   * grants its allowance per 100 ms slice) and short against a sort's phases (seconds).
   */
  static final long WINDOW_NANOS = 250_000_000L;

  /**
   * The share of a window that the writers must have waited for this device for the window to count
   * as one in which the device bound them. A 300 MB sort at {@code -S 64M} (sort-bench/README.md
   * "Run compression"): on this machine's disk its run writers waited 10 % of the run formation, in
   * no window 20 %; on one throttled to 125 MiB/s, 47 %, and the windows gave 129.9 MB/s.
   */
  static final double BOUND_WAIT_SHARE = 0.2;

  private final Object window = new Object();
  private long windowStart = -1; // guarded by window: the first write's start, -1 between windows
  private long windowEnd; // guarded by window: the last write's end
  private long windowBytes; // guarded by window
  private long windowWaitAtStart; // guarded by window: writeWaitNanos when the window began
  private long boundBytes; // guarded by window: summed over the windows that bound their writers
  private long boundNanos; // guarded by window

  /** A counting meter. */
  public DeviceMeter() {
    this(true);
  }

  private DeviceMeter(boolean counting) {
    this(counting, System::nanoTime);
  }

  /** A counting meter on {@code clock} (nanoseconds): a test's simulated device. */
  DeviceMeter(LongSupplier clock) {
    this(true, clock);
  }

  private DeviceMeter(boolean counting, LongSupplier clock) {
    this.counting = counting;
    this.clock = clock;
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
    return clock.getAsLong();
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

  /**
   * Counts {@code nanos} that a writer to this device spent waiting for it: for a buffer its writes
   * still held, or for its last writes to end. Also counted by {@link #waitNanos()}.
   */
  public void writeWaited(long nanos) {
    if (counting) {
      waitNanos.addAndGet(nanos);
      writeWaitNanos.addAndGet(nanos);
    }
  }

  /** Counts a read of {@code bytes} that began at {@code startNanos} ({@link #start()}). */
  public void read(long bytes, long startNanos) {
    if (counting) {
      bytesRead.addAndGet(bytes);
      readNanos.addAndGet(clock.getAsLong() - startNanos);
      inFlight.decrementAndGet();
    }
  }

  /** Counts a write of {@code bytes} that began at {@code startNanos} ({@link #start()}). */
  public void wrote(long bytes, long startNanos) {
    if (counting) {
      long now = clock.getAsLong();
      bytesWritten.addAndGet(bytes);
      writeNanos.addAndGet(now - startNanos);
      writes.incrementAndGet();
      inFlight.decrementAndGet();
      window(bytes, startNanos, now);
    }
  }

  private void window(long bytes, long startNanos, long now) {
    synchronized (window) {
      if (windowStart >= 0 && startNanos - windowEnd > WINDOW_NANOS) {
        windowStart = -1; // the device stood idle: what came before is no window of this one
      }
      if (windowStart < 0) {
        windowStart = startNanos;
        windowBytes = 0;
        windowWaitAtStart = writeWaitNanos.get();
      }
      windowBytes += bytes;
      windowEnd = Math.max(windowEnd, now);
      long span = windowEnd - windowStart;
      if (span >= WINDOW_NANOS) {
        long waited = writeWaitNanos.get() - windowWaitAtStart;
        if (waited >= BOUND_WAIT_SHARE * span) {
          boundBytes += windowBytes;
          boundNanos += span;
        }
        windowStart = -1;
      }
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

  /** Nanoseconds writers spent waiting for this device (see {@link #writeWaited}). */
  public long writeWaitNanos() {
    return writeWaitNanos.get();
  }

  /** Bytes written in the windows in which this device bound its writers (see the class). */
  public long boundBytes() {
    synchronized (window) {
      return boundBytes;
    }
  }

  /** The length of the windows in which this device bound its writers, in nanoseconds. */
  public long boundNanos() {
    synchronized (window) {
      return boundNanos;
    }
  }

  /**
   * What the device sustains, in bytes per second of writing: the rate over the windows in which it
   * held its writers up, where there were any and it is the lower, else the busy rate; 0 before any
   * write.
   */
  public double sustainedWriteRate() {
    double busy = writeRate();
    long ns;
    long b;
    synchronized (window) {
      ns = boundNanos;
      b = boundBytes;
    }
    return ns <= 0 ? busy : Math.min(busy, b * 1e9 / ns);
  }
}

package dev.joule.io.run;

import dev.joule.io.block.BlockFile;
import dev.joule.io.error.SortIOException;
import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * A timed read of a run just written: what the temp devices give a reader that waits for them,
 * which is how the merge will read every run. {@code auto}'s rule needs the devices' speed before
 * most runs are written, and their writes cannot tell it on a disk about as fast as the run writer:
 * writes that never queue say only that the device kept up, and a rate-limited device (a cloud
 * volume's cap, the kernel's block throttle) admits each burst within its allowance at memory
 * speed. Measured (sort-bench/README.md, "Run compression"): on a disk throttled to 125 MiB/s a run
 * writer of this VM offers its blocks at 110–170 MB/s, so the write meter learned the disk only at
 * the fourth of nine runs of the keyed CSV, whose first three were then stored raw.
 *
 * <p>One read at a time of up to {@value #MAX_BYTES} bytes from the start of the run's file, into
 * one block-sized buffer; the rate counts the bytes after the first third and the time they took,
 * so a throttle's first allowance (read at once) does not count as speed. Stateless.
 */
final class DeviceProbe {
  /** Bytes a probe reads at most: a fraction of a second at a cloud volume's 125 MB/s. */
  static final long MAX_BYTES = 32L << 20;

  /**
   * A shorter run is not probed. The kernel's block throttle grants 100 ms of its rate at once (13
   * MB at 125 MiB/s): of a run this long the timed two thirds (16 MiB) hold at most 5 MB of that
   * allowance, so the probe reads such a device at most 1.5 times its rate ({@code
   * DeviceProbeTest}); of a 12 MiB run nothing would be timed beyond the allowance.
   */
  static final long MIN_BYTES = 24L << 20;

  private DeviceProbe() {}

  /**
   * Reads {@code [0, min(bytes, MAX_BYTES))} of {@code file} through {@code buffer} (its capacity
   * at a time) and returns the rate in bytes per second over the reads after the first third, on
   * {@code clock} (nanoseconds); 0 if the file ended before a read completed after the first third,
   * or {@code stop} said so before a read (the sort is closing).
   *
   * @throws SortIOException if a read fails
   */
  static double readRate(
      BlockFile file, long bytes, ByteBuffer buffer, LongSupplier clock, BooleanSupplier stop)
      throws SortIOException {
    long total = Math.min(bytes, MAX_BYTES);
    long skip = total / 3;
    long position = 0;
    long timedFrom = -1;
    long timedBytes = 0;
    long end = -1;
    while (position < total) {
      if (stop.getAsBoolean()) {
        return 0;
      }
      buffer.clear();
      buffer.limit((int) Math.min(buffer.capacity(), total - position));
      int n = file.read(position, buffer);
      if (n <= 0) {
        break;
      }
      long now = clock.getAsLong();
      position += n;
      if (timedFrom < 0) {
        if (position >= skip) {
          timedFrom = now;
        }
      } else {
        timedBytes += n;
        end = now;
      }
    }
    return rate(timedBytes, timedFrom, end);
  }

  /** Bytes per second of {@code bytes} read between {@code from} and {@code to}; 0 if unknown. */
  static double rate(long bytes, long from, long to) {
    return bytes <= 0 || from < 0 || to <= from ? 0 : bytes * 1e9 / (to - from);
  }
}

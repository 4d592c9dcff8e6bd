package dev.joule.io.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.io.block.BlockFile;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe's rate on simulated devices (a clock advanced by each read's simulated time): a
 * rate-limited device that serves its first allowance at once must read at its rate, not at the
 * speed of that allowance; a device that takes its time for every read, at that rate.
 */
class DeviceProbeTest {
  private static final int MIB = 1 << 20;

  @TempDir Path tmp;

  /**
   * Simulated time of each 1 MiB read: instant while {@code allowance} lasts, then at {@code rate}.
   */
  private static double probe(Path file, long allowance, double rate) throws IOException {
    long[] clock = {0};
    long[] served = {0};
    try (BlockFile f = BlockFile.openRead(file, DirectIoPolicy.OFF, NoticeSink.IGNORE)) {
      return DeviceProbe.readRate(
          f,
          Files.size(file),
          ByteBuffer.allocateDirect(MIB),
          () -> {
            served[0] += MIB;
            if (served[0] > allowance) {
              clock[0] += (long) (MIB * 1e9 / rate);
            } else {
              clock[0] += 10_000; // from memory
            }
            return clock[0];
          },
          () -> false);
    }
  }

  @Test
  void aThrottleIsReadAtItsRateNotAtItsAllowance() throws IOException {
    Path file = tmp.resolve("run");
    Files.write(file, new byte[32 * MIB]);
    double rate = 125 * 1048576.0;
    // the kernel's block throttle: 100 ms of its rate granted at once (13 MB at 125 MiB/s)
    double probed = probe(file, (long) (rate / 10), rate);
    assertEquals(rate, probed, 0.25 * rate, "probed " + probed);
  }

  @Test
  void aThrottleIsReadAtMostOneAndAHalfTimesItsRateFromTheShortestRunProbed() throws IOException {
    Path file = tmp.resolve("run");
    Files.write(file, new byte[(int) DeviceProbe.MIN_BYTES]);
    double rate = 125 * 1048576.0;
    double probed = probe(file, (long) (rate / 10), rate);
    assertTrue(probed >= rate && probed <= 1.5 * rate, "probed " + probed);
  }

  @Test
  void aDeviceThatTakesItsTimeIsReadAtThatRate() throws IOException {
    Path file = tmp.resolve("run");
    Files.write(file, new byte[24 * MIB]);
    assertEquals(1.5e9, probe(file, 0, 1.5e9), 0.01 * 1.5e9);
  }

  @Test
  void aFileThatEndsBeforeATimedReadGivesNoRate() throws IOException {
    Path file = tmp.resolve("run");
    Files.write(file, new byte[MIB]);
    assertEquals(0, probe(file, 0, 1e9));
  }
}

package dev.joule.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RAPL counters from a fake powercap tree: package zones only, wraparound, absence. */
class RaplMeterTest {
  @TempDir Path powercap;

  private void zone(String name, long energy, long range) throws IOException {
    Path z = Files.createDirectories(powercap.resolve(name));
    Files.writeString(z.resolve("energy_uj"), energy + "\n");
    Files.writeString(z.resolve("max_energy_range_uj"), range + "\n");
  }

  @Test
  void sumsPackagesNotSubzonesAndHandlesWraparound() throws IOException {
    zone("intel-rapl:0", 1_000_000, 262_143_328_850L);
    zone("intel-rapl:1", 262_143_000_000L, 262_143_328_850L);
    zone("intel-rapl:0:0", 5, 100); // core sub-zone, part of package 0
    RaplMeter m = RaplMeter.open(powercap);
    assertTrue(m.available());
    assertNull(m.unavailableReason());
    long[] before = m.read();
    assertArrayEquals(new long[] {1_000_000, 262_143_000_000L}, before);
    Files.writeString(powercap.resolve("intel-rapl:0/energy_uj"), "3500000\n"); // +2.5 J
    Files.writeString(powercap.resolve("intel-rapl:1/energy_uj"), "671150\n"); // wrapped: +1.0 J
    assertEquals(3.5, m.joulesBetween(before, m.read()), 1e-9);
  }

  @Test
  void absentCountersSayWhy() {
    RaplMeter m = RaplMeter.open(powercap.resolve("none"));
    assertFalse(m.available());
    assertTrue(
        m.unavailableReason().startsWith("this host exposes no RAPL energy counters"),
        m.unavailableReason());
  }

  @Test
  void unreadableCountersSayWhy() throws IOException {
    Files.createDirectories(powercap.resolve("intel-rapl:0"));
    RaplMeter m = RaplMeter.open(powercap);
    assertFalse(m.available());
    assertTrue(m.unavailableReason().contains("not readable"), m.unavailableReason());
  }
}

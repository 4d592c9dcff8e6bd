package dev.joule.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.io.config.SortConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

class MachineDefaultsTest {
  @Test
  void memoryIsAQuarterOfRamCappedByDirectMemoryLessHeadroom() {
    long m = MachineDefaults.memory().bytes();
    long expected =
        Math.max(
            SortConfig.MIN_MEMORY.bytes(),
            Math.min(
                MachineDefaults.physicalMemory() / 4,
                MachineDefaults.maxDirectMemory() - MachineDefaults.DIRECT_HEADROOM));
    assertEquals(expected >> 20, m >> 20);
    assertEquals(0, m % (1 << 20));
    // the surefire JVM runs with -XX:MaxDirectMemorySize=1g (root pom)
    assertEquals(1L << 30, MachineDefaults.maxDirectMemory());
    assertTrue(m <= (1L << 30) - MachineDefaults.DIRECT_HEADROOM);
  }

  /** The values read on the background thread are the ones every caller sees, read once. */
  @Test
  void theBackgroundProbeServesEveryCaller() throws Exception {
    MachineDefaults.probeInBackground();
    MachineDefaults.probeInBackground(); // idempotent: one thread
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<Long>> seen = new java.util.ArrayList<>();
      for (int i = 0; i < 8; i++) {
        seen.add(pool.submit(MachineDefaults::physicalMemory));
      }
      for (java.util.concurrent.Future<Long> f : seen) {
        assertEquals(MachineDefaults.physicalMemory(), f.get());
      }
    } finally {
      pool.shutdownNow();
    }
    assertTrue(MachineDefaults.physicalMemory() > 0);
    assertEquals(1L << 30, MachineDefaults.maxDirectMemory());
  }
}

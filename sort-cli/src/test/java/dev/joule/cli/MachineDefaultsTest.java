package dev.joule.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.io.config.SortConfig;
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
}

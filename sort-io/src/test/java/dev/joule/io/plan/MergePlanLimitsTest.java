package dev.joule.io.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.io.config.DirectIoPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MergePlanLimitsTest {
  private static final List<String> LIMITS =
      List.of(
          "Limit                     Soft Limit           Hard Limit           Units     ",
          "Max cpu time              unlimited            unlimited            seconds   ",
          "Max open files            1024                 524288               files     ",
          "Max locked memory         8388608              8388608              bytes     ");

  @Test
  void parsesTheSoftLimit() {
    assertEquals(OptionalLong.of(1024), MergePlanLimits.parseOpenFileLimit(LIMITS));
    assertEquals(
        OptionalLong.of(Long.MAX_VALUE),
        MergePlanLimits.parseOpenFileLimit(
            List.of("Max open files            unlimited            unlimited            files")));
    for (String bad : List.of("Max cpu time 1 1 s", "Max open files  lots", "Max open files")) {
      assertEquals(OptionalLong.empty(), MergePlanLimits.parseOpenFileLimit(List.of(bad)), bad);
    }
  }

  @Test
  void fallsBackWhenUnreadable(@TempDir Path dir) throws Exception {
    assertEquals(
        MergePlanLimits.FALLBACK_OPEN_FILES, MergePlanLimits.openFileLimit(dir.resolve("missing")));
    Path garbage = Files.writeString(dir.resolve("limits"), "nothing here\n");
    assertEquals(MergePlanLimits.FALLBACK_OPEN_FILES, MergePlanLimits.openFileLimit(garbage));
    Path real = Files.write(dir.resolve("limits2"), LIMITS);
    assertEquals(1024, MergePlanLimits.openFileLimit(real));
  }

  @Test
  void readsThisProcesssLimit() {
    long limit = MergePlanLimits.openFileLimit();
    assertTrue(limit >= 1, "open-file limit " + limit);
    if (Files.isReadable(Path.of("/proc/self/limits"))) {
      assertTrue(limit >= 64, "a Linux process gets at least 64 descriptors, got " + limit);
    }
  }

  @Test
  void fanInIsTheTighterOfMemoryAndFiles() {
    long mib = 1 << 20;
    // 256 MiB of 1 MiB transfers: 128 double buffers, one pair for the output.
    assertEquals(127, MergePlanLimits.maxFanIn(256 * mib, (int) mib, 1_000_000, 64));
    // 1024 descriptors minus 64 reserved minus the output file.
    assertEquals(959, MergePlanLimits.maxFanIn(4096 * mib, 1 << 16, 1024, 64));
    assertEquals(127, MergePlanLimits.maxFanIn(256 * mib, (int) mib, Long.MAX_VALUE, 64));
    assertEquals(2, MergePlanLimits.maxFanIn(6 * mib, (int) mib, 1024, 64));
    int t = (int) mib;
    Class<IllegalArgumentException> bad = IllegalArgumentException.class;
    assertThrows(bad, () -> MergePlanLimits.maxFanIn(5 * mib, t, 1024, 64));
    assertThrows(bad, () -> MergePlanLimits.maxFanIn(256 * mib, t, 66, 64));
    assertThrows(bad, () -> MergePlanLimits.maxFanIn(256 * mib, 0, 1024, 64));
    // direct I/O: every merge file may hold two descriptors, the output's two included
    assertEquals(479, MergePlanLimits.maxFanIn(4096 * mib, 1 << 16, 1024, 64, 2));
    assertEquals(479, MergePlanLimits.fanInByFiles(1024, 64, 2));
    assertEquals(1, MergePlanLimits.fanInByFiles(69, 64, 2));
    assertEquals(4, MergePlanLimits.fanInByFiles(69, 64, 1));
    assertThrows(bad, () -> MergePlanLimits.maxFanIn(256 * mib, t, 69, 64, 2));
    assertEquals(2, MergePlanLimits.maxFanIn(256 * mib, t, 70, 64, 2));
    assertEquals(2, MergePlanLimits.descriptorsPerFile(DirectIoPolicy.AUTO));
    assertEquals(2, MergePlanLimits.descriptorsPerFile(DirectIoPolicy.ON));
    assertEquals(1, MergePlanLimits.descriptorsPerFile(DirectIoPolicy.OFF));
  }
}

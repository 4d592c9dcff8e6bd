package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.joule.testing.TestSeed;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A thousand sessions in a row in one JVM (the launcher's flags: ParallelGC, a 32 MiB initial heap,
 * no heap limit): the resident set stays flat from the 200th session to the 1000th, and a session
 * of one pair counts what one pair needs (a 64 KiB slab and a 256-entry index), not its budget.
 * Before, every session allocated and zeroed its whole budget on the first {@code add} and a new
 * index after each spill: 8 one-pair sessions at 128 MiB took the RSS from 86 to 307 MB.
 */
class SessionRssTest {
  static final long SEED = TestSeed.of(SessionRssTest.class, 0x4_5550L);

  /** Growth of the resident set allowed from the 100th session to the 1000th. */
  static final long FLAT_KIB = 32 << 10;

  /** What a one-pair session may count: its first slab with its page and its first index. */
  static final long ONE_PAIR_BYTES = (64 << 10) + 4096 + 256 * 32;

  @TempDir Path dir;

  /** The number after {@code name} in a line of {@code name=value} words. */
  static long field(String line, String name) {
    int at = line.indexOf(name) + name.length();
    int end = line.indexOf(' ', at);
    return Long.parseLong(line.substring(at, end < 0 ? line.length() : end));
  }

  @Test
  void aThousandSessionsInARowKeepTheResidentSetFlat() throws Exception {
    assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "no /proc: skipped");
    Path temp = Files.createDirectories(dir.resolve("temp"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p =
        new ProcessBuilder(
                java,
                "-XX:+UseParallelGC",
                "-Xms256m",
                "-Xmx256m",
                "-XX:+AlwaysPreTouch",
                "-cp",
                System.getProperty("java.class.path"),
                SessionRssChild.class.getName(),
                temp.toString(),
                "1000",
                "128",
                Long.toString(SEED))
            .redirectErrorStream(true)
            .start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String l = r.readLine(); l != null; l = r.readLine()) {
        lines.add(l);
      }
    }
    assertTrue(p.waitFor(5, TimeUnit.MINUTES), "child still running");
    assertEquals(0, p.exitValue(), "child failed: " + lines);
    System.out.println("SessionRssTest (seed " + SEED + "): " + lines);
    long at100 = -1;
    long max = 0;
    long onePair = -1;
    for (String l : lines) {
      if (l.startsWith("session=")) {
        int s = (int) field(l, "session=");
        long rss = field(l, "rssKiB=");
        if (s == 100) {
          at100 = rss;
        }
        max = Math.max(max, rss);
      } else if (l.startsWith("onePairPeak=")) {
        onePair = Long.parseLong(l.substring("onePairPeak=".length()));
      }
    }
    assertTrue(at100 > 0, "no RSS line for session 100: " + lines);
    assertTrue(
        max - at100 <= FLAT_KIB,
        "RSS grew " + (max - at100) + " KiB from session 100 to 1000: " + lines);
    assertTrue(onePair > 0 && onePair <= ONE_PAIR_BYTES, "a one-pair session counted " + onePair);
    try (var left = Files.list(temp)) {
      assertEquals(0, left.count(), "temp files left");
    }
  }
}

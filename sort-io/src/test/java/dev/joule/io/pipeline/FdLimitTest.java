package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/reliability.md I9: under {@code RLIMIT_NOFILE} 32 a sort of 400 runs succeeds by adding
 * merge passes (the reserve shrinks to what is open plus headroom, {@link
 * MergePlanLimits#reserve}); before, the fixed reserve of 64 made every external sort fail under
 * {@code ulimit -n 32}.
 */
class FdLimitTest {
  @TempDir Path dir;

  @Test
  void fourHundredRunsUnderAnOpenFileLimitOf32AddPasses() throws Exception {
    Path prlimit =
        Stream.of("/usr/bin/prlimit", "/bin/prlimit")
            .map(Path::of)
            .filter(Files::isExecutable)
            .findFirst()
            .orElse(null);
    assumeTrue(prlimit != null, "prlimit (util-linux) is not installed: skipped");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p =
        new ProcessBuilder(
                prlimit.toString(),
                "--nofile=32",
                java,
                "-ea",
                "-XX:MaxDirectMemorySize=256m",
                "-cp",
                System.getProperty("java.class.path"),
                FdLimitChild.class.getName(),
                dir.toString(),
                "400")
            .redirectErrorStream(true)
            .start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child still running after 60 s");
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), out);
    String[] f = out.trim().split("\\s+", -1);
    assertEquals("ok", f[f.length - 4], out);
    assertEquals(400, Integer.parseInt(f[f.length - 3]), out);
    assertTrue(Integer.parseInt(f[f.length - 2]) >= 2, "merge passes were added: " + out);
    for (String s : List.of("s0", "s1")) {
      try (Stream<Path> l = Files.list(dir.resolve(s))) {
        assertEquals(List.of(), l.toList(), "temps left in " + s);
      }
    }
  }
}

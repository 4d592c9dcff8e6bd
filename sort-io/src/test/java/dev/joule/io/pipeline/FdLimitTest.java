package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/reliability.md I9: more runs than the open-file limit allows add merge passes, and a limit
 * too tight for any merge is refused before anything is written. Each case is a child JVM ({@link
 * FdLimitChild}) under {@code prlimit --nofile}. Under 32 a sort of 400 runs succeeds by adding
 * merge passes (the reserve shrinks to what is open plus headroom, {@link
 * dev.joule.io.plan.MergePlanLimits#reserve}); before, the fixed reserve of 64 made every external
 * sort fail under {@code ulimit -n 32}. With direct I/O every merge file may hold two descriptors
 * and every stripe holds a lock: 600 runs under the default 1024 and 8 stripes under 40 failed with
 * "Too many open files" while the plan counted one and no locks.
 */
class FdLimitTest {
  @TempDir Path dir;

  record Child(int exit, String out) {
    String[] fields() {
      return out.trim().split("\\s+", -1);
    }
  }

  Child child(int nofile, int runs, int stripes, String direct) throws Exception {
    Path prlimit =
        Stream.of("/usr/bin/prlimit", "/bin/prlimit")
            .map(Path::of)
            .filter(Files::isExecutable)
            .findFirst()
            .orElse(null);
    assumeTrue(prlimit != null, "prlimit (util-linux) is not installed: skipped");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd =
        new ArrayList<>(
            List.of(
                prlimit.toString(),
                "--nofile=" + nofile,
                java,
                "-ea",
                "-XX:MaxDirectMemorySize=256m",
                "-cp",
                System.getProperty("java.class.path"),
                FdLimitChild.class.getName(),
                dir.toString(),
                String.valueOf(runs),
                String.valueOf(stripes),
                direct));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child still running after 120 s");
    return new Child(
        p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
  }

  void assertPassesAdded(Child c, int runs, int stripes) throws Exception {
    assertEquals(0, c.exit(), c.out());
    String[] f = c.fields();
    assertEquals("ok", f[f.length - 4], c.out());
    assertEquals(runs, Integer.parseInt(f[f.length - 3]), c.out());
    assertTrue(Integer.parseInt(f[f.length - 2]) >= 2, "merge passes were added: " + c.out());
    assertNoTemps(stripes);
  }

  void assertNoTemps(int stripes) throws Exception {
    for (int s = 0; s < stripes; s++) {
      try (Stream<Path> l = Files.list(dir.resolve("s" + s))) {
        assertEquals(List.of(), l.toList(), "temps left in s" + s);
      }
    }
  }

  @Test
  void fourHundredRunsUnderAnOpenFileLimitOf32AddPasses() throws Exception {
    assertPassesAdded(child(32, 400, 2, "AUTO"), 400, 2);
  }

  @Test
  void sixHundredRunsWithDirectIoUnderTheDefaultLimitOf1024AddAPass() throws Exception {
    assertPassesAdded(child(1024, 600, 1, "AUTO"), 600, 1);
  }

  @Test
  void eightStripesUnderALimitOf100AddPasses() throws Exception {
    // A run is striped over all 8: 16 descriptors per merge file with direct I/O.
    assertPassesAdded(child(100, 100, 8, "AUTO"), 100, 8);
  }

  /**
   * 16 stripes under 32: their locks alone leave no descriptor for a merge. The refusal is a typed
   * {@code SortIOException} from the plan (exit 2 in the CLI) naming {@code ulimit -n}, a limit
   * that would do and the one-pass way out, before any run is written; that limit then sorts.
   */
  @Test
  void aLimitTooTightForAnyMergeIsRefusedBeforeAnythingIsWritten() throws Exception {
    Child c = child(32, 100, 16, "AUTO");
    assertEquals(3, c.exit(), c.out());
    Matcher m =
        Pattern.compile(
                "failed plan merge plan merge failed: "
                    + Pattern.quote(dir.resolve("s0").toString())
                    + ": the open-file limit of 32 \\(ulimit -n\\) leaves fewer than 2 merge"
                    + " inputs: \\d+ descriptors are open or reserved and each merge file takes 32;"
                    + " raise it to at least (\\d+) \\(ulimit -n \\1\\), or give a memory budget"
                    + " that holds the whole input \\(one pass, no merge\\)")
            .matcher(c.out().trim());
    assertTrue(m.find(), c.out());
    assertNoTemps(16);
    assertFalse(Files.exists(dir.resolve("out")), "output written: " + c.out());
    int enough = Integer.parseInt(m.group(1));
    assertPassesAdded(child(enough, 100, 16, "AUTO"), 100, 16);
  }
}

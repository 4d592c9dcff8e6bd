package dev.joule.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * The locales the tests sort in, built with {@code localedef} (Debian's {@code locales} package
 * holds its sources) into the directory of {@code LOCPATH}, which the C library searches instead of
 * the system's locales: the build's test JVMs get it from the POM, so that the test process (joule
 * in-process) and the GNU sort it starts see the same locales. A locale built once stays (the
 * directory is a cache outside the work tree: about 3 MB and 5 CPU-seconds each), and is built into
 * a temporary name and renamed, so concurrent builds do not see half of one.
 */
public final class TestLocales {
  /** en_US, de_DE (decimal comma, '.' groups), sv_SE (å ä ö after z), ru_RU (Cyrillic). */
  public static final List<String> NAMES =
      List.of("en_US.UTF-8", "de_DE.UTF-8", "sv_SE.UTF-8", "ru_RU.UTF-8");

  private static final long LOCALEDEF_TIMEOUT_S = 300;

  private TestLocales() {}

  /**
   * Builds {@code names} (e.g. {@code de_DE.UTF-8}) under {@code LOCPATH} where missing; skips the
   * calling test (an assumption naming the reason) if it cannot.
   */
  public static void prepare(List<String> names) throws IOException, InterruptedException {
    String locpath = System.getenv("LOCPATH");
    Assumptions.assumeTrue(
        locpath != null && !locpath.isEmpty(),
        "LOCPATH is not set (the POM sets it for the test JVM): locale cases skipped");
    Path dir = Path.of(locpath);
    Files.createDirectories(dir);
    for (String name : names) {
      build(dir, name);
    }
  }

  private static void build(Path dir, String name) throws IOException, InterruptedException {
    Path target = dir.resolve(name);
    if (Files.isRegularFile(target.resolve("LC_COLLATE"))) {
      return;
    }
    Path tmp = Files.createTempDirectory(dir, name + ".building");
    try {
      String input = name.substring(0, name.indexOf('.'));
      Process p;
      try {
        p =
            new ProcessBuilder("localedef", "-i", input, "-f", "UTF-8", tmp.toString())
                .redirectErrorStream(true)
                .start();
      } catch (IOException e) {
        Assumptions.abort("no localedef (Debian's locales package): " + e.getMessage());
        return;
      }
      String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(LOCALEDEF_TIMEOUT_S, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("localedef " + name + " did not finish in time");
      }
      // localedef exits 1 on warnings that leave a usable locale; the files decide.
      Assumptions.assumeTrue(
          Files.isRegularFile(tmp.resolve("LC_COLLATE")),
          "localedef could not build " + name + " (exit " + p.exitValue() + "): " + log);
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        if (!Files.isRegularFile(target.resolve("LC_COLLATE"))) {
          throw e; // not another build that won the race
        }
      }
    } finally {
      if (Files.exists(tmp)) {
        try (Stream<Path> s = Files.walk(tmp)) {
          for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
            Files.delete(f);
          }
        }
      }
    }
  }
}

package dev.joule.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the real {@code ./joule} launcher (the shaded jar) as a process, end to end. */
class LauncherIT {
  private static final long TIMEOUT_SECONDS = 120;

  @TempDir Path dir;

  /** Exit code, stdout and stderr of one launcher run. */
  record Result(int exitCode, String out, String err) {}

  static Result joule(Path dir, String... args) throws IOException, InterruptedException {
    String root = System.getProperty("joule.root");
    assertTrue(root != null, "system property joule.root (the repository root) is not set");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(root, "joule").toAbsolutePath().normalize().toString());
    cmd.addAll(List.of(args));
    Path out = dir.resolve("stdout.txt");
    Path err = dir.resolve("stderr.txt");
    Process p =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + cmd);
    }
    return new Result(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  @Test
  void gensortThenValsortThroughTheLauncher() throws Exception {
    Result gen = joule(dir, "gensort", "-c", "-t2", "5000", "in.dat");
    assertEquals(0, gen.exitCode(), gen::toString);
    assertTrue(gen.err().matches("[0-9a-f]+\n"), gen::toString);
    assertEquals(500_000, Files.size(dir.resolve("in.dat")));
    String checksum = gen.err().trim();

    Result val = joule(dir, "valsort", "-o", "in.sum", "in.dat");
    assertEquals(1, val.exitCode(), val::toString); // gensort output is not sorted
    List<String> lines = val.err().lines().toList();
    assertTrue(lines.get(0).startsWith("First unordered record is record "), val::toString);
    assertEquals("Records: 5000", lines.get(1));
    assertEquals("Checksum: " + checksum, lines.get(2));
    assertTrue(lines.get(3).matches("ERROR - there are \\d+ unordered records"), val::toString);
    assertEquals(280, Files.size(dir.resolve("in.sum")));

    Result one = joule(dir, "gensort", "1", "one.dat");
    assertEquals(0, one.exitCode(), one::toString);
    Result ok = joule(dir, "valsort", "-t1", "one.dat");
    assertEquals(0, ok.exitCode(), ok::toString);
    assertTrue(
        ok.err().endsWith("Duplicate keys: 0\nSUCCESS - all records are in order\n"), ok::toString);

    Result missing = joule(dir, "valsort", "nope.dat");
    assertEquals(1, missing.exitCode());
    assertEquals("valsort: cannot open nope.dat: No such file or directory\n", missing.err());
  }

  /** The version in the root POM, which the build filters into the jar. */
  static String projectVersion() throws IOException {
    String pom = Files.readString(Path.of(System.getProperty("joule.root"), "pom.xml"));
    Matcher m =
        Pattern.compile("<artifactId>joule-parent</artifactId>\\s*<version>([^<]+)</version>")
            .matcher(pom);
    assertTrue(m.find(), "no joule-parent version in the root pom.xml");
    return m.group(1);
  }

  @Test
  void versionPrintsTheProjectVersion() throws Exception {
    Result r = joule(dir, "--version");
    assertEquals(0, r.exitCode(), r::toString);
    String expected = projectVersion();
    assertTrue(r.out().startsWith("joule " + expected + "\n"), r::toString);
  }
}

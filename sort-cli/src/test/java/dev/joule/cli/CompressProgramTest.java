package dev.joule.cli;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --compress-program=PROG} with the real engine, GNU's protocol ({@code PROG} compresses
 * standard input to standard output, {@code PROG -d} restores it) on a sort that spills: the output
 * of {@code gzip} runs equals {@code LC_ALL=C sort}'s, and a program that exits with a status other
 * than 0 or cannot be executed, for compression or for {@code -d}, is a clean failure (exit 2, one
 * message naming the program, the output absent or as it was, no temp file left).
 */
class CompressProgramTest {
  /** Lines of the input: about 4 MB, five runs at the smallest -S (8 MiB). */
  private static final int LINES = 150_000;

  private static final long SEED = 32;

  @TempDir static Path shared;
  static Path input;
  static byte[] expected; // GNU sort's output, LC_ALL=C

  @TempDir Path dir;
  Path tmp;

  @BeforeAll
  static void input() throws Exception {
    assumeTrue(onPath("gzip") && onPath("sort"), "gzip and GNU sort are needed");
    Random rnd = new Random(SEED);
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < LINES; i++) {
      int words = 1 + rnd.nextInt(6);
      for (int w = 0; w < words; w++) {
        b.append(w == 0 ? "" : " ").append(WORDS[rnd.nextInt(WORDS.length)]);
      }
      b.append(' ').append(rnd.nextInt(100_000)).append('\n');
    }
    input = Files.writeString(shared.resolve("in.txt"), b, ISO_8859_1);
    ProcessBuilder pb = new ProcessBuilder("sort", input.toString());
    pb.environment().put("LC_ALL", "C");
    Process p = pb.redirectError(ProcessBuilder.Redirect.INHERIT).start();
    expected = p.getInputStream().readAllBytes();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "GNU sort failed");
  }

  private static final String[] WORDS = {
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett"
  };

  @BeforeEach
  void tmp() throws IOException {
    tmp = Files.createDirectory(dir.resolve("tmp"));
  }

  /** Exit code, standard output and standard error of one run. */
  private static final class Run {
    final int exit;
    final byte[] out;
    final String err;

    Run(int exit, byte[] out, String err) {
      this.exit = exit;
      this.out = out;
      this.err = err;
    }
  }

  /** {@code joule sort -S 8M --transfer-temp 256k -T tmp ARGS... in.txt}, in process. */
  private Run sort(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CliEnvironment env =
        new CliEnvironment(
            SortEngine.external(), new ByteArrayInputStream(new byte[0]), out, RaplMeter.POWERCAP);
    List<String> a =
        new ArrayList<>(
            List.of("sort", "-S", "8M", "--transfer-temp", "256k", "-T", tmp.toString()));
    a.addAll(List.of(args));
    a.add(input.toString());
    CliRun r = CliRun.run(env, a.toArray(new String[0]));
    return new Run(r.exitCode, out.toByteArray(), r.err);
  }

  /** An executable shell script {@code name} in the test's directory. */
  private Path script(String name, String body) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
    return p;
  }

  private void assertNoTempLeft() throws IOException {
    try (Stream<Path> s = Files.list(tmp)) {
      assertEquals(List.of(), s.toList(), "temp entries left");
    }
  }

  /** The lines the log of a logging program holds that equal {@code line}. */
  private static long count(Path log, String line) throws IOException {
    return Files.readAllLines(log).stream().filter(line::equals).count();
  }

  @Test
  void gzipRoundTripsASpillingSortToGnuSortsOutput() throws IOException {
    Run r = sort("--compress-program=gzip");
    assertEquals(0, r.exit, r.err);
    assertArrayEquals(expected, r.out, "output differs from LC_ALL=C sort's");
    assertNoTempLeft();
    // The same through a gzip that logs its calls: the blocks did go through it, both ways.
    Path log = dir.resolve("calls.log");
    Path gz = script("logging-gzip", "echo \"c $*\" >> " + log + "\nexec gzip \"$@\"");
    r = sort("--compress-program=" + gz);
    assertEquals(0, r.exit, r.err);
    assertArrayEquals(expected, r.out, "output differs from LC_ALL=C sort's");
    assertTrue(count(log, "c ") >= 4, "blocks compressed: " + count(log, "c "));
    assertTrue(count(log, "c -d") >= 4, "blocks decompressed: " + count(log, "c -d"));
    assertNoTempLeft();
  }

  @Test
  void aProgramThatExitsNonZeroFailsTheSortCleanly() throws IOException {
    Path out = Files.writeString(dir.resolve("out.txt"), "previous\n");
    Path fails = script("fails", "cat > /dev/null\nexit 3");
    Run r = sort("--compress-program=" + fails, "-o", out.toString());
    assertCleanFailure(
        r,
        Pattern.quote("joule: '" + fails + "' terminated abnormally: exit status 3 (compressing")
            + " block 0 of .*run-.*\\)");
    assertEquals("previous\n", Files.readString(out), "the previous output was changed");
    // -d: the compression worked, the first block read back fails; no -o: nothing on stdout.
    Path failsD = script("fails-d", "if [ \"$1\" = -d ]; then exit 4; fi\nexec gzip");
    r = sort("--compress-program=" + failsD);
    assertCleanFailure(
        r,
        Pattern.quote("joule: '" + failsD + "' -d terminated abnormally: exit status 4")
            + " \\(decompressing block \\d+ of .*run-.*\\)");
    assertEquals(0, r.out.length, "output written");
  }

  @Test
  void aProgramThatIsMissingFailsTheSortCleanly() throws IOException {
    Path out = dir.resolve("out.txt");
    String missing = dir.resolve("no-such-program").toString();
    Run r = sort("--compress-program=" + missing, "-o", out.toString());
    assertCleanFailure(
        r,
        Pattern.quote(
                "joule: couldn't execute compress program '"
                    + missing
                    + "': No such file or directory (compressing")
            + " block 0 of .*run-.*\\)");
    assertFalse(Files.exists(out), "output created");
    // Missing for -d only: a gzip that moves itself away after the sort's last compression (all
    // of a two-pass sort's compressions come before its merge reads a block), counted by a first
    // sort with the same options (to a file too: a sort to standard output is a sort of streams,
    // whose runs differ).
    Path log = dir.resolve("calls.log");
    Path gz = script("logging-gzip", "echo \"c $*\" >> " + log + "\nexec gzip \"$@\"");
    Run first = sort("--compress-program=" + gz, "-o", dir.resolve("first.txt").toString());
    assertEquals(0, first.exit, first.err);
    long blocks = count(log, "c ");
    Path vanishing =
        script(
            "vanishing-gzip",
            "gzip\nn=$(($(cat "
                + dir.resolve("n")
                + " 2>/dev/null || echo 0) + 1))\necho $n > "
                + dir.resolve("n")
                + "\nif [ $n -ge "
                + blocks
                + " ]; then mv \"$0\" \"$0.gone\"; fi");
    r = sort("--compress-program=" + vanishing, "-o", out.toString());
    assertCleanFailure(
        r,
        Pattern.quote(
                "joule: couldn't execute compress program '"
                    + vanishing
                    + "' (with -d): No such file or directory (decompressing")
            + " block \\d+ of .*run-.*\\)");
    assertFalse(Files.exists(out), "output created");
  }

  private void assertCleanFailure(Run r, String lastLine) throws IOException {
    assertEquals(2, r.exit, r.err);
    List<String> lines = r.err.strip().lines().toList();
    String last = lines.get(lines.size() - 1);
    assertTrue(last.matches(lastLine), "stderr's last line: " + last + "\nexpected: " + lastLine);
    assertNoTempLeft();
  }

  private static boolean onPath(String program) {
    return Pattern.compile(Pattern.quote(File.pathSeparator))
        .splitAsStream(System.getenv().getOrDefault("PATH", ""))
        .anyMatch(d -> Files.isExecutable(Path.of(d, program)));
  }
}

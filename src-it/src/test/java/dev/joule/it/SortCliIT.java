package dev.joule.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code joule sort} and {@code joule bench} end to end through the real {@code ./joule} launcher:
 * gensort records ({@code --gensort}) checked by {@code joule valsort}, standard streams, {@code
 * --explain}, {@code --report-json} and SIGTERM cleanup.
 */
class SortCliIT {
  private static final long TIMEOUT_SECONDS = 120;

  @TempDir Path dir;
  Path tmp1;
  Path tmp2;

  @BeforeEach
  void dirs() throws IOException {
    tmp1 = Files.createDirectory(dir.resolve("tmp1"));
    tmp2 = Files.createDirectory(dir.resolve("tmp2"));
  }

  /** Exit code, stdout and stderr of one launcher run. */
  record Result(int exitCode, String out, String err) {}

  private ProcessBuilder launcher(String... args) {
    String root = System.getProperty("joule.root");
    assertTrue(root != null, "system property joule.root (the repository root) is not set");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(root, "joule").toAbsolutePath().normalize().toString());
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).directory(dir.toFile());
  }

  private Result joule(File stdin, File stdout, String... args)
      throws IOException, InterruptedException {
    Path err = dir.resolve("stderr.txt");
    Path out = stdout != null ? stdout.toPath() : dir.resolve("stdout.txt");
    ProcessBuilder pb = launcher(args).redirectOutput(out.toFile()).redirectError(err.toFile());
    if (stdin != null) {
      pb.redirectInput(stdin);
    }
    Process p = pb.start();
    if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + pb.command());
    }
    String o = stdout != null ? "" : Files.readString(out, StandardCharsets.UTF_8);
    return new Result(p.exitValue(), o, Files.readString(err, StandardCharsets.UTF_8));
  }

  private Result joule(String... args) throws IOException, InterruptedException {
    return joule(null, null, args);
  }

  /** Generates {@code n} records into {@code name} and returns gensort's checksum. */
  private String gensort(long n, String name) throws Exception {
    Result r = joule("gensort", "-c", "-t2", Long.toString(n), name);
    assertEquals(0, r.exitCode(), r::toString);
    return r.err().trim();
  }

  /** valsort must accept {@code file} with {@code n} records and {@code checksum}. */
  private void assertValid(String file, long n, String checksum) throws Exception {
    Result v = joule("valsort", file);
    assertEquals(0, v.exitCode(), v::toString);
    assertTrue(v.err().contains("Records: " + n + "\n"), v::toString);
    assertTrue(v.err().contains("Checksum: " + checksum + "\n"), v::toString);
  }

  private static List<Path> list(Path d) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.toList();
    }
  }

  @Test
  void sortsGeneratedDataOverTwoStripesWithMergePassesAndValsortAgrees() throws Exception {
    String sum = gensort(200_000, "in.dat"); // 20 MB
    Result r =
        joule(
            "sort",
            "--gensort",
            "--memory",
            "8m",
            "--fan-in",
            "2",
            "--temp",
            tmp1.toString(),
            "--temp",
            tmp2.toString(),
            "--stats",
            "-o",
            "out.dat",
            "in.dat");
    assertEquals(0, r.exitCode(), r::toString);
    assertTrue(r.err().contains("merge pass"), r::toString);
    assertValid("out.dat", 200_000, sum);
    assertEquals(List.of(), list(tmp1));
    assertEquals(List.of(), list(tmp2));
  }

  /** No FILE (standard input), and {@code -} for it, both to standard output (no {@code -o}). */
  @Test
  void sortsStandardInputToStandardOutput() throws Exception {
    String sum = gensort(50_000, "in.dat");
    for (List<String> args :
        List.of(
            List.of("sort", "--gensort", "--temp", tmp1.toString()),
            List.of("sort", "--gensort", "--temp", tmp1.toString(), "-"))) {
      Result r =
          joule(
              dir.resolve("in.dat").toFile(),
              dir.resolve("out.dat").toFile(),
              args.toArray(new String[0]));
      assertEquals(0, r.exitCode(), () -> args + ": " + r);
      assertEquals("", r.err(), args::toString);
      assertValid("out.dat", 50_000, sum);
      assertEquals(List.of(), list(tmp1), args::toString);
    }
  }

  /**
   * With {@code -o} and without it (the output is then standard output, where the plan goes, and no
   * output file is needed): a plan, and nothing written.
   */
  @Test
  void explainPrintsAPlanAndWritesNothing() throws Exception {
    gensort(100_000, "in.dat");
    for (List<String> output : List.of(List.of("-o", "out.dat"), List.<String>of())) {
      List<String> args =
          new ArrayList<>(
              List.of(
                  "sort", "--gensort", "--explain", "--memory", "8m", "--temp", tmp1.toString()));
      args.addAll(output);
      args.add("in.dat");
      Result r = joule(args.toArray(new String[0]));
      assertEquals(0, r.exitCode(), () -> args + ": " + r);
      assertFalse(r.out().isBlank(), () -> args + ": " + r);
      assertFalse(Files.exists(dir.resolve("out.dat")), args::toString);
      assertEquals(List.of(), list(tmp1), args::toString);
      assertEquals(
          List.of("in.dat", "stderr.txt", "stdout.txt", "tmp1", "tmp2"),
          list(dir).stream().map(p -> p.getFileName().toString()).sorted().toList(),
          args::toString);
    }
  }

  @Test
  void reportJsonHasTheReportsKeysAndParses() throws Exception {
    gensort(100_000, "in.dat");
    Result r =
        joule(
            "sort",
            "--gensort",
            "--memory",
            "8m",
            "--temp",
            tmp1.toString(),
            "--report-json",
            "report.json",
            "-o",
            "out.dat",
            "in.dat");
    assertEquals(0, r.exitCode(), r::toString);
    String json = Files.readString(dir.resolve("report.json")).trim();
    assertWellFormed(json);
    for (String key :
        List.of(
            "records",
            "bytes",
            "threads",
            "stripes",
            "directIo",
            "runs",
            "mergePasses",
            "fanIn",
            "peakMemoryBytes",
            "wallSeconds",
            "cpuSeconds",
            "phases",
            "input",
            "output",
            "name",
            "bytesRead",
            "bytesWritten",
            "checksum",
            "duplicates",
            "ordered")) {
      assertTrue(Pattern.compile("\"" + key + "\"\\s*:").matcher(json).find(), key + " in " + json);
    }
    Matcher m = Pattern.compile("^\\{\\s*\"records\"\\s*:\\s*(\\d+)\\s*,").matcher(json);
    assertTrue(m.find(), json);
    assertEquals("100000", m.group(1));
    for (String nested :
        List.of(
            "\"phases\"\\s*:\\s*\\[\\s*\\{",
            "\"input\"\\s*:\\s*\\{",
            "\"output\"\\s*:\\s*\\{",
            "\"ordered\"\\s*:\\s*true")) {
      assertTrue(Pattern.compile(nested).matcher(json).find(), nested + " in " + json);
    }
  }

  /** Braces and brackets balance outside strings, strings close, and it is one object. */
  static void assertWellFormed(String json) {
    assertTrue(json.startsWith("{") && json.endsWith("}"), json);
    StringBuilder stack = new StringBuilder();
    boolean inString = false;
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      if (inString) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
      } else if (c == '{' || c == '[') {
        stack.append(c);
      } else if (c == '}' || c == ']') {
        assertTrue(
            stack.length() > 0 && stack.charAt(stack.length() - 1) == (c == '}' ? '{' : '['), json);
        stack.setLength(stack.length() - 1);
        assertTrue(stack.length() > 0 || i == json.length() - 1, "text after the object: " + json);
      }
    }
    assertFalse(inString, json);
    assertEquals(0, stack.length(), json);
  }

  @Test
  void benchRunsGeneratesSortsValidatesAndCleansUp() throws Exception {
    Result r =
        joule(
            "bench",
            "--records",
            "100000",
            "--repeat",
            "1",
            "--dir",
            tmp1.toString(),
            "--temp",
            tmp2.toString(),
            "--memory",
            "8m");
    assertEquals(0, r.exitCode(), r::toString);
    List<String> lines = r.out().lines().toList();
    assertTrue(
        lines.get(0).startsWith("joule bench: 100,000 binary records (0.0 GB) in "), r::toString);
    assertTrue(
        lines.get(1).startsWith("run        wall s     CPU s      MB/s    records/s   CPU-s/GB"),
        r::toString);
    assertTrue(
        lines
            .get(2)
            .matches("1 +\\d+\\.\\d{3} +\\d+\\.\\d{3} +\\d+\\.\\d +[\\d,]+ +\\d+\\.\\d{2} +.*"),
        r::toString);
    assertTrue(
        r.out().contains("energy: not measured: ")
            || lines.get(2).matches(".* \\d+\\.\\d +[\\d,]+$"),
        r::toString);
    assertEquals(List.of(), list(tmp1));
    assertEquals(List.of(), list(tmp2));
  }

  @Test
  void sigtermExits143LeavesNoTempsAndKeepsThePreviousOutput() throws Exception {
    gensort(1_000_000, "in.dat"); // 100 MB with an 8 MiB budget: many runs, then merges
    byte[] previous = "the previous output\n".getBytes(StandardCharsets.US_ASCII);
    Path out = dir.resolve("out.dat");
    Files.write(out, previous);
    Process p =
        launcher(
                "sort",
                "--gensort",
                "--memory",
                "8m",
                "--threads",
                "1",
                "--temp",
                tmp1.toString(),
                "-o",
                "out.dat",
                "in.dat")
            .redirectOutput(dir.resolve("stdout.txt").toFile())
            .redirectError(dir.resolve("stderr.txt").toFile())
            .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!hasRunFile(tmp1)) { // the "phase reached" marker: a run file exists
      assertTrue(p.isAlive(), () -> "sort ended before a run file appeared: " + read("stderr.txt"));
      assertTrue(System.nanoTime() < deadline, "no run file within 60 s");
      Thread.sleep(5);
    }
    p.destroy(); // SIGTERM
    assertTrue(p.waitFor(10, TimeUnit.SECONDS), "still running 10 s after SIGTERM");
    assertEquals(143, p.exitValue(), () -> read("stderr.txt"));
    assertEquals(List.of(), list(tmp1));
    assertArrayEquals(previous, Files.readAllBytes(out));
    assertEquals(
        List.of("in.dat", "out.dat", "stderr.txt", "stdout.txt", "tmp1", "tmp2"),
        list(dir).stream().map(f -> f.getFileName().toString()).sorted().toList());
  }

  private static boolean hasRunFile(Path stripe) throws IOException {
    for (Path d : list(stripe)) {
      try {
        if (Files.isDirectory(d)
            && list(d).stream().anyMatch(f -> !f.getFileName().toString().equals("owner.lock"))) {
          return true;
        }
      } catch (IOException e) {
        // the private dir went away between the two listings: look again
      }
    }
    return false;
  }

  private String read(String name) {
    try {
      return Files.readString(dir.resolve(name));
    } catch (IOException e) {
      return e.toString();
    }
  }
}

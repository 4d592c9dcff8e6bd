package dev.joule.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code joule sort} and {@code joule bench} end to end through the real {@code ./joule} launcher:
 * gensort records ({@code --gensort}) checked by {@code joule valsort}, standard streams, {@code
 * --explain}, {@code --report-json}, SIGTERM cleanup; and GNU sort's calling convention on text
 * lines: the default order and GNU's orderings against {@code LC_ALL=C sort}, several FILEs, no
 * FILE, {@code -o} onto an input, {@code -m}, {@code -c}/{@code -C}, an unterminated last line,
 * files, standard input and pipes alike, {@code -z}, options after files.
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
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    // joule sorts in its environment's locale, as GNU does; these tests hold LC_ALL=C sort's output
    pb.environment().put("LC_ALL", "C");
    return pb;
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
            "checksumKind",
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

  // --- GNU sort's calling convention: text lines, FILEs, -o, -m, -c/-C ---

  /** The bytes a successful {@code joule} run wrote to standard output ({@code stdin} or none). */
  private byte[] sorted(File stdin, String... args) throws Exception {
    Path out = dir.resolve("sorted.out");
    Result r = joule(stdin, out.toFile(), args);
    assertEquals(0, r.exitCode(), () -> List.of(args) + ": " + r);
    assertEquals("", r.err(), () -> List.of(args) + ": stderr");
    return Files.readAllBytes(out);
  }

  /**
   * Runs {@code bash -c script} in {@code dir} with the launcher as {@code $0}; returns its
   * standard output (exit 0 and an empty stderr asserted).
   */
  private byte[] bash(String script) throws Exception {
    String root = System.getProperty("joule.root");
    Path out = dir.resolve("bash.out");
    Path err = dir.resolve("bash.err");
    Process p =
        new ProcessBuilder(
                "bash",
                "-c",
                script,
                Path.of(root, "joule").toAbsolutePath().normalize().toString())
            .directory(dir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    assertTrue(p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS), "timed out: " + script);
    String e = Files.readString(err, StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), () -> script + ": " + e);
    assertEquals("", e, script);
    return Files.readAllBytes(out);
  }

  /** GNU sort (C locale) is on the PATH; if not, the test is skipped with the reason printed. */
  static void assumeGnuSort() throws Exception {
    Process p = new ProcessBuilder("sort", "--version").redirectErrorStream(true).start();
    String v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    boolean gnu = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 && v.contains("GNU");
    if (!gnu) {
      System.out.println("SortCliIT: skipped, no GNU sort on the PATH: " + v.strip());
    }
    assumeTrue(gnu, "no GNU sort on the PATH (sort --version: " + v.strip() + ")");
  }

  /** What {@code LC_ALL=C sort args} writes to standard output, run in {@code dir}. */
  private byte[] gnuSort(List<String> args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("sort"));
    cmd.addAll(args);
    Path out = dir.resolve("gnu.out");
    Path err = dir.resolve("gnu.err");
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    pb.environment().put("LC_ALL", "C");
    Process p = pb.start();
    assertTrue(p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS), "GNU sort timed out: " + cmd);
    assertEquals(0, p.exitValue(), () -> cmd + ": " + read("gnu.err"));
    return Files.readAllBytes(out);
  }

  /**
   * {@code n} random text lines with the fields GNU's orderings read: a word (with upper case,
   * punctuation and bytes over 0x7f), an integer, a human size, a version, a float and a month,
   * each sometimes missing or malformed, separated by blanks, tabs or commas, with leading blanks,
   * empty lines and duplicates. The last line has its newline.
   */
  static byte[] textLines(long seed, int n) {
    Random r = new Random(seed);
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    List<byte[]> earlier = new ArrayList<>();
    String[] seps = {" ", "  ", "\t", " \t", ",", ", "};
    String[] suffixes = {"", "", "K", "M", "G", "k", "T", "x"};
    String[] versions = {"1.2.10", "1.10", "1.2", "v2", "1.2a", "1.02", "2.0~rc1", "10", "1.2.9"};
    // no NaN: GNU sort -g orders NaNs by their bits (padding included), not reproducibly
    String[] floats = {
      "1e3", "-2.5E-2", "inf", "-inf", "3.14", "0.5", "-0", "1e-5", "abc", "0x1p3"
    };
    String[] months = {"Jan", "FEB", "mar", " apr", "dec", "May", "foo", "JUNE", "sep"};
    for (int i = 0; i < n; i++) {
      int kind = r.nextInt(40);
      if (kind == 0) {
        b.write('\n');
        continue;
      }
      if (kind == 1 && !earlier.isEmpty()) {
        byte[] dup = earlier.get(r.nextInt(earlier.size()));
        b.write(dup, 0, dup.length);
        continue;
      }
      java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
      if (r.nextInt(8) == 0) {
        line.write(r.nextBoolean() ? ' ' : '\t');
      }
      for (int f = 0; f < 6; f++) {
        if (f > 0) {
          byte[] sep = seps[r.nextInt(seps.length)].getBytes(StandardCharsets.US_ASCII);
          line.write(sep, 0, sep.length);
        }
        if (r.nextInt(12) == 0) {
          continue; // an empty field
        }
        String field =
            switch (f) {
              case 0 -> null;
              case 1 ->
                  (r.nextInt(5) == 0 ? "-" : "")
                      + (r.nextInt(6) == 0 ? "00" : "")
                      + r.nextInt(r.nextBoolean() ? 100 : 1_000_000)
                      + (r.nextInt(10) == 0 ? "." + r.nextInt(100) : "");
              case 2 -> r.nextInt(2000) + suffixes[r.nextInt(suffixes.length)];
              case 3 -> versions[r.nextInt(versions.length)];
              case 4 -> floats[r.nextInt(floats.length)];
              default -> months[r.nextInt(months.length)];
            };
        if (field != null) {
          byte[] fb = field.getBytes(StandardCharsets.US_ASCII);
          line.write(fb, 0, fb.length);
        } else {
          int len = r.nextInt(9);
          for (int c = 0; c < len; c++) {
            int pick = r.nextInt(20);
            line.write(
                pick == 0
                    ? 0x80 + r.nextInt(0x80) // a byte over 0x7f (C locale: after ASCII)
                    : pick < 3
                        ? "-_.!/'".charAt(r.nextInt(6))
                        : pick < 10 ? 'A' + r.nextInt(4) : 'a' + r.nextInt(4));
          }
        }
      }
      line.write('\n');
      byte[] l = line.toByteArray();
      earlier.add(l);
      b.write(l, 0, l.length);
    }
    return b.toByteArray();
  }

  /** The lines of {@code data} (each with its newline, one added to an unterminated last line). */
  static List<byte[]> lines(byte[] data) {
    List<byte[]> out = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < data.length; i++) {
      if (data[i] == '\n') {
        out.add(Arrays.copyOfRange(data, start, i + 1));
        start = i + 1;
      }
    }
    if (start < data.length) {
      byte[] last =
          Arrays.copyOf(Arrays.copyOfRange(data, start, data.length), data.length - start + 1);
      last[last.length - 1] = '\n';
      out.add(last);
    }
    return out;
  }

  /** GNU's default order in the C locale: whole lines as unsigned bytes (newline excluded). */
  static byte[] cSorted(byte[]... inputs) {
    List<byte[]> all = new ArrayList<>();
    for (byte[] in : inputs) {
      all.addAll(lines(in));
    }
    all.sort((x, y) -> Arrays.compareUnsigned(x, 0, x.length - 1, y, 0, y.length - 1));
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    all.forEach(l -> b.write(l, 0, l.length));
    return b.toByteArray();
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Text lines by default, to standard output, in GNU sort's order ({@code LC_ALL=C sort} on the
   * same file) under each of GNU's orderings.
   */
  @ParameterizedTest(name = "sort {0}")
  @ValueSource(
      strings = {
        "",
        "-r",
        "-n",
        "-n -r",
        "-u",
        "-f",
        "-f -u",
        "-n -u",
        "-b -k2",
        "-k2,2n",
        "-t, -k2,2n -k1,1r",
        "-s -k2,2",
        "-h -k3,3",
        "-V -k4,4",
        "-g -k5,5",
        "-M -k6,6",
        "-d",
        "-i",
        "--sort=human-numeric -k3",
        "-k1.2,1.4",
        "-k1b,1 -k3n",
        "-s -t, -k2"
      })
  void textLinesByDefaultSortAsGnuSortInTheCLocale(String options) throws Exception {
    assumeGnuSort();
    long seed = 0x7E47L ^ options.hashCode();
    Files.write(dir.resolve("in.txt"), textLines(seed, 20_000));
    List<String> args = new ArrayList<>();
    if (!options.isEmpty()) {
      args.addAll(List.of(options.split(" ")));
    }
    args.add("in.txt");
    byte[] gnu = gnuSort(args);
    List<String> jouleArgs = new ArrayList<>(List.of("sort", "-T", tmp1.toString()));
    jouleArgs.addAll(args);
    byte[] ours = sorted(null, jouleArgs.toArray(new String[0]));
    assertEquals(
        firstDifference(gnu, ours),
        "",
        () -> "joule " + jouleArgs + " against LC_ALL=C sort " + args + " (seed " + seed + ")");
    assertEquals(List.of(), list(tmp1));
  }

  /** "" if equal, else the first line where they differ and its neighbours. */
  static String firstDifference(byte[] expected, byte[] actual) {
    if (Arrays.equals(expected, actual)) {
      return "";
    }
    List<byte[]> e = lines(expected);
    List<byte[]> a = lines(actual);
    int i = 0;
    while (i < e.size() && i < a.size() && Arrays.equals(e.get(i), a.get(i))) {
      i++;
    }
    StringBuilder sb =
        new StringBuilder(
            "lines "
                + e.size()
                + " expected, "
                + a.size()
                + " actual; first difference at line "
                + (i + 1)
                + "\n");
    for (int k = Math.max(0, i - 2); k < i + 3; k++) {
      sb.append("  expected ")
          .append(k < e.size() ? show(e.get(k)) : "(none)")
          .append("\n  actual   ")
          .append(k < a.size() ? show(a.get(k)) : "(none)")
          .append('\n');
    }
    return sb.toString();
  }

  private static String show(byte[] line) {
    return new String(line, StandardCharsets.ISO_8859_1).replace("\t", "\\t").replace("\n", "\\n");
  }

  /**
   * Several FILEs are sorted together, as if concatenated: a file whose last line lacks its newline
   * gets one, an empty file adds nothing, and {@code -} among them is standard input.
   */
  @Test
  void severalFilesAreSortedTogether() throws Exception {
    byte[] a = ascii("pear\napple\nfig");
    byte[] b = ascii("");
    byte[] c = ascii("banana\nfig\n\nZebra\n");
    byte[] d = ascii("cherry\nabc");
    Files.write(dir.resolve("a.txt"), a);
    Files.write(dir.resolve("b.txt"), b);
    Files.write(dir.resolve("c.txt"), c);
    Files.write(dir.resolve("d.txt"), d);
    byte[] expected = ascii("\nZebra\nabc\napple\nbanana\ncherry\nfig\nfig\npear\n");
    assertArrayEquals(expected, cSorted(a, b, c, d));
    assertEquals(
        new String(expected, StandardCharsets.US_ASCII),
        new String(
            sorted(null, "sort", "-T", tmp1.toString(), "a.txt", "b.txt", "c.txt", "d.txt"),
            StandardCharsets.US_ASCII));
    assertArrayEquals(
        expected,
        sorted(
            dir.resolve("c.txt").toFile(),
            "sort",
            "-T",
            tmp1.toString(),
            "a.txt",
            "b.txt",
            "-",
            "d.txt"),
        "c.txt as standard input among the files");
    assertArrayEquals(
        ascii("apple\nfig\npear\n"),
        sorted(null, "sort", "-T", tmp1.toString(), "a.txt", "b.txt"),
        "a file's unterminated last line");
    assertEquals(List.of(), list(tmp1));
  }

  /** {@code --files0-from=F}: the FILEs are the NUL-terminated names in F. */
  @Test
  void files0FromNamesTheInputs() throws Exception {
    Files.write(dir.resolve("a.txt"), ascii("b\nd\n"));
    Files.write(dir.resolve("c d.txt"), ascii("c\na\n"));
    Files.write(dir.resolve("names"), ascii("a.txt\0c d.txt\0"));
    assertArrayEquals(
        ascii("a\nb\nc\nd\n"), sorted(null, "sort", "-T", tmp1.toString(), "--files0-from=names"));
  }

  /**
   * {@code --files0-from=-} reads the names from standard input, also from a pipe (JDK 17's {@code
   * FileInputStream.readAllBytes} failed there with "Illegal seek").
   */
  @Test
  void files0FromStandardInputReadsAPipe() throws Exception {
    Files.write(dir.resolve("a.txt"), ascii("b\nd\n"));
    Files.write(dir.resolve("c.txt"), ascii("c\na\n"));
    assertArrayEquals(
        ascii("a\nb\nc\nd\n"),
        bash("printf 'a.txt\\0c.txt\\0' | \"$0\" sort --files0-from=-"),
        "names through a pipe");
  }

  /** No FILE: standard input, here a text file redirected, to standard output. */
  @Test
  void noFileSortsStandardInputAsText() throws Exception {
    byte[] in = textLines(11, 5_000);
    Files.write(dir.resolve("in.txt"), in);
    assertArrayEquals(
        cSorted(in), sorted(dir.resolve("in.txt").toFile(), "sort", "-T", tmp1.toString()));
    assertEquals(List.of(), list(tmp1));
  }

  /** A last line without its newline gets one, wherever it sorts; so does a file of one line. */
  @Test
  void aLastLineWithoutItsNewlineGetsOne() throws Exception {
    for (String[] c :
        List.of(
            new String[] {"b\na", "a\nb\n"},
            new String[] {"a\nb", "a\nb\n"},
            new String[] {"only", "only\n"},
            new String[] {"x\n\ny", "\nx\ny\n"})) {
      Files.write(dir.resolve("in.txt"), ascii(c[0]));
      assertEquals(
          c[1],
          new String(
              sorted(null, "sort", "-T", tmp1.toString(), "in.txt"), StandardCharsets.US_ASCII),
          () -> "input " + c[0].replace("\n", "\\n"));
      assertEquals(
          c[1],
          new String(
              sorted(dir.resolve("in.txt").toFile(), "sort", "-T", tmp1.toString()),
              StandardCharsets.US_ASCII),
          () -> "standard input " + c[0].replace("\n", "\\n"));
    }
  }

  /**
   * {@code -o} names one of the inputs: that file is replaced (atomically) by the sort of all the
   * inputs, the other inputs are untouched, nothing goes to standard output, and no temp is left.
   */
  @Test
  void outputOntoOneOfTheInputsSortsInPlace() throws Exception {
    byte[] a = textLines(21, 3_000);
    byte[] b = ascii("zzz\nmiddle\n\n");
    Files.write(dir.resolve("a.txt"), a);
    Files.write(dir.resolve("b.txt"), b);
    Result r = joule("sort", "-T", tmp1.toString(), "-o", "a.txt", "a.txt", "b.txt");
    assertEquals(0, r.exitCode(), r::toString);
    assertEquals("", r.out() + r.err());
    assertArrayEquals(cSorted(a, b), Files.readAllBytes(dir.resolve("a.txt")));
    assertArrayEquals(b, Files.readAllBytes(dir.resolve("b.txt")));
    Result r2 = joule("sort", "-T", tmp1.toString(), "--output=b.txt", "b.txt");
    assertEquals(0, r2.exitCode(), r2::toString);
    assertArrayEquals(ascii("\nmiddle\nzzz\n"), Files.readAllBytes(dir.resolve("b.txt")));
    assertEquals(List.of(), list(tmp1));
    assertEquals(
        List.of("a.txt", "b.txt", "stderr.txt", "stdout.txt", "tmp1", "tmp2"),
        list(dir).stream().map(p -> p.getFileName().toString()).sorted().toList());
  }

  /** {@code -m} merges already sorted inputs (files and standard input) into their sort. */
  @Test
  void mergeOfSortedInputs() throws Exception {
    byte[] all = textLines(31, 9_000);
    List<byte[]> ls = lines(all);
    java.io.ByteArrayOutputStream[] parts = new java.io.ByteArrayOutputStream[3];
    for (int i = 0; i < 3; i++) {
      parts[i] = new java.io.ByteArrayOutputStream();
    }
    for (int i = 0; i < ls.size(); i++) {
      parts[i % 3].write(ls.get(i), 0, ls.get(i).length);
    }
    for (int i = 0; i < 3; i++) {
      Files.write(dir.resolve("s" + i + ".txt"), cSorted(parts[i].toByteArray()));
    }
    byte[] expected = cSorted(all);
    assertArrayEquals(
        expected,
        sorted(null, "sort", "-m", "-T", tmp1.toString(), "s0.txt", "s1.txt", "s2.txt"),
        "-m of three files");
    assertArrayEquals(
        expected,
        sorted(
            dir.resolve("s1.txt").toFile(),
            "sort",
            "--merge",
            "-T",
            tmp1.toString(),
            "s0.txt",
            "-",
            "s2.txt"),
        "--merge with standard input");
    assertEquals(List.of(), list(tmp1));
  }

  /**
   * {@code -c} exits 1 at the first disorder and names it ({@code joule: FILE:LINE: disorder:
   * TEXT}), {@code -C} and {@code --check=quiet|silent} exit 1 printing nothing; on sorted input
   * all exit 0 printing nothing. With {@code -u}, equal neighbours are a disorder.
   */
  @Test
  void checkExitsOneForDisorderAndZeroWhenSorted() throws Exception {
    Files.write(dir.resolve("sorted.txt"), ascii("a\nb\nb\nc\n"));
    Files.write(dir.resolve("unsorted.txt"), ascii("a\nc\nb\nd\na\n"));
    for (String check : List.of("-c", "-C", "--check", "--check=quiet", "--check=silent")) {
      Result ok = joule("sort", check, "sorted.txt");
      assertEquals(0, ok.exitCode(), () -> check + " on sorted input: " + ok);
      assertEquals("", ok.out() + ok.err(), () -> check + " on sorted input");
      Result bad = joule("sort", check, "unsorted.txt");
      assertEquals(1, bad.exitCode(), () -> check + " on unsorted input: " + bad);
      assertEquals("", bad.out(), check);
      if (check.equals("-c") || check.equals("--check")) {
        assertEquals("joule: unsorted.txt:3: disorder: b\n", bad.err(), check);
      } else {
        assertEquals("", bad.err(), check + " prints nothing");
      }
    }
    Result stdin = joule(dir.resolve("unsorted.txt").toFile(), null, "sort", "-c");
    assertEquals(1, stdin.exitCode(), stdin::toString);
    assertEquals("joule: -:3: disorder: b\n", stdin.err());
    Result unique = joule("sort", "-c", "-u", "sorted.txt");
    assertEquals(1, unique.exitCode(), unique::toString);
    assertEquals("joule: sorted.txt:3: disorder: b\n", unique.err());
    Result numeric = joule("sort", "-c", "-n", "sorted.txt");
    assertEquals(
        0, numeric.exitCode(), () -> "-c -n: all keys 0, then the last resort: " + numeric);
    Files.write(dir.resolve("numbers.txt"), ascii("2\n10\n"));
    assertEquals(0, joule("sort", "-C", "-n", "numbers.txt").exitCode(), "2 < 10 by -n");
    assertEquals(1, joule("sort", "-C", "numbers.txt").exitCode(), "'10' < '2' as text");
  }

  /**
   * The same text as a file, as {@code -} and as no FILE with standard input redirected, through a
   * pipe into standard input, and as a pipe given as FILE ({@code <(cat f)}): the same output. The
   * input is larger than the memory budget, so the sort spills runs and merges them.
   */
  @Test
  void fileStandardInputAndPipeGiveTheSameOutput() throws Exception {
    byte[] in = textLines(41, 150_000); // about 5 MB
    Files.write(dir.resolve("in.txt"), in);
    byte[] expected = cSorted(in);
    String opts = "-S 8M --batch-size=2 -T tmp1 -T tmp2 --parallel=2";
    List<String> base = new ArrayList<>(List.of("sort"));
    base.addAll(List.of(opts.split(" ")));
    List<String> file = new ArrayList<>(base);
    file.add("in.txt");
    assertArrayEquals(expected, sorted(null, file.toArray(new String[0])), "FILE");
    List<String> dash = new ArrayList<>(base);
    dash.add("-");
    assertArrayEquals(
        expected, sorted(dir.resolve("in.txt").toFile(), dash.toArray(new String[0])), "-");
    assertArrayEquals(
        expected,
        sorted(dir.resolve("in.txt").toFile(), base.toArray(new String[0])),
        "no FILE, standard input redirected");
    assertArrayEquals(expected, bash("cat in.txt | \"$0\" sort " + opts), "a pipe to stdin");
    assertArrayEquals(expected, bash("\"$0\" sort " + opts + " <(cat in.txt)"), "<(cat in.txt)");
    assertEquals(List.of(), list(tmp1));
    assertEquals(List.of(), list(tmp2));
  }

  /**
   * Text larger than the memory budget over two stripes, with merge passes, in GNU's spellings of
   * the options ({@code -S -T --batch-size --parallel}), and in joule's.
   */
  @Test
  void textOverTwoStripesWithMergePasses() throws Exception {
    byte[] in = textLines(51, 250_000); // about 8 MB: several runs at -S 8M, passes at fan-in 2
    Files.write(dir.resolve("in.txt"), in);
    byte[] expected = cSorted(in);
    Result r =
        joule(
            "sort",
            "-S",
            "8M",
            "--batch-size=2",
            "-T",
            tmp1.toString(),
            "--temporary-directory=" + tmp2,
            "--parallel=2",
            "--stats",
            "-o",
            "out.txt",
            "in.txt");
    assertEquals(0, r.exitCode(), r::toString);
    assertTrue(r.err().contains("merge pass"), r::toString);
    assertArrayEquals(expected, Files.readAllBytes(dir.resolve("out.txt")));
    Result j =
        joule(
            "sort",
            "--memory",
            "8m",
            "--fan-in",
            "2",
            "--temp",
            tmp1.toString(),
            "--temp",
            tmp2.toString(),
            "--threads",
            "2",
            "-o",
            "out.txt",
            "in.txt");
    assertEquals(0, j.exitCode(), j::toString);
    assertArrayEquals(expected, Files.readAllBytes(dir.resolve("out.txt")));
    assertEquals(List.of(), list(tmp1));
    assertEquals(List.of(), list(tmp2));
  }

  /** {@code -z}: NUL-terminated lines, which may hold newlines. */
  @Test
  void zeroTerminatedLines() throws Exception {
    Files.write(dir.resolve("in.z"), ascii("b\nx\0a\0c\nc\0a"));
    assertArrayEquals(
        ascii("a\0a\0b\nx\0c\nc\0"), sorted(null, "sort", "-z", "-T", tmp1.toString(), "in.z"));
  }

  /**
   * GNU's usage errors exit 2 with one {@code joule:} line and nothing on standard output: a zero
   * field, a multi-character tab, incompatible orderings, -c with two files, {@code --debug} beside
   * {@code -o} (GNU's message).
   */
  @ParameterizedTest(name = "sort {0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "-k0 in.txt | field number is zero",
        "-t ab in.txt | multi-character tab",
        "-n -g in.txt | incompatible",
        "-M -n in.txt | incompatible",
        "-c in.txt in.txt | extra operand",
        "--debug -o out.txt in.txt | options '-o --debug' are incompatible",
        "--no-such-option in.txt | --no-such-option"
      })
  void usageErrorsExit2WithOneLine(String args, String message) throws Exception {
    Files.write(dir.resolve("in.txt"), ascii("b\na\n"));
    List<String> cmd = new ArrayList<>(List.of("sort"));
    cmd.addAll(List.of(args.split(" ")));
    Result r = joule(cmd.toArray(new String[0]));
    assertEquals(2, r.exitCode(), r::toString);
    assertEquals("", r.out(), r::toString);
    assertTrue(r.err().startsWith("joule: ") && r.err().contains(message), r::toString);
  }

  /**
   * {@code --debug} through the launcher: GNU sort 9.1's output for these lines and options ({@code
   * LC_ALL=C sort --debug -k2,2n in.txt}), its warnings on standard error.
   */
  @Test
  void debugMarksKeysAsGnuSortDoes() throws Exception {
    Files.write(dir.resolve("in.txt"), ascii("b\t2 x\na 1\n  c 10K\n\nd\n"));
    Result r = joule("sort", "--debug", "-k2,2n", "in.txt");
    assertEquals(0, r.exitCode(), r::toString);
    String marked =
        """

        ^ no match for key
        ^ no match for key
        d
         ^ no match for key
        _
        a 1
          _
        ___
        b>2 x
          _
        _____
          c 10K
            __
        _______
        """;
    assertEquals(marked, r.out(), r::toString);
    String warnings =
        """
        joule: text ordering performed using simple byte comparison
        joule: note numbers use '.' as a decimal point in this locale
        """;
    assertEquals(warnings, r.err(), r::toString);
  }

  /** Options may follow the files; {@code --} ends the options (a file named {@code -r}). */
  @Test
  void optionsAfterFilesAndDoubleDash() throws Exception {
    Files.write(dir.resolve("in.txt"), ascii("a\nc\nb\n"));
    Files.write(dir.resolve("-r"), ascii("y\nx\n"));
    assertArrayEquals(ascii("c\nb\na\n"), sorted(null, "sort", "in.txt", "-r"));
    assertArrayEquals(ascii("a\nb\nc\nx\ny\n"), sorted(null, "sort", "--", "in.txt", "-r"));
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

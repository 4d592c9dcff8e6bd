package dev.joule.cli;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code joule sort} with the real engine on the paths that stream instead of sorting ({@code -c},
 * {@code -C}, {@code -m}) and on the operands GNU takes (several files, standard input, {@code
 * --files0-from}, {@code -o} onto an input). Expected outputs come from a plain Java sort of the
 * lines with a comparator written from GNU's definitions, never from joule.
 */
class SortCommandStreamsTest {
  @TempDir Path dir;

  private record Run(int exit, String out, String err) {}

  private Run sort(String stdin, String... args) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CliEnvironment env =
        new CliEnvironment(
            SortEngine.external(),
            new ByteArrayInputStream(stdin.getBytes(ISO_8859_1)),
            out,
            RaplMeter.POWERCAP);
    List<String> a = new ArrayList<>(List.of("sort", "-T", tmp().toString(), "-S", "8M"));
    a.addAll(List.of(args));
    CliRun r = CliRun.run(env, a.toArray(new String[0]));
    return new Run(r.exitCode, out.toString(ISO_8859_1), r.err);
  }

  private Path tmp() throws IOException {
    return Files.createDirectories(dir.resolve("tmp"));
  }

  private Path file(String name, String text) throws IOException {
    return Files.write(dir.resolve(name), text.getBytes(ISO_8859_1));
  }

  /** Lines of {@code text} in C-locale order (unsigned bytes; ISO-8859-1 keeps byte order). */
  private static List<String> sortedLines(String text) {
    return text.lines().sorted().collect(Collectors.toList());
  }

  private static String join(List<String> lines) {
    return lines.stream().map(l -> l + "\n").collect(Collectors.joining());
  }

  @Test
  void checkReportsTheFirstDisorderWithGnusLineNumberAndExitsOne() throws IOException {
    Path sorted = file("sorted.txt", "a\nb\nb\nc\n");
    Path unsorted = file("unsorted.txt", "a\nc\nb\nd\na\n");
    assertEquals(new Run(0, "", ""), sort("", "-c", sorted.toString()));
    assertEquals(
        new Run(1, "", "joule: " + unsorted + ":3: disorder: b\n"),
        sort("", "-c", unsorted.toString()));
    assertEquals(new Run(1, "", ""), sort("", "-C", unsorted.toString()));
    assertEquals(new Run(1, "", ""), sort("", "--check=silent", unsorted.toString()));
    assertEquals(1, sort("", "--check", unsorted.toString()).exit()); // FILE is no WORD
    // -u checks strictly: the second b is a disorder; -s alone accepts equal keys.
    assertEquals(
        new Run(1, "", "joule: " + sorted + ":3: disorder: b\n"),
        sort("", "-cu", sorted.toString()));
    assertEquals(0, sort("b 1\nb 0\n", "-c", "-s", "-k1,1").exit());
    assertEquals(1, sort("b 1\nb 0\n", "-c", "-k1,1").exit()); // the last resort orders them
    assertEquals(new Run(1, "", "joule: -:2: disorder: 10\n"), sort("9\n10\n", "-c"));
    assertEquals(0, sort("9\n10\n", "-c", "-n").exit());
    assertEquals(2, sort("", "-c", sorted.toString(), unsorted.toString()).exit());
    assertEquals(2, sort("", "-c", "-o", dir.resolve("x").toString(), sorted.toString()).exit());
  }

  @Test
  void mergeInterleavesSortedInputsStablyAndKeepsTheFirstOfEqualKeysWithU() throws IOException {
    Random rnd = new Random(7);
    List<Path> inputs = new ArrayList<>();
    StringBuilder all = new StringBuilder();
    for (int f = 0; f < 4; f++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        lines.add((char) ('a' + rnd.nextInt(6)) + " " + f + " " + i);
      }
      lines.sort(Comparator.comparing(l -> l.substring(0, 1))); // sorted by -k1,1 only
      String text = join(lines);
      all.append(text);
      inputs.add(file("in" + f, text));
    }
    String[] files = inputs.stream().map(Path::toString).toArray(String[]::new);
    // -s -k1,1: a stable merge keeps file order among equal keys, exactly a stable sort's output.
    List<String> stable = new ArrayList<>(all.toString().lines().toList());
    stable.sort(Comparator.comparing(l -> l.substring(0, 1)));
    Run r = sort("", concat(new String[] {"-m", "-s", "-k1,1"}, files));
    assertEquals(new Run(0, join(stable), ""), r);
    // -u: the first line of each key, which is the first file's first such line.
    List<String> unique =
        stable.stream().collect(Collectors.groupingBy(l -> l.substring(0, 1))).values().stream()
            .map(g -> g.get(0))
            .sorted()
            .toList();
    assertEquals(
        new Run(0, join(unique), ""), sort("", concat(new String[] {"-mu", "-k1,1"}, files)));
    // Whole-line merge of whole-line sorted inputs equals the sort of everything.
    Path a = file("a", "apple\ncherry\n");
    Path b = file("b", "banana\ndate");
    assertEquals(
        new Run(0, "apple\nbanana\ncherry\ndate\n", ""),
        sort("", "-m", a.toString(), b.toString()));
    Path out = dir.resolve("merged");
    assertEquals(
        new Run(0, "", ""), sort("", "-m", "-o", a.toString(), a.toString(), b.toString()));
    assertEquals("apple\nbanana\ncherry\ndate\n", Files.readString(a, ISO_8859_1));
    assertEquals(0, sort("zz\n", "-m", "-o", out.toString(), b.toString(), "-").exit());
    assertEquals("banana\ndate\nzz\n", Files.readString(out, ISO_8859_1));
  }

  /**
   * {@code --debug} on a sort (from standard input) and on a merge: GNU sort 9.1's marks and
   * warnings for the same lines ({@code LC_ALL=C sort --debug}); a failing standard output is a
   * write error naming it, not a read error of the staged output.
   */
  @Test
  void debugMarksSortedAndMergedLinesAndFailsWritesAsWrites() throws IOException {
    String warnings =
        """
        joule: text ordering performed using simple byte comparison
        joule: note numbers use '.' as a decimal point in this locale
        """;
    String sorted =
        """
        c
         ^ no match for key
        _
        b 2
          _
        ___
        a 10
          __
        ____
        """;
    assertEquals(new Run(0, sorted, warnings), sort("b 2\na 10\nc\n", "--debug", "-k2,2n"));
    Path a = file("a", "a 1\nc 3\n");
    Path b = file("b", "b 2\n");
    String merged = "a 1\n  _\nb 2\n  _\nc 3\n  _\n";
    assertEquals(
        new Run(0, merged, warnings),
        sort("", "-m", "-s", "--debug", "-k2,2n", a.toString(), b.toString()));
    CliRun r = CliRun.run(failingStdout("No space left on device"), "sort", "--debug");
    assertEquals(2, r.exitCode, r::toString);
    assertTrue(
        r.err.contains("joule: write failed: /dev/stdout: No space left on device"), r::toString);
    // A reader that went away: GNU's silent end (BrokenPipe; here no process to signal).
    r = CliRun.run(failingStdout("Broken pipe"), "sort", "--debug");
    assertEquals(BrokenPipe.STATUS, r.exitCode, r::toString);
    assertEquals("joule: text ordering performed using simple byte comparison\n", r.err);
  }

  /** Standard input "b\na\n" and a standard output whose every write fails with {@code reason}. */
  private static CliEnvironment failingStdout(String reason) {
    OutputStream broken =
        new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            throw new IOException(reason);
          }
        };
    return new CliEnvironment(
        SortEngine.external(),
        new ByteArrayInputStream("b\na\n".getBytes(ISO_8859_1)),
        broken,
        RaplMeter.POWERCAP);
  }

  @Test
  void severalFilesStdinAndFiles0FromAreSortedTogether() throws IOException {
    Path a = file("a", "delta\nalpha");
    Path b = file("b", "charlie\n\nbravo\n");
    String stdin = "echo\n";
    String expected = join(sortedLines("delta\nalpha\ncharlie\n\nbravo\necho\n"));
    assertEquals(new Run(0, expected, ""), sort(stdin, a.toString(), "-", b.toString()));
    Path list = file("list", a + "\0" + b + "\0");
    assertEquals(
        new Run(0, join(sortedLines("delta\nalpha\ncharlie\n\nbravo\n")), ""),
        sort("", "--files0-from=" + list));
    assertEquals(
        new Run(0, join(sortedLines("delta\nalpha\ncharlie\n\nbravo\n")), ""),
        sort(a + "\0" + b, "--files0-from", "-"));
    Run r = sort("", "--files0-from=" + list, a.toString());
    assertEquals(2, r.exit());
    assertTrue(r.err().startsWith("joule: extra operand '" + a + "'"), r.err());
    r = sort("", "--files0-from=" + file("empty", ""));
    assertEquals(new Run(2, "", "joule: no input from '" + dir.resolve("empty") + "'\n"), r);
    r = sort("", "--files0-from=" + file("zero", a + "\0\0"));
    assertEquals(2, r.exit());
    assertTrue(r.err().contains(":2: invalid zero-length file name"), r.err());
    r = sort("-\0", "--files0-from=-");
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("no file name of '-' allowed"), r.err());
  }

  @Test
  void outputOntoAnInputIsAtomicAndAnEmptyInputSortsToNothing() throws IOException {
    Random rnd = new Random(11);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 5000; i++) {
      text.append(rnd.nextInt(1000)).append(i % 7 == 0 ? "" : " x").append('\n');
    }
    Path in = file("in", text.toString());
    assertEquals(new Run(0, "", ""), sort("", "-o", in.toString(), in.toString()));
    assertEquals(join(sortedLines(text.toString())), Files.readString(in, ISO_8859_1));
    assertEquals(new Run(0, "", ""), sort("", file("empty", "").toString()));
    assertEquals(new Run(0, "", ""), sort(""));
    try (Stream<Path> left = Files.list(tmp())) {
      assertEquals(List.of(), left.toList());
    }
  }

  @Test
  void hugeLinesSortMergeAndCheckUnderASmallBudget() throws IOException {
    // A 12 MiB line is larger than every arena an 8 MiB budget gives: it becomes a run of its own;
    // -m and -c grow their stream buffer to hold it.
    String huge = "m" + "x".repeat(12 << 20);
    String text = "z\n" + huge + "\na\n" + huge + "y\nb";
    Path in = file("huge", text);
    String expected = join(sortedLines(text));
    Path out = dir.resolve("sorted");
    assertEquals(new Run(0, "", ""), sort("", "-o", out.toString(), in.toString()));
    assertEquals(expected, Files.readString(out, ISO_8859_1));
    assertEquals(new Run(0, "", ""), sort("", "-c", out.toString()));
    assertEquals(1, sort("", "-C", in.toString()).exit());
    Path small = file("small", "c\nn\n");
    String merged = join(sortedLines(text + "\nc\nn\n"));
    assertEquals(new Run(0, merged, ""), sort("", "-m", out.toString(), small.toString()));
  }

  @Test
  void outputOntoAFifoIsWrittenIntoNotReplaced() throws Exception {
    // GNU writes into what -o names when it is no regular file (/dev/null, a FIFO, /dev/stdout);
    // a rename over it would replace /dev/null with a regular file.
    Path in = file("in", "b\na\nc\n");
    for (String mode : List.of("sort", "merge")) {
      Path fifo = dir.resolve("fifo-" + mode);
      assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
      byte[][] got = new byte[1][];
      Thread reader =
          new Thread(
              () -> {
                try {
                  got[0] = Files.readAllBytes(fifo);
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              },
              "fifo-reader");
      reader.start();
      Run r =
          mode.equals("sort")
              ? sort("", "-o", fifo.toString(), in.toString())
              : sort("", "-m", "-o", fifo.toString(), file("s", "a\nb\nc\n").toString());
      reader.join(60_000);
      assertEquals(new Run(0, "", ""), r);
      assertEquals("a\nb\nc\n", new String(got[0], ISO_8859_1));
      assertTrue(
          Files.readAttributes(fifo, java.nio.file.attribute.BasicFileAttributes.class).isOther(),
          "still a FIFO");
    }
  }

  @Test
  void argumentsAreReadAsGnuGetoptReadsThem() throws IOException {
    Path f = file("f", "b 2\na 1\n");
    // A blank attached to -t is the separator (picocli alone dropped it and took the next word).
    assertEquals(new Run(0, "a 1\nb 2\n", ""), sort("x\n", "-t ", "-k2", f.toString()));
    assertEquals(new Run(0, "a 1\nb 2\n", ""), sort("x\n", "-k2", "-nt ", f.toString()));
    // An option given twice takes the last value; an option's argument may look like an option.
    assertEquals(new Run(0, "b 2\na 1\n", ""), sort("", "-n", "-n", "-r", "-k2", f.toString()));
    Path odd = dir.resolve("-k1");
    assertEquals(new Run(0, "", ""), sort("", "-o", odd.toString(), f.toString()));
    assertEquals("a 1\nb 2\n", Files.readString(odd, ISO_8859_1));
    // -z -c ends its report with the line's own NUL, as GNU does.
    assertEquals(new Run(1, "", "joule: -:2: disorder: a\0"), sort("b\0a\0", "-z", "-c"));
  }

  private static String[] concat(String[] a, String[] b) {
    String[] r = new String[a.length + b.length];
    System.arraycopy(a, 0, r, 0, a.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }
}

package dev.joule.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.joule.it.CliContract.Run;
import dev.joule.it.CliContract.Snapshot;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bad and odd inputs through {@code ./joule sort} (docs/reliability.md I1, I3, I6, I8, I10, usage
 * errors), each checked with {@link CliContract}: empty input, a partial trailing gensort record
 * (and the same bytes as text lines, which are no error), a missing, unreadable (as nobody, via
 * setpriv) or directory input, a FIFO (read as a stream, works), {@code -o} = the input (sorted in
 * place; SIGTERM mid-sort leaves the old content), a missing output directory (exit 2 before the
 * input is read: a FIFO nobody writes to), absurd options and a compress program that fails. Binary
 * gensort data is sorted with {@code --gensort}; errors that do not depend on the format use the
 * default (text lines).
 */
class BadInputIT {
  @TempDir static Path shared;
  static Path input;
  @TempDir Path lab;

  @BeforeAll
  static void input() throws Exception {
    input = CliContract.gensortInput(shared, "200000");
  }

  Path tmp() throws IOException {
    return Files.createDirectories(lab.resolve("tmp"));
  }

  void assertValid(Path out, long records) throws Exception {
    Run v = CliContract.joule(lab, "valsort", out.toString());
    assertEquals(0, v.exit(), v::toString);
    assertTrue(v.err().contains("Records: " + records + "\n"), v::toString);
  }

  /**
   * As gensort records, NUL-terminated lines and text lines (the default format, here with {@code
   * --stable}): an empty output, as GNU sort's.
   */
  @ParameterizedTest
  @ValueSource(strings = {"--gensort", "--zero-terminated", "--stable"})
  void emptyInputGivesAnEmptyOutput(String format) throws Exception {
    Path in = Files.createFile(lab.resolve("empty"));
    Path out = lab.resolve("out.dat");
    Run r =
        CliContract.joule(
            lab,
            "sort",
            format,
            "-q",
            "--temp",
            tmp().toString(),
            "-o",
            out.toString(),
            in.toString());
    assertEquals(0, r.exit(), r::toString);
    assertEquals(0, Files.size(out));
    CliContract.before(lab.resolve("none"), tmp()).assertNoTemps("empty");
  }

  @Test
  void partialTrailingRecordIsExit2NamingSizesAndNoOutput() throws Exception {
    Path in = lab.resolve("partial");
    Files.write(in, new byte[250]);
    Path out = lab.resolve("out.dat");
    Snapshot before = CliContract.before(out, tmp());
    Run r =
        CliContract.joule(
            lab,
            "sort",
            "--gensort",
            "-q",
            "--temp",
            tmp().toString(),
            "-o",
            out.toString(),
            in.toString());
    before.assertCleanFailure(
        r,
        2,
        "joule: .*"
            + Pattern.quote(in.toString())
            + ".*input size 250 is not a multiple of record size 100: 50 trailing bytes at offset"
            + " 200.*",
        10_000,
        "partial");
  }

  @Test
  void missingInputIsExit2NamingIt() throws Exception {
    Path in = lab.resolve("no-such-input");
    Path out = lab.resolve("out.dat");
    Snapshot before = CliContract.before(out, tmp());
    Run r =
        CliContract.joule(
            lab, "sort", "-q", "--temp", tmp().toString(), "-o", out.toString(), in.toString());
    before.assertCleanFailure(
        r,
        2,
        String.format(
            CliContract.IO_ERROR, Pattern.quote(in.toString()), "No such file or directory"),
        10_000,
        "missing input");
  }

  @Test
  void directoryInputIsExit2() throws Exception {
    Path in = Files.createDirectory(lab.resolve("a-dir"));
    Path out = lab.resolve("out.dat");
    Snapshot before = CliContract.before(out, tmp());
    Run r =
        CliContract.joule(
            lab, "sort", "-q", "--temp", tmp().toString(), "-o", out.toString(), in.toString());
    before.assertCleanFailure(
        r,
        2,
        String.format(CliContract.IO_ERROR, Pattern.quote(in.toString()), "Is a directory"),
        10_000,
        "directory input");
  }

  @Test
  void unreadableInputAsNobodyIsPermissionDenied() throws Exception {
    assumeTrue(CliContract.isRoot(), "not root: cannot switch to nobody (skipped)");
    assumeTrue(
        Files.isExecutable(Path.of("/usr/bin/setpriv")), "setpriv is not installed (skipped)");
    Path open = Files.createDirectory(lab.resolve("open"));
    Files.setPosixFilePermissions(lab, PosixFilePermissions.fromString("rwx--x--x"));
    CliContract.sh("chmod", "1777", open.toString());
    Path in = open.resolve("secret.dat");
    Files.write(in, new byte[1000]);
    Files.setPosixFilePermissions(in, PosixFilePermissions.fromString("rw-------"));
    Path out = open.resolve("out.dat");
    Snapshot before = CliContract.before(out, open);
    Run r =
        CliContract.run(
            open,
            List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"),
            "sort",
            "-q",
            "--temp",
            open.toString(),
            "-o",
            out.toString(),
            in.toString());
    assumeTrue(
        !r.err().contains("Error: Unable to access jarfile")
            && !r.err().contains("Permission denied: '"),
        "nobody cannot run the launcher here (skipped): " + r.err());
    before.assertCleanFailure(
        r,
        2,
        String.format(CliContract.IO_ERROR, Pattern.quote(in.toString()), "Permission denied"),
        10_000,
        "unreadable input");
  }

  @Test
  void fifoInputIsStreamedAndSorted() throws Exception {
    Path fifo = lab.resolve("fifo");
    assertEquals(0, CliContract.sh("mkfifo", fifo.toString()));
    Path out = lab.resolve("out.dat");
    Process p =
        CliContract.start(
            lab,
            CliContract.command(
                List.of(),
                "sort",
                "--gensort",
                "-q",
                "--temp",
                tmp().toString(),
                "-o",
                out.toString(),
                fifo.toString()));
    try (OutputStream w = Files.newOutputStream(fifo)) {
      w.write(Files.readAllBytes(input));
    }
    Run r = CliContract.finish(lab, p, System.nanoTime());
    assertEquals(0, r.exit(), r::toString);
    assertValid(out, 200_000);
    CliContract.before(lab.resolve("none"), tmp()).assertNoTemps("fifo");
  }

  @Test
  void outputEqualsInputSortsInPlaceAndAnInterruptedRunKeepsTheOldContent() throws Exception {
    Path f = lab.resolve("f.dat");
    Files.copy(input, f);
    Snapshot before = CliContract.before(f, tmp());
    Process p =
        CliContract.start(
            lab,
            CliContract.command(
                List.of(),
                "sort",
                "--gensort",
                "-q",
                "--memory",
                "8m",
                "--fan-in",
                "2",
                "--temp",
                tmp().toString(),
                "-o",
                f.toString(),
                f.toString()));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!hasRunFile(tmp())) {
      assertTrue(p.isAlive() && System.nanoTime() < deadline, "no run file seen");
      Thread.sleep(1);
    }
    CliContract.sh("kill", "-TERM", Long.toString(p.pid()));
    assertTrue(p.waitFor(2, TimeUnit.SECONDS), "still running 2 s after SIGTERM");
    Run r = CliContract.finish(lab, p, System.nanoTime());
    before.assertCleanFailure(r, 143, null, Long.MAX_VALUE, "in-place SIGTERM");
    Run ok =
        CliContract.joule(
            lab,
            "sort",
            "--gensort",
            "-q",
            "--memory",
            "8m",
            "--temp",
            tmp().toString(),
            "-o",
            f.toString(),
            f.toString());
    assertEquals(0, ok.exit(), ok::toString);
    assertValid(f, 200_000);
    CliContract.before(lab.resolve("none"), tmp()).assertNoTemps("in place");
  }

  /**
   * {@code -o} naming a character device (a private copy of /dev/null, made with mknod) writes into
   * the device, as GNU sort does: it stays a device. (A rename of the temp over the device, as for
   * a regular file, would make {@code joule sort -o /dev/null FILE} replace /dev/null with a
   * regular file when run as root.)
   */
  @Test
  void outputOntoACharacterDeviceWritesIntoIt() throws Exception {
    assumeTrue(CliContract.isRoot(), "not root: cannot mknod (skipped)");
    Path dev = lab.resolve("null");
    assumeTrue(
        CliContract.sh("mknod", "-m", "666", dev.toString(), "c", "1", "3") == 0,
        "mknod failed: skipped");
    Path in = Files.writeString(lab.resolve("in.txt"), "b\na\n");
    Run r =
        CliContract.joule(lab, "sort", "-T", tmp().toString(), "-o", dev.toString(), in.toString());
    assertEquals(0, r.exit(), r::toString);
    assertTrue(
        Files.readAttributes(dev, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther(),
        "-o " + dev + " is no longer a device");
    CliContract.before(lab.resolve("none"), tmp()).assertNoTemps("-o device");
  }

  static boolean hasRunFile(Path stripe) throws IOException {
    try (Stream<Path> privs = Files.list(stripe)) {
      for (Path d : privs.toList()) {
        try (Stream<Path> s = Files.list(d)) {
          if (s.anyMatch(x -> x.getFileName().toString().startsWith("run-"))) {
            return true;
          }
        } catch (IOException e) {
          // raced
        }
      }
    }
    return false;
  }

  @Test
  void missingOutputDirectoryFailsBeforeReadingTheInput() throws Exception {
    Path fifo = lab.resolve("fifo"); // nobody writes to it: reading it first would hang
    assertEquals(0, CliContract.sh("mkfifo", fifo.toString()));
    Path out = lab.resolve("no/such/dir/out.dat");
    Snapshot before = CliContract.before(out, tmp());
    Run r =
        CliContract.joule(
            lab, "sort", "-q", "--temp", tmp().toString(), "-o", out.toString(), fifo.toString());
    before.assertCleanFailure(
        r,
        2,
        String.format(
            CliContract.IO_ERROR, Pattern.quote(out.toString()), "No such file or directory"),
        10_000,
        "missing output dir");
  }

  /**
   * A partial trailing record is an error only for fixed records: read as text lines (the default),
   * the same 250 bytes are one line without its final newline, which gets one (as in GNU sort).
   */
  @Test
  void thePartialRecordAsTextLinesIsOneLineAndNoError() throws Exception {
    Path in = lab.resolve("partial");
    Files.write(in, new byte[250]);
    Path out = lab.resolve("out.txt");
    Run r =
        CliContract.joule(
            lab, "sort", "-q", "--temp", tmp().toString(), "-o", out.toString(), in.toString());
    assertEquals(0, r.exit(), r::toString);
    byte[] expected = new byte[251];
    expected[250] = '\n';
    assertArrayEquals(expected, Files.readAllBytes(out));
    CliContract.before(lab.resolve("none"), tmp()).assertNoTemps("partial as lines");
  }

  /**
   * {@code format} holds the record-format options the bad option goes with (blank: none): the
   * record-size options apply only to fixed records ({@code --record-size} or {@code --gensort}).
   * joule's options are synonyms of GNU's ({@code --memory} = {@code -S}/{@code --buffer-size},
   * {@code --fan-in} = {@code --batch-size}, {@code --threads} = {@code --parallel}) and the
   * message may name either spelling.
   */
  @ParameterizedTest(name = "{0} {1} {2}")
  @CsvSource({
    "--memory, 5q, --gensort",
    "--memory, 5q, ''",
    "-S, 5q, ''",
    "--fan-in, 1, --gensort",
    "--batch-size, 1, ''",
    "--threads, 0, --gensort",
    "--threads, 0, ''",
    "--parallel, 0, ''",
    "--record-size, 0, ''",
    "--transfer-temp, 1000, --gensort",
    "--key-size, 0, --record-size=100"
  })
  void absurdOptionsAreExit2NamingTheOption(String option, String value, String format)
      throws Exception {
    Path out = lab.resolve("out.dat");
    Snapshot before = CliContract.before(out, tmp());
    List<String> args = new ArrayList<>(List.of("sort"));
    if (format != null && !format.isBlank()) {
      args.add(format);
    }
    args.addAll(
        List.of(
            "-q",
            "--temp",
            tmp().toString(),
            option,
            value,
            "-o",
            out.toString(),
            input.toString()));
    Run r = CliContract.joule(lab, args.toArray(new String[0]));
    String names =
        switch (option) {
          case "--memory", "-S" -> "--memory|-S|--buffer-size";
          case "--fan-in", "--batch-size" -> "--fan-in|--batch-size";
          case "--threads", "--parallel" -> "--threads|--parallel";
          default -> Pattern.quote(option);
        };
    before.assertCleanFailure(r, 2, "joule: .*(" + names + ").*", 10_000, args.toString());
  }

  /**
   * Budgets under joule's minimum are raised to 8 MiB, as GNU sort raises a small {@code -S} (they
   * were an error before the GNU convention): the sort succeeds.
   */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"--memory, 0", "--memory, 1m", "-S, 1", "-S, 0"})
  void tinyMemoryBudgetsAreRaisedToTheMinimum(String option, String value) throws Exception {
    Path out = lab.resolve("out.dat");
    Run r =
        CliContract.joule(
            lab,
            "sort",
            "--gensort",
            "-q",
            "--temp",
            tmp().toString(),
            option,
            value,
            "-o",
            out.toString(),
            input.toString());
    assertEquals(0, r.exit(), r::toString);
    assertValid(out, 200_000);
    CliContract.before(lab.resolve("none"), tmp()).assertNoTemps(option + " " + value);
  }

  /**
   * A {@code --compress-program} that fails on a sort that spills is a clean failure through the
   * launcher: exit 2, GNU's words naming the program and the run, a previous output left as it was,
   * no temp file left ({@code false} exits 1 on the first block; sort-cli's CompressProgramTest
   * covers gzip, {@code -d} and missing programs).
   */
  @Test
  void aFailingCompressProgramIsACleanFailure() throws Exception {
    Path out = Files.writeString(lab.resolve("out.dat"), "previous\n");
    Snapshot before = CliContract.before(out, tmp());
    Run r =
        CliContract.joule(
            lab,
            "sort",
            "--gensort",
            "-S",
            "8M",
            "--temp",
            tmp().toString(),
            "--compress-program=false",
            "-o",
            out.toString(),
            input.toString());
    before.assertCleanFailure(
        r,
        2,
        "joule: 'false' terminated abnormally: exit status 1 \\(compressing block 0 of"
            + " .*/run-.*\\)",
        10_000,
        "--compress-program=false");
  }
}

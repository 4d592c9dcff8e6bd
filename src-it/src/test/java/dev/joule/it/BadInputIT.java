package dev.joule.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.joule.it.CliContract.Run;
import dev.joule.it.CliContract.Snapshot;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bad and odd inputs through {@code ./joule sort} (docs/reliability.md I1, I3, I6, I8, I10, usage
 * errors), each checked with {@link CliContract}: empty input, a partial trailing record, a
 * missing, unreadable (as nobody, via setpriv) or directory input, a FIFO (spooled, works), output
 * = input (sorted in place; SIGTERM mid-sort leaves the old content), a missing output directory
 * (exit 2 before the input is read: a FIFO nobody writes to) and absurd options.
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

  @Test
  void emptyInputGivesAnEmptyOutput() throws Exception {
    Path in = Files.createFile(lab.resolve("empty"));
    Path out = lab.resolve("out.dat");
    Run r =
        CliContract.joule(
            lab, "sort", "-q", "--temp", tmp().toString(), in.toString(), out.toString());
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
            lab, "sort", "-q", "--temp", tmp().toString(), in.toString(), out.toString());
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
            lab, "sort", "-q", "--temp", tmp().toString(), in.toString(), out.toString());
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
            lab, "sort", "-q", "--temp", tmp().toString(), in.toString(), out.toString());
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
            in.toString(),
            out.toString());
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
  void fifoInputIsSpooledAndSorted() throws Exception {
    Path fifo = lab.resolve("fifo");
    assertEquals(0, CliContract.sh("mkfifo", fifo.toString()));
    Path out = lab.resolve("out.dat");
    Process p =
        CliContract.start(
            lab,
            CliContract.command(
                List.of(),
                "sort",
                "-q",
                "--temp",
                tmp().toString(),
                fifo.toString(),
                out.toString()));
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
                "-q",
                "--memory",
                "8m",
                "--fan-in",
                "2",
                "--temp",
                tmp().toString(),
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
            "-q",
            "--memory",
            "8m",
            "--temp",
            tmp().toString(),
            f.toString(),
            f.toString());
    assertEquals(0, ok.exit(), ok::toString);
    assertValid(f, 200_000);
    CliContract.before(lab.resolve("none"), tmp()).assertNoTemps("in place");
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
            lab, "sort", "-q", "--temp", tmp().toString(), fifo.toString(), out.toString());
    before.assertCleanFailure(
        r,
        2,
        String.format(
            CliContract.IO_ERROR, Pattern.quote(out.toString()), "No such file or directory"),
        10_000,
        "missing output dir");
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "--memory, 0",
    "--memory, 1m",
    "--memory, 5q",
    "--fan-in, 1",
    "--threads, 0",
    "--record-size, 0",
    "--transfer-temp, 1000",
    "--key-size, 0"
  })
  void absurdOptionsAreExit2NamingTheOption(String option, String value) throws Exception {
    Path out = lab.resolve("out.dat");
    Snapshot before = CliContract.before(out, tmp());
    Run r =
        CliContract.joule(
            lab,
            "sort",
            "-q",
            "--temp",
            tmp().toString(),
            option,
            value,
            input.toString(),
            out.toString());
    before.assertCleanFailure(
        r, 2, "joule: .*" + Pattern.quote(option) + ".*", 10_000, option + " " + value);
  }
}

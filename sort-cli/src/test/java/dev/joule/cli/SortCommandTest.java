package dev.joule.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.record.FixedLengthFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.config.ProgressListener;
import dev.joule.io.config.SortConfig;
import dev.joule.io.config.TransferSizes;
import dev.joule.io.error.CorruptRunException;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.error.SortIOException;
import dev.joule.io.error.SortValidationException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code joule sort} through picocli's execute(), with the engine replaced by {@link StubEngine}.
 */
class SortCommandTest {
  @TempDir Path dir;
  Path in;
  Path out;
  Path tmp;
  StubEngine engine = new StubEngine();

  @BeforeEach
  void files() throws IOException {
    in = Files.write(dir.resolve("in.dat"), new byte[1000]);
    out = dir.resolve("out.dat");
    tmp = Files.createDirectory(dir.resolve("tmp"));
  }

  private CliRun sort(String... args) {
    List<String> a = new ArrayList<>(List.of("sort", "--temp", tmp.toString()));
    a.addAll(List.of(args));
    return CliRun.run(engine.env(), a.toArray(new String[0]));
  }

  private SortConfig configOf(String... options) {
    List<String> a = new ArrayList<>(List.of(options));
    a.add(in.toString());
    a.add(out.toString());
    CliRun r = sort(a.toArray(new String[0]));
    assertEquals(0, r.exitCode, r::toString);
    return engine.config;
  }

  @Test
  void helpTeachesEveryOptionItsDefaultTheExitCodesAndExamples() {
    CliRun r = CliRun.run("sort", "--help");
    assertEquals(0, r.exitCode, r::toString);
    for (String o :
        List.of(
            "--memory",
            "--threads",
            "--temp",
            "--record-size",
            "--key-offset",
            "--key-size",
            "--direct",
            "--transfer-in",
            "--transfer-out",
            "--transfer-temp",
            "--fan-in",
            "--report-json",
            "--stats",
            "--explain",
            "--progress",
            "--quiet",
            "--debug",
            "INPUT",
            "OUTPUT")) {
      assertTrue(r.out.contains(o), o);
    }
    String flat = r.out.replaceAll("\\s+", " ");
    assertTrue(
        flat.contains(
            "Default: min(1/4 of physical RAM, JVM max direct memory - 64m); here "
                + MachineDefaults.memory()),
        r.out);
    assertTrue(
        flat.contains(
            "Default: the processors (" + Runtime.getRuntime().availableProcessors() + ")"),
        r.out);
    assertTrue(r.out.contains("Default: 100 (gensort)"), r.out);
    assertTrue(r.out.contains("Exit codes:"), r.out);
    assertTrue(r.out.contains("128+n"), r.out);
    assertTrue(r.out.contains("Examples:"), r.out);
    assertEquals("", r.err);
    CliRun top = CliRun.run("--help");
    assertTrue(top.out.contains("sort") && top.out.contains("bench"), top.out);
  }

  @Test
  void defaults() {
    SortConfig c = configOf();
    assertEquals(MachineDefaults.memory(), c.memoryBudget());
    assertEquals(Runtime.getRuntime().availableProcessors(), c.threads());
    assertEquals(100, ((FixedLengthFormat) c.format()).recordSize());
    assertEquals(0, ((FixedLengthFormat) c.format()).key().offset());
    assertEquals(10, ((FixedLengthFormat) c.format()).key().length());
    assertEquals(DirectIoPolicy.AUTO, c.directIo());
    assertEquals(0, c.fanIn());
    for (FileKind k : FileKind.values()) {
      assertEquals(TransferSizes.DEFAULT_TRANSFER, c.transferSize(k));
    }
    assertSame(ProgressListener.NONE, c.progress()); // no terminal under the test runner
    assertEquals(in, engine.input);
    assertEquals(out, engine.output);
  }

  @Test
  void defaultTempDirIsJavaIoTmpdir() {
    CliRun r = CliRun.run(engine.env(), "sort", in.toString(), out.toString());
    assertEquals(0, r.exitCode, r::toString);
    assertEquals(List.of(Path.of(System.getProperty("java.io.tmpdir"))), engine.config.tempDirs());
  }

  @Test
  void everyOptionReachesTheConfig() {
    Path t2 = dir.resolve("tmp");
    SortConfig c =
        configOf(
            "--memory",
            "64m",
            "--threads",
            "1",
            "--temp",
            t2.toString(),
            "--record-size",
            "16",
            "--key-offset",
            "8",
            "--key-size",
            "8",
            "--direct",
            "off",
            "--transfer-in",
            "1m",
            "--transfer-out",
            "512k",
            "--transfer-temp",
            "8M",
            "--fan-in",
            "7");
    assertEquals(DataSize.ofMiB(64), c.memoryBudget());
    assertEquals(1, c.threads());
    assertEquals(List.of(tmp, t2), c.tempDirs());
    assertEquals(16, ((FixedLengthFormat) c.format()).recordSize());
    assertEquals(8, ((FixedLengthFormat) c.format()).key().offset());
    assertEquals(8, ((FixedLengthFormat) c.format()).key().length());
    assertEquals(DirectIoPolicy.OFF, c.directIo());
    assertEquals(1 << 20, c.transferSize(FileKind.INPUT));
    assertEquals(512 << 10, c.transferSize(FileKind.OUTPUT));
    assertEquals(8 << 20, c.transferSize(FileKind.TEMP));
    assertEquals(7, c.fanIn());
  }

  @ParameterizedTest
  @CsvSource({"on, ON", "ON, ON", "auto, AUTO", "Off, OFF"})
  void directIsCaseInsensitive(String value, DirectIoPolicy expected) {
    assertEquals(expected, configOf("--direct", value).directIo());
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "--memory 12x | invalid value for --memory: '12x': expected a whole number with an optional"
            + " unit k, m, g, t or p (powers of 1024), e.g. 512m",
        "--memory 5q | invalid value for --memory: '5q': expected a whole number",
        "--memory 0 | invalid value for --memory: '0': memory budget 0 B is below the minimum 8"
            + " MiB",
        "--memory 1m | invalid value for --memory: '1m': memory budget 1 MiB is below the minimum 8"
            + " MiB",
        "--memory 99999999p | invalid value for --memory: '99999999p': too large",
        "--memory 1000t | invalid value for --memory: '1000t': above the JVM's direct-memory limit",
        "--fan-in 1 | invalid value for --fan-in: '1': a merge needs at least 2 inputs",
        "--fan-in 0 | invalid value for --fan-in: '0': a merge needs at least 2 inputs",
        "--fan-in -3 | invalid value for --fan-in: '-3': a merge needs at least 2 inputs",
        "--threads 0 | invalid value for --threads: '0': threads 0 is outside 1..256",
        "--threads 257 | invalid value for --threads: '257': threads 257 is outside 1..256",
        "--threads x | invalid value for --threads: 'x' is not an int",
        "--record-size 0 | invalid value for --record-size: '0': record size 0 is outside 1..65535",
        "--record-size 70000 | invalid value for --record-size: '70000': record size 70000 is"
            + " outside 1..65535",
        "--key-offset -1 | invalid value for --key-offset: '-1': key offset -1 is negative",
        "--key-size 0 | invalid value for --key-size: '0': key length 0 must be at least 1",
        "--key-offset 95 | invalid value for --record-size: the key (--key-offset 95, --key-size"
            + " 10) does not fit in a record of 100 bytes",
        "--transfer-in 1000 | invalid value for --transfer-in: '1000': transfer size for INPUT must"
            + " be a positive multiple of 4096: 1000",
        "--transfer-out 0 | invalid value for --transfer-out: '0': transfer size for OUTPUT must be"
            + " a positive multiple of 4096: 0",
        "--transfer-temp 4x | invalid value for --transfer-temp: '4x': expected a whole number",
        "--transfer-temp 4g | invalid value for --transfer-temp: '4g': transfer size for TEMP 4 GiB"
            + " is above 2 GiB",
        "--direct maybe | invalid value for --direct: expected one of [AUTO, ON, OFF]"
            + " (case-insensitive) but was 'maybe'",
        "--progress sometimes | invalid value for --progress: expected one of [AUTO, ALWAYS, NEVER]"
            + " (case-insensitive) but was 'sometimes'",
        "--bogus | unknown option: '--bogus'",
      })
  void badOptionsExitTwoNamingTheOptionBeforeAnyWork(String options, String message)
      throws IOException {
    Files.write(out, new byte[] {42});
    List<String> a = new ArrayList<>(List.of(options.trim().split(" ")));
    a.add(in.toString());
    a.add(out.toString());
    CliRun r = sort(a.toArray(new String[0]));
    assertEquals(2, r.exitCode, r::toString);
    assertTrue(r.err.startsWith("joule: " + message), r::toString);
    assertEquals(1, r.err.lines().count(), r::toString);
    assertEquals("", r.out);
    assertEquals(0, engine.sorts + engine.explains);
    assertArrayEquals(new byte[] {42}, Files.readAllBytes(out)); // output untouched
  }

  @Test
  void missingOperands() {
    CliRun r = sort(in.toString());
    assertEquals(2, r.exitCode, r::toString);
    assertEquals("joule: missing required parameter: 'OUTPUT'\n", r.err);
  }

  @Test
  void outputDirMissingFailsBeforeReadingStdin() {
    Path bad = dir.resolve("no/such/out.dat");
    InputStream stdin =
        new InputStream() {
          @Override
          public int read() {
            throw new AssertionError("stdin read before the output dir was checked");
          }

          @Override
          public int read(byte[] b, int off, int len) {
            throw new AssertionError("stdin read before the output dir was checked");
          }
        };
    CliRun r =
        CliRun.run(
            engine.env(stdin, new ByteArrayOutputStream(), dir),
            "sort",
            "--temp",
            tmp.toString(),
            "-",
            bad.toString());
    assertEquals(2, r.exitCode, r::toString);
    assertEquals("joule: open failed: " + bad + ": No such file or directory\n", r.err);
    assertEquals(0, engine.sorts);
    assertFalse(Files.exists(bad));
    assertEquals(0, listTmp().size());
  }

  @Test
  void inputAndTempAndReportProblemsFailBeforeWork() throws IOException {
    CliRun r = sort(dir.resolve("nope").toString(), out.toString());
    assertEquals(
        "joule: open failed: " + dir.resolve("nope") + ": No such file or directory\n", r.err);
    assertEquals(2, r.exitCode);
    r = sort(tmp.toString(), out.toString());
    assertEquals("joule: open failed: " + tmp + ": Is a directory\n", r.err);
    r = sort(in.toString(), tmp.toString());
    assertEquals("joule: open failed: " + tmp + ": Is a directory\n", r.err);
    Path notDir = Files.write(dir.resolve("file"), new byte[1]);
    r = sort(in.toString(), notDir.resolve("out").toString());
    assertEquals("joule: open failed: " + notDir.resolve("out") + ": Not a directory\n", r.err);
    r =
        CliRun.run(
            engine.env(),
            "sort",
            "--temp",
            dir.resolve("gone").toString(),
            in.toString(),
            out.toString());
    assertEquals(
        "joule: use temp dir failed: " + dir.resolve("gone") + ": No such file or directory\n",
        r.err);
    assertEquals(2, r.exitCode);
    r = sort("--report-json", dir.resolve("x/r.json").toString(), in.toString(), out.toString());
    assertEquals(
        "joule: open failed: " + dir.resolve("x/r.json") + ": No such file or directory\n", r.err);
    assertEquals(0, engine.sorts);
    assertFalse(Files.exists(out));
  }

  @Test
  void ioErrorIsOneLineWithoutStackTraceUnlessDebug() {
    Path run = tmp.resolve("joule-x/run-000017");
    engine.failure =
        new SortIOException("write", run, "No space left on device", new IOException("ENOSPC"));
    CliRun r = sort(in.toString(), out.toString());
    assertEquals(2, r.exitCode, r::toString);
    assertEquals("joule: write failed: " + run + ": No space left on device\n", r.err);
    r = sort("--debug", in.toString(), out.toString());
    assertEquals(2, r.exitCode, r::toString);
    assertTrue(
        r.err.startsWith("joule: write failed: " + run + ": No space left on device\n"),
        r::toString);
    assertTrue(r.err.contains("at dev.joule.cli."), r::toString);
  }

  @Test
  void corruptionExitsThree() {
    Path run = tmp.resolve("run-1");
    engine.failure = new CorruptRunException(run, 4096, "block checksum", 1, 2);
    CliRun r = sort(in.toString(), out.toString());
    assertEquals(3, r.exitCode, r::toString);
    assertEquals(
        "joule: corrupt run file "
            + run
            + " at offset 4096: block checksum mismatch (expected 0x1,"
            + " actual 0x2)\n",
        r.err);
  }

  @Test
  void selfValidationMismatchExitsThree() {
    engine.failure = new SortValidationException("output checksum 1 differs from the input's 2");
    CliRun r = sort(in.toString(), out.toString());
    assertEquals(3, r.exitCode, r::toString);
    assertEquals("joule: output checksum 1 differs from the input's 2\n", r.err);
  }

  @Test
  void engineArgumentErrorsAndBugsExitTwo() {
    engine.failure =
        new IllegalArgumentException("input size 1001 is not a multiple of record size 100");
    CliRun r = sort(in.toString(), out.toString());
    assertEquals(2, r.exitCode, r::toString);
    assertEquals("joule: input size 1001 is not a multiple of record size 100\n", r.err);
    engine.failure = new SortCancelledException("sort interrupted");
    r = sort(in.toString(), out.toString());
    assertEquals(2, r.exitCode, r::toString);
    assertEquals("joule: cancelled: sort interrupted\n", r.err);
    engine.failure = new IllegalStateException("boom");
    r = sort(in.toString(), out.toString());
    assertEquals(2, r.exitCode, r::toString);
    assertEquals(
        "joule: internal error: java.lang.IllegalStateException: boom (run with --debug for the"
            + " stack trace)\n",
        r.err);
  }

  @Test
  void explainPrintsThePlanAndSortsNothing() {
    CliRun r = sort("--explain", "--memory", "64m", in.toString(), out.toString());
    assertEquals(0, r.exitCode, r::toString);
    assertEquals("plan: 1 run, no merge\n", r.out);
    assertEquals(1, engine.explains);
    assertEquals(0, engine.sorts);
    assertFalse(Files.exists(out));
    assertEquals(DataSize.ofMiB(64), engine.config.memoryBudget());
  }

  @Test
  void explainRefusesStandardInput() {
    CliRun r = sort("--explain", "-", out.toString());
    assertEquals(2, r.exitCode, r::toString);
    assertEquals(
        "joule: --explain needs an input file: the size of standard input or a pipe is not known"
            + " before reading it\n",
        r.err);
  }

  @Test
  void stdinIsSpooledPrivatelyAndStdoutStreamedThenBothRemoved() throws IOException {
    byte[] data = "0123456789".repeat(30).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    List<String> modes = new ArrayList<>();
    engine.during =
        c -> {
          try {
            modes.add(PosixFilePermissions.toString(Files.getPosixFilePermissions(engine.input)));
            modes.add(
                PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(engine.input.getParent())));
          } catch (IOException e) {
            throw new AssertionError(e);
          }
        };
    CliRun r =
        CliRun.run(
            engine.env(new ByteArrayInputStream(data), stdout, dir),
            "sort",
            "--temp",
            tmp.toString(),
            "-",
            "-");
    assertEquals(0, r.exitCode, r::toString);
    assertTrue(engine.inputWasPrivate, String.valueOf(engine.input));
    assertEquals(tmp, engine.input.getParent().getParent());
    assertArrayEquals(data, engine.inputBytes);
    assertEquals(List.of("rw-------", "rwx------"), modes);
    assertArrayEquals(StubEngine.MARKER, stdout.toByteArray());
    assertEquals("", r.out + r.err);
    assertEquals(List.of(), listTmp());
  }

  @Test
  void pipesAndDevicesAsInputAreSpooledLikeStdin() throws Exception {
    CliRun r = sort("/dev/null", out.toString());
    assertEquals(0, r.exitCode, r::toString);
    assertTrue(engine.inputWasPrivate, String.valueOf(engine.input));
    assertEquals(0, engine.inputBytes.length);
    Path fifo = dir.resolve("fifo");
    assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor());
    byte[] data = new byte[300];
    Thread writer =
        new Thread(
            () -> {
              try {
                Files.write(fifo, data);
              } catch (IOException e) {
                throw new AssertionError(e);
              }
            });
    writer.start();
    r = sort(fifo.toString(), out.toString());
    writer.join();
    assertEquals(0, r.exitCode, r::toString);
    assertTrue(engine.inputWasPrivate, String.valueOf(engine.input));
    assertArrayEquals(data, engine.inputBytes);
    assertEquals(List.of(), listTmp());
    r = sort("--explain", "/dev/null", out.toString());
    assertEquals(2, r.exitCode, r::toString);
    assertTrue(r.err.startsWith("joule: --explain needs an input file"), r.err);
  }

  @Test
  void aFailedStdoutWriteIsReportedAndTheSpoolRemoved() {
    OutputStream closedPipe =
        new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            throw new IOException("Broken pipe");
          }
        };
    CliRun r =
        CliRun.run(
            engine.env(new ByteArrayInputStream(new byte[100]), new ByteArrayOutputStream(), dir),
            "sort",
            "--temp",
            tmp.toString(),
            in.toString(),
            "-");
    assertEquals(0, r.exitCode, r::toString);
    r =
        CliRun.run(
            new CliEnvironment(engine, new ByteArrayInputStream(new byte[0]), closedPipe, dir),
            "sort",
            "--temp",
            tmp.toString(),
            in.toString(),
            "-");
    assertEquals(2, r.exitCode, r::toString);
    assertEquals("joule: write failed: /dev/stdout: Broken pipe\n", r.err);
    assertEquals(List.of(), listTmp());
  }

  @Test
  void reportJsonAndStats() throws IOException {
    Path json = dir.resolve("report.json");
    CliRun r = sort("--report-json", json.toString(), "--stats", in.toString(), out.toString());
    assertEquals(0, r.exitCode, r::toString);
    assertEquals(StubEngine.REPORT.toJson() + "\n", Files.readString(json));
    List<String> lines = r.err.lines().toList();
    assertEquals(5, lines.size(), r.err);
    assertTrue(
        lines
            .get(0)
            .matches(
                "phase +wall s +CPU s +CPU % +read MB +written MB +MB/s +runs in +runs out"
                    + " +fan-in"),
        lines.get(0));
    assertTrue(
        lines.get(1).matches("run formation +2\\.000 +3\\.000 +150 +0\\.1 +0\\.1 +0\\.1 +0 +3 +0"),
        lines.get(1));
    assertTrue(
        lines.get(2).matches("merge pass 1 +1\\.000 +1\\.000 +100 .* 3 +1 +3"), lines.get(2));
    assertTrue(lines.get(3).startsWith("total "), lines.get(3));
    assertEquals(
        "1,000 records, 0.1 MB, 0.0 MB/s end to end; runs 3, merge passes 1, fan-in 3; threads 2,"
            + " stripes 1, direct I/O on, peak memory 8 MiB",
        lines.get(4));
  }

  @Test
  void noticesGoToStderrUnlessQuiet() {
    engine.during =
        c -> c.notices().notice("direct I/O not supported on " + tmp + ", using buffered I/O");
    CliRun r = sort(in.toString(), out.toString());
    assertEquals(0, r.exitCode, r::toString);
    assertEquals("joule: direct I/O not supported on " + tmp + ", using buffered I/O\n", r.err);
    r = sort("--quiet", in.toString(), out.toString());
    assertEquals("", r.err);
    assertSame(NoticeSink.IGNORE, engine.config.notices());
  }

  @Test
  void progressAlwaysDrawsABarAndEndsItsLine() {
    engine.during =
        c -> {
          c.progress().update("run formation", 0, 1000);
          c.progress().update("run formation", 1000, 1000);
        };
    CliRun r = sort("--progress", "always", in.toString(), out.toString());
    assertEquals(0, r.exitCode, r::toString);
    assertInstanceOf(ProgressBar.class, engine.config.progress());
    assertTrue(r.err.startsWith("\rrun formation  ["), r.err);
    assertTrue(r.err.contains("100%"), r.err);
    assertTrue(r.err.endsWith("\n"), r.err);
    assertSame(ProgressListener.NONE, configOf("--progress", "never").progress());
    assertSame(ProgressListener.NONE, configOf("--progress", "always", "--quiet").progress());
  }

  @Test
  void underTheTestRunnerStderrIsNoTerminal() {
    assertFalse(SortOptions.stderrIsTerminal()); // surefire's stderr is a pipe: auto draws no bar
  }

  private List<Path> listTmp() {
    try (Stream<Path> s = Files.list(tmp)) {
      return s.toList();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}

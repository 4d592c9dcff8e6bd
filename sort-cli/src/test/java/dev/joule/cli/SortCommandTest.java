package dev.joule.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.key.GnuSortKeys;
import dev.joule.core.key.KeyField;
import dev.joule.core.key.KeyLocation;
import dev.joule.core.key.KeyType;
import dev.joule.core.key.SortKey;
import dev.joule.core.key.TextPosition;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.Compression;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.LastResort;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.config.ProgressListener;
import dev.joule.io.config.SortConfig;
import dev.joule.io.config.TransferSizes;
import dev.joule.io.error.CorruptRunException;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.error.SortIOException;
import dev.joule.io.error.SortValidationException;
import dev.joule.io.pipeline.SortedInputs;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
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
    a.add("-o");
    a.add(out.toString());
    a.add(in.toString());
    CliRun r = sort(a.toArray(new String[0]));
    assertEquals(0, r.exitCode, r::toString);
    return engine.config;
  }

  @Test
  void compressProgramIsGnusOptionOrItsAbbreviationAndTheSameProgramMayBeRepeated() {
    assertEquals(Compression.program("gzip"), configOf("--compress-program=gzip").compression());
    assertEquals(Compression.program("xz"), configOf("--compress=xz").compression());
    assertEquals(
        Compression.program("gzip"),
        configOf("--compress-program", "gzip", "--compress-program=gzip").compression());
    assertEquals(Compression.lz4(), configOf("--compress=lz4").compression());
    assertEquals(Compression.auto(), configOf().compression());
  }

  @Test
  void helpTeachesEveryOptionItsDefaultTheExitCodesAndExamples() {
    CliRun r = CliRun.run("sort", "--help");
    assertEquals(0, r.exitCode, r::toString);
    for (String o :
        List.of(
            "-S, --memory, --buffer-size",
            "--threads, --parallel",
            "-T, --temp, --temporary-directory",
            "-k, --key=KEYDEF",
            "-t, --field-separator",
            "-c ",
            "--check[=WORD]",
            "-C ",
            "-m, --merge",
            "-o, --output=FILE",
            "--files0-from",
            "--gensort",
            "--record-size",
            "--key-offset",
            "--key-size",
            "--binary-key",
            "--direct",
            "--compress=auto|off|lz4|zstd[:LEVEL]",
            "--compress-program=PROG",
            "--transfer-in",
            "--transfer-out",
            "--transfer-temp",
            "--batch-size",
            "--report-json",
            "--report-html",
            "--timeline-interval",
            "--stats",
            "--explain",
            "--progress",
            "--quiet",
            "--stack-trace",
            "[FILE...]",
            "joule sort [OPTION]... [FILE]...",
            "-t, -k2,2n",
            "-u -o words.txt words.txt",
            "-m sorted1.txt")) {
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
    assertEquals(RecordFormat.lines(), c.format());
    assertEquals(SortKey.wholeRecord(), c.key());
    assertEquals(LastResort.ASCENDING, c.lastResort());
    assertFalse(c.unique());
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
  void defaultTempDirIsTmpdirThenJavaIoTmpdir() {
    CliRun r = CliRun.run(engine.env(), "sort", "-o", out.toString(), in.toString());
    assertEquals(0, r.exitCode, r::toString);
    List<Path> expected =
        System.getenv("TMPDIR") == null || System.getenv("TMPDIR").isEmpty()
            ? List.of(Path.of(System.getProperty("java.io.tmpdir")))
            : List.of(Path.of(System.getenv("TMPDIR")));
    assertEquals(expected, engine.config.tempDirs());
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

  @Test
  void gnuNamesOfTheEngineOptionsAndGnuSizes() {
    Path t2 = dir.resolve("tmp");
    SortConfig c = configOf("-S", "64M", "--parallel=1", "-T", t2.toString(), "--batch-size=7");
    assertEquals(DataSize.ofMiB(64), c.memoryBudget());
    assertEquals(1, c.threads());
    assertEquals(List.of(tmp, t2), c.tempDirs());
    assertEquals(7, c.fanIn());
    assertEquals(DataSize.ofKiB(20_000), configOf("-S", "20000").memoryBudget()); // GNU: KiB
    assertEquals(DataSize.ofMiB(16), configOf("--buffer-size=16777216b").memoryBudget());
    assertEquals(DataSize.ofGiB(1), configOf("-S1g").memoryBudget());
    assertEquals(SortConfig.MIN_MEMORY, configOf("-S", "1K").memoryBudget()); // raised, as noted
    long onePercent = MachineDefaults.physicalMemory() / 100;
    assertEquals(DataSize.ofBytes(onePercent), configOf("-S", "1%").memoryBudget());
  }

  @Test
  void gnuOrderingOptionsBecomeTheKeyLastResortAndUniqueMode() {
    SortConfig c = configOf("-t,", "-k2,2n", "-k1,1r");
    assertEquals(GnuSortKeys.parse("", ',', List.of("2,2n", "1,1r")), c.key());
    assertEquals(LastResort.ASCENDING, c.lastResort());
    c = configOf("-nr");
    assertEquals(GnuSortKeys.parse("nr", TextPosition.BLANK_SEPARATED, List.of()), c.key());
    assertEquals(LastResort.DESCENDING, c.lastResort());
    c = configOf("-s", "-f", "--key=3");
    assertEquals(GnuSortKeys.parse("f", TextPosition.BLANK_SEPARATED, List.of("3")), c.key());
    assertEquals(LastResort.NONE, c.lastResort());
    c = configOf("-u", "--sort=version");
    assertEquals(GnuSortKeys.parse("V", TextPosition.BLANK_SEPARATED, List.of()), c.key());
    assertEquals(LastResort.NONE, c.lastResort());
    assertTrue(c.unique());
    assertEquals(RecordFormat.lines((byte) 0), configOf("-z").format());
    assertEquals(GnuSortKeys.parse("", 0, List.of("2")), configOf("-z", "-t", "\\0", "-k2").key());
  }

  @Test
  void fixedRecordsGensortRecordSizeAndBinaryKeys() {
    SortConfig c = configOf("--gensort");
    assertEquals(RecordFormat.gensort(), c.format());
    assertEquals(null, c.key());
    assertEquals(LastResort.NONE, c.lastResort()); // fixed records sort stably
    c = configOf("--record-size", "16", "--key-offset", "8", "--key-size", "8", "-u");
    assertEquals(RecordFormat.fixed(16, KeySpec.bytes(8, 8)), c.format());
    assertTrue(c.unique());
    c = configOf("--record-size", "16", "--binary-key", "8:8:int:desc", "--binary-key", "0:4");
    assertEquals(
        SortKey.of(
            KeyField.binary(8, KeyType.integer(8, true, ByteOrder.BIG_ENDIAN)).reversed(),
            KeyField.of(KeyLocation.bytes(0, 4), KeyType.bytes())),
        c.key());
    c = configOf("--record-size", "12", "--binary-key", "4:8:floatle", "-r");
    assertEquals(
        SortKey.of(KeyField.binary(4, KeyType.float64(ByteOrder.LITTLE_ENDIAN)).reversed()),
        c.key());
    c = configOf("--gensort", "-r");
    assertEquals(
        SortKey.of(KeyField.of(KeyLocation.bytes(0, 10), KeyType.bytes()).reversed()), c.key());
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
        "--memory 12x | invalid value for --buffer-size: '12x': unknown suffix 'x'; expected a"
            + " whole number with an optional suffix b, K, M, G, T, P, E (powers of 1024) or %",
        "-S 5q | invalid value for --buffer-size: '5q': unknown suffix 'q'",
        "-S 101% | invalid value for --buffer-size: '101%': more than 100 percent of memory",
        "-S x1 | invalid value for --buffer-size: 'x1': not a number",
        "--memory 99999999p | invalid value for --buffer-size: '99999999p': too large",
        "--memory 1000t | invalid value for --buffer-size: '1000t': above the JVM's direct-memory"
            + " limit",
        "--fan-in 1 | invalid value for --batch-size: '1': a merge needs at least 2 inputs",
        "--batch-size=0 | invalid value for --batch-size: '0': a merge needs at least 2 inputs",
        "--threads 0 | invalid value for --parallel: '0': threads 0 is outside 1..256",
        "--parallel=257 | invalid value for --parallel: '257': threads 257 is outside 1..256",
        "--threads x | invalid value for --parallel: 'x' is not an int",
        "--record-size 0 | invalid value for --record-size: 0: a record size must be 1..65535",
        "--record-size 70000 | invalid value for --record-size: 70000: a record size must be"
            + " 1..65535",
        "--record-size 100 --key-offset -1 | the key (--key-offset -1, --key-size 10) does not"
            + " fit in a record of 100 bytes",
        "--record-size 100 --key-size 0 | the key (--key-offset 0, --key-size 0) does not fit",
        "--record-size 100 --key-offset 95 --key-size 10 | the key (--key-offset 95, --key-size 10)"
            + " does not fit in a record of 100 bytes",
        "--key-size 8 | --key-size applies to fixed-size records: add --record-size N (or"
            + " --gensort)",
        "--gensort --record-size 50 | --gensort fixes the record layout",
        "--gensort -k2 | -k, -t, -z and the ordering options -b -d -f -g -h -i -M -n -R -V apply"
            + " to text lines",
        "--record-size 16 --binary-key 8:8:int --key-size 4 | give either --binary-key or"
            + " --key-offset/--key-size, not both",
        "--record-size 16 --binary-key 8:3:int | invalid value for --binary-key: '8:3:int':"
            + " integer width must be 1, 2, 4 or 8 bytes: 3",
        "--record-size 16 --binary-key 12:8 | invalid value for --binary-key: '12:8': the field"
            + " does not fit in a record of 16 bytes",
        "--record-size 16 --binary-key 0:8:text | invalid value for --binary-key: '0:8:text':"
            + " unknown TYPE 'text'",
        "--record-size 16 --binary-key 0:2:float | invalid value for --binary-key: '0:2:float': a"
            + " float is 4 or 8 bytes",
        "--record-size 16 --binary-key x | invalid value for --binary-key: 'x': expected"
            + " OFF:SIZE[:TYPE][:desc]",
        "-k0 | field number is zero: invalid field specification '0'",
        "-k1.0 | character offset is zero: invalid field specification '1.0'",
        "-k2,2nrM | options '-Mn' are incompatible",
        "-gn | options '-gn' are incompatible",
        "-dn | options '-dn' are incompatible",
        "-t ab | multi-character tab 'ab'",
        "-t , -t : | incompatible tabs",
        "-nR | options '-nR' are incompatible",
        "--random-source=a --random-source=b | multiple random sources specified",
        "-c -C | options '-cC' are incompatible",
        "--debug | options '-o --debug' are incompatible",
        "--debug -k0 | field number is zero",
        "--gensort --debug | --debug annotates keys of text lines; it does not apply to"
            + " --record-size records",
        "--compress-program=gzip --compress-program=xz | multiple compress programs specified",
        "--compress=gzip --compress-program=xz | multiple compress programs specified",
        "--compress-program=gzip --compress lz4 | --compress lz4 and --compress-program both say"
            + " how temp runs are compressed: give one",
        "--compress-program= | invalid value for --compress-program: '': the program's name is"
            + " empty",
        "-o a -o b | multiple output files specified",
        "--transfer-in 1000 | invalid value for --transfer-in: '1000': transfer size for INPUT must"
            + " be a positive multiple of 4096: 1000",
        "--transfer-out 0 | invalid value for --transfer-out: '0': transfer size for OUTPUT must be"
            + " a positive multiple of 4096: 0",
        "--transfer-temp 4x | invalid value for --transfer-temp: '4x': expected a whole number",
        "--transfer-temp 4g | invalid value for --transfer-temp: '4g': transfer size for TEMP 4 GiB"
            + " is above 2 GiB",
        "--direct maybe | invalid argument 'maybe' for '--direct'\\nValid arguments are:\\n  -"
            + " 'auto'\\n  - 'on'\\n  - 'off'\\nTry 'joule sort --help' for more information.",
        "--progress sometimes | invalid argument 'sometimes' for '--progress'",
        "--bogus | unrecognized option '--bogus'\\nTry 'joule sort --help' for more information.",
      })
  void badOptionsExitTwoNamingTheOptionBeforeAnyWork(String options, String message)
      throws IOException {
    badOptions(options, message, 2);
  }

  /** GNU's argmatch errors exit 1 (GNU sort's status for them), also before any work. */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "--sort=fast | invalid argument 'fast' for '--sort'\\nValid arguments are:",
        "--check=loud | invalid argument 'loud' for '--check'\\nValid arguments are:\\n  -"
            + " 'quiet', 'silent'\\n  - 'diagnose-first'\\nTry 'joule sort --help' for more"
            + " information.\\n",
        "--check= | ambiguous argument '' for '--check'",
      })
  void badWordsExitOneAsGnuBeforeAnyWork(String options, String message) throws IOException {
    badOptions(options, message, 1);
  }

  private void badOptions(String options, String message, int exitCode) throws IOException {
    Files.write(out, new byte[] {42});
    List<String> a = new ArrayList<>(List.of(options.trim().split(" ")));
    a.add("-o");
    a.add(out.toString());
    a.add(in.toString());
    CliRun r = sort(a.toArray(new String[0]));
    assertEquals(exitCode, r.exitCode, r::toString);
    assertTrue(r.err.startsWith("joule: " + message.replace("\\n", "\n")), r::toString);
    assertEquals("", r.out);
    assertEquals(0, engine.sorts + engine.explains);
    assertArrayEquals(new byte[] {42}, Files.readAllBytes(out)); // output untouched
  }

  @Test
  void twoOperandsAreTwoInputsNotInputAndOutput() throws IOException {
    Files.write(out, new byte[] {42});
    CliRun r = sort(in.toString(), out.toString());
    assertEquals(0, r.exitCode, r::toString);
    assertEquals(List.of(in, out), engine.streams.stream().map(SortedInputs.Input::name).toList());
    assertEquals(1001, engine.inputBytes.length); // both files, read as streams, in order
    assertArrayEquals(new byte[] {42}, Files.readAllBytes(out)); // GNU: `sort a b` writes neither
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
            "-o",
            bad.toString(),
            "-");
    assertEquals(2, r.exitCode, r::toString);
    assertEquals("joule: open failed: " + bad + ": No such file or directory\n", r.err);
    assertEquals(0, engine.sorts);
    assertFalse(Files.exists(bad));
    assertEquals(0, listTmp().size());
  }

  @Test
  void inputAndTempAndReportProblemsFailBeforeWork() throws IOException {
    CliRun r = sort("-o", out.toString(), dir.resolve("nope").toString());
    assertEquals(
        "joule: open failed: " + dir.resolve("nope") + ": No such file or directory\n", r.err);
    assertEquals(2, r.exitCode);
    r = sort("-o", out.toString(), tmp.toString());
    assertEquals("joule: open failed: " + tmp + ": Is a directory\n", r.err);
    r = sort("-o", tmp.toString(), in.toString());
    assertEquals("joule: open failed: " + tmp + ": Is a directory\n", r.err);
    Path notDir = Files.write(dir.resolve("file"), new byte[1]);
    r = sort("-o", notDir.resolve("out").toString(), in.toString());
    assertEquals("joule: open failed: " + notDir.resolve("out") + ": Not a directory\n", r.err);
    // Standard output is not staged: a sort that does not spill needs no temp dir (GNU's -T).
    r = CliRun.run(engine.env(), "sort", "--temp", dir.resolve("gone").toString(), in.toString());
    assertEquals(0, r.exitCode, r::toString);
    assertEquals(1, engine.sorts);
    engine.sorts = 0;
    r =
        sort(
            "--report-json",
            dir.resolve("x/r.json").toString(),
            "-o",
            out.toString(),
            in.toString());
    assertEquals(
        "joule: open failed: " + dir.resolve("x/r.json") + ": No such file or directory\n", r.err);
    assertEquals(0, engine.sorts);
    assertFalse(Files.exists(out));
  }

  @Test
  void ioErrorIsOneLineWithoutStackTraceUnlessAskedFor() {
    Path run = tmp.resolve("joule-x/run-000017");
    engine.failure =
        new SortIOException("write", run, "No space left on device", new IOException("ENOSPC"));
    CliRun r = sort("-o", out.toString(), in.toString());
    assertEquals(2, r.exitCode, r::toString);
    assertEquals("joule: write failed: " + run + ": No space left on device\n", r.err);
    r = sort("--stack-trace", "-o", out.toString(), in.toString());
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
    CliRun r = sort("-o", out.toString(), in.toString());
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
    CliRun r = sort("-o", out.toString(), in.toString());
    assertEquals(3, r.exitCode, r::toString);
    assertEquals("joule: output checksum 1 differs from the input's 2\n", r.err);
  }

  @Test
  void engineArgumentErrorsAndBugsExitTwo() {
    engine.failure =
        new IllegalArgumentException("input size 1001 is not a multiple of record size 100");
    CliRun r = sort("-o", out.toString(), in.toString());
    assertEquals(2, r.exitCode, r::toString);
    assertEquals("joule: input size 1001 is not a multiple of record size 100\n", r.err);
    engine.failure = new SortCancelledException("sort interrupted");
    r = sort("-o", out.toString(), in.toString());
    assertEquals(2, r.exitCode, r::toString);
    assertEquals("joule: cancelled: sort interrupted\n", r.err);
    engine.failure = new IllegalStateException("boom");
    r = sort("-o", out.toString(), in.toString());
    assertEquals(2, r.exitCode, r::toString);
    assertEquals(
        "joule: internal error: java.lang.IllegalStateException: boom (run with --stack-trace for"
            + " the stack trace)\n",
        r.err);
  }

  @Test
  void explainPrintsThePlanAndSortsNothing() {
    CliRun r = sort("--explain", "--memory", "64m", "-o", out.toString(), in.toString());
    assertEquals(0, r.exitCode, r::toString);
    assertEquals("plan: 1 run, no merge\n", r.out);
    assertEquals(1, engine.explains);
    assertEquals(0, engine.sorts);
    assertFalse(Files.exists(out));
    assertEquals(DataSize.ofMiB(64), engine.config.memoryBudget());
  }

  @Test
  void explainRefusesStandardInput() {
    CliRun r = sort("--explain", "-o", out.toString(), "-");
    assertEquals(2, r.exitCode, r::toString);
    assertEquals(
        "joule: --explain needs one input file: the size of standard input, a pipe or several"
            + " files is not known before reading them\n",
        r.err);
    r = sort("--explain", in.toString(), in.toString());
    assertEquals(2, r.exitCode, r::toString);
  }

  /**
   * Standard input and standard output are streams of the engine's sort of streams: nothing is
   * copied into the temp dir, which is not even looked at (it does not exist here).
   */
  @Test
  void stdinAndStdoutAreStreamedIntoAndOutOfTheSortWithNoTempFile() throws IOException {
    byte[] data = "012345678\n".repeat(30).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    Path gone = dir.resolve("gone");
    CliRun r =
        CliRun.run(
            engine.env(new ByteArrayInputStream(data), stdout, dir),
            "sort",
            "--temp",
            gone.toString());
    assertEquals(0, r.exitCode, r::toString);
    assertEquals(null, engine.input);
    assertEquals(List.of(Path.of("-")), names(engine.streams));
    assertEquals(BrokenPipe.STDOUT, engine.output);
    assertArrayEquals(data, engine.inputBytes);
    assertArrayEquals(StubEngine.MARKER, stdout.toByteArray());
    assertEquals("", r.out + r.err);
    assertFalse(Files.exists(gone));
    // One regular FILE to standard output is a stream out too; to -o FILE it is the file sort.
    r = sort(in.toString());
    assertEquals(0, r.exitCode, r::toString);
    assertEquals(List.of(in), names(engine.streams));
    r = sort("-o", out.toString(), in.toString());
    assertEquals(0, r.exitCode, r::toString);
    assertEquals(in, engine.input);
    assertEquals(null, engine.streams);
    assertEquals(List.of(), listTmp());
  }

  private static List<Path> names(List<SortedInputs.Input> streams) {
    return streams.stream().map(SortedInputs.Input::name).toList();
  }

  @Test
  void pipesAndDevicesAsInputAreStreamsLikeStdin() throws Exception {
    CliRun r = sort("-o", out.toString(), "/dev/null");
    assertEquals(0, r.exitCode, r::toString);
    assertEquals(List.of(Path.of("/dev/null")), names(engine.streams));
    assertEquals(out, engine.output);
    assertEquals(0, engine.inputBytes.length);
    Path fifo = dir.resolve("fifo");
    assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor());
    byte[] data = new byte[300];
    data[299] = '\n';
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
    r = sort("-o", out.toString(), fifo.toString());
    writer.join();
    assertEquals(0, r.exitCode, r::toString);
    assertEquals(List.of(fifo), names(engine.streams));
    assertArrayEquals(data, engine.inputBytes);
    assertEquals(List.of(), listTmp());
    r = sort("--explain", "-o", out.toString(), "/dev/null");
    assertEquals(2, r.exitCode, r::toString);
    assertTrue(r.err.startsWith("joule: --explain needs one input file"), r.err);
  }

  /**
   * A write to standard output that fails is an I/O error (exit 2, one line), except a closed pipe:
   * its reader is gone, and GNU sort ends silently with 141 (here the process is not signalled:
   * standard output is not file descriptor 1, {@link BrokenPipe}).
   */
  @Test
  void aFailedStdoutWriteIsAnErrorButABrokenPipeEndsSilently() {
    CliRun r = CliRun.run(failingStdout("No space left on device"), "sort", in.toString());
    assertEquals(2, r.exitCode, r::toString);
    assertEquals("joule: write failed: /dev/stdout: No space left on device\n", r.err);
    r = CliRun.run(failingStdout("Broken pipe"), "sort", "--temp", tmp.toString(), in.toString());
    assertEquals(BrokenPipe.STATUS, r.exitCode, r::toString);
    assertEquals("", r.err);
    assertEquals(List.of(), listTmp());
  }

  private CliEnvironment failingStdout(String reason) {
    OutputStream closedPipe =
        new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            throw new IOException(reason);
          }
        };
    return new CliEnvironment(engine, new ByteArrayInputStream(new byte[0]), closedPipe, dir);
  }

  @Test
  void reportJsonAndStats() throws IOException {
    Path json = dir.resolve("report.json");
    CliRun r =
        sort("--report-json", json.toString(), "--stats", "-o", out.toString(), in.toString());
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
    CliRun r = sort("-o", out.toString(), in.toString());
    assertEquals(0, r.exitCode, r::toString);
    assertEquals("joule: direct I/O not supported on " + tmp + ", using buffered I/O\n", r.err);
    r = sort("--quiet", "-o", out.toString(), in.toString());
    assertEquals("", r.err);
    assertSame(NoticeSink.IGNORE, engine.config.notices());
  }

  @Test
  void progressAlwaysDrawsABarAfterASecondAndEndsItsLine() {
    engine.during =
        c -> {
          c.progress().update("run formation", 0, 1000);
          try {
            Thread.sleep(ProgressBar.DELAY_NANOS / 1_000_000 + 50); // a bar shows after a second
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          c.progress().update("run formation", 500, 1000);
        };
    CliRun r = sort("--progress", "always", "-o", out.toString(), in.toString());
    assertEquals(0, r.exitCode, r::toString);
    assertInstanceOf(ProgressBar.class, engine.config.progress());
    assertTrue(r.err.startsWith("\rrun formation  ["), r.err);
    assertTrue(r.err.contains("100%"), r.err);
    assertTrue(r.err.endsWith("\n"), r.err);
    assertSame(ProgressListener.NONE, configOf("--progress", "never").progress());
    assertSame(ProgressListener.NONE, configOf("--progress", "always", "--quiet").progress());
  }

  /** GNU needs -T only when it spills: so does joule for a FILE sorted to -o FILE. */
  @Test
  void aMissingTempDirFailsOnlyASortThatSpills() throws IOException {
    Path gone = dir.resolve("gone");
    Path small = Files.writeString(dir.resolve("small.txt"), "b\na\n");
    CliEnvironment real = CliEnvironment.system();
    CliRun r =
        CliRun.run(real, "sort", "-T", gone.toString(), "-o", out.toString(), small.toString());
    assertEquals(0, r.exitCode, r::toString);
    assertEquals("a\nb\n", Files.readString(out));
    StringBuilder big = new StringBuilder();
    for (int i = 0; i < 400_000; i++) {
      big.append(i * 7919 % 400_000).append(" some text to make the line longer\n");
    }
    Path large = Files.writeString(dir.resolve("large.txt"), big); // 16 MB: two runs at -S 8M
    r =
        CliRun.run(
            real,
            "sort",
            "-S",
            "8M",
            "-T",
            gone.toString(),
            "-o",
            out.toString(),
            large.toString());
    assertEquals(2, r.exitCode, r::toString);
    assertEquals("joule: use temp dir failed: " + gone + ": No such file or directory\n", r.err);
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

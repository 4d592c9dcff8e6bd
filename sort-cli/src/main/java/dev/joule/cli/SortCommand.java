package dev.joule.cli;

import dev.joule.core.key.GnuDebug;
import dev.joule.core.key.SortKey;
import dev.joule.core.key.TextLocale;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.io.config.Compression;
import dev.joule.io.config.LastResort;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.config.ProgressListener;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortIOException;
import dev.joule.io.pipeline.ExternalSorter;
import dev.joule.io.pipeline.SortedInputs;
import dev.joule.io.report.SortReport;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code joule sort}: GNU sort's command line over joule's engine. Text lines by default ({@code
 * -z}: NUL-terminated), or fixed-size binary records ({@code --gensort}, {@code --record-size});
 * GNU's ordering options, keys and last resort ({@link GnuOrdering}); FILE operands as GNU takes
 * them (none or {@code -}: standard input; several: sorted together; {@link SortInputs}); the
 * output to standard output, or published atomically to {@code -o FILE}, which may be an input.
 * {@code -c} and {@code -C} check order, {@code -m} merges sorted inputs; both stream and never
 * sort.
 *
 * <p>Every argument, input and output directory is checked before a byte is read or the output
 * touched; the temp dirs only when the sort spills (GNU's {@code -T}). One regular file into a
 * regular {@code -o} file goes through the engine's file sort; standard input, pipes, several
 * operands, and standard output or another stream as the output go through its sort of streams,
 * with no copy into a temp file. A write to standard output whose reader is gone ends the process
 * as SIGPIPE ends GNU sort ({@link BrokenPipe}).
 */
@Command(
    name = "sort",
    preprocessor = GnuGetopt.class,
    versionProvider = BuildVersionProvider.class,
    sortOptions = false,
    header =
        "Sort lines of text files, or fixed-size records: external, off-heap, self-validating.",
    synopsisHeading = "%nUsage: ",
    customSynopsis = "joule sort [OPTION]... [FILE]...",
    description = {
      "",
      "Write the sorted concatenation of all FILE(s) to standard output, or to -o FILE. With no"
          + " FILE, or when FILE is -, read standard input. Options and their meaning are GNU"
          + " sort's (in the C locale bytes compare as unsigned values; blanks are space and tab),"
          + " with GNU's last-resort comparison of whole lines unless -s or -u.",
      "The sort validates itself (record count, checksum and order of the output against the"
          + " input) and publishes -o FILE atomically: on any failure a previous FILE is left"
          + " byte-identical. FILE may be one of the inputs.",
      "Stack traces of errors: --stack-trace.",
      "The locale (LC_ALL, else LC_COLLATE and the other LC_* variables, else LANG) orders text as"
          + " GNU sort's does: by the C library's collation (strxfrm), with its classes for -d -i"
          + " -f, its decimal point and thousands separator for -n -h -g, its month names for -M,"
          + " its collation transform hashed by -R; C, POSIX and C.UTF-8 compare bytes. A locale"
          + " that is not installed is C.",
    },
    footer = {
      "",
      "Examples:",
      "  joule sort -t, -k2,2n data.csv            2nd comma-separated field, numbers",
      "  joule sort -u -o words.txt words.txt      unique lines, in place",
      "  joule sort -m sorted1.txt sorted2.txt     merge files already sorted",
      "  joule sort -c data.txt || echo unsorted   check only (exit 1 if not)",
      "  joule sort -R --random-source=seed f.txt  shuffle, the same way each time",
      "  joule sort --gensort -o out.dat in.dat    gensort records",
      "  joule sort --explain -S 64M big.txt       the plan only; writes nothing",
      "  joule sort -k3,3nr -k1,1 -S 4G -T /mnt/a/tmp -T /mnt/b/tmp big.txt >big.out",
      "  joule sort --record-size 16 --binary-key 8:8:int:desc -o pairs.out pairs.bin",
      "  cat in.txt | joule sort -nr | head",
    })
public final class SortCommand implements Callable<Integer> {
  static final String STDIO = SortInputs.STDIN;

  @Spec CommandSpec spec;

  /** The command line that set the options: {@link DirectSort}'s, else picocli's model. */
  CommandContext context;

  @Mixin GnuOrdering ordering;

  @Option(
      names = "-c",
      description =
          "Check for sorted input; do not sort. Exit 1 and report the first disorder on stderr.")
  boolean checkDiagnose;

  @Option(
      names = "--check",
      arity = "0..1",
      paramLabel = "WORD",
      description =
          "--check or --check=diagnose-first is -c; --check=quiet or --check=silent is -C.")
  List<String> check = new ArrayList<>();

  @Option(
      names = "-C",
      description =
          "Like -c, but do not report the first bad line (--check=quiet, --check=silent).")
  boolean checkQuiet;

  @Option(
      names = {"-m", "--merge"},
      description = "Merge already sorted files; do not sort.")
  boolean merge;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description =
          "Write the result to FILE instead of standard output (atomically; FILE may"
              + " be an input).")
  List<String> outputs = new ArrayList<>();

  @Option(
      names = "--files0-from",
      paramLabel = "F",
      description =
          "Read input from the files specified by NUL-terminated names in file F; if F is -"
              + " then read names from standard input.")
  String files0From;

  @Mixin FixedRecordOptions fixed;

  @Mixin SortOptions options;

  @Option(
      names = "--stats",
      description =
          "Print a table of the phases (time, MB/s, CPU %%, runs, passes) to stderr at the end.")
  boolean stats;

  @Option(
      names = "--report-json",
      paramLabel = "FILE",
      description =
          "Write the sort's report (phases, times, runs, valsort numbers) as JSON to FILE.")
  Path reportJson;

  @Option(
      names = "--report-html",
      paramLabel = "FILE",
      description =
          "Write the report as one self-contained HTML page to FILE: the phases over time, MB/s"
              + " per device (input, each temp dir, output), CPU use, and the --stats table.")
  Path reportHtml;

  @Option(
      names = "--explain",
      description =
          "Print the plan (runs, merge passes, memory split) and exit without sorting or"
              + " writing anything. Needs one input file.")
  boolean explain;

  @Option(
      names = "--debug",
      description =
          "Annotate the part of each output line used for sorting (keys, then the last resort),"
              + " and warn about questionable options on standard error, as GNU sort does."
              + " Standard output only: not with -o, -c or -C.")
  boolean gnuDebug;

  @Option(
      names = "--compress-program",
      paramLabel = "PROG",
      description =
          "Compress temp run blocks with PROG, as GNU sort does: PROG compresses standard input to"
              + " standard output, PROG -d decompresses; run once per block (--transfer-temp), a"
              + " block that does not shrink is stored raw. A PROG that cannot be run or exits"
              + " with a status other than 0 fails the sort (exit 2). Instead of --compress.")
  List<String> compressPrograms = new ArrayList<>();

  @Option(names = "--help", usageHelp = true, description = "Display this help and exit.")
  boolean help;

  @Option(
      names = "--version",
      versionHelp = true,
      description = "Output version information and exit.")
  boolean version;

  @Parameters(
      paramLabel = "FILE",
      arity = "0..*",
      description = "Files to sort together; - or none: standard input.")
  List<String> files = new ArrayList<>();

  private final CliEnvironment env;
  private TextLocale locale;

  public SortCommand() {
    this(CliEnvironment.system());
  }

  SortCommand(CliEnvironment env) {
    this.env = env;
  }

  /** What a run of the command does. */
  private enum Mode {
    SORT,
    MERGE,
    CHECK
  }

  @Override
  public Integer call() throws IOException {
    PrintWriter err = context().err();
    String program = compressProgram();
    locale = locale(err);
    Mode mode = mode();
    GnuDebug debug = gnuDebug ? parseDebug() : null;
    if (files0From != null && !files.isEmpty()) {
      throw context()
          .usage(
              new GnuUsageException(
                  "extra operand '"
                      + files.get(0)
                      + "'\nfile operands cannot be combined with --files0-from",
                  ExitCodes.USAGE_OR_IO,
                  true));
    }
    SortInputs inputs =
        new SortInputs(files0From != null ? filesFrom(files0From) : files, env.stdin());
    if (debug != null) {
      startDebug(debug, mode, err);
    }
    String output = output(mode, inputs);
    ProgressBar bar =
        mode == Mode.SORT && options.showProgress(outputs.isEmpty())
            ? ProgressBar.onTerminal(err)
            : null;
    SortConfig config =
        config(notices(err, bar), bar != null ? bar : ProgressListener.NONE, program);
    inputs.checkReadable();
    try {
      switch (mode) {
        case CHECK:
          return check(inputs, config, silentCheck(), err);
        case MERGE:
          return merge(inputs, output, config, debug);
        default:
          return sort(inputs, output, config, bar, err, debug);
      }
    } catch (SortIOException e) {
      if (!BrokenPipe.is(e) || !BrokenPipe.endsSilently()) {
        throw e;
      }
      return BrokenPipe.end(e, env.stdout()); // everything is closed, the temp files gone
    }
  }

  /**
   * The locale of the environment, chosen as GNU sort's {@code setlocale(LC_ALL, "")} does; a
   * locale that is not installed is C, silently (GNU's {@code --debug} says "failed to set
   * locale"). Where joule cannot reach the C library's locales (not Linux), a warning says the sort
   * is in the C locale.
   */
  private TextLocale locale(PrintWriter err) {
    TextLocale l = TextLocale.fromEnvironment(env.variables());
    if (l.unsupported()) {
      err.println("joule: warning: " + l.failure() + "; sorting as in the C locale");
      err.flush();
    }
    return l;
  }

  /**
   * The {@code --compress-program} PROG, or null: GNU refuses two different ones, and joule one
   * beside a codec of {@code --compress}, since both say how temp runs are compressed.
   */
  private String compressProgram() {
    List<String> programs = new ArrayList<>(compressPrograms);
    String abbreviated = options.compressProgram(); // GNU's --compress=PROG
    if (abbreviated != null) {
      programs.add(abbreviated);
    }
    if (programs.stream().distinct().count() > 1) {
      throw usage("multiple compress programs specified");
    }
    if (programs.isEmpty()) {
      return null;
    }
    if (abbreviated == null && context().matched("--compress")) {
      throw usage(
          "--compress "
              + options.compress
              + " and --compress-program both say how temp runs are compressed: give one");
    }
    if (programs.get(0).isEmpty()) {
      throw usage("invalid value for --compress-program: '': the program's name is empty");
    }
    return programs.get(0);
  }

  /**
   * GNU's {@code --debug}, once the options and the {@code --files0-from} list are read (GNU's
   * order): refused beside {@code -c}, {@code -C} and {@code -o}; prints its warnings.
   */
  private void startDebug(GnuDebug debug, Mode mode, PrintWriter err) {
    if (mode == Mode.CHECK || !outputs.isEmpty()) {
      char with = mode != Mode.CHECK ? 'o' : loudCheck() ? 'c' : 'C';
      throw usage("options '-" + with + " --debug' are incompatible");
    }
    for (String w : debug.warnings()) {
      err.println("joule: " + w);
    }
    err.flush();
  }

  private Mode mode() {
    boolean loud = loudCheck();
    boolean quiet = silentCheck();
    if (loud && quiet) {
      throw usage("options '-cC' are incompatible");
    }
    if (loud || quiet) {
      if (!outputs.isEmpty() && !gnuDebug) { // with --debug, GNU refuses that first
        throw usage("options '-" + (loud ? 'c' : 'C') + "o' are incompatible");
      }
      return Mode.CHECK;
    }
    return merge ? Mode.MERGE : Mode.SORT;
  }

  /**
   * The annotation of {@code --debug}'s output lines, after what GNU refuses beside it as it parses
   * the options: a bad key, and several {@code -o} (the refusal beside {@code -c}, {@code -C} and
   * {@code -o} comes later, {@link #startDebug}); and what joule refuses: fixed-size records, which
   * have no text keys to mark, and {@code --explain}, which sorts nothing to mark.
   */
  private GnuDebug parseDebug() {
    if (fixed.fixed()) {
      throw usage(
          "--debug annotates keys of text lines; it does not apply to --record-size records");
    }
    if (explain) {
      throw usage("options '--explain --debug' are incompatible: --explain sorts nothing");
    }
    GnuDebug debug = ordering.debug(locale);
    singleOutput();
    return debug;
  }

  /** -c or --check[=diagnose-first]: check, reporting the first disorder. */
  private boolean loudCheck() {
    return checkDiagnose || check.contains("diagnose-first");
  }

  /** -C or --check=quiet|silent: check, reporting nothing. */
  private boolean silentCheck() {
    return checkQuiet || check.contains("quiet") || check.contains("silent");
  }

  private List<String> filesFrom(String list) throws SortIOException {
    try {
      return SortInputs.files0From(list, env.stdin());
    } catch (IllegalArgumentException e) {
      throw usage(e.getMessage());
    }
  }

  /** GNU's refusal of two different {@code -o} files. */
  private void singleOutput() {
    if (outputs.size() > 1 && outputs.stream().distinct().count() > 1) {
      throw usage("multiple output files specified");
    }
  }

  /** The -o FILE, or null for standard output; checked (directory exists and is writable). */
  private String output(Mode mode, SortInputs inputs) throws SortIOException {
    singleOutput();
    if (mode == Mode.CHECK) {
      if (inputs.names().size() > 1) {
        throw usage(
            "extra operand '"
                + inputs.names().get(1)
                + "' not allowed with -"
                + (loudCheck() ? 'c' : 'C'));
      }
      return null;
    }
    String out = outputs.isEmpty() ? null : outputs.get(0);
    if (out != null && streamTarget(out)) {
      if (!Files.isWritable(Path.of(out))) {
        throw new SortIOException("open", Path.of(out), "Permission denied");
      }
    } else if (out != null) {
      checkOutput(Path.of(out));
    }
    if (reportJson != null) {
      checkOutput(reportJson);
    }
    if (reportHtml != null) {
      checkOutput(reportHtml);
    }
    if (explain && inputs.direct() == null) {
      throw usage(
          "--explain needs one input file: the size of standard input, a pipe or several files"
              + " is not known before reading them");
    }
    return out;
  }

  /** The configuration of these options: format, key, last resort, unique, engine options. */
  private SortConfig config(NoticeSink notices, ProgressListener progress, String program)
      throws SortIOException {
    SortConfig.Builder b = options.toBuilder(notices, progress);
    if (program != null) {
      b.compression(Compression.program(program));
    }
    String stray = fixed.strayOption();
    if (stray != null) {
      throw usage(stray + " applies to fixed-size records: add --record-size N (or --gensort)");
    }
    if (fixed.fixed()) {
      if (ordering.anyTextOption()) {
        throw usage(
            "-k, -t, -z and the ordering options -b -d -f -g -h -i -M -n -R -V apply to text lines;"
                + " for --record-size records use --binary-key OFF:SIZE[:TYPE][:desc]");
      }
      FixedLengthFormat format = fixed.format();
      SortKey key = fixed.key(format, ordering.reverse);
      b.format(format).lastResort(LastResort.NONE).unique(ordering.unique);
      if (key != null) {
        b.key(key);
      }
    } else {
      b.format(ordering.lineFormat())
          .key(ordering.key(locale))
          .lastResort(ordering.lastResort(locale))
          .unique(ordering.unique);
    }
    return b.build();
  }

  private int check(SortInputs inputs, SortConfig config, boolean quiet, PrintWriter err)
      throws IOException {
    String name = inputs.names().get(0);
    InputStream in = inputs.open().get(0);
    SortedInputs.Disorder d =
        ExternalSorter.check(new SortedInputs.Input(Path.of(name), in), config);
    if (d == null) {
      return ExitCodes.OK;
    }
    if (!quiet) {
      // GNU's report: the input, the line number and the line itself, ended by the line's own
      // delimiter (NUL with -z).
      err.print(
          "joule: "
              + name
              + ":"
              + d.number()
              + ": disorder: "
              + new String(d.record(), StandardCharsets.ISO_8859_1)
              + (ordering.zeroTerminated && !fixed.fixed() ? "\0" : "\n"));
      err.flush();
    }
    return ExitCodes.UNORDERED;
  }

  private int merge(SortInputs inputs, String output, SortConfig config, GnuDebug debug)
      throws IOException {
    List<InputStream> streams = inputs.open();
    List<SortedInputs.Input> in = new ArrayList<>();
    for (int i = 0; i < streams.size(); i++) {
      in.add(new SortedInputs.Input(Path.of(inputs.names().get(i)), streams.get(i)));
    }
    if (debug != null) {
      DebugAnnotation marked =
          new DebugAnnotation(debug, ordering.lineFormat().delimiter(), env.stdout());
      ExternalSorter.merge(in, marked, BrokenPipe.STDOUT, config);
      finish(marked, BrokenPipe.STDOUT);
    } else if (output == null) {
      ExternalSorter.merge(in, env.stdout(), BrokenPipe.STDOUT, config);
    } else if (streamTarget(output)) {
      intoStream(Path.of(output), o -> ExternalSorter.merge(in, o, Path.of(output), config));
    } else {
      ExternalSorter.merge(in, Path.of(output), config);
    }
    return ExitCodes.OK;
  }

  private int sort(
      SortInputs inputs,
      String output,
      SortConfig config,
      ProgressBar bar,
      PrintWriter err,
      GnuDebug debug)
      throws IOException {
    Path direct = inputs.direct();
    if (explain) {
      return explain(direct, output, config);
    }
    SortReport report;
    boolean sorted = false;
    try {
      report = sortInto(inputs, direct, output, config, debug);
      sorted = true;
    } finally {
      ProgressBar.end(bar, sorted);
    }
    if (reportJson != null) {
      writeReport(report);
    }
    if (reportHtml != null) {
      String title = direct != null ? direct.getFileName().toString() : "standard input";
      try {
        Files.writeString(reportHtml, HtmlReport.page(report, title));
      } catch (IOException e) {
        throw new SortIOException("write", reportHtml, SortIOException.reasonOf(e), e);
      }
    }
    if (stats) {
      StatsTable.lines(report).forEach(err::println);
      err.flush();
    }
    return ExitCodes.OK;
  }

  /**
   * Sorts by the engine's file sort when it can read one regular file by position and publish a
   * regular {@code -o} file; everything else (standard input, pipes, several files, standard output
   * or another stream as the output) is a sort of streams: records go into the sort as they are
   * read, and out to the stream as the in-memory sort or the final merge yields them, with no temp
   * file unless the sort spills.
   */
  private SortReport sortInto(
      SortInputs inputs, Path direct, String output, SortConfig config, GnuDebug debug)
      throws IOException {
    SortEngine engine = env.engine();
    if (debug != null) {
      DebugAnnotation marked =
          new DebugAnnotation(debug, ordering.lineFormat().delimiter(), env.stdout());
      SortReport r = engine.sort(inputs.streams(), marked, BrokenPipe.STDOUT, config);
      finish(marked, BrokenPipe.STDOUT);
      return r;
    }
    if (output == null) {
      return engine.sort(inputs.streams(), env.stdout(), BrokenPipe.STDOUT, config);
    }
    if (streamTarget(output)) {
      SortReport[] r = new SortReport[1];
      intoStream(
          Path.of(output), o -> r[0] = engine.sort(inputs.streams(), o, Path.of(output), config));
      return r[0];
    }
    if (direct != null) {
      return engine.sort(direct, Path.of(output), config);
    }
    return engine.sort(inputs.streams(), Path.of(output), config);
  }

  /** {@code --explain}: the file sort's plan for the one input file; sorts and writes nothing. */
  private int explain(Path direct, String output, SortConfig config) throws IOException {
    ExternalSorter.checkTempDirs(config);
    Path out =
        output == null || streamTarget(output)
            ? config.tempDirs().get(0).resolve("joule-stdout")
            : Path.of(output);
    PrintWriter stdout = context().out();
    stdout.println(env.engine().explain(direct, out, config).stripTrailing());
    stdout.flush();
    return ExitCodes.OK;
  }

  private RuntimeException usage(String message) {
    return context().usage(message, null);
  }

  private CommandContext context() {
    return context != null ? context : CommandContext.of(spec);
  }

  static NoticeSink notices(PrintWriter err, ProgressBar bar) {
    return line -> {
      synchronized (err) {
        if (bar != null) {
          bar.clear();
        }
        err.println("joule: " + line);
        err.flush();
      }
    };
  }

  static void checkInput(Path in) throws SortIOException {
    if (!Files.exists(in)) {
      throw new SortIOException("open", in, "No such file or directory");
    }
    if (Files.isDirectory(in)) {
      throw new SortIOException("open", in, "Is a directory");
    }
    if (!Files.isReadable(in)) {
      throw new SortIOException("open", in, "Permission denied");
    }
  }

  /** The output's directory must exist and be writable, and the output must not be a directory. */
  static void checkOutput(Path out) throws SortIOException {
    Path dir = out.toAbsolutePath().getParent();
    if (dir == null || !Files.exists(dir)) {
      throw new SortIOException("open", out, "No such file or directory");
    }
    if (!Files.isDirectory(dir)) {
      throw new SortIOException("open", out, "Not a directory");
    }
    if (Files.isDirectory(out)) {
      throw new SortIOException("open", out, "Is a directory");
    }
    if (!Files.isWritable(dir)) {
      throw new SortIOException("open", out, "Permission denied");
    }
  }

  /**
   * Whether {@code -o FILE} names something that is not a regular file, such as {@code /dev/null},
   * a FIFO or {@code /dev/stdout}: written into as a stream, as GNU sort does, never replaced by a
   * renamed file (which would turn {@code /dev/null} into a regular file).
   */
  static boolean streamTarget(String output) {
    Path p = Path.of(output);
    return Files.exists(p) && !Files.isRegularFile(p) && !Files.isDirectory(p);
  }

  /** What writes into a stream target. */
  private interface StreamWriter {
    void write(OutputStream o) throws IOException;
  }

  /**
   * Opens {@code target} for writing (no create, no rename), lets {@code body} write, closes it.
   */
  private static void intoStream(Path target, StreamWriter body) throws IOException {
    OutputStream o;
    try {
      o = Files.newOutputStream(target, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new SortIOException("open", target, SortIOException.reasonOf(e), e);
    }
    try (o) {
      body.write(o);
    } catch (SortIOException e) {
      throw e;
    } catch (IOException e) {
      throw new SortIOException("close", target, SortIOException.reasonOf(e), e);
    }
  }

  /** Marks a last line without a delimiter (none in a sort's output) and flushes. */
  private static void finish(DebugAnnotation marked, Path name) throws SortIOException {
    try {
      marked.finish();
    } catch (IOException e) {
      throw new SortIOException("write", name, SortIOException.reasonOf(e), e);
    }
  }

  /** {@code --timeline-interval}: a number with {@code ms} or {@code s} (the default unit). */
  private void writeReport(SortReport report) throws SortIOException {
    try {
      Files.writeString(reportJson, report.toJson() + "\n");
    } catch (IOException e) {
      throw new SortIOException("write", reportJson, SortIOException.reasonOf(e), e);
    }
  }
}

package dev.joule.cli;

import dev.joule.io.config.NoticeSink;
import dev.joule.io.config.ProgressListener;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortIOException;
import dev.joule.io.pipeline.ExternalSorter;
import dev.joule.io.report.SortReport;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code joule sort}: sorts fixed-length records with {@code ExternalSorter}. Checks every
 * argument, the input, the temp dirs and the output directory before reading a byte or touching the
 * output; {@code -} spools standard input into, and stages standard output in, a private 0700
 * directory in the first temp dir, deleted afterwards (also on SIGINT/SIGTERM/SIGHUP, by a shutdown
 * hook).
 */
@Command(
    name = "sort",
    mixinStandardHelpOptions = true,
    versionProvider = BuildVersionProvider.class,
    sortOptions = false,
    usageHelpWidth = 100,
    header = "Sorts fixed-length records by key: external, off-heap, self-validating.",
    description = {
      "Sorts the fixed-length records of INPUT into OUTPUT by an unsigned-byte key. The sort is"
          + " stable, validates itself (record count, checksum and order of the output against the"
          + " input) and publishes OUTPUT atomically: on any failure a previous OUTPUT is left"
          + " byte-identical. OUTPUT may be INPUT (an in-place sort).",
      "INPUT and OUTPUT may be '-' for standard input and output; standard input (or a pipe or"
          + " device given as INPUT) is first copied to a private file in the first temp dir.",
    },
    footer = {
      "",
      "Examples:",
      "  joule gensort 10000000 in.dat && joule sort in.dat out.dat && joule valsort out.dat",
      "  joule sort --memory 4g --temp /mnt/a/tmp --temp /mnt/b/tmp big.dat big.sorted",
      "  joule sort --stats --report-json report.json in.dat out.dat",
      "  joule sort --explain --memory 64m in.dat out.dat    (the plan only; writes nothing)",
      "  joule sort --record-size 16 --key-offset 8 --key-size 8 pairs.bin pairs.sorted",
      "  cat in.dat | joule sort - - > out.dat",
      "  JOULE_JAVA_OPTS=-XX:MaxDirectMemorySize=16g joule sort --memory 12g in.dat out.dat",
    })
public final class SortCommand implements Callable<Integer> {
  static final String STDIO = "-";
  private static final int COPY_BUFFER = 1 << 20;

  @Spec CommandSpec spec;

  @Mixin SortOptions options;

  @Option(
      names = "--report-json",
      paramLabel = "FILE",
      description =
          "Write the sort's report (phases, times, runs, valsort numbers) as JSON to FILE.")
  Path reportJson;

  @Option(
      names = "--stats",
      description =
          "Print a table of the phases (time, MB/s, CPU %%, runs, passes) to stderr at the end.")
  boolean stats;

  @Option(
      names = "--explain",
      description =
          "Print the plan (runs, merge passes, memory split) and exit without sorting or"
              + " writing anything. INPUT must be a file.")
  boolean explain;

  @Parameters(
      index = "0",
      paramLabel = "INPUT",
      description = "The file to sort, or '-' for standard input.")
  String input;

  @Parameters(
      index = "1",
      paramLabel = "OUTPUT",
      description = "The sorted file, or '-' for standard output.")
  String output;

  private final CliEnvironment env;

  public SortCommand() {
    this(CliEnvironment.system());
  }

  SortCommand(CliEnvironment env) {
    this.env = env;
  }

  @Override
  public Integer call() throws IOException {
    PrintWriter err = spec.commandLine().getErr();
    if (explain && streamedInput()) {
      throw new ParameterException(
          spec.commandLine(),
          "--explain needs an input file: the size of standard input or a pipe is not known before"
              + " reading it");
    }
    ProgressBar bar = options.showProgress() ? new ProgressBar(err, System::nanoTime) : null;
    SortConfig config =
        options.toConfig(notices(err, bar), bar != null ? bar : ProgressListener.NONE);
    checkBeforeWork(config);
    if (explain) {
      Path out =
          STDIO.equals(output) ? config.tempDirs().get(0).resolve("joule-stdout") : Path.of(output);
      PrintWriter stdout = spec.commandLine().getOut();
      stdout.println(env.engine().explain(Path.of(input), out, config).stripTrailing());
      stdout.flush();
      return ExitCodes.OK;
    }
    SortReport report;
    try (PrivateDir spool =
        needsSpool() ? PrivateDir.create(config.tempDirs().get(0), "stdio") : null) {
      Path in = streamedInput() ? spoolInput(spool) : Path.of(input);
      Path out = STDIO.equals(output) ? spool.resolve("output") : Path.of(output);
      try {
        report = env.engine().sort(in, out, config);
      } finally {
        if (bar != null) {
          bar.finish();
        }
      }
      if (STDIO.equals(output)) {
        copyToStdout(out);
      }
    }
    if (reportJson != null) {
      writeReport(report);
    }
    if (stats) {
      StatsTable.lines(report).forEach(err::println);
      err.flush();
    }
    return ExitCodes.OK;
  }

  static NoticeSink notices(PrintWriter err, ProgressBar bar) {
    return line -> {
      synchronized (err) {
        if (bar != null) {
          bar.finish();
        }
        err.println("joule: " + line);
        err.flush();
      }
    };
  }

  private boolean needsSpool() {
    return streamedInput() || STDIO.equals(output);
  }

  /**
   * Standard input, or a pipe or device such as {@code <(cmd)} or {@code /dev/null}: the engine
   * needs a regular file it can size and read by position, so these are spooled first.
   */
  private boolean streamedInput() {
    if (STDIO.equals(input)) {
      return true;
    }
    Path p = Path.of(input);
    return Files.exists(p) && !Files.isRegularFile(p) && !Files.isDirectory(p);
  }

  /** Argument, input, temp-dir and output-dir errors, all before any byte is read or written. */
  private void checkBeforeWork(SortConfig config) throws SortIOException {
    if (!STDIO.equals(input)) {
      checkInput(Path.of(input));
    }
    ExternalSorter.checkTempDirs(config);
    if (!STDIO.equals(output)) {
      checkOutput(Path.of(output));
    }
    if (reportJson != null) {
      checkOutput(reportJson);
    }
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

  /** Copies standard input or the pipe named by INPUT into a private 0600 file. */
  private Path spoolInput(PrivateDir spool) throws SortIOException {
    if (STDIO.equals(input)) {
      return spool(env.stdin(), Path.of("/dev/stdin"), spool);
    }
    Path source = Path.of(input);
    try (InputStream in = Files.newInputStream(source)) {
      return spool(in, source, spool);
    } catch (SortIOException e) {
      throw e;
    } catch (IOException e) {
      throw new SortIOException("open", source, SortIOException.reasonOf(e), e);
    }
  }

  private static Path spool(InputStream in, Path source, PrivateDir spool) throws SortIOException {
    Path f = spool.newFile("input");
    byte[] buf = new byte[COPY_BUFFER];
    try (OutputStream o = Files.newOutputStream(f, StandardOpenOption.WRITE)) {
      int n;
      while (true) {
        try {
          n = in.read(buf);
        } catch (IOException e) {
          throw new SortIOException("read", source, SortIOException.reasonOf(e), e);
        }
        if (n < 0) {
          break;
        }
        o.write(buf, 0, n);
      }
    } catch (SortIOException e) {
      throw e;
    } catch (IOException e) {
      throw new SortIOException("write", f, SortIOException.reasonOf(e), e);
    }
    return f;
  }

  private void copyToStdout(Path sorted) throws SortIOException {
    byte[] buf = new byte[COPY_BUFFER];
    OutputStream o = env.stdout();
    try (InputStream in = Files.newInputStream(sorted)) {
      int n;
      while ((n = in.read(buf)) >= 0) {
        writeStdout(o, buf, n);
      }
      writeStdout(o, buf, -1);
    } catch (SortIOException e) {
      throw e;
    } catch (IOException e) {
      throw new SortIOException("read", sorted, SortIOException.reasonOf(e), e);
    }
  }

  /** Writes {@code n} bytes of {@code buf}, or flushes when {@code n < 0}. */
  private static void writeStdout(OutputStream o, byte[] buf, int n) throws SortIOException {
    try {
      if (n < 0) {
        o.flush();
      } else {
        o.write(buf, 0, n);
      }
    } catch (IOException e) {
      throw new SortIOException("write", Path.of("/dev/stdout"), SortIOException.reasonOf(e), e);
    }
  }

  private void writeReport(SortReport report) throws SortIOException {
    try {
      Files.writeString(reportJson, report.toJson() + "\n");
    } catch (IOException e) {
      throw new SortIOException("write", reportJson, SortIOException.reasonOf(e), e);
    }
  }
}

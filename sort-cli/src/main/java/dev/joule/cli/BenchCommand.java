package dev.joule.cli;

import com.sun.management.OperatingSystemMXBean;
import dev.joule.core.gensort.GensortMode;
import dev.joule.core.gensort.ParallelGensort;
import dev.joule.core.gensort.RecordLayout;
import dev.joule.core.gensort.Uint128;
import dev.joule.core.memory.SuppressForbidden;
import dev.joule.core.valsort.ParallelValidator;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.core.valsort.ValsortException;
import dev.joule.core.valsort.ValsortSummary;
import dev.joule.io.config.ProgressListener;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortIOException;
import dev.joule.io.pipeline.ExternalSorter;
import dev.joule.io.report.SortReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code joule bench}: a JouleSort-style run. Generates gensort records, then R times sorts them
 * with the sort options, validates the output against the generator (order, count, checksum) and
 * measures wall time, process CPU time and, where the RAPL counters exist, energy. Prints one row
 * per run and the median of each column. Only the sort is timed: generation, validation and the
 * removal of the previous output are outside the measured interval.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    versionProvider = BuildVersionProvider.class,
    sortOptions = false,
    header = "JouleSort-style benchmark: generate, sort, validate and measure (time, CPU, energy).",
    description = {
      "JouleSort-style benchmark: generates N gensort records (as 'joule gensort') into a private"
          + " directory in DIR, sorts them R times with the given sort options, validates every"
          + " output as 'joule valsort' does (ordered, and record count and checksum equal to the"
          + " generator's), and prints per run and the median: wall time, CPU-seconds, MB/s,"
          + " records/s, CPU-seconds per GB, and energy in joules with records per joule when the"
          + " host exposes Linux RAPL counters (/sys/class/powercap/intel-rapl:*).",
      "MB and GB are 10^6 and 10^9 bytes. Files are removed at the end unless --keep.",
    },
    footer = {
      "",
      "Examples:",
      "  joule bench                                   1e7 records (1 GB), 3 runs",
      "  joule bench --records 1e8 --memory 4g --temp /mnt/a --temp /mnt/b --dir /mnt/c",
      "  joule bench --records 1e6 --repeat 5 --ascii --skew --direct off",
    })
public final class BenchCommand implements Callable<Integer> {
  private static final int RECORD = 100;
  private static final int READ_BUFFER = 4 << 20;

  @Spec CommandSpec spec;

  @Mixin SortOptions options;

  @Option(
      names = "--records",
      paramLabel = "N",
      converter = RecordCountConverter.class,
      description =
          "Records to generate (100 bytes each); 1e7 notation is accepted. Default: 1e7 (1 GB).")
  long records = 10_000_000L;

  @Option(
      names = "--ascii",
      description = "Printable ASCII records (gensort -a), as JouleSort's rules ask.")
  boolean ascii;

  @Option(names = "--skew", description = "Skewed keys (gensort -s).")
  boolean skew;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description =
          "Where the input and output go (in a private subdirectory). Default: java.io.tmpdir"
              + " (${sys:java.io.tmpdir}).")
  Path dir = Path.of(System.getProperty("java.io.tmpdir"));

  @Option(
      names = "--repeat",
      paramLabel = "R",
      description = "Timed sorts. Default: ${DEFAULT-VALUE}.")
  int repeat = 3;

  @Option(
      names = "--report-html",
      paramLabel = "FILE",
      description =
          "Write one self-contained HTML page to FILE: the table of runs, then each run's phases"
              + " over time, MB/s per device, CPU use and --stats table (as joule sort"
              + " --report-html).")
  Path reportHtml;

  @Option(
      names = "--keep",
      description = "Keep the input and output files (their directory is printed).")
  boolean keep;

  private final CliEnvironment env;

  public BenchCommand() {
    this(CliEnvironment.system());
  }

  BenchCommand(CliEnvironment env) {
    this.env = env;
  }

  @Override
  public Integer call() throws IOException, InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (records < 1) {
      throw options.invalid("--records", "at least one record is needed");
    }
    if (repeat < 1) {
      throw options.invalid("--repeat", "at least one run is needed");
    }
    ProgressBar bar = options.showProgress(false) ? ProgressBar.onTerminal(err) : null;
    SortConfig config =
        options.toConfig(SortCommand.notices(err, bar), bar != null ? bar : ProgressListener.NONE);
    ExternalSorter.checkTempDir(dir); // the same checks as a temp dir: exists, writable, safe
    ExternalSorter.checkTempDirs(config);
    RaplMeter rapl = RaplMeter.open(env.powercap());
    PrivateDir work = PrivateDir.create(dir, "bench");
    try {
      Path input = work.newFile("input.dat");
      Path output = work.resolve("output.dat");
      out.printf(
          Locale.ROOT,
          "joule bench: %,d %s records (%.1f GB) in %s; memory %s, %d threads, %d temp dir(s),"
              + " direct I/O %s%n",
          records,
          describeMode(),
          records * (double) RECORD / 1e9,
          work.path(),
          config.memoryBudget(),
          config.threads(),
          config.tempDirs().size(),
          options.direct.name().toLowerCase(java.util.Locale.ROOT));
      out.flush();
      RecordChecksum expected = generate(input, config.threads());
      List<BenchRow> rows = new ArrayList<>();
      List<SortReport> reports = new ArrayList<>();
      for (int r = 1; r <= repeat; r++) {
        Files.deleteIfExists(output);
        BenchRow row = timedSort(r, input, output, config, rapl, bar, reports);
        validate(output, expected, config.threads());
        rows.add(row);
      }
      List<String> table = BenchRow.table(rows, rapl.available());
      table.forEach(out::println);
      if (reportHtml != null) {
        String title =
            String.format(Locale.ROOT, "bench of %,d %s records", records, describeMode());
        try {
          Files.writeString(reportHtml, HtmlReport.benchPage(reports, table, title));
        } catch (IOException e) {
          throw new SortIOException("write", reportHtml, SortIOException.reasonOf(e), e);
        }
      }
      if (!rapl.available()) {
        out.println("energy: not measured: " + rapl.unavailableReason());
      }
      if (keep) {
        out.println("kept: " + input + " and " + output);
      }
      out.flush();
    } finally {
      if (!keep) {
        work.close();
      }
    }
    return ExitCodes.OK;
  }

  private String describeMode() {
    return (ascii ? "ASCII" : "binary") + (skew ? " skewed" : "");
  }

  private RecordChecksum generate(Path input, int threads)
      throws IOException, InterruptedException {
    GensortMode mode = new GensortMode(ascii ? RecordLayout.ASCII : RecordLayout.BINARY, skew);
    try (FileChannel ch = FileChannel.open(input, StandardOpenOption.WRITE)) {
      return new ParallelGensort(mode, threads)
          .run(
              Uint128.ZERO,
              records,
              (offset, block) -> {
                int start = block.position();
                while (block.hasRemaining()) {
                  ch.write(block, offset + block.position() - start);
                }
              });
    } catch (SortIOException e) {
      throw e;
    } catch (IOException e) {
      throw new SortIOException("write", input, SortIOException.reasonOf(e), e);
    }
  }

  @SuppressForbidden("process CPU time has no portable API; the bench needs it per run")
  private BenchRow timedSort(
      int run,
      Path input,
      Path output,
      SortConfig config,
      RaplMeter rapl,
      ProgressBar bar,
      List<SortReport> reports)
      throws IOException {
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long[] e0 = rapl.available() ? rapl.read() : null;
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    boolean sorted = false;
    try {
      reports.add(env.engine().sort(input, output, config));
      sorted = true;
    } finally {
      ProgressBar.end(bar, sorted);
    }
    long wall = System.nanoTime() - t0;
    long cpu = os.getProcessCpuTime() - cpu0;
    double joules = e0 != null ? rapl.joulesBetween(e0, rapl.read()) : Double.NaN;
    return new BenchRow(
        String.valueOf(run), records, records * (long) RECORD, wall / 1e9, cpu / 1e9, joules);
  }

  /** valsort's checks of the output against the generator's count and checksum. */
  private void validate(Path output, RecordChecksum expected, int threads)
      throws IOException, InterruptedException {
    ValsortSummary s;
    try (FileChannel ch = FileChannel.open(output, StandardOpenOption.READ)) {
      s = new ParallelValidator(threads, READ_BUFFER).validate(ch.size(), ch::read);
    } catch (ValsortException e) {
      throw new BenchValidationException("validate failed: " + output + ": " + e.getMessage());
    } catch (IOException e) {
      throw SortIOException.wrap("read", output, e);
    }
    String problem = null;
    if (!s.isOrdered()) {
      problem = "records out of order (first at record " + s.firstUnordered() + ")";
    } else if (!s.recordCount().equals(Uint128.ofUnsigned(records))) {
      problem = s.recordCount() + " records, expected " + records;
    } else if (!s.checksum().equals(expected)) {
      problem = "checksum " + s.checksum().toHex() + ", expected " + expected.toHex();
    }
    if (problem != null) {
      throw new BenchValidationException("validate failed: " + output + ": " + problem);
    }
  }
}

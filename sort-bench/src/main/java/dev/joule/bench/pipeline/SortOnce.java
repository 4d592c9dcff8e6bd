package dev.joule.bench.pipeline;

import dev.joule.io.config.DataSize;
import dev.joule.io.config.SortConfig;
import dev.joule.io.pipeline.ExternalSorter;
import dev.joule.io.report.PhaseReport;
import dev.joule.io.report.SortReport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Sorts one file once and prints the report: the end-to-end timing harness for {@code
 * sort-bench/results/pipeline.md} until the CLI's {@code joule sort} exists.
 *
 * <pre>
 * java -cp sort-bench/target/benchmarks.jar dev.joule.bench.pipeline.SortOnce IN OUT MEMORY THREADS [TMPDIR...] [--explain]
 * </pre>
 */
public final class SortOnce {
  private SortOnce() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 4) {
      System.err.println("usage: SortOnce IN OUT MEMORY THREADS [TMPDIR...] [--explain]");
      System.exit(2);
    }
    List<Path> temps = new ArrayList<>();
    boolean explain = false;
    for (int i = 4; i < args.length; i++) {
      if (args[i].equals("--explain")) {
        explain = true;
      } else {
        temps.add(Path.of(args[i]));
      }
    }
    SortConfig.Builder b =
        SortConfig.builder()
            .memoryBudget(DataSize.parse(args[2]))
            .threads(Integer.parseInt(args[3]))
            .notices(line -> System.err.println("notice: " + line));
    if (!temps.isEmpty()) {
      b.tempDirs(temps);
    }
    SortConfig c = b.build();
    Path in = Path.of(args[0]);
    Path out = Path.of(args[1]);
    if (explain) {
      System.out.print(ExternalSorter.plan(in, out, c).describe());
    }
    long t0 = System.nanoTime();
    SortReport r = ExternalSorter.sort(in, out, c);
    long wall = System.nanoTime() - t0;
    for (PhaseReport p : r.phases()) {
      System.out.printf(
          Locale.ROOT,
          "%-24s wall %7.2f s  cpu %7.2f s  read %,d  written %,d%n",
          p.name(),
          p.wallNanos() / 1e9,
          p.cpuNanos() / 1e9,
          p.bytesRead(),
          p.bytesWritten());
    }
    System.out.printf(
        Locale.ROOT,
        "total wall %.2f s, phase cpu %.2f s, runs %d, passes %d, fan-in %d, peak off-heap %,d,"
            + " direct %s%n",
        wall / 1e9,
        r.cpuNanos() / 1e9,
        r.runs(),
        r.mergePasses(),
        r.fanIn(),
        r.peakMemoryBytes(),
        r.directIo());
  }
}

package dev.joule.io.pipeline;

import dev.joule.core.memory.Alignment;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.Compression;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortIOException;
import dev.joule.io.report.SortReport;
import dev.joule.io.testing.PipelineTestSupport;
import dev.joule.io.testing.TestHooks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A child JVM for {@link FdLimitTest}, started under {@code prlimit --nofile=N}: sorts {@code
 * args[1]} runs of 256 16-byte records in {@code args[0]} with 2 threads, an automatic fan-in,
 * {@code args[2]} stripes (default 2) and direct I/O {@code args[3]} (default AUTO), checks the
 * output against the reference sort and prints {@code "ok <runs> <passes> <fan-in>"}; a {@link
 * SortIOException} is printed as {@code "failed <op> <message>"} (exit 3). Compression off: these
 * cases check the planner's descriptor arithmetic at the edge of the limit, and with {@code auto}
 * the 400-run case under 32 ran out of descriptors at its peak (a statfs, a class load) though the
 * plan keeps two free for the codec jars ({@code MergePlanLimits.CODEC_DESCRIPTORS}): an open
 * point, docs/reliability.md I9.
 */
public final class FdLimitChild {
  private FdLimitChild() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int runs = Integer.parseInt(args[1]);
    int stripes = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    DirectIoPolicy direct = args.length > 3 ? DirectIoPolicy.valueOf(args[3]) : DirectIoPolicy.AUTO;
    FixedLengthFormat f = RecordFormat.fixed(16, KeySpec.bytes(0, 10));
    long q = Alignment.recordQuantum(f.recordSize());
    byte[] data = PipelineTestSupport.records(runs, runs * q - 3, f, 0);
    Path in = dir.resolve("in");
    Files.write(in, data);
    List<Path> temps = new ArrayList<>();
    for (int s = 0; s < stripes; s++) {
      temps.add(Files.createDirectories(dir.resolve("s" + s)));
    }
    SortConfig c =
        TestHooks.runRecordsLimit(SortConfig.builder().compression(Compression.off()), q)
            .format(f)
            .memoryBudget(DataSize.ofMiB(8))
            .threads(2)
            .tempDirs(temps)
            .transferSize(FileKind.TEMP, DataSize.ofKiB(4))
            .directIo(direct)
            .build();
    SortReport r;
    try {
      r = ExternalSorter.sort(in, dir.resolve("out"), c);
    } catch (SortIOException e) {
      System.out.println("failed " + e.op() + " " + e.getMessage());
      System.exit(3);
      return;
    }
    if (!Arrays.equals(
        PipelineTestSupport.reference(data, f), Files.readAllBytes(dir.resolve("out")))) {
      throw new AssertionError("output differs from the reference");
    }
    System.out.println("ok " + r.runs() + " " + r.mergePasses() + " " + r.fanIn());
  }
}

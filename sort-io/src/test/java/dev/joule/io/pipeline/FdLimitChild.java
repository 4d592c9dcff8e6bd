package dev.joule.io.pipeline;

import dev.joule.core.memory.Alignment;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.report.SortReport;
import dev.joule.io.testing.PipelineTestSupport;
import dev.joule.io.testing.TestHooks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A child JVM for {@link FdLimitTest}, started under {@code prlimit --nofile=32}: sorts {@code
 * args[1]} runs of 256 16-byte records in {@code args[0]} with 2 threads and an automatic fan-in,
 * checks the output against the reference sort and prints {@code "ok <runs> <passes> <fan-in>"}.
 */
public final class FdLimitChild {
  private FdLimitChild() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int runs = Integer.parseInt(args[1]);
    FixedLengthFormat f = RecordFormat.fixed(16, KeySpec.bytes(0, 10));
    long q = Alignment.recordQuantum(f.recordSize());
    byte[] data = PipelineTestSupport.records(runs, runs * q - 3, f, 0);
    Path in = dir.resolve("in");
    Files.write(in, data);
    SortConfig c =
        TestHooks.runRecordsLimit(SortConfig.builder(), q)
            .format(f)
            .memoryBudget(DataSize.ofMiB(8))
            .threads(2)
            .tempDirs(
                List.of(
                    Files.createDirectories(dir.resolve("s0")),
                    Files.createDirectories(dir.resolve("s1"))))
            .transferSize(FileKind.TEMP, DataSize.ofKiB(4))
            .build();
    SortReport r = ExternalSorter.sort(in, dir.resolve("out"), c);
    if (!Arrays.equals(
        PipelineTestSupport.reference(data, f), Files.readAllBytes(dir.resolve("out")))) {
      throw new AssertionError("output differs from the reference");
    }
    System.out.println("ok " + r.runs() + " " + r.mergePasses() + " " + r.fanIn());
  }
}

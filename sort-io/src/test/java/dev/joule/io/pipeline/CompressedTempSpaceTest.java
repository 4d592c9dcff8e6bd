package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.record.RecordFormat;
import dev.joule.io.IoTestSupport;
import dev.joule.io.config.Compression;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.SortConfig;
import dev.joule.io.plan.SortPlan;
import dev.joule.io.report.CompressionReport;
import dev.joule.io.report.SortReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sort whose temp runs compress well fits a temp file system too small for them raw: once the
 * sort has stored enough blocks to know their ratio, the free-space check before each new run asks
 * for the run's expected compressed size, not its raw size (RunCompression.expectedStored). On a
 * tmpfs of 1.1 times one raw run, a check that counted runs raw refused the fifth run or so ("No
 * space left on device"), although all the compressed runs take a fraction of it. Needs root (the
 * tmpfs).
 */
class CompressedTempSpaceTest {
  @TempDir Path dir;

  @Test
  void compressedRunsFitATempFileSystemTooSmallForThemRaw() throws Exception {
    long seed = IoTestSupport.seed();
    Random r = new Random(seed);
    // 100,000 lines of 200 bytes that differ in a few digits: LZ4 stores a run in about a
    // twentieth of its raw size, so that every compressed run fits a tmpfs little larger than one
    // raw run, whatever the plan's run size
    List<byte[]> lines = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    String pad = "x".repeat(190);
    for (int i = 0; i < 100_000; i++) {
      String line = String.format(Locale.ROOT, "%08d", r.nextInt(1_000_000)) + pad;
      lines.add(line.getBytes(StandardCharsets.US_ASCII));
      text.append(line).append('\n');
    }
    Path in = Files.writeString(dir.resolve("in.txt"), text);
    Path mnt = Files.createDirectory(dir.resolve("mnt"));
    SortConfig.Builder b =
        SortConfig.builder()
            .memoryBudget(DataSize.ofMiB(8))
            .threads(2)
            .tempDirs(List.of(mnt))
            .format(RecordFormat.lines())
            .compression(Compression.lz4());
    SortPlan plan = ExternalSorter.plan(in, dir.resolve("out.txt"), b.build());
    long oneRun = plan.mergePlan().runSize(0) + 2L * plan.tempTransfer();
    assertTrue(plan.runs() >= 10, "runs " + plan.runs());
    long size = (oneRun * 11 / 10 + 4095) / 4096 * 4096;
    Process m =
        new ProcessBuilder(
                "mount",
                "-t",
                "tmpfs",
                "-o",
                "size=" + size + ",mode=0755",
                "tmpfs",
                mnt.toString())
            .redirectErrorStream(true)
            .start();
    Assumptions.assumeTrue(m.waitFor() == 0, "needs root to mount a tmpfs");
    try {
      Path out = dir.resolve("out.txt");
      SortReport report = ExternalSorter.sort(in, out, b.build());
      CompressionReport z = report.compression();
      assertTrue(
          z.storedBytes() < size && z.rawBytes() > 3 * size,
          "seed " + seed + ": " + z + " on a tmpfs of " + size + " bytes");
      lines.sort(Arrays::compareUnsigned);
      List<String> expected = new ArrayList<>();
      for (byte[] l : lines) {
        expected.add(new String(l, StandardCharsets.US_ASCII));
      }
      assertEquals(expected, Files.readAllLines(out), "seed " + seed);
    } finally {
      new ProcessBuilder("umount", "-l", mnt.toString()).start().waitFor();
    }
  }
}

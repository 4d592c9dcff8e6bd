package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.record.RecordFormat;
import dev.joule.io.IoTestSupport;
import dev.joule.io.config.Compression;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortIOException;
import dev.joule.io.report.CompressionReport;
import dev.joule.io.report.PhaseReport;
import dev.joule.io.report.SortReport;
import dev.joule.io.testing.CleanFailureContract;
import dev.joule.io.testing.FaultFileSystemProvider;
import dev.joule.io.testing.SortInputs;
import dev.joule.io.testing.TestHooks;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A temp disk that fills up while compressed runs are written: wherever the space runs out (run
 * formation, the merge, the output), the sort fails with one typed "No space left on device" naming
 * the file it was writing, leaves no temp file, handle, arena or thread, and keeps the previous
 * output; the fault-free sort of the same input matches an in-memory reference. The points are
 * spread over the bytes a fault-free sort writes: two thirds over its runs (every one compressed),
 * the rest over the merge and the output.
 */
class CompressedRunDiskFullTest {
  static final int POINTS = 12;

  static final int RUN_POINTS = 8;

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"lz4", "zstd"})
  void aDiskThatFillsWhileCompressedRunsAreWrittenFailsCleanly(String codec) throws Exception {
    long seed = IoTestSupport.seed();
    String ctx = codec + ", seed " + seed;
    List<byte[]> lines = lines(new Random(seed), 40_000);
    Path in = dir.resolve("in.txt");
    Files.write(in, SortInputs.join(lines, (byte) '\n', true));
    lines.sort(Arrays::compareUnsigned);
    byte[] expected = SortInputs.join(lines, (byte) '\n', true);
    List<Path> stripes =
        List.of(Files.createDirectory(dir.resolve("s0")), Files.createDirectory(dir.resolve("s1")));
    Compression compression = codec.equals("lz4") ? Compression.lz4() : Compression.zstd(1);

    FaultFileSystemProvider dry = FaultFileSystemProvider.create(seed);
    Path dryOut = dir.resolve("dry.out");
    SortReport r =
        ExternalSorter.sort(dry.wrap(in), dry.wrap(dryOut), config(dry, stripes, compression));
    assertArrayEquals(expected, Files.readAllBytes(dryOut), ctx + ": the fault-free sort");
    CompressionReport z = r.compression();
    assertTrue(r.runs() >= 4, ctx + ": runs " + r.runs());
    assertTrue(z.compressedBlocks() > z.blocks() / 2, ctx + ": " + z);
    long written = dry.bytesWritten();
    PhaseReport formation = r.phases().get(0);
    assertEquals("run formation", formation.name(), ctx);
    long runBytes = formation.bytesWritten(); // the first bytes written: every run, compressed
    Files.delete(dryOut);

    for (int i = 0; i < POINTS; i++) {
      // two thirds of the points while the runs are written, the rest in the merge and output
      long n =
          i < RUN_POINTS
              ? (long) (runBytes * (i + 0.5) / RUN_POINTS)
              : runBytes
                  + (long) ((written - runBytes) * (i - RUN_POINTS + 0.5) / (POINTS - RUN_POINTS));
      String at = ctx + ", disk full after " + n + " of " + written + " bytes";
      Path out = dir.resolve("out");
      Files.write(out, "old\n".getBytes(StandardCharsets.US_ASCII));
      FaultFileSystemProvider faults = FaultFileSystemProvider.create(seed).diskFullAfter(n);
      CleanFailureContract.Snapshot before = CleanFailureContract.before(out, stripes);
      Throwable failure = null;
      try {
        ExternalSorter.sort(
            faults.wrap(in), faults.wrap(out), config(faults, stripes, compression));
      } catch (IOException | RuntimeException e) {
        failure = e;
      }
      if (failure == null) {
        throw new AssertionError(
            at + ": the sort wrote less than the fault-free one and succeeded");
      }
      assertEquals("io", before.assertCleanFailure(failure, "No space left on device", false, at));
      if (i < RUN_POINTS) {
        Path file = FaultFileSystemProvider.unwrap(((SortIOException) failure).path());
        assertTrue(
            file.getFileName().toString().startsWith("run-")
                && stripes.stream().anyMatch(s -> file.startsWith(s.toAbsolutePath())),
            at + ": not a run's write: " + failure.getMessage());
      }
      faults.assertNoOpenHandles();
    }
  }

  /**
   * 2 MiB budget-sized runs of 4 KiB blocks on two stripes, and direct I/O off (the fault file
   * system has none).
   */
  static SortConfig config(FaultFileSystemProvider fs, List<Path> stripes, Compression c) {
    SortConfig.Builder b =
        SortConfig.builder()
            .format(RecordFormat.lines())
            .memoryBudget(DataSize.ofMiB(8))
            .threads(2)
            .tempDirs(stripes.stream().map(fs::wrap).toList())
            .transferSize(FileKind.TEMP, DataSize.ofKiB(16))
            .transferSize(FileKind.INPUT, DataSize.ofKiB(64))
            .transferSize(FileKind.OUTPUT, DataSize.ofKiB(64))
            .directIo(DirectIoPolicy.OFF)
            .compression(c);
    return TestHooks.runRecordsLimit(b, 6_000).build();
  }

  /** Lines of a key and words from a small vocabulary: LZ4 and zstd both shrink their blocks. */
  static List<byte[]> lines(Random r, int n) {
    String[] words = {"alpha", "beta", "gamma", "delta", "sort", "merge", "run", "block"};
    List<byte[]> lines = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      StringBuilder sb =
          new StringBuilder(String.format(Locale.ROOT, "%07d", r.nextInt(10_000_000)));
      for (int w = r.nextInt(8); w >= 0; w--) {
        sb.append(' ').append(words[r.nextInt(words.length)]);
      }
      lines.add(sb.toString().getBytes(StandardCharsets.US_ASCII));
    }
    return lines;
  }
}

package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.joule.core.memory.Alignment;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortIOException;
import dev.joule.io.testing.CleanFailureContract;
import dev.joule.io.testing.PipelineTestSupport;
import dev.joule.io.testing.TestHooks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/reliability.md I7 with the full clean-failure contract: the input is appended to, truncated
 * or rewritten (same size) while run formation reads it; the sort must fail with "input changed
 * while being read" naming the input, publish nothing and leave nothing behind.
 */
class InputChangedTest {
  static final FixedLengthFormat F = RecordFormat.fixed(16, KeySpec.bytes(0, 10));

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"append", "truncate", "rewrite"})
  void inputChangedWhileReadIsACleanFailure(String change) throws Exception {
    long q = Alignment.recordQuantum(F.recordSize());
    Path in = dir.resolve("in");
    Files.write(in, PipelineTestSupport.records(7, 40 * q, F, 0));
    Path s0 = Files.createDirectory(dir.resolve("s0"));
    Path out = dir.resolve("out");
    boolean[] done = {false};
    SortConfig c =
        TestHooks.runRecordsLimit(SortConfig.builder(), q)
            .format(F)
            .memoryBudget(DataSize.ofMiB(8))
            .threads(2)
            .tempDirs(List.of(s0))
            .transferSize(FileKind.INPUT, DataSize.ofKiB(4))
            .transferSize(FileKind.TEMP, DataSize.ofKiB(4))
            .progress(
                (phase, read, total) -> {
                  if (!done[0]) {
                    done[0] = true;
                    try (FileChannel ch = FileChannel.open(in, StandardOpenOption.WRITE)) {
                      switch (change) {
                        case "append" -> ch.write(java.nio.ByteBuffer.allocate(16), ch.size());
                        case "truncate" -> ch.truncate(ch.size() - 16 * q);
                        default -> {
                          ch.write(
                              java.nio.ByteBuffer.wrap(new byte[4096]),
                              ch.size() - 4096); // same size, new mtime
                          Files.setLastModifiedTime(
                              in,
                              java.nio.file.attribute.FileTime.fromMillis(
                                  System.currentTimeMillis() + 5000));
                        }
                      }
                    } catch (IOException e) {
                      throw new UncheckedIOException(e);
                    }
                  }
                })
            .build();
    CleanFailureContract.Snapshot before = CleanFailureContract.before(out, List.of(s0));
    SortIOException e = assertThrows(SortIOException.class, () -> ExternalSorter.sort(in, out, c));
    before.assertCleanFailure(e, "input changed while being read", false, change);
  }
}

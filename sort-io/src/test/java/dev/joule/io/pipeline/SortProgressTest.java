package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.testing.PipelineTestSupport;
import dev.joule.io.testing.TestHooks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every phase reports progress, and each ends at its own total (what `joule sort --progress`
 * draws).
 */
class SortProgressTest {
  private static final long SEED = 0x9E0C;

  @TempDir Path dir;

  @AfterEach
  void leaks() throws Exception {
    PipelineTestSupport.assertNoLeaks("SortProgressTest", List.of(stripe()));
  }

  private Path stripe() throws IOException {
    return Files.createDirectories(dir.resolve("stripe"));
  }

  /** Last (done, total) per phase name, in the order the phases first reported. */
  private Map<String, long[]> sortWithProgress(long records, SortConfig.Builder b)
      throws IOException {
    Path in = dir.resolve("in");
    Files.write(in, PipelineTestSupport.records(SEED, records, RecordFormat.gensort(), 1000));
    Map<String, long[]> last = new LinkedHashMap<>();
    SortConfig c =
        b.tempDirs(List.of(stripe()))
            .progress(
                (phase, done, total) -> {
                  synchronized (last) {
                    long[] prev = last.get(phase);
                    assertTrue(prev == null || done >= prev[0], phase + ": progress went back");
                    assertTrue(done <= total, phase + ": " + done + " > " + total);
                    last.put(phase, new long[] {done, total});
                  }
                })
            .build();
    ExternalSorter.sort(in, dir.resolve("out"), c);
    return last;
  }

  @Test
  void twoPassSortReportsRunFormationEveryMergePassAndTheFinalMerge() throws IOException {
    SortConfig.Builder b =
        SortConfig.builder()
            .memoryBudget(DataSize.ofMiB(8))
            .threads(2)
            .fanIn(4)
            .transferSize(FileKind.TEMP, DataSize.ofKiB(16))
            .transferSize(FileKind.INPUT, DataSize.ofKiB(64))
            .transferSize(FileKind.OUTPUT, DataSize.ofKiB(64));
    TestHooks.runRecordsLimit(b, 1024);
    Map<String, long[]> last = sortWithProgress(20_000, b);
    List<String> phases = List.copyOf(last.keySet());
    assertEquals("run formation", phases.get(0), phases.toString());
    assertTrue(phases.size() >= 3, "20 runs at fan-in 4 need intermediate passes: " + phases);
    assertTrue(phases.get(phases.size() - 1).contains("(final"), phases.toString());
    for (Map.Entry<String, long[]> e : last.entrySet()) {
      assertEquals(e.getValue()[1], e.getValue()[0], e.getKey() + " did not reach its total");
    }
    assertEquals(2_000_000L, last.get(phases.get(phases.size() - 1))[1]);
  }

  @Test
  void onePassSortReportsItsRead() throws IOException {
    Map<String, long[]> last =
        sortWithProgress(10_000, SortConfig.builder().memoryBudget(DataSize.ofMiB(64)).threads(2));
    assertEquals(List.of("in-memory sort"), List.copyOf(last.keySet()));
    assertEquals(1_000_000L, last.get("in-memory sort")[0]);
  }
}

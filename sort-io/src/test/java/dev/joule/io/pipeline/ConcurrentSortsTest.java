package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.memory.Alignment;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.report.SortReport;
import dev.joule.io.testing.CleanFailureContract;
import dev.joule.io.testing.PipelineTestSupport;
import dev.joule.io.testing.TestHooks;
import dev.joule.testing.TestSeed;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/reliability.md P6: eight sorts in parallel threads of one JVM sharing the same two stripe
 * dirs (8 MiB budget each, small transfers, a run limit so every sort forms runs and merges with
 * fan-in 3, i.e. several passes). Every output is byte-identical to the in-memory reference; no run
 * file path is used by two sorts (collected through the {@code afterRunFormation} hook); afterwards
 * no temp files, fds, arenas or {@code joule-*} threads are left ({@link CleanFailureContract}).
 */
class ConcurrentSortsTest {
  static final long SEED = TestSeed.of(ConcurrentSortsTest.class, 0xC0_4C_0001L);
  static final int SORTS = 8;
  static final int RUN_QUANTA = 16;

  @TempDir Path dir;

  @Test
  void eightParallelSortsOnSharedStripesAreExactAndLeaveNothing() throws Exception {
    FixedLengthFormat f = RecordFormat.fixed(32, KeySpec.bytes(4, 12));
    List<Path> stripes =
        List.of(Files.createDirectory(dir.resolve("s1")), Files.createDirectory(dir.resolve("s2")));
    long q = Alignment.recordQuantum(f.recordSize());
    List<byte[]> inputs = new ArrayList<>();
    List<Path> ins = new ArrayList<>();
    List<Path> outs = new ArrayList<>();
    for (int i = 0; i < SORTS; i++) {
      // 6..9 runs of 16 q records (64 KiB); every other sort has many duplicate keys
      byte[] data =
          PipelineTestSupport.records(
              SEED + i, RUN_QUANTA * q * (5 + i % 4) + 1 + i, f, i % 2 == 0 ? 7 : 0);
      inputs.add(data);
      Path in = dir.resolve("in" + i);
      Files.write(in, data);
      ins.add(in);
      outs.add(dir.resolve("out" + i));
    }
    CleanFailureContract.Snapshot before =
        CleanFailureContract.before(dir.resolve("out0"), stripes);
    List<Path> runFiles = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch start = new CountDownLatch(1);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger peak = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(SORTS);
    List<Future<SortReport>> results = new ArrayList<>();
    try {
      for (int i = 0; i < SORTS; i++) {
        int k = i;
        SortConfig.Builder b =
            SortConfig.builder()
                .format(f)
                .memoryBudget(DataSize.ofMiB(8))
                .threads(1 + k % 2)
                .tempDirs(k % 2 == 0 ? stripes : List.of(stripes.get(1), stripes.get(0)))
                .transferSize(FileKind.TEMP, DataSize.ofKiB(4))
                .transferSize(FileKind.INPUT, DataSize.ofKiB(8))
                .transferSize(FileKind.OUTPUT, DataSize.ofKiB(8))
                .fanIn(3);
        TestHooks.runRecordsLimit(b, RUN_QUANTA * q);
        SortConfig c = TestHooks.afterRunFormation(b, runs -> runFiles.addAll(runs)).build();
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  peak.accumulateAndGet(running.incrementAndGet(), Math::max);
                  try {
                    return ExternalSorter.sort(ins.get(k), outs.get(k), c);
                  } finally {
                    running.decrementAndGet();
                  }
                }));
      }
      start.countDown();
      for (int i = 0; i < SORTS; i++) {
        SortReport r = results.get(i).get(60, TimeUnit.SECONDS);
        assertTrue(
            r.runs() >= 5 && r.mergePasses() >= 2,
            "seed " + SEED + " sort " + i + ": runs " + r.runs() + ", passes " + r.mergePasses());
        assertArrayEquals(
            PipelineTestSupport.reference(inputs.get(i), f),
            Files.readAllBytes(outs.get(i)),
            "seed " + SEED + " sort " + i);
      }
    } finally {
      pool.shutdownNow();
      assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
    }
    assertTrue(peak.get() >= 2, "the sorts never overlapped (peak " + peak.get() + ")");
    System.out.println(
        "P6: "
            + SORTS
            + " sorts, peak "
            + peak.get()
            + " at once, "
            + runFiles.size()
            + " run files");
    Set<Path> distinct = new HashSet<>(runFiles);
    assertEquals(
        runFiles.size(), distinct.size(), "a run file path was used by two sorts: " + runFiles);
    assertTrue(runFiles.size() >= SORTS * 5, "run files seen: " + runFiles.size());
    before.assertNoTempsOrLeaks("seed " + SEED + ": after " + SORTS + " parallel sorts", null);
    PipelineTestSupport.assertNoLeaks("P6", stripes);
  }
}

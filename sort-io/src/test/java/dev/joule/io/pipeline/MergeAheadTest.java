package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.SortConfig;
import dev.joule.testing.TestSeed;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The final merge of a spilled session runs ahead of its cursor on a thread of its own ({@code
 * MergeAhead}), so that what the caller does with each record overlaps the merge and the output's
 * check. The proof that it runs ahead: after one {@code next()} the caller stops, and the merge
 * goes on until every one of its blocks is full and it waits for the caller to give one back. Read
 * by the cursor itself, the merge would not move while the caller does not. Then the entries are
 * compared with a sort of the input by {@link Arrays#compareUnsigned}, with lines longer than a
 * block (handed over in place) among them, and a cursor closed halfway leaves no thread behind (the
 * fixture's leak check).
 */
class MergeAheadTest extends OneStripeTest {
  static final long SEED = TestSeed.of(MergeAheadTest.class, 0xA4EADL);

  static final long PATIENCE_SECONDS = 20;

  @Test
  void theMergeRunsAheadWhileTheCallerDoesNotMove() throws Exception {
    List<byte[]> recs = SortSessionTest.lines(new Random(SEED), 150_000);
    SortConfig c = config().build();
    try (RecordSession s = ExternalSorter.open(c)) {
      for (byte[] r : recs) {
        s.add(ByteBuffer.wrap(r));
      }
      assertTrue(s.spilledRuns() > 1, "no merge to test: runs " + s.spilledRuns());
      try (RecordCursor cur = s.finish()) {
        assertTrue(cur.next());
        List<byte[]> got = new ArrayList<>();
        got.add(SortSessionTest.copy(cur.record()));
        assertTrue(
            mergeWaitsForABlock(),
            "the merge did not fill its blocks while the caller held still (seed " + SEED + ")");
        while (cur.next()) {
          got.add(SortSessionTest.copy(cur.record()));
        }
        List<byte[]> expected = new ArrayList<>(recs);
        expected.sort(Arrays::compareUnsigned);
        SortSessionTest.assertSameRecords(expected, got, "seed " + SEED);
      }
      assertTrue(s.peakMemoryBytes() <= c.memoryBudget().bytes(), "peak " + s.peakMemoryBytes());
    }
  }

  @Test
  void entriesLargerThanABlockAndACursorClosedHalfway() throws IOException {
    SortConfig c = config().build();
    int block = MergeAhead.blockBytes(c.memoryBudget().bytes());
    Random r = new Random(SEED + 1);
    List<byte[]> recs = SortSessionTest.lines(r, 60_000);
    for (int i = 0; i < 40; i++) { // 40 lines of one to three blocks
      byte[] big = new byte[block + r.nextInt(2 * block)];
      for (int j = 0; j < big.length; j++) {
        big[j] = (byte) ('a' + r.nextInt(26));
      }
      recs.add(r.nextInt(recs.size()), big);
    }
    List<byte[]> expected = new ArrayList<>(recs);
    expected.sort(Arrays::compareUnsigned);
    for (boolean whole : new boolean[] {true, false}) {
      try (RecordSession s = ExternalSorter.open(c)) {
        for (byte[] rec : recs) {
          s.add(ByteBuffer.wrap(rec));
        }
        assertTrue(s.spilledRuns() > 1, "no merge to test: runs " + s.spilledRuns());
        List<byte[]> got = new ArrayList<>();
        try (RecordCursor cur = s.finish()) {
          while ((whole || got.size() < expected.size() / 2) && cur.next()) {
            got.add(SortSessionTest.copy(cur.record()));
          }
        }
        List<byte[]> want = whole ? expected : expected.subList(0, got.size());
        SortSessionTest.assertSameRecords(want, got, "seed " + SEED + ", whole " + whole);
      }
    }
  }

  /**
   * A session of one thread (a Spark task's, say) keeps its merge on the caller's thread even when
   * asked to run it ahead, and so does a session not asked to (the default).
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void withoutTheSettingOrWithOneThreadTheMergeStaysOnTheCallersThread(boolean oneThread)
      throws IOException {
    List<byte[]> recs = SortSessionTest.lines(new Random(SEED + 2), 100_000);
    SortConfig c = oneThread ? config().threads(1).build() : config().mergeAhead(false).build();
    List<byte[]> got = new ArrayList<>();
    try (RecordSession s = ExternalSorter.open(c)) {
      for (byte[] r : recs) {
        s.add(ByteBuffer.wrap(r));
      }
      assertTrue(s.spilledRuns() > 1, "no merge to test: runs " + s.spilledRuns());
      try (RecordCursor cur = s.finish()) {
        while (cur.next()) {
          got.add(SortSessionTest.copy(cur.record()));
          if (got.size() == 1) {
            assertTrue(
                Thread.getAllStackTraces().keySet().stream()
                    .noneMatch(t -> t.getName().startsWith("joule-ahead")),
                "a merge thread started (one thread: " + oneThread + ")");
          }
        }
      }
    }
    List<byte[]> expected = new ArrayList<>(recs);
    expected.sort(Arrays::compareUnsigned);
    SortSessionTest.assertSameRecords(expected, got, "seed " + SEED);
  }

  private SortConfig.Builder config() {
    return SortConfig.builder()
        .memoryBudget(DataSize.ofMiB(8))
        .threads(2)
        .mergeAhead(true)
        .tempDirs(stripes)
        .format(RecordFormat.lines());
  }

  /** Whether the session's merge thread comes to wait for a block within the patience. */
  private static boolean mergeWaitsForABlock() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
    while (System.nanoTime() < deadline) {
      for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
        if (!e.getKey().getName().startsWith("joule-ahead")) {
          continue;
        }
        for (StackTraceElement f : e.getValue()) {
          if (f.getClassName().endsWith("BlockPool") && f.getMethodName().equals("acquire")) {
            return true;
          }
        }
      }
      Thread.sleep(5);
    }
    return false;
  }

  @Test
  void blocksTakeAShareOfTheBudgetWithinTheirBounds() {
    assertEquals(MergeAhead.MIN_BLOCK_BYTES, MergeAhead.blockBytes(DataSize.ofMiB(4).bytes()));
    assertEquals(2 << 20, MergeAhead.blockBytes(DataSize.ofMiB(256).bytes()));
    assertEquals(MergeAhead.MAX_BLOCK_BYTES, MergeAhead.blockBytes(DataSize.ofGiB(8).bytes()));
  }
}

package dev.joule.spark.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.spark.record.PairEntries;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The per-task memory and slot rules, without a running Spark. */
class ExecutorBudgetTest {
  private static final long MIB = 1L << 20;
  private static final long GIB = 1L << 30;
  private static final long SEED = 0xB0D6E7L;

  private static SparkConf conf(String... kv) {
    SparkConf c = new SparkConf(false);
    for (int i = 0; i < kv.length; i += 2) {
      c.set(kv[i], kv[i + 1]);
    }
    return c;
  }

  @Test
  void slotsComeFromTheMasterOrTheExecutorCores() {
    int cpus = Runtime.getRuntime().availableProcessors();
    assertEquals(1, ExecutorBudget.slots(conf("spark.master", "local")));
    assertEquals(4, ExecutorBudget.slots(conf("spark.master", "local[4]")));
    assertEquals(3, ExecutorBudget.slots(conf("spark.master", "local[3, 2]")));
    assertEquals(cpus, ExecutorBudget.slots(conf("spark.master", "local[*]")));
    assertEquals(
        4,
        ExecutorBudget.slots(
            conf("spark.master", "yarn", "spark.executor.cores", "8", "spark.task.cpus", "2")));
    assertEquals(cpus, ExecutorBudget.slots(conf("spark.master", "spark://h:7077")));
  }

  @Test
  void theTaskTakesWhatItsPartitionNeedsWithinTheCap() {
    // a wrapped gensort record and its 32-byte index entry
    assertEquals(140, ExecutorBudget.recordBytes(108));
    // 1e6 expected records of 108 bytes: 1e6 × (108 + 32) bytes + 16 MiB
    long need = 1_000_000L * 140 + 16 * MIB;
    assertEquals(
        need,
        ExecutorBudget.taskMemory(conf("spark.master", "local[2]"), 2, 8 * GIB, 1_000_000L * 140));
    // the cap: half of (direct limit − 64 MiB) over two slots
    long cap = (GIB - 64 * MIB) / 2 / 2;
    assertEquals(
        cap,
        ExecutorBudget.taskMemory(conf("spark.master", "local[2]"), 2, GIB, 100_000_000L * 140));
    // a small partition: its records and the transfer buffers; an explicit 8m caps it
    assertEquals(
        10L * 140 + 16 * MIB,
        ExecutorBudget.taskMemory(conf(ExecutorBudget.MEMORY, "1g"), 2, 8 * GIB, 10L * 140));
    assertEquals(
        8 * MIB,
        ExecutorBudget.taskMemory(conf(ExecutorBudget.MEMORY, "8m"), 2, 8 * GIB, 10L * 140));
  }

  @Test
  void pairsCostWhatTheSessionSetsAsideForThem() {
    // a pair must fit the session's first chunk, which may take the whole budget before it
    // spills: its 8-byte header, key and value and two 32-byte index entries (the index doubles)
    assertEquals(8 + 64, ExecutorBudget.pairBytes(0));
    assertEquals(8 + 88 + 64, ExecutorBudget.pairBytes(88));
    assertEquals(8 + 192 + 64, ExecutorBudget.pairBytes(192));
  }

  /**
   * The pair budget against the session itself: a partition of the expected size (32 MiB of pairs)
   * sorts in memory, and one 2.5 times as large spills, so the first assertion can fail. The budget
   * sets aside the index's worst case, two entries per pair while it doubles; past 16,384 entries a
   * session's index grows to what its chunk holds instead (about one entry per pair), and the
   * transfer allowance (16 MiB, half of 32) adds room too: 20-byte pairs of up to about 2.2 times
   * the expected number still fit.
   */
  @ParameterizedTest
  @ValueSource(ints = {20, 88, 300})
  void aPartitionOfTheExpectedSizeSortsWithoutSpilling(int entryBytes, @TempDir Path temp)
      throws IOException {
    long perPair = ExecutorBudget.pairBytes(entryBytes);
    int n = (int) ((32 * MIB) / perPair);
    long budget = n * perPair + ExecutorBudget.IO_ALLOWANCE_MIB * MIB;
    assertEquals(0, spills(n, entryBytes, budget, temp), "pairs of " + entryBytes + " bytes");
    assertTrue(spills(n / 2 * 5, entryBytes, budget, temp) > 0, "the control spills");
  }

  private static int spills(int n, int entryBytes, long memory, Path temp) throws IOException {
    SplittableRandom r = new SplittableRandom(SEED + entryBytes);
    int keyLen = 8;
    int valueLen = entryBytes - keyLen;
    byte[] entry = new byte[(int) PairEntries.entryLength(keyLen, valueLen)];
    PairEntries.writeLengths(entry, keyLen, valueLen);
    ByteBuffer key = ByteBuffer.wrap(entry, 4, keyLen);
    try (JouleEngine.PartitionSort sort = JouleEngine.openPairs(memory, 1, List.of(temp))) {
      for (int i = 0; i < n; i++) {
        key.putLong(4, r.nextLong()); // random keys; the value's bytes do not matter here
        sort.add(entry);
      }
      sort.finish();
      int count = 0;
      while (sort.next()) {
        count++;
      }
      assertEquals(n, count, "pairs out (seed " + (SEED + entryBytes) + ")");
      return sort.spilledRuns();
    }
  }

  @Test
  void explicitAndOffHeapBudgets() {
    assertEquals(
        64 * MIB,
        ExecutorBudget.taskMemory(
            conf(ExecutorBudget.MEMORY, "64m"), 2, 8 * GIB, 10_000_000L * 140));
    SparkConf offHeap =
        conf("spark.memory.offHeap.enabled", "true", "spark.memory.offHeap.size", "1g");
    assertTrue(ExecutorBudget.offHeap(offHeap));
    assertEquals(256 * MIB, ExecutorBudget.taskMemory(offHeap, 4, 8 * GIB, 10_000_000L * 140));
  }

  @Test
  void impossibleBudgetsNameTheSettings() {
    IllegalStateException small =
        assertThrows(
            IllegalStateException.class,
            () -> ExecutorBudget.taskMemory(conf(ExecutorBudget.MEMORY, "1m"), 2, 8 * GIB, 1400));
    assertTrue(small.getMessage().contains(ExecutorBudget.MEMORY), small.getMessage());
    IllegalStateException direct =
        assertThrows(
            IllegalStateException.class,
            () ->
                ExecutorBudget.taskMemory(
                    conf(ExecutorBudget.MEMORY, "1g"), 4, 2 * GIB, 10_000_000L * 140));
    assertTrue(direct.getMessage().contains("MaxDirectMemorySize"), direct.getMessage());
  }
}

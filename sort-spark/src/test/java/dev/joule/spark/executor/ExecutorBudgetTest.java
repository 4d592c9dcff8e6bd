package dev.joule.spark.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

/** The per-task memory and slot rules, without a running Spark. */
class ExecutorBudgetTest {
  private static final long MIB = 1L << 20;
  private static final long GIB = 1L << 30;

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
    // 1e6 expected records of 108 bytes: 1e6 × (108 + 32) bytes + 16 MiB
    long need = 1_000_000L * 140 + 16 * MIB;
    assertEquals(
        need,
        ExecutorBudget.taskMemory(conf("spark.master", "local[2]"), 2, 8 * GIB, 1_000_000, 108));
    // the cap: half of (direct limit − 64 MiB) over two slots
    long cap = (GIB - 64 * MIB) / 2 / 2;
    assertEquals(
        cap, ExecutorBudget.taskMemory(conf("spark.master", "local[2]"), 2, GIB, 100_000_000, 108));
    // a small partition: its records and the transfer buffers; an explicit 8m caps it
    assertEquals(
        10L * 140 + 16 * MIB,
        ExecutorBudget.taskMemory(conf(ExecutorBudget.MEMORY, "1g"), 2, 8 * GIB, 10, 108));
    assertEquals(
        8 * MIB, ExecutorBudget.taskMemory(conf(ExecutorBudget.MEMORY, "8m"), 2, 8 * GIB, 10, 108));
  }

  @Test
  void explicitAndOffHeapBudgets() {
    assertEquals(
        64 * MIB,
        ExecutorBudget.taskMemory(conf(ExecutorBudget.MEMORY, "64m"), 2, 8 * GIB, 10_000_000, 108));
    SparkConf offHeap =
        conf("spark.memory.offHeap.enabled", "true", "spark.memory.offHeap.size", "1g");
    assertTrue(ExecutorBudget.offHeap(offHeap));
    assertEquals(256 * MIB, ExecutorBudget.taskMemory(offHeap, 4, 8 * GIB, 10_000_000, 108));
  }

  @Test
  void impossibleBudgetsNameTheSettings() {
    IllegalStateException small =
        assertThrows(
            IllegalStateException.class,
            () ->
                ExecutorBudget.taskMemory(conf(ExecutorBudget.MEMORY, "1m"), 2, 8 * GIB, 10, 108));
    assertTrue(small.getMessage().contains(ExecutorBudget.MEMORY), small.getMessage());
    IllegalStateException direct =
        assertThrows(
            IllegalStateException.class,
            () ->
                ExecutorBudget.taskMemory(
                    conf(ExecutorBudget.MEMORY, "1g"), 4, 2 * GIB, 10_000_000, 108));
    assertTrue(direct.getMessage().contains("MaxDirectMemorySize"), direct.getMessage());
  }
}

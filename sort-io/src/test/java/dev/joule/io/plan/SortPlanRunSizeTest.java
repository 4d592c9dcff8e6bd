package dev.joule.io.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.memory.Alignment;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.SortConfig;
import org.junit.jupiter.api.Test;

/**
 * Run sizes: no larger than a one-pass merge split over the threads needs, never above the budget.
 */
class SortPlanRunSizeTest {
  private static final long MIB = 1L << 20;

  private static SortPlan plan(long inputBytes, long budgetMiB, int threads) {
    SortConfig c =
        SortConfig.builder().memoryBudget(DataSize.ofMiB(budgetMiB)).threads(threads).build();
    return SortPlan.of(inputBytes, c);
  }

  /** The rule's inequality, as SortPlan.fewestPagesPerRun states it. */
  private static boolean mergeFits(SortPlan p, int threads) {
    long k = p.runs();
    long lent = SortPlan.RUN_FORMATION_ARENAS * p.recordsPerRun() * 100;
    long need =
        threads * (2 * k * p.tempTransfer() + (long) SortPlan.OUTPUT_BUFFERS * p.outputTransfer())
            + (long) SortPlan.RUN_FORMATION_ARENAS * p.tempTransfer()
            + k * Alignment.BYTES;
    return lent >= need;
  }

  @Test
  void aFewBudgetsOfInputGetSmallerRunsThatStillMergeInOnePassPerThread() {
    SortPlan p = plan(4_000_000_000L, 1024, 2);
    SortPlan budgetOnly = plan(1L << 40, 1024, 2); // so many runs that the budget sets their size
    assertTrue(p.recordsPerRun() < budgetOnly.recordsPerRun(), p.describe());
    assertTrue(p.runs() <= p.fanIn(), p.describe());
    assertEquals(1, p.mergePasses(), p.describe());
    assertTrue(mergeFits(p, 2), p.describe());
    assertTrue(p.sortMemory() <= 1024 * MIB, p.describe());
  }

  @Test
  void runsNeverGrowBeyondTheBudgetsSize() {
    SortPlan p = plan(1_000_000_000L, 256, 2); // here the merge needs the budget-sized runs
    SortPlan budgetOnly = plan(1L << 40, 256, 2);
    assertEquals(budgetOnly.recordsPerRun(), p.recordsPerRun(), p.describe());
    assertEquals(15, p.runs(), p.describe());
  }

  /**
   * Under an open-file limit that leaves no room for a merge, a sort that fits one pass is planned
   * (it merges nothing) and one that needs runs is refused with the limit named.
   */
  @Test
  void aTightOpenFileLimitConcernsOnlySortsThatMerge() {
    SortConfig c = SortConfig.builder().memoryBudget(DataSize.ofMiB(16)).threads(2).build();
    RecordEstimate gensort = RecordEstimate.fixed(100);
    SortPlan small = SortPlan.of(1000, c, gensort, 8);
    assertTrue(small.onePass());
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> SortPlan.of(1L << 30, c, gensort, 8));
    assertTrue(e.getMessage().contains("open-file limit of 8 (ulimit -n)"), e.getMessage());
  }
}

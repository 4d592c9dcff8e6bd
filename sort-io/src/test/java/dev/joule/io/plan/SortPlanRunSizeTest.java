package dev.joule.io.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.io.config.Compression;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Run sizes: no larger than a one-pass merge split over the threads needs, never above the budget.
 */
class SortPlanRunSizeTest {
  private static final long MIB = 1L << 20;

  private static SortPlan plan(long inputBytes, long budgetMiB, int threads)
      throws SortIOException {
    SortConfig c =
        SortConfig.builder().memoryBudget(DataSize.ofMiB(budgetMiB)).threads(threads).build();
    return SortPlan.of(inputBytes, c);
  }

  /** The rule's inequality, as SortPlan.fewestPagesPerRun states it. */
  private static boolean mergeFits(SortPlan p, int threads) {
    long k = p.runs();
    long lent = SortPlan.RUN_FORMATION_ARENAS * p.recordsPerRun() * 100;
    long need =
        threads
                * (2 * k * p.tempTransfer()
                    + (long) SortPlan.OUTPUT_POOL_BUFFERS * p.outputTransfer())
            + (long) SortPlan.RUN_FORMATION_ARENAS * Math.max(p.tempTransfer(), p.outputTransfer());
    return lent >= need;
  }

  @Test
  void aFewBudgetsOfInputGetSmallerRunsThatStillMergeInOnePassPerThread() throws IOException {
    SortPlan p = plan(4_000_000_000L, 1024, 2);
    SortPlan budgetOnly = plan(1L << 40, 1024, 2); // so many runs that the budget sets their size
    assertTrue(p.recordsPerRun() < budgetOnly.recordsPerRun(), p.describe());
    assertTrue(p.runs() <= p.fanIn(), p.describe());
    assertEquals(1, p.mergePasses(), p.describe());
    assertTrue(mergeFits(p, 2), p.describe());
    assertTrue(p.sortMemory() <= 1024 * MIB, p.describe());
  }

  /**
   * A default temp transfer is halved (not below 1 MiB) when that merges the runs in one pass; a
   * transfer the caller chose is kept, and then the same input takes two passes.
   */
  @Test
  void aDefaultTempTransferShrinksToMergeInOnePass() throws IOException {
    SortPlan p = plan(480_000_000L, 64, 2);
    assertTrue(p.tempTransfer() < 2 * MIB, p.describe()); // capped at 64 MiB / 32 = 2 MiB before
    assertTrue(p.tempTransfer() >= SortPlan.MIN_MERGE_TRANSFER, p.describe());
    assertEquals(1, p.mergePasses(), p.describe());
    SortConfig chosen =
        SortConfig.builder()
            .memoryBudget(DataSize.ofMiB(64))
            .threads(2)
            .transferSize(FileKind.TEMP, DataSize.ofMiB(2))
            .build();
    SortPlan kept = SortPlan.of(480_000_000L, chosen);
    assertEquals(2 * MIB, kept.tempTransfer(), kept.describe());
    assertEquals(2, kept.mergePasses(), kept.describe());
    SortPlan far = plan(20_000_000_000L, 64, 2); // hundreds of runs: one pass is out of reach
    assertEquals(2 * MIB, far.tempTransfer(), far.describe());
  }

  @Test
  void runsNeverGrowBeyondTheBudgetsSize() throws IOException {
    SortPlan p = plan(1_000_000_000L, 256, 2); // here the merge needs the budget-sized runs
    SortPlan budgetOnly = plan(1L << 40, 256, 2);
    assertEquals(budgetOnly.recordsPerRun(), p.recordsPerRun(), p.describe());
    assertEquals(15, p.runs(), p.describe());
  }

  /**
   * The two-pass plan for the rest of an input that outgrew its one-pass arena: 12.5 MB of lines
   * under a 6 GiB budget, so small that not even 2 runs could lend a merge its buffers. Its runs
   * hold the whole input at most; they used to be sized to the budget (arenas and indexes of 6 GB,
   * resident).
   */
  @Test
  void aSmallTwoPassInputGetsRunsNoLargerThanItself() throws IOException {
    SortConfig c = SortConfig.builder().memoryBudget(DataSize.ofMiB(6144)).threads(2).build();
    SortPlan p = SortPlan.twoPass(12_500_000L, c, new RecordEstimate(false, 7.8, 24));
    assertTrue(p.recordsPerRun() <= p.records(), p.describe());
    assertTrue(p.sortMemory() < 512 * MIB, p.describe()); // 3 arenas and indexes for the input
    assertEquals(1, p.runs(), p.describe());
  }

  /**
   * Under an open-file limit that leaves no room for a merge, a sort that fits one pass is planned
   * (it merges nothing) and one that needs runs is refused with a {@link SortIOException} (an
   * environment error, exit 2) naming the temp directory, the limit, {@code ulimit -n} with the
   * smallest limit that would do, and the one-pass way out; that limit is then enough.
   */
  @Test
  void aTightOpenFileLimitConcernsOnlySortsThatMerge() throws IOException {
    Path temp = Path.of("/tmp/joule-plan-test-stripe");
    SortConfig c =
        SortConfig.builder()
            .memoryBudget(DataSize.ofMiB(16))
            .threads(2)
            .tempDirs(List.of(temp))
            .build();
    RecordEstimate gensort = RecordEstimate.fixed(100);
    SortPlan small = SortPlan.of(1000, c, gensort, 8);
    assertTrue(small.onePass());
    SortIOException e =
        assertThrows(SortIOException.class, () -> SortPlan.of(1L << 30, c, gensort, 8));
    assertEquals("plan merge", e.op());
    assertEquals(temp, e.path());
    Matcher m =
        Pattern.compile(
                "the open-file limit of 8 \\(ulimit -n\\) leaves fewer than 2 merge inputs: (\\d+)"
                    + " descriptors are open or reserved .*raise it to at least (\\d+) \\(ulimit -n"
                    + " (\\d+)\\), or give a memory budget that holds the whole input \\(one pass,"
                    + " no merge\\)")
            .matcher(e.reason());
    assertTrue(m.matches(), e.getMessage());
    int reserve = Integer.parseInt(m.group(1));
    // The reserve counts the descriptors open at planning time (and the stripe's lock); another
    // thread of the test JVM may open or close one between that count and this one.
    int now = MergePlanLimits.reserve(8) + 1;
    assertTrue(Math.abs(now - reserve) <= 2, now + " vs " + e.getMessage());
    int enough = Integer.parseInt(m.group(2));
    assertEquals(reserve + 3 * 2, enough, e.getMessage()); // 2 inputs and the output, 2 fds each
    assertEquals(enough, Integer.parseInt(m.group(3)), e.getMessage());
    assertEquals(e.op() + " failed: " + temp + ": " + e.reason(), e.getMessage());
    SortPlan at = SortPlan.of(1L << 30, c, gensort, enough);
    assertEquals(2, at.fanIn(), at.describe());
    // Below it the sort is refused: by the same margin as above, as the open descriptors counted
    // may have changed by one or two since (a CI run once saw enough - 1 pass).
    assertThrows(SortIOException.class, () -> SortPlan.of(1L << 30, c, gensort, enough - 3));
  }

  /**
   * What the open-file limit leaves for a merge: above 256 the reserve is a fixed 64, plus one lock
   * per stripe; each merge file takes one descriptor, or two with direct I/O (a run read through
   * O_DIRECT also keeps a buffered channel for its header and footer: 600 runs under the default
   * limit of 1024 failed with "Too many open files" when the plan counted one).
   */
  @Test
  void theFanInCountsTwoDescriptorsPerSegmentWithDirectIoAndOneLockPerStripe() throws IOException {
    RecordEstimate gensort = RecordEstimate.fixed(100);
    SortConfig.Builder b =
        SortConfig.builder()
            .memoryBudget(DataSize.ofMiB(64))
            .transferSize(FileKind.TEMP, DataSize.ofKiB(4))
            .compression(Compression.off());
    SortConfig off = b.directIo(DirectIoPolicy.OFF).tempDirs(List.of(Path.of("/tmp/s0"))).build();
    assertEquals(400 - 64 - 1 - 1, SortPlan.of(1L << 34, off, gensort, 400).fanIn());
    // A sort that may compress also keeps the codec jars' descriptors free.
    SortConfig compressing = off.toBuilder().compression(Compression.auto()).build();
    assertEquals(
        400 - 64 - 1 - MergePlanLimits.CODEC_DESCRIPTORS - 1,
        SortPlan.of(1L << 34, compressing, gensort, 400).fanIn());
    SortConfig auto =
        b.directIo(DirectIoPolicy.AUTO)
            .tempDirs(List.of(Path.of("/tmp/s0"), Path.of("/tmp/s1"), Path.of("/tmp/s2")))
            .build();
    // One merge may hold 334 inputs and its output; concurrent merges share those descriptors.
    SortPlan p = SortPlan.of(1L << 34, off, gensort, 400);
    assertEquals(3, p.concurrentMergesByFiles(100), "335 descriptors / 101 per merge");
    assertEquals(1, p.concurrentMergesByFiles(300));
    // A run is striped over the 3 stripes: 3 segments of 2 descriptors each.
    assertEquals((400 - 64 - 3 - 6) / 6, SortPlan.of(1L << 34, auto, gensort, 400).fanIn());
  }
}

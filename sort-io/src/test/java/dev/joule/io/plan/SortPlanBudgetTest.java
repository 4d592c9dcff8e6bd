package dev.joule.io.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.key.KeyField;
import dev.joule.core.key.KeyLocation;
import dev.joule.core.key.KeyType;
import dev.joule.core.key.SortKey;
import dev.joule.core.key.TextLocale;
import dev.joule.core.key.TextPosition;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortIOException;
import dev.joule.io.input.InputStage;
import dev.joule.testing.TestLocales;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every plan of a sweep of budgets, transfer sizes, record sizes, input sizes, threads and stripes
 * stays within its budget as the memory meter would charge it. The charges are worked out here from
 * the plan's figures by the meter's rules, not by the plan's formulas: a pool of n buffers of s
 * bytes is {@code n (s + 4096)}, an arena its capacity rounded up to 4096 plus 4096 per slab, an
 * index 32 bytes per entry. Checked: the one-pass sort, run formation, the least final merge and
 * the least intermediate merge while run formation's arenas are lent (carved as far as they go, the
 * rest fresh), and the plan's own merge figure.
 */
class SortPlanBudgetTest {
  private static final long PAGE = 4096;
  private static final int[] BUDGETS_MIB = {8, 9, 12, 16, 24, 33, 64, 100, 256, 1024, 4000};
  private static final double[] INPUT_BUDGETS = {0.5, 1.5, 3, 8};

  /** Transfer sizes as {input, output, temp} in KiB; 0 keeps the default. */
  private static final int[][] TRANSFERS = {
    {0, 0, 0}, {16, 16, 4}, {64, 64, 64}, {1024, 1024, 1024}, {0, 4, 1024}, {4, 0, 0}, {0, 0, 8}
  };

  private static final RecordEstimate[] ESTIMATES = {
    RecordEstimate.fixed(8),
    RecordEstimate.fixed(37),
    RecordEstimate.fixed(100),
    RecordEstimate.fixed(4000),
    new RecordEstimate(false, 5.3, 9), // short numbers, sorted by -n
    new RecordEstimate(false, 60, 70),
    new RecordEstimate(false, 2001, 2012),
    new RecordEstimate(false, 5.3, 9, true), // the same, lines a one pass parses on all threads
    new RecordEstimate(false, 60, 70, true),
  };

  private static long pool(long count, long size) {
    return count * (size + PAGE);
  }

  private static long arena(long capacity, int slab) {
    long rounded = (capacity + PAGE - 1) / PAGE * PAGE;
    long slabs = (rounded + slab - 1) / slab;
    return rounded + slabs * PAGE;
  }

  /** Slab capacities of the three arenas of run formation. */
  private static List<Long> slabs(SortPlan p) {
    long bytes = p.arenaBytes();
    int slab = InputStage.slabBytes(bytes, p.inPlace() ? p.entryBytes() : 1);
    long rounded = (bytes + PAGE - 1) / PAGE * PAGE;
    List<Long> out = new ArrayList<>();
    for (int a = 0; a < SortPlan.RUN_FORMATION_ARENAS; a++) {
      for (long at = 0; at < rounded; at += slab) {
        out.add(Math.min(slab, rounded - at));
      }
    }
    return out;
  }

  /**
   * Bytes charged fresh for pools of {@code counts[i]} buffers of {@code sizes[i]} bytes when each
   * is first carved, in order, from the windows left in {@code slabs} (a bump allocator over the
   * slabs), the rest allocated.
   */
  private static long freshAfterCarving(List<Long> slabs, long[] counts, long[] sizes) {
    int s = 0;
    long offset = 0;
    long fresh = 0;
    for (int i = 0; i < counts.length; i++) {
      long left = counts[i];
      while (left > 0 && s < slabs.size()) {
        if (offset + sizes[i] > slabs.get(s)) {
          s++;
          offset = 0;
          continue;
        }
        offset += sizes[i];
        left--;
      }
      fresh += pool(left, sizes[i]);
    }
    return fresh;
  }

  private static SortConfig config(int budgetMiB, int[] transfers, int threads, int stripes) {
    SortConfig.Builder b =
        SortConfig.builder().memoryBudget(DataSize.ofMiB(budgetMiB)).threads(threads);
    List<Path> dirs = new ArrayList<>();
    for (int i = 0; i < stripes; i++) {
      dirs.add(Path.of("/tmp/joule-plan-budget-test-" + i));
    }
    b.tempDirs(dirs);
    FileKind[] kinds = {FileKind.INPUT, FileKind.OUTPUT, FileKind.TEMP};
    for (int i = 0; i < kinds.length; i++) {
      if (transfers[i] > 0) {
        b.transferSize(kinds[i], DataSize.ofKiB(transfers[i]));
      }
    }
    return b.build();
  }

  /** A one pass parses on several threads only lines that may be parsed in any order. */
  @Test
  void parseThreadsAndTheirInputBuffersOnlyForOnePassLinesInAnyOrder() throws SortIOException {
    SortConfig c = config(1024, TRANSFERS[0], 4, 1);
    SortPlan lines = SortPlan.of(1 << 20, c, new RecordEstimate(false, 60, 70, true));
    SortPlan stable = SortPlan.of(1 << 20, c, new RecordEstimate(false, 60, 70));
    SortPlan twoPass = SortPlan.of(4L << 30, c, new RecordEstimate(false, 60, 70, true));
    assertTrue(lines.onePass() && stable.onePass() && !twoPass.onePass());
    assertEquals(4, lines.parseThreads());
    assertEquals(6, lines.readBuffers());
    assertEquals(1, stable.parseThreads());
    assertEquals(3, stable.readBuffers());
    assertEquals(1, twoPass.parseThreads());
    assertEquals(3, twoPass.readBuffers());
  }

  /**
   * A key collated in a locale makes the parse most of the sort: a two-pass sort parses on the one
   * pass's threads too, with input buffers for them only where lines are split in spans (in any
   * order); in input order the threads encode keys and hold no buffer.
   */
  @Test
  void collatedKeysParseOnTheSortsThreadsInRunFormation() throws Exception {
    TestLocales.prepare(List.of("en_US.UTF-8"));
    KeyType collated = KeyType.collated(TextLocale.of("en_US.UTF-8"));
    SortConfig c =
        SortConfig.builder()
            .memoryBudget(DataSize.ofMiB(1024))
            .threads(4)
            .tempDirs(List.of(Path.of("/tmp/joule-plan-budget-test-0")))
            .format(RecordFormat.lines())
            .key(SortKey.of(KeyField.of(KeyLocation.text(TextPosition.field(2)), collated)))
            .build();
    SortPlan inOrder = SortPlan.of(4L << 30, c, new RecordEstimate(false, 60, 70));
    SortPlan anyOrder = SortPlan.of(4L << 30, c, new RecordEstimate(false, 60, 70, true));
    SortPlan bytes =
        SortPlan.of(4L << 30, config(1024, TRANSFERS[0], 4, 1), new RecordEstimate(false, 60, 70));
    assertTrue(!inOrder.onePass() && !anyOrder.onePass() && !bytes.onePass());
    assertEquals(4, inOrder.parseThreads());
    assertEquals(3, inOrder.readBuffers());
    assertEquals(4, anyOrder.parseThreads());
    assertEquals(6, anyOrder.readBuffers());
    assertEquals(1, bytes.parseThreads());
    assertEquals(3, bytes.readBuffers());
  }

  @Test
  void everyPhaseOfEveryPlanFitsItsBudgetAsTheMeterCharges() throws SortIOException {
    List<String> over = new ArrayList<>();
    int[] shapes = new int[3]; // one pass, one merge pass, several merge passes
    int plans = 0;
    for (int budgetMiB : BUDGETS_MIB) {
      long budget = (long) budgetMiB << 20;
      for (int[] transfers : TRANSFERS) {
        for (int threads : new int[] {1, 2, 4}) {
          for (int stripes : new int[] {1, 3}) {
            SortConfig c = config(budgetMiB, transfers, threads, stripes);
            for (RecordEstimate e : ESTIMATES) {
              for (double f : INPUT_BUDGETS) {
                long input = (long) (f * budget);
                SortPlan p;
                try {
                  p = SortPlan.of(input, c, e, Long.MAX_VALUE);
                } catch (IllegalArgumentException refused) {
                  continue; // e.g. 4000-byte records whose aligned runs do not fit a small budget
                }
                plans++;
                shapes[p.onePass() ? 0 : p.mergePasses() == 1 ? 1 : 2]++;
                String ctx =
                    String.format(
                        "%d MiB, transfers %s KiB, %d threads, %d stripes, %s, %d input bytes",
                        budgetMiB,
                        java.util.Arrays.toString(transfers),
                        threads,
                        stripes,
                        e,
                        input);
                check(p, e, threads, budget, ctx, over);
              }
            }
          }
        }
      }
    }
    assertTrue(plans > 4000, "plans checked: " + plans);
    for (int n : shapes) {
      assertTrue(n > 500, "one pass, one merge pass, more: " + java.util.Arrays.toString(shapes));
    }
    assertTrue(
        over.isEmpty(), over.size() + " over the budget, e.g.:\n" + String.join("\n", head(over)));
  }

  private static List<String> head(List<String> l) {
    return l.subList(0, Math.min(20, l.size()));
  }

  private static void check(
      SortPlan p, RecordEstimate e, int threads, long budget, String ctx, List<String> over) {
    long w = p.runWriteBuffers();
    long t = p.tempTransfer();
    long tOut = p.outputTransfer();
    // 3 input buffers; a one-pass sort of lines in any order holds one more per parse thread.
    int parse = p.onePass() && e.linesInAnyOrder() ? Math.min(threads, 8) : 1;
    long read = p.inPlace() ? 0 : pool(3 + parse - 1, p.inputTransfer());
    long index = (long) p.indexEntries() * 32;
    if (p.onePass()) {
      long bytes = Math.max(PAGE, p.arenaBytes());
      int slab =
          p.inPlace() ? p.onePassSlabBytes(bytes, p.entryBytes()) : InputStage.slabBytes(bytes, 1);
      // A parsed one-pass arena that overflows is written as a first run by the run writer's pool.
      long buffers = p.inPlace() ? pool(2, tOut) : Math.max(pool(2, tOut), pool(w, t));
      report(over, "one pass", arena(bytes, slab) + index + buffers + read, budget, ctx, p);
      return;
    }
    long bytes = p.arenaBytes();
    long arenas =
        SortPlan.RUN_FORMATION_ARENAS
            * arena(bytes, InputStage.slabBytes(bytes, p.inPlace() ? p.entryBytes() : 1));
    int indexes = p.inPlace() ? 2 : 3;
    report(over, "run formation", arenas + indexes * index + pool(w, t) + read, budget, ctx, p);

    List<Long> slabs = slabs(p);
    MergePlan mp = p.mergePlan();
    long k = mp.finalMerge().inputs().length;
    long least =
        arenas
            + pool(1, PAGE) // the output file's own, unused, writer
            + freshAfterCarving(slabs, new long[] {2, k + 1}, new long[] {tOut, t});
    report(over, "final merge of " + k, least, budget, ctx, p);
    for (MergePlan.Pass pass : mp.passes()) {
      if (pass.isFinal()) {
        continue;
      }
      long widest = 0;
      for (MergePlan.Merge m : pass.merges()) {
        widest = Math.max(widest, m.inputs().length);
      }
      long mid = arenas + freshAfterCarving(slabs, new long[] {widest + 1 + w}, new long[] {t});
      report(over, "intermediate merge of " + widest, mid, budget, ctx, p);
    }
    report(over, "mergeMemory()", p.mergeMemory(), budget, ctx, p);
  }

  private static void report(
      List<String> over, String phase, long bytes, long budget, String ctx, SortPlan p) {
    if (bytes > budget) {
      over.add(
          phase
              + ": "
              + bytes
              + " > "
              + budget
              + " (+"
              + (bytes - budget)
              + ") at "
              + ctx
              + "; fan-in "
              + p.fanIn()
              + ", runs "
              + p.runs()
              + ", temp "
              + p.tempTransfer());
    }
  }
}

package dev.joule.core.merge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.merge.RunFixture.Shape;
import dev.joule.testing.TestSeed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class MergeSplitterTest {
  /** Pages {@link #runsOfOneDistributionAreSplitInFewPages} may touch: 176 do, 576 did. */
  private static final int FEW_PAGES = 300;

  private static final long SEED_DISORDER = TestSeed.of(MergeSplitterTest.class, 0xD150_4DE4L);

  /** Brute force: the cut at rank r counts, per run, the runs' records among the first r merged. */
  private static long[] bruteCuts(long[] reference, int runs, long rank) {
    long[] cut = new long[runs];
    for (int i = 0; i < rank; i++) {
      cut[(int) (reference[i] >>> 32)]++;
    }
    return cut;
  }

  @ParameterizedTest
  @EnumSource(Shape.class)
  void cutsAtEveryRankMatchBruteForce(Shape shape) {
    assertCutsAtEveryRank("cutsAtRank " + shape, shape, 0, 40, MergeSplitter.IN_TURN);
  }

  /**
   * For {@code seeds} random fixtures of {@code shape} (seeds from {@code firstSeed}), the cuts at
   * every rank, found with {@code searches}, against {@link #bruteCuts}.
   */
  private static void assertCutsAtEveryRank(
      String name, Shape shape, int firstSeed, int seeds, MergeSplitter.RunSearches searches) {
    for (int i = 0; i < seeds; i++) {
      MergeTestSeeds.run(
          name,
          firstSeed + i,
          seed -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            RunFixture f = RunFixture.random(seed, shape, 1 + rnd.nextInt(12), 25, 24, 12);
            long[] reference = f.referenceOrder();
            SortedRunView[] views = f.views();
            for (long rank = 0; rank <= reference.length; rank++) {
              assertArrayEquals(
                  bruteCuts(reference, f.runs(), rank),
                  MergeSplitter.cutsAtRank(views, rank, searches),
                  "rank " + rank + " of " + reference.length);
            }
          });
    }
  }

  @ParameterizedTest
  @EnumSource(Shape.class)
  void splitMergesConcatenateToTheSingleMerge(Shape shape) {
    for (int i = 0; i < 30; i++) {
      MergeTestSeeds.run(
          "split " + shape,
          100 + i,
          seed -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            RunFixture f = RunFixture.random(seed, shape, 1 + rnd.nextInt(40), 60, 40, 20);
            int parts = 1 + rnd.nextInt(12);
            long[][] cuts = MergeSplitter.split(f.views(), parts);
            assertSplitIsExact(f, cuts, parts);
          });
    }
  }

  private static void assertSplitIsExact(RunFixture f, long[][] cuts, int parts) {
    long total = f.totalRecords();
    assertEquals(parts + 1, cuts.length);
    long[] reference = f.referenceOrder();
    long[] concatenated = new long[reference.length];
    int n = 0;
    for (int j = 0; j < parts; j++) {
      long partSize = 0;
      RunCursor[] cursors = new RunCursor[f.runs()];
      for (int r = 0; r < f.runs(); r++) {
        assertTrue(cuts[j][r] <= cuts[j + 1][r], "cuts are monotone");
        partSize += cuts[j + 1][r] - cuts[j][r];
        cursors[r] =
            new ByteBufferRunCursor(f.buffers[r], f.format, (int) cuts[j][r], (int) cuts[j + 1][r]);
      }
      long lo = total / parts;
      assertTrue(
          partSize == lo || partSize == lo + 1, "part " + j + " has " + partSize + " records");
      TournamentTree tree = new TournamentTree(cursors);
      int run;
      while ((run = tree.nextRun()) >= 0) {
        RunCursor c = tree.current();
        int pos = (c.position() - f.buffers[run].position()) / f.format.recordSize();
        concatenated[n++] = ((long) run << 32) | pos;
      }
    }
    assertEquals(reference.length, n);
    assertArrayEquals(reference, concatenated, "parts merged separately and concatenated");
  }

  /** The searches of a round may run in any order (and at once): the cuts do not depend on it. */
  @ParameterizedTest
  @EnumSource(Shape.class)
  void cutsDoNotDependOnTheOrderOfARoundsSearches(Shape shape) {
    MergeSplitter.RunSearches backwards =
        (runs, search) -> {
          for (int i = runs - 1; i >= 0; i--) {
            search.accept(i);
          }
        };
    assertCutsAtEveryRank("backwards " + shape, shape, 300, 10, backwards);
  }

  /**
   * A split of runs cut from one random input reads few places: the entries it compares fall in few
   * "pages" of 32 entries (a run file's 4 KiB pages hold 40 gensort records). Taking each pivot at
   * the middle of the widest window, with a full binary search for the end of the pivot's equal
   * keys, touched 576 pages here; the estimated pivots and the galloping search touch 176.
   */
  @Test
  void runsOfOneDistributionAreSplitInFewPages() {
    SplittableRandom rnd = new SplittableRandom(11);
    RunFixture f = RunFixture.exact(rnd, Shape.RANDOM, 15, 40_000, 16, 10);
    SortedRunView[] plain = f.views();
    List<Set<Long>> pages = new ArrayList<>();
    SortedRunView[] counted = new SortedRunView[plain.length];
    for (int i = 0; i < plain.length; i++) {
      SortedRunView v = plain[i];
      Set<Long> touched = new HashSet<>();
      pages.add(touched);
      counted[i] =
          new SortedRunView() {
            @Override
            public long size() {
              return v.size();
            }

            @Override
            public int compare(long index, Probe probe) {
              touched.add(index / 32);
              return v.compare(index, probe);
            }

            @Override
            public Probe probe(long index) {
              touched.add(index / 32);
              return v.probe(index);
            }
          };
    }
    long rank = f.totalRecords() / 2;
    long[] cut = MergeSplitter.cutsAtRank(counted, rank);
    assertArrayEquals(bruteCuts(f.referenceOrder(), f.runs(), rank), cut);
    int touched = pages.stream().mapToInt(Set::size).sum();
    assertTrue(touched < FEW_PAGES, touched + " pages touched");
  }

  /**
   * Runs out of order (a corrupt page the split reads unchecked) must end the split, with some cuts
   * or an IllegalStateException, never a loop: an estimated pivot that a search of a disordered run
   * skips left every window as it was, round after round (one run [337, 223] at rank 1).
   */
  @Test
  void runsOutOfOrderEndTheSplit() {
    SplittableRandom rnd = new SplittableRandom(SEED_DISORDER);
    assertTimeoutPreemptively(
        Duration.ofSeconds(30),
        () -> {
          for (int c = 0; c < 3000; c++) {
            int k = 1 + rnd.nextInt(4);
            SortedRunView[] views = new SortedRunView[k];
            long total = 0;
            for (int i = 0; i < k; i++) {
              int n = rnd.nextInt(41);
              long[] keys = new long[n];
              for (int j = 0; j < n; j++) {
                keys[j] = rnd.nextInt(1000);
              }
              java.util.Arrays.sort(keys);
              for (int w = 1 + rnd.nextInt(3); w > 0 && n > 1; w--) {
                int a = rnd.nextInt(n);
                int b = rnd.nextInt(n);
                long t = keys[a];
                keys[a] = keys[b];
                keys[b] = t;
              }
              views[i] = new LongKeys(keys);
              total += n;
            }
            for (long rank = 0; rank <= total; rank++) {
              try {
                MergeSplitter.cutsAtRank(views, rank);
              } catch (IllegalStateException | AssertionError expected) {
                // a disordered run may leave no record with the rank
              }
            }
          }
        },
        "seed " + SEED_DISORDER);
    assertThrows(
        IllegalStateException.class,
        () ->
            MergeSplitter.cutsAtRank(new SortedRunView[] {new LongKeys(new long[] {337, 223})}, 1));
  }

  /** A run of 8-byte big-endian keys (no records), in the order given. */
  private static final class LongKeys implements SortedRunView {
    private final long[] keys;

    LongKeys(long[] keys) {
      this.keys = keys;
    }

    private static byte[] bytes(long v) {
      return java.nio.ByteBuffer.allocate(Long.BYTES).putLong(v).array();
    }

    @Override
    public long size() {
      return keys.length;
    }

    @Override
    public int compare(long index, Probe probe) {
      return java.util.Arrays.compareUnsigned(bytes(keys[(int) index]), probe.key());
    }

    @Override
    public Probe probe(long index) {
      return new Probe(bytes(keys[(int) index]), null);
    }
  }

  @Test
  void morePartsThanRecordsGivesEmptyParts() {
    RunFixture f = RunFixture.exact(new SplittableRandom(7), Shape.ALL_EQUAL, 3, 2, 12, 10);
    long[][] cuts = MergeSplitter.split(f.views(), 50);
    assertSplitIsExact(f, cuts, 50);
  }

  @Test
  void rejectsBadArguments() {
    RunFixture f = RunFixture.exact(new SplittableRandom(1), Shape.RANDOM, 2, 5, 12, 10);
    assertThrows(IllegalArgumentException.class, () -> MergeSplitter.split(f.views(), 0));
    assertThrows(
        IllegalArgumentException.class,
        () -> MergeSplitter.cutsAtRank(f.views(), f.totalRecords() + 1));
    assertThrows(
        IllegalArgumentException.class, () -> MergeSplitter.split(new SortedRunView[0], 2));
  }
}

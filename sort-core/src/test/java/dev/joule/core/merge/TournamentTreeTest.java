package dev.joule.core.merge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.index.TieBreaker;
import dev.joule.core.merge.RunFixture.Shape;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TournamentTreeTest {

  /** Drains the tree; checks each record's bytes and returns the (run, position) ids in order. */
  static long[] drain(RunFixture f, TournamentTree tree) {
    long[] out = new long[Math.toIntExact(f.totalRecords())];
    int n = 0;
    int size = f.format.recordSize();
    byte[] copy = new byte[size];
    int run;
    while ((run = tree.nextRun()) >= 0) {
      RunCursor c = tree.current();
      assertEquals(run, tree.currentRun());
      ByteBuffer src = c.buffer();
      int pos = (c.position() - f.buffers[run].position()) / size;
      src.get(c.position(), copy, 0, size);
      assertArrayEquals(f.records[run][pos], copy, "bytes of run " + run + " record " + pos);
      assertTrue(n < out.length, "more records than the runs hold");
      out[n++] = ((long) run << 32) | pos;
    }
    assertEquals(out.length, n, "record count");
    assertFalse(tree.next(), "an exhausted tree stays exhausted");
    return out;
  }

  private static void assertMergesLikeReference(RunFixture f) {
    long[] expected = f.referenceOrder();
    long[] actual = drain(f, new TournamentTree(f.cursors()));
    if (!Arrays.equals(expected, actual)) {
      int i = Arrays.mismatch(expected, actual);
      throw new AssertionError(
          "merge order differs at output record "
              + i
              + ": expected run/pos "
              + (expected[i] >>> 32)
              + "/"
              + (int) expected[i]
              + ", got "
              + (actual[i] >>> 32)
              + "/"
              + (int) actual[i]
              + " ("
              + f.format
              + ", "
              + f.runs()
              + " runs)");
    }
  }

  @ParameterizedTest
  @EnumSource(Shape.class)
  void mergesLikeStableReference(Shape shape) {
    for (int i = 0; i < 60; i++) {
      MergeTestSeeds.run(
          "shape " + shape,
          i,
          seed -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            int k = 1 + rnd.nextInt(100);
            assertMergesLikeReference(RunFixture.random(seed, shape, k, 40, 120, 64));
          });
    }
  }

  @Test
  void everyRunCountFromOneToHundred() {
    for (int k = 1; k <= 100; k++) {
      int runs = k;
      MergeTestSeeds.run(
          "k=" + k,
          1000 + k,
          seed -> {
            Shape shape = Shape.values()[Math.floorMod(seed, Shape.values().length)];
            assertMergesLikeReference(RunFixture.random(seed, shape, runs, 20, 40, 16));
          });
    }
  }

  @Test
  void everyKeyLengthFromOneTo64() {
    for (int keyLength = 1; keyLength <= 64; keyLength++) {
      int len = keyLength;
      MergeTestSeeds.run(
          "keyLength=" + len,
          2000 + len,
          seed -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            Shape shape = len > 8 && rnd.nextBoolean() ? Shape.SHARED_PREFIX_8 : Shape.TWO_DISTINCT;
            if (rnd.nextBoolean()) {
              shape = Shape.RANDOM;
            }
            int recordSize = len + rnd.nextInt(40);
            assertMergesLikeReference(
                RunFixture.exact(rnd, shape, 1 + rnd.nextInt(30), 30, recordSize, len));
          });
    }
  }

  @Test
  void largeRecords() {
    for (int i = 0; i < 6; i++) {
      MergeTestSeeds.run(
          "recordSize=1000",
          3000 + i,
          seed -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            Shape shape = Shape.values()[rnd.nextInt(Shape.values().length)];
            int keyLength =
                shape == Shape.SHARED_PREFIX_8 ? 9 + rnd.nextInt(56) : 1 + rnd.nextInt(64);
            assertMergesLikeReference(
                RunFixture.exact(rnd, shape, 1 + rnd.nextInt(40), 50, 1000, keyLength));
          });
    }
  }

  /**
   * A record equal to the one before it in its run wins again after one comparison (plus one per
   * block a cursor changes), not after a replay of {@code log2 k}: counted through the tie breaker,
   * which every comparison of equal keys reaches. 16 runs of 2000 equal records, each run's buffer
   * in blocks of 100 records (a new buffer object per block, as a file cursor gives).
   */
  @Test
  void equalRecordsInARunWinAgainWithoutAReplay() {
    var format = RecordFormat.fixed(16, KeySpec.bytes(0, 12));
    int k = 16;
    int perRun = 2000;
    int perBlock = 100;
    byte[] record = RunFixture.randomBytes(new SplittableRandom(5), 16);
    long[] compares = new long[1];
    TieBreaker counting =
        (a, ap, al, b, bp, bl) -> {
          compares[0]++;
          return a.slice(ap, al).compareTo(b.slice(bp, bl));
        };
    RunCursor[] cursors = new RunCursor[k];
    for (int i = 0; i < k; i++) {
      cursors[i] = new BlockedCursor(format, record, perRun, perBlock);
    }
    TournamentTree tree = new TournamentTree(counting, cursors);
    long[] next = new long[k];
    long n = 0;
    int run;
    while ((run = tree.nextRun()) >= 0) {
      assertEquals(next[run]++, ((BlockedCursor) tree.current()).index, "order within run " + run);
      // Stable: a run is drained before the next one starts.
      assertEquals(n / perRun, run, "record " + n);
      n++;
    }
    assertEquals((long) k * perRun, n);
    long blocks = (long) k * perRun / perBlock;
    long replays = blocks * 4 + (long) k * 4; // log2(16) per block change, and the build
    assertTrue(
        compares[0] <= n + replays,
        compares[0] + " comparisons for " + n + " records (a replay for each made 2n here)");
  }

  /** Equal records in blocks of {@code perBlock}, each block a new buffer object. */
  private static final class BlockedCursor extends AbstractRunCursor {
    private final byte[] record;
    private final int count;
    private final int perBlock;
    int index = -1;

    BlockedCursor(
        dev.joule.core.record.FixedLengthFormat format, byte[] record, int count, int perBlock) {
      super(format);
      this.record = record;
      this.count = count;
      this.perBlock = perBlock;
    }

    @Override
    public boolean advance() {
      if (++index >= count) {
        return false;
      }
      if (index % perBlock == 0) {
        buffer = ByteBuffer.allocate(record.length * perBlock);
        for (int i = 0; i < perBlock; i++) {
          buffer.put(i * record.length, record);
        }
        position = 0;
      } else {
        position += record.length;
      }
      return true;
    }
  }

  @Test
  void allRunsEmpty() {
    var format = RecordFormat.fixed(10, KeySpec.bytes(0, 10));
    RunCursor[] cursors = new RunCursor[5];
    for (int i = 0; i < cursors.length; i++) {
      cursors[i] = new ByteBufferRunCursor(ByteBuffer.allocate(0), format);
    }
    TournamentTree tree = new TournamentTree(cursors);
    assertEquals(-1, tree.nextRun());
    assertFalse(tree.next());
  }

  @Test
  void rejectsNoRuns() {
    assertThrows(IllegalArgumentException.class, TournamentTree::new);
  }
}

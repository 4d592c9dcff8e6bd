package dev.joule.io.prefetch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.index.EntryLayout;
import dev.joule.io.block.BlockFile;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.run.RunReader;
import dev.joule.io.run.RunWriter;
import dev.joule.testing.TestSeed;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The prefetch schedule against the order in which a merge consumes the blocks of real run files,
 * for keys whose first 8 bytes (and more) are all equal, so that only the rest of the key can order
 * the blocks. The expected order comes from an in-memory merge of the same entries, written from
 * the definition of the merge order (key bytes unsigned, a prefix first, then run, then position),
 * not from the footer's keys: a block is needed when its first entry is merged.
 */
class PrefetchScheduleTest {
  static final long SEED = TestSeed.of(PrefetchScheduleTest.class, 0x5EED_F00DL);
  static final int BLOCK = 4096;
  static final int KEPT = 64; // first-key bytes a run footer keeps

  /** Twenty bytes every key starts with: the shape of dates and tenant ids. */
  static final byte[] COMMON = "2024-06-01T00:00:00Z".getBytes(StandardCharsets.US_ASCII);

  @TempDir Path dir;

  @Test
  void fixedKeysSharingTwentyLeadingBytesFollowTheMerge() throws Exception {
    EntryLayout layout = EntryLayout.range(40, 0, 32);
    for (int round = 0; round < 3; round++) {
      long seed = SEED + round;
      Random r = new Random(seed);
      List<byte[][]> keys = new ArrayList<>();
      RunDescriptor[] d = new RunDescriptor[4];
      for (int run = 0; run < d.length; run++) {
        byte[][] recs = new byte[800 + r.nextInt(1500)][40];
        for (byte[] rec : recs) {
          r.nextBytes(rec);
          System.arraycopy(COMMON, 0, rec, 0, COMMON.length);
          Arrays.fill(rec, 20, 28, (byte) 0);
          // Few distinct keys: equal keys in several runs, which the merge orders by run.
          ByteBuffer.wrap(rec).putInt(28, r.nextInt(3000));
        }
        Arrays.sort(recs, (a, b) -> Arrays.compareUnsigned(a, 0, 32, b, 0, 32));
        d[run] = write(layout, recs);
        keys.add(Arrays.stream(recs).map(rec -> Arrays.copyOf(rec, 32)).toArray(byte[][]::new));
      }
      check(d, keys, wholeRuns(d), seed);
      check(d, keys, someBlocksOfEachRun(d, r), seed);
    }
  }

  @Test
  void variableKeysWithPrefixesLongKeysAndLargeEntriesFollowTheMerge() throws Exception {
    EntryLayout layout = EntryLayout.whole(); // the key is the whole record
    byte[] filler = new byte[KEPT - COMMON.length];
    Arrays.fill(filler, (byte) '0');
    for (int round = 0; round < 3; round++) {
      long seed = SEED + round;
      Random r = new Random(seed);
      List<byte[][]> keys = new ArrayList<>();
      RunDescriptor[] d = new RunDescriptor[4];
      for (int run = 0; run < d.length; run++) {
        byte[][] recs = new byte[600 + r.nextInt(900)][];
        for (int i = 0; i < recs.length; i++) {
          recs[i] = key(r, filler);
        }
        Arrays.sort(recs, Arrays::compareUnsigned);
        d[run] = write(layout, recs);
        keys.add(recs);
      }
      int continuations = 0;
      for (RunDescriptor x : d) {
        for (int b = 0; b < x.blockCount(); b++) {
          continuations += x.entriesStarting(b) == 0 ? 1 : 0;
        }
      }
      assertTrue(continuations > 0, "no large entry spans blocks; seed " + seed);
      check(d, keys, wholeRuns(d), seed);
      check(d, keys, someBlocksOfEachRun(d, r), seed);
    }
  }

  /**
   * A key that starts with {@link #COMMON}: short ones that are prefixes of each other, one of
   * exactly {@link #KEPT} bytes, longer ones whose first {@link #KEPT} bytes are all equal (the
   * footer cannot order them), and some larger than a block.
   */
  private static byte[] key(Random r, byte[] filler) {
    int shape = r.nextInt(100);
    byte[] tail;
    if (shape < 40) {
      byte[] alphabet = {0x00, 0x01, 0x7F, (byte) 0x80, (byte) 0xFF};
      tail = new byte[r.nextInt(5)];
      for (int i = 0; i < tail.length; i++) {
        tail[i] = alphabet[r.nextInt(alphabet.length)];
      }
    } else if (shape < 55) {
      tail = filler;
    } else if (shape < 97) {
      tail = Arrays.copyOf(filler, filler.length + 1 + r.nextInt(40));
      for (int i = filler.length; i < tail.length; i++) {
        tail[i] = (byte) r.nextInt(4);
      }
    } else {
      tail = new byte[5000 + r.nextInt(4000)];
      r.nextBytes(tail);
    }
    byte[] key = Arrays.copyOf(COMMON, COMMON.length + tail.length);
    System.arraycopy(tail, 0, key, COMMON.length, tail.length);
    return key;
  }

  private static int[][] wholeRuns(RunDescriptor[] d) {
    int[][] range = new int[2][d.length];
    for (int i = 0; i < d.length; i++) {
      range[1][i] = d[i].blockCount();
    }
    return range;
  }

  /** A range of blocks per run, starting at a block where an entry starts, as a merge part's. */
  private static int[][] someBlocksOfEachRun(RunDescriptor[] d, Random r) {
    int[][] range = new int[2][d.length];
    for (int i = 0; i < d.length; i++) {
      int from = r.nextInt(Math.max(1, d[i].blockCount() / 2));
      while (d[i].entriesStarting(from) == 0) {
        from--;
      }
      range[0][i] = from;
      range[1][i] = from + r.nextInt(d[i].blockCount() - from + 1); // may be empty
    }
    return range;
  }

  /**
   * Asserts that the schedule of blocks {@code range[0][r]} to {@code range[1][r]} is the merge's
   * consumption order, except that blocks whose first keys agree in all the {@link #KEPT} bytes a
   * footer keeps, and are longer, may come in either order.
   */
  private static void check(RunDescriptor[] d, List<byte[][]> keys, int[][] range, long seed) {
    String where = "seed " + SEED + " (-Djoule.test.seed), round seed " + seed;
    int[][] rank = mergeRanks(keys);
    // One row per block: {run, block, first-of-its-range ? 0 : 1, rank of the entry it waits for}.
    List<long[]> expected = new ArrayList<>();
    for (int r = 0; r < d.length; r++) {
      long waitsFor = -1;
      for (int b = range[0][r]; b < range[1][r]; b++) {
        if (b != range[0][r] && d[r].entriesStarting(b) > 0) {
          int first = (int) d[r].firstEntryOf(b);
          byte[] key = keys.get(r)[first];
          // The footer must describe the entry this test thinks starts the block.
          assertArrayEquals(
              Arrays.copyOf(key, Math.min(KEPT, key.length)), d[r].firstKey(b), where);
          assertEquals(key.length, d[r].firstKeyLength(b), where);
          waitsFor = rank[r][first];
        } // else the range's first block, or a large entry's next piece: as the block before
        expected.add(new long[] {r, b, b == range[0][r] ? 0 : 1, waitsFor});
      }
    }
    expected.sort(
        Comparator.<long[]>comparingLong(x -> x[2])
            .thenComparingLong(x -> x[3])
            .thenComparingLong(x -> x[0])
            .thenComparingLong(x -> x[1]));

    PrefetchSchedule s = PrefetchSchedule.of(d, range[0], range[1]);
    assertEquals(expected.size(), s.size(), where);
    int[][] position = new int[d.length][];
    for (int r = 0; r < d.length; r++) {
      position[r] = new int[d[r].blockCount()];
      Arrays.fill(position[r], -1);
    }
    for (int i = 0; i < expected.size(); i++) {
      long[] e = expected.get(i);
      position[(int) e[0]][(int) e[1]] = i;
    }
    long[][] got = new long[s.size()][];
    int[] wanted = new int[s.size()]; // where the expected order has the i-th scheduled block
    for (int i = 0; i < s.size(); i++) {
      int p = position[s.run(i)][s.block(i)];
      assertTrue(p >= 0, "block " + s.run(i) + "/" + s.block(i) + " scheduled; " + where);
      got[i] = expected.get(p);
      wanted[i] = p;
      position[s.run(i)][s.block(i)] = -1; // scheduled twice would fail above
    }
    byte[][] merged = merged(keys, rank);
    for (int i = 0; i < got.length; i++) {
      for (int j = i + 1; j < got.length; j++) {
        if (wanted[i] > wanted[j] && !indistinguishable(merged, got[i], got[j])) {
          throw new AssertionError(
              "schedule reads run/block "
                  + got[j][0]
                  + "/"
                  + got[j][1]
                  + " (merged at "
                  + got[j][3]
                  + ") after "
                  + got[i][0]
                  + "/"
                  + got[i][1]
                  + " (merged at "
                  + got[i][3]
                  + "); "
                  + where
                  + "; schedule "
                  + render(Arrays.asList(got))
                  + "; expected "
                  + render(expected));
        }
      }
    }
  }

  /** Both blocks wait for a key longer than what the footer keeps, and those bytes agree. */
  private static boolean indistinguishable(byte[][] merged, long[] x, long[] y) {
    if (x[2] == 0 || y[2] == 0 || x[3] < 0 || y[3] < 0) {
      return false;
    }
    byte[] a = merged[(int) x[3]];
    byte[] b = merged[(int) y[3]];
    return a.length > KEPT && b.length > KEPT && Arrays.equals(a, 0, KEPT, b, 0, KEPT);
  }

  /** The keys in merge order. */
  private static byte[][] merged(List<byte[][]> keys, int[][] rank) {
    int n = 0;
    for (int[] r : rank) {
      n += r.length;
    }
    byte[][] merged = new byte[n][];
    for (int r = 0; r < rank.length; r++) {
      for (int i = 0; i < rank[r].length; i++) {
        merged[rank[r][i]] = keys.get(r)[i];
      }
    }
    return merged;
  }

  /** {@code rank[r][i]}: where entry i of run r lands in the merge of all runs. */
  private static int[][] mergeRanks(List<byte[][]> keys) {
    List<int[]> all = new ArrayList<>();
    for (int r = 0; r < keys.size(); r++) {
      for (int i = 0; i < keys.get(r).length; i++) {
        all.add(new int[] {r, i});
      }
    }
    all.sort(
        (x, y) -> {
          int c = Arrays.compareUnsigned(keys.get(x[0])[x[1]], keys.get(y[0])[y[1]]);
          if (c == 0) {
            c = Integer.compare(x[0], y[0]);
          }
          return c != 0 ? c : Integer.compare(x[1], y[1]);
        });
    int[][] rank = new int[keys.size()][];
    for (int r = 0; r < keys.size(); r++) {
      rank[r] = new int[keys.get(r).length];
    }
    for (int p = 0; p < all.size(); p++) {
      rank[all.get(p)[0]][all.get(p)[1]] = p;
    }
    return rank;
  }

  private static String render(List<long[]> blocks) {
    StringBuilder b = new StringBuilder();
    for (long[] x : blocks) {
      b.append(x[0]).append('/').append(x[1]).append(' ');
    }
    return b.toString();
  }

  private RunDescriptor write(EntryLayout layout, byte[][] recs) throws IOException {
    Path p = dir.resolve("run-" + System.nanoTime());
    try (BlockPool pool = new BlockPool(2, BLOCK);
        BlockFile f = BlockFile.createNew(p, DirectIoPolicy.OFF, NoticeSink.IGNORE);
        RunWriter w = new RunWriter(f, layout, BLOCK, pool, 1, SortThreads.JOULE)) {
      for (byte[] rec : recs) {
        ByteBuffer e = ByteBuffer.allocate(layout.entryLength(rec.length, 0));
        e.put(layout.writeHeader(e, 0, rec.length, 0), rec);
        w.add(e.clear());
      }
      w.finish();
    }
    // The merge schedules from the descriptor it reads back from the footer.
    try (BlockFile f = BlockFile.openRead(p, DirectIoPolicy.OFF, NoticeSink.IGNORE)) {
      return RunReader.open(f, layout).descriptor();
    }
  }
}

package dev.joule.core.merge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.index.TieBreaker;
import dev.joule.testing.TestSeed;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The loser tree and the splitter over variable-length entries: keys that are prefixes of others,
 * zero bytes inside keys, empty keys, and a tie breaker that orders records with equal keys. The
 * reference is a stable sort of all (run, position) pairs by (key, tie breaker, run, position)
 * written with {@link Arrays#compareUnsigned}, independent of the merge code.
 */
class VariableEntryMergeTest {
  private static final long BASE_SEED = TestSeed.of(VariableEntryMergeTest.class, 0x7A41_E0E5L);

  /** Compares records descending, shorter first on a common prefix: unlike the keys' order. */
  private static final TieBreaker DESCENDING =
      (a, as, al, b, bs, bl) -> {
        int c = RecordIndex.compareBytes(b, bs, a, as, Math.min(al, bl));
        return c != 0 ? c : Integer.compare(al, bl);
      };

  /** k runs of entries; each run sorted by the reference order. */
  private static final class Runs {
    final EntryLayout layout;
    final TieBreaker tie;
    final byte[][][] keys;
    final byte[][][] records;
    final ByteBuffer[] bufs;

    Runs(
        EntryLayout layout,
        TieBreaker tie,
        byte[][][] keys,
        byte[][][] records,
        ByteBuffer[] bufs) {
      this.layout = layout;
      this.tie = tie;
      this.keys = keys;
      this.records = records;
      this.bufs = bufs;
    }

    Comparator<long[]> order() {
      return (x, y) -> {
        byte[] ka = keys[(int) x[0]][(int) x[1]];
        byte[] kb = keys[(int) y[0]][(int) y[1]];
        int c = Arrays.compareUnsigned(ka, kb);
        if (c == 0 && tie != null) {
          byte[] ra = records[(int) x[0]][(int) x[1]];
          byte[] rb = records[(int) y[0]][(int) y[1]];
          c = tie.compare(ByteBuffer.wrap(ra), 0, ra.length, ByteBuffer.wrap(rb), 0, rb.length);
        }
        return c != 0 ? c : Arrays.compare(x, y);
      };
    }

    long[][] reference() {
      List<long[]> all = new ArrayList<>();
      for (int r = 0; r < keys.length; r++) {
        for (int p = 0; p < keys[r].length; p++) {
          all.add(new long[] {r, p});
        }
      }
      all.sort(order());
      return all.toArray(new long[0][]);
    }
  }

  private static Runs runs(long seed, boolean withTie) {
    SplittableRandom r = new SplittableRandom(seed);
    int k = 1 + r.nextInt(7);
    EntryLayout layout = withTie ? EntryLayout.derived(0, 0) : EntryLayout.whole();
    TieBreaker tie = withTie ? DESCENDING : null;
    byte[][][] keys = new byte[k][][];
    byte[][][] records = new byte[k][][];
    ByteBuffer[] bufs = new ByteBuffer[k];
    for (int run = 0; run < k; run++) {
      int n = r.nextInt(60);
      byte[][] recs = new byte[n][];
      for (int i = 0; i < n; i++) {
        recs[i] = new byte[r.nextInt(14)];
        for (int j = 0; j < recs[i].length; j++) {
          recs[i][j] = (byte) (r.nextInt(3) == 0 ? 0 : r.nextInt(3)); // zeros and near ties
        }
      }
      byte[][] ks = new byte[n][];
      for (int i = 0; i < n; i++) {
        ks[i] = withTie ? Arrays.copyOf(recs[i], Math.min(1, recs[i].length)) : recs[i];
      }
      // sort the run by (key, tie), stably
      Integer[] idx = new Integer[n];
      for (int i = 0; i < n; i++) {
        idx[i] = i;
      }
      Arrays.sort(
          idx,
          (x, y) -> {
            int c = Arrays.compareUnsigned(ks[x], ks[y]);
            if (c == 0 && tie != null) {
              c =
                  tie.compare(
                      ByteBuffer.wrap(recs[x]),
                      0,
                      recs[x].length,
                      ByteBuffer.wrap(recs[y]),
                      0,
                      recs[y].length);
            }
            return c;
          });
      keys[run] = new byte[n][];
      records[run] = new byte[n][];
      int bytes = 0;
      for (int i = 0; i < n; i++) {
        keys[run][i] = ks[idx[i]];
        records[run][i] = recs[idx[i]];
        bytes += layout.entryLength(recs[idx[i]].length, ks[idx[i]].length);
      }
      int base = r.nextInt(5); // a run need not start at index 0 of its buffer
      ByteBuffer b = ByteBuffer.allocate(base + bytes);
      int at = base;
      for (int i = 0; i < n; i++) {
        int p = layout.writeHeader(b, at, records[run][i].length, keys[run][i].length);
        if (withTie) {
          b.put(p, keys[run][i]);
          p += keys[run][i].length;
        }
        b.put(p, records[run][i]);
        at += layout.entryLength(records[run][i].length, keys[run][i].length);
      }
      bufs[run] = b.position(base);
    }
    return new Runs(layout, tie, keys, records, bufs);
  }

  @Test
  void treeMergesVariableEntriesInReferenceOrder() {
    for (int i = 0; i < 300; i++) {
      long seed = BASE_SEED + i;
      Runs f = runs(seed, i % 2 == 1);
      RunCursor[] cursors = new RunCursor[f.bufs.length];
      for (int r = 0; r < cursors.length; r++) {
        cursors[r] = new ByteBufferRunCursor(f.bufs[r].duplicate(), f.layout);
      }
      long[][] expected = f.reference();
      TournamentTree tree = new TournamentTree(f.tie, cursors);
      int n = 0;
      int run;
      while ((run = tree.nextRun()) >= 0) {
        RunCursor c = tree.current();
        long[] want = expected[n++];
        byte[] rec = new byte[c.recordLength()];
        c.buffer().get(c.recordPosition(), rec);
        assertArrayEquals(
            f.records[(int) want[0]][(int) want[1]],
            rec,
            "seed " + seed + ": output " + (n - 1) + " from run " + run);
      }
      assertEquals(expected.length, n, "seed " + seed);
    }
  }

  @Test
  void splitterCutsMatchTheReferenceAtEveryRank() {
    for (int i = 0; i < 200; i++) {
      long seed = BASE_SEED + 1000 + i;
      Runs f = runs(seed, i % 2 == 1);
      SortedRunView[] views = new SortedRunView[f.bufs.length];
      for (int r = 0; r < views.length; r++) {
        views[r] = new ByteBufferRunView(f.bufs[r].duplicate(), f.layout, f.tie);
      }
      long[][] ref = f.reference();
      for (int rank = 0; rank <= ref.length; rank++) {
        long[] cut = new long[views.length];
        for (int j = 0; j < rank; j++) {
          cut[(int) ref[j][0]]++;
        }
        assertArrayEquals(
            cut, MergeSplitter.cutsAtRank(views, rank), "seed " + seed + " rank " + rank);
      }
    }
  }
}

package dev.joule.io.prefetch;

import dev.joule.io.run.RunDescriptor;
import java.util.Arrays;

/**
 * The order in which a merge will need the blocks of its runs: STXXL's prefetch schedule. Block b
 * of run r is needed when the merge output reaches (about) the first key of that block, so the
 * blocks of all runs sorted by their first key in the merge's key order ({@link
 * RunDescriptor#compareFirstKeys}), ties by run then block, is the consumption order up to equal
 * keys (which the merge may break on the records) and to the gap between a block's first key and
 * its predecessor's last key. All the bytes the run footer keeps of a first key count, not only an
 * 8-byte prefix: keys that share their first bytes (dates, tenant ids, padded strings) would
 * otherwise all tie, the schedule would fall back to run order, and the merge would read the other
 * runs' blocks itself. Only keys longer than the 64 bytes kept that agree in those still tie. The
 * first block of every run's range is needed at once and comes first; a block that continues a
 * large entry is needed with the entry's first piece, so it takes that piece's key. {@link
 * BlockPrefetcher} tolerates a wrong guess (the merge then reads the block itself), so an
 * approximate order costs only overlap, never progress.
 *
 * <p>Algorithm: one sort of {@code B} blocks, O(B log B) comparisons of at most 64 key bytes each;
 * a comparison does not allocate. Memory: four arrays of B entries while sorting, two kept.
 * Immutable and thread-safe.
 */
public final class PrefetchSchedule {
  /** The trigger of a block needed as soon as the merge starts: before every key. */
  private static final int NOW = -1;

  private final int[] runs;
  private final int[] blocks;

  private PrefetchSchedule(int[] runs, int[] blocks) {
    this.runs = runs;
    this.blocks = blocks;
  }

  /**
   * The schedule of blocks {@code [fromBlock[r], toBlock[r])} of each run {@code r}.
   *
   * @param descriptors the runs, in run order
   */
  public static PrefetchSchedule of(RunDescriptor[] descriptors, int[] fromBlock, int[] toBlock) {
    int total = 0;
    for (int r = 0; r < descriptors.length; r++) {
      total += Math.max(0, toBlock[r] - fromBlock[r]);
    }
    // trigger[i]: the index of the block whose first key says when block i is needed, or NOW.
    int[] trigger = new int[total];
    int[] run = new int[total];
    int[] block = new int[total];
    Integer[] order = new Integer[total];
    int i = 0;
    for (int r = 0; r < descriptors.length; r++) {
      for (int b = fromBlock[r]; b < toBlock[r]; b++, i++) {
        // The range's first block is needed before the first record is merged.
        if (b == fromBlock[r]) {
          trigger[i] = NOW;
        } else if (descriptors[r].entriesStarting(b) == 0) {
          trigger[i] = trigger[i - 1]; // a large entry's next piece: needed with its first
        } else {
          trigger[i] = i;
        }
        run[i] = r;
        block[i] = b;
        order[i] = i;
      }
    }
    Arrays.sort(
        order,
        (x, y) -> {
          boolean fx = block[x] == fromBlock[run[x]];
          boolean fy = block[y] == fromBlock[run[y]];
          if (fx != fy) {
            return fx ? -1 : 1;
          }
          int tx = trigger[x];
          int ty = trigger[y];
          int c;
          if (tx == ty) {
            c = 0;
          } else if (tx == NOW || ty == NOW) {
            c = tx == NOW ? -1 : 1;
          } else {
            c = descriptors[run[tx]].compareFirstKeys(block[tx], descriptors[run[ty]], block[ty]);
          }
          if (c == 0) {
            c = Integer.compare(run[x], run[y]);
          }
          return c != 0 ? c : Integer.compare(block[x], block[y]);
        });
    int[] rs = new int[total];
    int[] bs = new int[total];
    for (int k = 0; k < total; k++) {
      rs[k] = run[order[k]];
      bs[k] = block[order[k]];
    }
    return new PrefetchSchedule(rs, bs);
  }

  /** Number of blocks scheduled. */
  public int size() {
    return runs.length;
  }

  /** The run of the {@code i}-th block to read. */
  public int run(int i) {
    return runs[i];
  }

  /** The block number (within its run) of the {@code i}-th block to read. */
  public int block(int i) {
    return blocks[i];
  }
}

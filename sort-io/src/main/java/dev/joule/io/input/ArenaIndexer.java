package dev.joule.io.input;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.index.TieBreaker;
import dev.joule.core.memory.ArenaView;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.valsort.RecordChecksum;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;

/**
 * The second half of the input stage: indexes one filled arena for the run sorter and takes the
 * valsort checksum of its records, both in one parallel pass ({@link #checksumAndIndex}). The
 * checksum describes the input (it is taken before sorting), and the sort's self-validation later
 * compares the output against it.
 *
 * <p>Algorithm: the arena's records are cut into tasks of {@link #CHECKSUM_GRAIN} records on the
 * caller's ForkJoin pool; each task checksums {@link #FUSED_STEP} records and then indexes the same
 * cache-resident records, so the arena is read from memory once. Stateless and thread-safe; the
 * arena, index and pool are the caller's.
 */
public final class ArenaIndexer {
  /** Records per task: 32768 × 100 B = 3.2 MB, about 1 ms of CRC work per fork. */
  public static final int CHECKSUM_GRAIN = 1 << 15;

  /**
   * Records per step of {@link #checksumAndIndex}: the CRC reads 1024 records (100 KB, within L2)
   * and the index entries are then taken from the same cache-resident bytes, so the arena is read
   * from memory once instead of twice.
   */
  static final int FUSED_STEP = 1 << 10;

  private ArenaIndexer() {}

  /** The valsort checksum of the whole records in {@code arena}, in parallel on {@code pool}. */
  public static RecordChecksum checksum(ArenaView arena, int recordSize, ForkJoinPool pool) {
    List<ForkJoinTask<RecordChecksum>> tasks = new ArrayList<>();
    for (int s = 0; s < arena.slabCount(); s++) {
      ByteBuffer slab = arena.slab(s);
      int n = arena.filled(s) / recordSize;
      for (int from = 0; from < n; from += CHECKSUM_GRAIN) {
        int first = from;
        int count = Math.min(CHECKSUM_GRAIN, n - from);
        tasks.add(
            pool.submit(
                () -> {
                  RecordChecksum c = new RecordChecksum();
                  c.addRecords(slab, first * recordSize, count, recordSize);
                  return c;
                }));
      }
    }
    return sum(tasks);
  }

  /**
   * Builds {@code index} over {@code arena} ({@link RecordIndex#prepare}, then {@link
   * RecordIndex#fill} of disjoint ranges) and returns the valsort checksum of its records, in one
   * parallel pass on {@code pool}. The index's record count is {@link RecordIndex#size()}.
   */
  public static RecordChecksum checksumAndIndex(
      ArenaView arena, RecordIndex index, FixedLengthFormat format, ForkJoinPool pool) {
    return checksumAndIndex(arena, index, EntryLayout.of(format), null, pool);
  }

  /**
   * {@link #checksumAndIndex(ArenaView, RecordIndex, FixedLengthFormat, ForkJoinPool)} for fixed
   * records whose key is {@code layout}'s byte range, equal keys ordered by {@code tie} (or null).
   */
  public static RecordChecksum checksumAndIndex(
      ArenaView arena, RecordIndex index, EntryLayout layout, TieBreaker tie, ForkJoinPool pool) {
    RecordChecksum sum = new RecordChecksum();
    for (RecordChecksum c : checksumAndIndexBySlab(arena, index, layout, tie, sum, pool)) {
      sum.add(c);
    }
    return sum;
  }

  /**
   * {@link #checksumAndIndex(ArenaView, RecordIndex, EntryLayout, TieBreaker, ForkJoinPool)} with
   * the sums taken slab by slab in {@code kind}'s kind (a session checks itself with CRC-32C,
   * {@link RecordChecksum#castagnoli()}; a chunk written as two runs gives each its slabs' sums),
   * or only the index built when {@code kind} is null (no validation). Returns the sum of each
   * slab's records, or null when not taken.
   */
  public static RecordChecksum[] checksumAndIndexBySlab(
      ArenaView arena,
      RecordIndex index,
      EntryLayout layout,
      TieBreaker tie,
      RecordChecksum kind,
      ForkJoinPool pool) {
    int recordSize = layout.fixedEntrySize();
    index.prepare(arena, layout, tie);
    List<ForkJoinTask<RecordChecksum>> tasks = new ArrayList<>();
    // slab s has the tasks [firstTask[s], firstTask[s + 1]): they are made slab by slab
    int[] firstTask = new int[arena.slabCount() + 1];
    int at = 0;
    for (int s = 0; s < arena.slabCount(); s++) {
      firstTask[s] = tasks.size();
      ByteBuffer slab = arena.slab(s);
      int slabNo = s;
      int n = arena.filled(s) / recordSize;
      for (int from = 0; from < n; from += CHECKSUM_GRAIN) {
        int first = from;
        int count = Math.min(CHECKSUM_GRAIN, n - from);
        int entry = at + from;
        tasks.add(
            pool.submit(
                () -> {
                  if (kind == null) {
                    index.fill(slabNo, first, count, entry);
                    return null;
                  }
                  RecordChecksum c = kind.emptyOfSameKind();
                  for (int r = 0; r < count; r += FUSED_STEP) {
                    int m = Math.min(FUSED_STEP, count - r);
                    c.addRecords(slab, (first + r) * recordSize, m, recordSize);
                    index.fill(slabNo, first + r, m, entry + r);
                  }
                  return c;
                }));
      }
      at += n;
    }
    firstTask[arena.slabCount()] = tasks.size();
    RecordChecksum[] sums = kind == null ? null : new RecordChecksum[arena.slabCount()];
    for (int s = 0; s < arena.slabCount(); s++) {
      RecordChecksum sum = kind == null ? null : kind.emptyOfSameKind();
      for (int t = firstTask[s]; t < firstTask[s + 1]; t++) {
        RecordChecksum c = tasks.get(t).join(); // join also publishes the task's index entries
        if (sum != null) {
          sum.add(c);
        }
      }
      if (sums != null) {
        sums[s] = sum;
      }
    }
    return sums;
  }

  private static RecordChecksum sum(List<ForkJoinTask<RecordChecksum>> tasks) {
    RecordChecksum sum = new RecordChecksum();
    for (ForkJoinTask<RecordChecksum> t : tasks) {
      sum.add(t.join());
    }
    return sum;
  }
}

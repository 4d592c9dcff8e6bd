package dev.joule.io.pipeline;

import dev.joule.core.memory.ArenaView;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.RecordIndex;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.block.BlockReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;

/**
 * Reads input straight into a {@link RecordArena}: the arena's aligned windows are the {@link
 * BlockReader}'s destination buffers, so there is no copy between the read and the sort. Also sizes
 * arena slabs so that records never straddle two slabs, and takes the valsort checksum of a filled
 * arena in parallel.
 *
 * <p>Stateless; the reader and arena are the caller's.
 */
final class ArenaFiller {
  /** Records per checksum task: 32768 × 100 B = 3.2 MB, ~1 ms of CRC work per fork. */
  static final int CHECKSUM_GRAIN = 1 << 15;

  /**
   * Records per step of {@link #checksumAndIndex}: the CRC reads 1024 records (100 KB, within L2)
   * and the index entries are then taken from the same cache-resident bytes, so the arena is read
   * from memory once instead of twice.
   */
  static final int FUSED_STEP = 1 << 10;

  private ArenaFiller() {}

  /** One destination window: a slice of slab {@code slab} at {@code offset}. */
  record Window(int slab, int offset, ByteBuffer buffer) {}

  /**
   * Slab size for an arena of {@code capacity} bytes of {@code recordSize}-byte records: one slab
   * when it fits 1 GiB, else the largest multiple of lcm(recordSize, 4096) below 1 GiB, so full
   * slabs hold whole records and start aligned.
   */
  static int slabBytes(long capacity, int recordSize) {
    long aligned =
        Math.max(
            RecordArena.ALIGNMENT,
            (capacity + RecordArena.ALIGNMENT - 1) / RecordArena.ALIGNMENT * RecordArena.ALIGNMENT);
    if (aligned <= RecordArena.MAX_SLAB_BYTES) {
      return (int) aligned;
    }
    long lcm = recordSize * SortPlan.alignQuantum(recordSize);
    if (lcm > RecordArena.MAX_SLAB_BYTES) {
      throw new IllegalArgumentException(
          "record size " + recordSize + " too large for a multi-slab arena");
    }
    return (int) (RecordArena.MAX_SLAB_BYTES / lcm * lcm);
  }

  /** Windows of at most {@code transfer} bytes covering the first {@code bytes} of the arena. */
  static List<Window> windows(RecordArena arena, long bytes, int transfer) {
    List<Window> out = new ArrayList<>();
    long left = bytes;
    for (int s = 0; s < arena.slabCount() && left > 0; s++) {
      int inSlab = (int) Math.min(left, arena.slabCapacity(s));
      for (int off = 0; off < inSlab; off += transfer) {
        int len = Math.min(transfer, inSlab - off);
        out.add(new Window(s, off, arena.writableWindow(s, off, len)));
      }
      left -= inSlab;
    }
    return out;
  }

  /** Submits every window to {@code reader} (which must allow that many in flight). */
  static void submit(BlockReader reader, List<Window> windows) throws IOException {
    for (Window w : windows) {
      reader.submit(w.buffer());
    }
  }

  /**
   * Takes the windows back filled, marks the arena's slabs filled and returns the bytes read. The
   * arena must have been cleared before the windows were submitted.
   */
  static long take(BlockReader reader, RecordArena arena, List<Window> windows) throws IOException {
    long total = 0;
    for (Window w : windows) {
      ByteBuffer b = reader.take();
      if (b != w.buffer()) {
        throw new IllegalStateException("reader returned buffers out of order");
      }
      int got = b.limit() - b.position();
      total += got;
      if (got > 0) {
        arena.setFilled(w.slab(), Math.max(arena.filled(w.slab()), w.offset() + got));
      }
    }
    return total;
  }

  /** The valsort checksum of the whole records in {@code arena}, in parallel on {@code pool}. */
  static RecordChecksum checksum(ArenaView arena, int recordSize, ForkJoinPool pool) {
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
    RecordChecksum sum = new RecordChecksum();
    for (ForkJoinTask<RecordChecksum> t : tasks) {
      sum.add(t.join());
    }
    return sum;
  }

  /**
   * Builds {@code index} over {@code arena} ({@link RecordIndex#prepare}, then {@link
   * RecordIndex#fill} of disjoint ranges) and returns the valsort checksum of its records, both in
   * one parallel pass on {@code pool}: each task checksums a step of records and indexes them while
   * they are in cache. Replaces a serial {@link RecordIndex#build} on the caller's thread plus a
   * separate checksum pass. The index's record count is {@link RecordIndex#size()}.
   */
  static RecordChecksum checksumAndIndex(
      ArenaView arena, RecordIndex index, FixedLengthFormat format, ForkJoinPool pool) {
    int recordSize = format.recordSize();
    index.prepare(arena, format);
    List<ForkJoinTask<RecordChecksum>> tasks = new ArrayList<>();
    int at = 0;
    for (int s = 0; s < arena.slabCount(); s++) {
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
                  RecordChecksum c = new RecordChecksum();
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
    RecordChecksum sum = new RecordChecksum();
    for (ForkJoinTask<RecordChecksum> t : tasks) {
      sum.add(t.join()); // join publishes the task's index entries to this thread
    }
    return sum;
  }
}

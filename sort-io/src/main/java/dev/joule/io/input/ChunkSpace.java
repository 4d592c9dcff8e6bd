package dev.joule.io.input;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.RecordArena;
import java.nio.ByteBuffer;

/**
 * The room of one chunk as parse threads share it ({@link ParallelFill}): regions of the arena,
 * claimed front to back slab by slab, and blocks of slots in the index's alternate bank, claimed in
 * order. A thread writes its entries into its own regions and their index words into its own
 * blocks, so the threads share nothing but these two counters, taken once per region or block.
 *
 * <p>A region is {@link #regionBytes} (a 64th of the arena, at most 4 MiB) or the entry that asks
 * for it, if larger; a claim that does not fit what is left of a slab moves to the next slab. The
 * end of a region that an entry did not fit, and what a thread that ran out of input leaves of its
 * region and block, come back as spares ({@link #giveBack}), which claims take first (regions: the
 * smallest that holds the entry); so the threads leave about as little of an arena unused as one
 * thread does.
 *
 * <p>Thread-safe: claims are synchronized; one per region or block of {@link #SLOTS} slots.
 */
final class ChunkSpace {
  /** Slots per index block. */
  static final int SLOTS = 1024;

  /**
   * Regions per arena: an arena of 64 MiB has 1 MiB regions, so that a claim (a lock) comes once
   * per thousands of lines, and a thread that stops leaves at most a 64th of the arena to others.
   */
  private static final int REGIONS = 64;

  private static final int MAX_REGION = 4 << 20;

  /** The smallest end of a region worth claiming again: a few short lines. */
  private static final int MIN_SPARE = 32;

  private final RecordArena arena;
  private final int regionBytes;
  private final int slotCapacity;
  private final int[] filled;
  private int slab;
  private int next; // the next free byte of slab `slab`
  private int nextSlot;
  private volatile boolean stopped;
  private final java.util.List<int[]> spareRegions = new java.util.ArrayList<>();
  private final java.util.List<Long> spareSlots = new java.util.ArrayList<>();

  /** The room of an empty {@code arena} and {@code index}. */
  ChunkSpace(RecordArena arena, RecordIndex index) {
    this.arena = arena;
    long r = Math.min(MAX_REGION, arena.capacity() / REGIONS);
    this.regionBytes = (int) Math.max(1, r);
    this.slotCapacity = index.capacity();
    this.filled = new int[arena.slabCount()];
  }

  /** The largest region a claim can get: the largest slab. */
  int largestRegion() {
    int max = 0;
    for (int s = 0; s < arena.slabCount(); s++) {
      max = Math.max(max, arena.slabCapacity(s));
    }
    return max;
  }

  /**
   * Claims a region for at least {@code need} bytes into {@code out}: its slab, start and length;
   * false if the arena has no such room left.
   */
  synchronized boolean claimRegion(int need, int[] out) {
    int best = -1; // the smallest spare that holds it, so that large ones stay for large entries
    for (int i = 0; i < spareRegions.size(); i++) {
      int[] r = spareRegions.get(i);
      if (r[2] >= need && (best < 0 || r[2] < spareRegions.get(best)[2])) {
        best = i;
      }
    }
    if (best >= 0) {
      System.arraycopy(spareRegions.remove(best), 0, out, 0, 3);
      return true;
    }
    while (slab < arena.slabCount()) {
      int cap = arena.slabCapacity(slab);
      if (cap - next >= need) {
        int length = Math.min(cap - next, Math.max(need, regionBytes));
        out[0] = slab;
        out[1] = next;
        out[2] = length;
        next += length; // packed, as one thread packs its entries
        return true;
      }
      slab++;
      next = 0;
    }
    return false;
  }

  /** A block of free index slots: {@code start << 32 | count}, or -1 if the index is full. */
  synchronized long claimSlots() {
    if (!spareSlots.isEmpty()) {
      return spareSlots.remove(spareSlots.size() - 1);
    }
    int left = slotCapacity - nextSlot;
    if (left <= 0) {
      return -1;
    }
    int n = Math.min(SLOTS, left);
    long b = (long) nextSlot << 32 | n;
    nextSlot += n;
    return b;
  }

  /**
   * Takes back what a thread leaves of a region ({@code length} bytes at {@code start} of slab
   * {@code s}: the end its next entry did not fit, or all it did not use once the input ran out)
   * and of its block of slots ({@code count} at {@code from}, once the input ran out), for any
   * thread to claim. Regions would otherwise leave gaps of up to an entry each: with lines of up to
   * kilobytes, a one-pass arena that one thread fills held 18 % fewer lines on two.
   */
  synchronized void giveBack(int s, int start, int length, int from, int count) {
    if (length >= MIN_SPARE) {
      spareRegions.add(new int[] {s, start, length});
    }
    if (count > 0) {
      spareSlots.add((long) from << 32 | count);
    }
  }

  /**
   * Tells every thread to stop at its next span or region, as one of them failed: the others would
   * otherwise go on until the arena is full, a gigabyte in a one-pass sort, before the failure is
   * reported.
   */
  void stop() {
    stopped = true;
  }

  /** Whether a thread failed ({@link #stop}). */
  boolean stopped() {
    return stopped;
  }

  /** A writable view of slab {@code s} of its own for the calling thread. */
  ByteBuffer window(int s) {
    return arena.writableWindow(s, 0, arena.slabCapacity(s));
  }

  /** Records that entries were written up to {@code end} of slab {@code s}. */
  synchronized void filled(int s, int end) {
    filled[s] = Math.max(filled[s], end);
  }

  /** Sets the arena's filled bytes per slab to what the threads wrote. */
  synchronized void publish() {
    for (int s = 0; s < filled.length; s++) {
      arena.setFilled(s, filled[s]);
    }
  }
}

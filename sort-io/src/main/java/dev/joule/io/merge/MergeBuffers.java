package dev.joule.io.merge;

import dev.joule.core.memory.DirectRegion;
import dev.joule.io.block.BlockPool;
import dev.joule.io.memory.ArenaMemory;
import dev.joule.io.memory.MemoryMeter;
import dev.joule.io.memory.Resources;
import dev.joule.io.plan.SortPlan;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The memory of a sort's merges: every pool is carved from idle arenas that are lent to the merges
 * ({@link ArenaMemory}: run formation's, or a session's chunks) as far as they hold it, the rest
 * allocated fresh and counted. The arenas stay counted, so only fresh buffers add to what the sort
 * holds; spare buffers (beyond a merge's least) are fresh only when nothing is lent, within what
 * the budget has left.
 *
 * <p>Thread-safe as {@link ArenaMemory} is; pools are made on the thread that starts a merge.
 */
public final class MergeBuffers {
  private final SortPlan plan;
  private final long budget;
  private final MemoryMeter meter;
  private final ArenaMemory lent; // may be null: allocate fresh pools

  /** Buffers for merges under {@code plan} within {@code budget}, carved from {@code lent}. */
  public MergeBuffers(SortPlan plan, long budget, MemoryMeter meter, ArenaMemory lent) {
    this.plan = plan;
    this.budget = budget;
    this.meter = meter;
    this.lent = lent;
  }

  /** The meter every fresh buffer is counted in. */
  MemoryMeter meter() {
    return meter;
  }

  /**
   * A pool of {@code count} buffers of {@code size} bytes, registered in {@code res}: as many as
   * the lent arenas still hold carved from them (their memory is counted already), the rest
   * allocated fresh and counted.
   */
  BlockPool newPool(Resources res, int count, int size) {
    List<ByteBuffer> carved = lent == null ? List.of() : lent.carve(count, size);
    if (carved.size() == count) {
      return res.add(BlockPool.over(carved, size));
    }
    BlockPool fresh = res.pool(count - carved.size(), size);
    if (carved.isEmpty()) {
      return fresh;
    }
    List<ByteBuffer> taken = new ArrayList<>(fresh.capacity());
    for (int i = 0; i < fresh.capacity(); i++) {
      taken.add(fresh.tryAcquire());
    }
    // Closed in reverse order: the joint pool (all its buffers back), then the fresh ones go home
    // before their own pool closes.
    res.add((AutoCloseable) () -> taken.forEach(fresh::release));
    List<ByteBuffer> all = new ArrayList<>(carved);
    all.addAll(taken);
    return res.add(BlockPool.over(all, size));
  }

  /**
   * The read pool of a streaming final merge of {@code k} runs (a session's cursor), registered in
   * {@code res}: its least, k + 1 buffers, and up to 2k as the spare buffers allow ({@link
   * #spareBuffers}), carved from the lent arenas first like every merge's.
   */
  public BlockPool streamingPool(Resources res, int k) {
    int size = plan.tempTransfer();
    int count = (int) Math.max(k + 1L, Math.min(2L * k, spareBuffers(size)));
    return newPool(res, count, size);
  }

  /** What the budget has left beside what the sort holds now (lent arenas included). */
  long room() {
    return budget - meter.current();
  }

  /**
   * Buffers of {@code size} bytes that merges may share out beyond their least: with lent arenas
   * the windows left in them, else as many fresh ones as the room left holds. Why not fresh ones
   * beside the arenas: their pages are new to the process, while the heap the indexes left stays
   * resident, so the process would outgrow its budget in resident memory (MemoryBoundTest); a merge
   * takes fresh memory only for what its least needs beyond the arenas.
   */
  long spareBuffers(int size) {
    if (lent != null) {
      return lent.windowsLeft(size);
    }
    return Math.max(0, room()) / DirectRegion.bytesFor(1, size);
  }

  /**
   * How many buffers of each request the lent arenas would give ({@link ArenaMemory#wouldCarve}),
   * none without lent arenas.
   */
  int[] wouldCarve(int[] counts, int[] sizes) {
    return lent == null ? new int[counts.length] : lent.wouldCarve(counts, sizes);
  }

  /** Whether arenas are lent (fresh memory is then taken only for a merge's least). */
  boolean lending() {
    return lent != null;
  }

  /** Makes the lent arenas whole again once no merge holds a pool carved from them. */
  void resetLent() {
    if (lent != null) {
      lent.reset();
    }
  }
}

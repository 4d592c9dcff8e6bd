package dev.joule.io.memory;

import dev.joule.core.memory.RecordArena;
import dev.joule.io.block.BlockPool;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Lends the memory of run formation's arenas to the merge as {@link BlockPool}s ({@link
 * BlockPool#over}): the arenas are idle once the runs are written, their pages are already touched,
 * and on these VMs every freshly touched 4 KiB page costs 3–7 µs of kernel time (docs/design.md,
 * D5), about 0.2 s per 160 MB of merge buffers. The arenas stay counted against the budget, so a
 * carved buffer costs nothing more; what a merge cannot carve it allocates fresh beside them,
 * within what the budget has left.
 *
 * <p>Algorithm: a bump allocator over the arenas' slabs in 4096-aligned windows; {@link #reset()}
 * (after a merge has closed its pools) makes all of it available again. {@link #carve} lends as
 * many windows as are left; {@link #pool} all or none (null). Thread-safe. The arenas are borrowed
 * and must outlive the pools.
 */
public final class ArenaMemory {
  private final RecordArena[] arenas;
  private int arena;
  private int slab;
  private int offset;

  /** Lends the memory of {@code arenas}, which the caller keeps owning. */
  public ArenaMemory(RecordArena... arenas) {
    this.arenas = arenas.clone();
  }

  /**
   * How many more buffers of {@code size} bytes can be carved from where carving stands: whole
   * windows per slab, so that a caller who sizes several pools of this size by it knows they will
   * all be carved, none allocated fresh beside the arenas.
   */
  public synchronized long windowsLeft(int size) {
    return take(new int[] {arena, slab, offset}, Integer.MAX_VALUE, size, null);
  }

  /**
   * How many buffers of each request ({@code counts[i]} of {@code sizes[i]} bytes, carved in this
   * order from where carving stands) {@link #carve} would lend; nothing is carved.
   */
  public synchronized int[] wouldCarve(int[] counts, int[] sizes) {
    int[] at = {arena, slab, offset};
    int[] carved = new int[counts.length];
    for (int i = 0; i < counts.length; i++) {
      carved[i] = (int) take(at, counts[i], sizes[i], null);
    }
    return carved;
  }

  /**
   * Up to {@code count} windows of {@code size} bytes carved from the arenas (fewer, possibly none,
   * when they run out), 4096-aligned; the caller gives them back by {@link #reset()} once it no
   * longer uses them.
   */
  public synchronized List<ByteBuffer> carve(int count, int size) {
    List<ByteBuffer> buffers = new ArrayList<>(Math.min(count, 1024));
    int[] at = {arena, slab, offset};
    take(at, count, size, buffers);
    arena = at[0];
    slab = at[1];
    offset = at[2];
    return buffers;
  }

  /** A pool of {@code count} buffers of {@code size} bytes carved from the arenas, or null. */
  public synchronized BlockPool pool(int count, int size) {
    if (take(new int[] {arena, slab, offset}, count, size, null) < count) {
      return null;
    }
    return BlockPool.over(carve(count, size), size);
  }

  /**
   * Walks up to {@code count} windows of {@code size} bytes from position {@code at} ({arena, slab,
   * offset}), advancing it; adds each to {@code sink} if not null; returns how many it found.
   */
  private long take(int[] at, long count, int size, List<ByteBuffer> sink) {
    long n = 0;
    while (n < count) {
      if (at[0] >= arenas.length) {
        break;
      }
      RecordArena ra = arenas[at[0]];
      if (at[1] >= ra.allocatedSlabs()) {
        at[0]++;
        at[1] = 0;
        at[2] = 0;
        continue;
      }
      if (at[2] + size > ra.slabCapacity(at[1])) {
        at[1]++;
        at[2] = 0;
        continue;
      }
      if (sink != null) {
        sink.add(ra.writableWindow(at[1], at[2], size));
      }
      at[2] += size;
      n++;
    }
    return n;
  }

  /**
   * How many slabs of arena {@code i} (in constructor order) hold a window carved since the last
   * {@link #reset()}: the slabs from there on are untouched by carving, and an owner may give them
   * back while the pools live.
   */
  public synchronized int slabsInUse(int i) {
    if (i < arena) {
      return arenas[i].allocatedSlabs();
    }
    if (i > arena) {
      return 0;
    }
    return slab + (offset > 0 ? 1 : 0);
  }

  /** Makes all the arenas' memory available again; every pool carved so far must be closed. */
  public synchronized void reset() {
    arena = 0;
    slab = 0;
    offset = 0;
  }
}

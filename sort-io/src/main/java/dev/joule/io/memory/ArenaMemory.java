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
 * D5), about 0.2 s per 160 MB of merge buffers. The merge therefore allocates nothing new and the
 * sort's peak memory is run formation's.
 *
 * <p>Algorithm: a bump allocator over the arenas' slabs in 4096-aligned windows; {@link #reset()}
 * (after a merge has closed its pools) makes all of it available again. A request that does not fit
 * returns {@code null} and the caller allocates fresh memory. Thread-safe (parts of a parallel
 * merge carve their pools concurrently). The arenas are borrowed and must outlive the pools.
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

  /** Bytes the arenas can lend (their total capacity). */
  public long capacity() {
    long c = 0;
    for (RecordArena a : arenas) {
      c += a.capacity();
    }
    return c;
  }

  /**
   * How many buffers of {@code size} bytes the arenas can lend at once: whole windows per slab, so
   * that a caller who sizes several pools by it knows they will all be carved, none allocated fresh
   * on top of the arenas.
   */
  public long buffers(int size) {
    long n = 0;
    for (RecordArena a : arenas) {
      for (int s = 0; s < a.slabCount(); s++) {
        n += a.slabCapacity(s) / size;
      }
    }
    return n;
  }

  /** A pool of {@code count} buffers of {@code size} bytes carved from the arenas, or null. */
  public synchronized BlockPool pool(int count, int size) {
    int a = arena;
    int s = slab;
    int o = offset;
    List<ByteBuffer> buffers = new ArrayList<>(count);
    while (buffers.size() < count) {
      if (a >= arenas.length) {
        return null;
      }
      RecordArena ra = arenas[a];
      if (s >= ra.slabCount()) {
        a++;
        s = 0;
        o = 0;
        continue;
      }
      if (o + size > ra.slabCapacity(s)) {
        s++;
        o = 0;
        continue;
      }
      buffers.add(ra.writableWindow(s, o, size));
      o += size;
    }
    arena = a;
    slab = s;
    offset = o;
    return BlockPool.over(buffers, size);
  }

  /** Makes all the arenas' memory available again; every pool carved so far must be closed. */
  public synchronized void reset() {
    arena = 0;
    slab = 0;
    offset = 0;
  }
}

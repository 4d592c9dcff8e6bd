package dev.joule.core.memory;

import java.nio.ByteBuffer;

/**
 * A borrowed, read-only view of a {@link RecordArena}: what the index builder, sorter and gatherer
 * read records through. It has no {@code close()}; it dies with its arena, after which every method
 * throws {@link IllegalStateException}.
 *
 * <p>Thread-safe for concurrent reads; the buffers it returns are shared, so callers use absolute
 * accessors only and never change their position or limit.
 */
public final class ArenaView {
  private final RecordArena arena;

  ArenaView(RecordArena arena) {
    this.arena = arena;
  }

  /**
   * Number of slabs that exist: all of them, or of an arena made by {@code reserve} the ones
   * allocated so far (the others hold nothing a reader could see).
   */
  public int slabCount() {
    return arena.allocatedSlabs();
  }

  /** Bytes of slab {@code slab} that hold data. */
  public int filled(int slab) {
    return arena.filled(slab);
  }

  /**
   * The read-only, big-endian buffer of slab {@code slab} (shared, not a copy; use absolute
   * accessors only). Does not allocate.
   */
  public ByteBuffer slab(int slab) {
    return arena.reader(slab);
  }

  @Override
  public String toString() {
    return "view of " + arena;
  }
}

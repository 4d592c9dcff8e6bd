package dev.joule.bench.radix;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.RecordArena;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Heap records and their stored keys written as DERIVED entries ({@link EntryLayout}: header, key,
 * record) into an arena and indexed in input order, the way the engine's input stage lays them out;
 * for the benchmarks of variable-length records and typed keys (not timed). Caller owns it: {@link
 * #close()} frees the arena.
 */
final class EntryArena implements AutoCloseable {
  /** The filled arena. */
  final RecordArena arena;

  /** The index of every entry in input order, unsorted. */
  final RecordIndex index;

  /**
   * Address of entry {@code i} (slab and offset, as in a ref word's {@link
   * RecordIndex#ADDRESS_MASK} bits): strictly increasing, so the input ordinal of a sorted entry is
   * the position of its address here ({@link #ordinal}).
   */
  final long[] addresses;

  private EntryArena(RecordArena arena, RecordIndex index, long[] addresses) {
    this.arena = arena;
    this.index = index;
    this.addresses = addresses;
  }

  /**
   * Writes entry {@code i} = ({@code keys[i]}, {@code records[i]}) for every {@code i}, in slabs of
   * {@link BenchData#SLAB} (an entry that does not fit the rest of a slab starts the next one).
   * {@code layout} must be DERIVED; with a fixed key length every key must have that length.
   */
  static EntryArena load(EntryLayout layout, byte[][] keys, byte[][] records) {
    if (layout.place() != EntryLayout.KeyPlace.DERIVED || keys.length != records.length) {
      throw new IllegalArgumentException(layout + ", " + keys.length + " keys, " + records.length);
    }
    int n = records.length;
    int slabs = 1;
    int at = 0;
    for (int i = 0; i < n; i++) {
      int len = layout.entryLength(records[i].length, keys[i].length);
      if (at + len > BenchData.SLAB) {
        slabs++;
        at = 0;
      }
      at += len;
    }
    RecordArena arena = RecordArena.allocate((long) slabs * BenchData.SLAB, BenchData.SLAB);
    RecordIndex index = RecordIndex.allocate(n);
    index.bind(arena.view(), layout, null);
    long[] addresses = new long[n];
    int slab = 0;
    at = 0;
    ByteBuffer w = arena.writableWindow(0, 0, arena.slabCapacity(0));
    for (int i = 0; i < n; i++) {
      byte[] key = keys[i];
      byte[] rec = records[i];
      if (layout.fixedKeyLength() > 0 && key.length != layout.fixedKeyLength()) {
        throw new IllegalArgumentException("key " + i + " has " + key.length + " bytes");
      }
      int len = layout.entryLength(rec.length, key.length);
      if (at + len > arena.slabCapacity(slab)) {
        arena.setFilled(slab, at);
        slab++;
        at = 0;
        w = arena.writableWindow(slab, 0, arena.slabCapacity(slab));
      }
      int p = layout.writeHeader(w, at, rec.length, key.length);
      w.put(p, key);
      w.put(p + key.length, rec);
      addresses[i] = (long) slab << RecordIndex.OFFSET_BITS | at;
      index.add(slab, at);
      at += len;
    }
    arena.setFilled(slab, at);
    return new EntryArena(arena, index, addresses);
  }

  /** The input ordinal of the entry at {@code ref} (a ref word of {@link #index} or a copy). */
  int ordinal(long ref) {
    int i = Arrays.binarySearch(addresses, ref & RecordIndex.ADDRESS_MASK);
    if (i < 0) {
      throw new IllegalStateException("no entry at address " + (ref & RecordIndex.ADDRESS_MASK));
    }
    return i;
  }

  /** Input ordinals of the entries of {@code sorted} (an index of this arena), in its order. */
  int[] order(RecordIndex sorted) {
    int[] order = new int[sorted.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = ordinal(sorted.ref(i));
    }
    return order;
  }

  @Override
  public void close() {
    arena.close();
  }
}

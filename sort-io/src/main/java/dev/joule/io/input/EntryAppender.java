package dev.joule.io.input;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.RecordArena;
import java.nio.ByteBuffer;

/**
 * Writes entries one at a time into an arena and adds them to its index: the shared step of {@link
 * EntryFiller} (records from the input) and the session's {@code add} (records or key/value pairs
 * from the caller). An entry goes into the current slab, or the next one when it does not fit;
 * {@link #append} says false when neither the arena nor the index has room for it.
 *
 * <p>For a sort with derived keys, {@link #encodeKey} first writes the record's normalized key into
 * a scratch buffer (grown as needed) that {@link #append} then copies in front of the record;
 * key/value pairs bring their key ({@link #append(ByteBuffer, int, int, ByteBuffer, int, int)}).
 *
 * <p>Memory: the key scratch buffer (the longest key seen). Not thread-safe.
 */
public final class EntryAppender {
  private final EntrySpec spec;
  private RecordArena arena;
  private RecordIndex index;
  private int slab;
  private int at;
  private int lastAt; // where the last entry appended starts (in slab)
  private ByteBuffer dst;
  private ByteBuffer key = ByteBuffer.allocate(256);
  private int keyLength;

  /** An appender of entries as {@code spec} makes them. */
  public EntryAppender(EntrySpec spec) {
    this.spec = spec;
  }

  /** Clears {@code arena}, binds {@code index} to it, and appends from their start. */
  public void reset(RecordArena arena, RecordIndex index) {
    arena.clear();
    index.bind(arena.view(), spec.layout(), spec.tie());
    this.arena = arena;
    this.index = index;
    this.slab = 0;
    this.at = 0;
    this.dst = arena.writableWindow(0, 0, arena.slabCapacity(0));
  }

  /**
   * Encodes the normalized key of the record {@code [start, start + length)} of {@code src} for the
   * next {@link #append(ByteBuffer, int, int)} (a no-op unless the spec derives keys).
   *
   * @throws IllegalArgumentException if the record is too short for a fixed byte-range field
   */
  public void encodeKey(ByteBuffer src, int start, int length) {
    if (!spec.derivesKeys()) {
      keyLength = 0;
      return;
    }
    int n = spec.encodeKey(src, start, length, key);
    if (n < 0) {
      key = ByteBuffer.allocate(Math.max(-n, 2 * key.capacity()));
      n = spec.encodeKey(src, start, length, key);
    }
    keyLength = n;
  }

  /** The key {@link #encodeKey} encoded last: {@code [0, keyLength())} of this buffer. */
  public ByteBuffer key() {
    return key;
  }

  /** The length of the key {@link #encodeKey} encoded last (0 if the spec derives none). */
  public int keyLength() {
    return keyLength;
  }

  /** The length of the entry {@link #append(ByteBuffer, int, int)} would write for the record. */
  public int entryLength(int length) {
    return spec.entryLength(length, keyLength);
  }

  /**
   * Appends the entry of the record {@code [start, start + length)} of {@code src} with the key
   * {@link #encodeKey} encoded; false if the arena or the index has no room for it.
   */
  public boolean append(ByteBuffer src, int start, int length) {
    return append(src, start, length, key, 0, keyLength);
  }

  /**
   * Appends an entry of the record (or value) {@code [start, start + length)} of {@code src} and
   * the key {@code [keyStart, keyStart + keyLength)} of {@code keySrc}; false if the arena or the
   * index has no room for it.
   */
  public boolean append(
      ByteBuffer src, int start, int length, ByteBuffer keySrc, int keyStart, int keyLength) {
    if (!index.hasRoom()) {
      return false;
    }
    int entry = spec.entryLength(length, keyLength);
    while (at + entry > arena.slabCapacity(slab)) {
      if (slab + 1 >= arena.allocatedSlabs()) { // a growing arena's next slab may be unallocated
        return false;
      }
      slab++;
      at = 0;
      dst = arena.writableWindow(slab, 0, arena.slabCapacity(slab));
    }
    spec.writeEntry(dst, at, src, start, length, keySrc, keyStart, keyLength);
    arena.setFilled(slab, at + entry);
    index.add(slab, at);
    lastAt = at;
    at += entry;
    return true;
  }

  /** The largest entry an empty arena like the current one holds (its largest slab). */
  public int largestEntry() {
    int max = 0;
    for (int s = 0; s < arena.slabCount(); s++) {
      max = Math.max(max, arena.slabCapacity(s));
    }
    return max;
  }

  /** The slab of the entry appended last. */
  public int lastSlab() {
    return slab;
  }

  /** The offset in {@link #lastSlab()} of the entry appended last. */
  public int lastOffset() {
    return lastAt;
  }

  /** Entries appended since the last {@link #reset}. */
  public int size() {
    return index.size();
  }
}

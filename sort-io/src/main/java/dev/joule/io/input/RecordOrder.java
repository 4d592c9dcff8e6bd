package dev.joule.io.input;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.index.TieBreaker;
import java.nio.ByteBuffer;

/**
 * The order of an {@link EntrySpec} applied to records one at a time, for the paths that compare
 * records as they stream by instead of sorting an index: {@code sort -m} and {@code sort -c}. It
 * compares exactly as the sort orders: the normalized key (or the key's byte range, or the whole
 * record), a shorter key that is a prefix of a longer one first, then the spec's tie breaker
 * (inexact fields, then the last resort).
 *
 * <p>A {@link Keyed} holds one record and its normalized key; the key is computed once per record,
 * not per comparison. Immutable and thread-safe; the holders are not.
 */
public final class RecordOrder {
  private final EntrySpec spec;
  private final EntryLayout layout;

  /** The order of {@code spec}'s records. */
  public RecordOrder(EntrySpec spec) {
    this.spec = spec;
    this.layout = spec.layout();
  }

  /** A fresh holder for one record at a time. */
  public Keyed holder() {
    return new Keyed();
  }

  /**
   * Compares by key then tie breaker: negative, zero or positive as {@code a} sorts before, with,
   * or after {@code b}. Zero means the sort may put either first (it then keeps input order).
   */
  public int compare(Keyed a, Keyed b) {
    int c = compareKeys(a, b);
    if (c != 0 || spec.tie() == null) {
      return c;
    }
    return spec.tie().compare(a.rec, a.start, a.length, b.rec, b.start, b.length);
  }

  /** Whether unique mode counts {@code a} and {@code b} as one key (GNU's {@code -u}). */
  public boolean sameKey(Keyed a, Keyed b) {
    if (compareKeys(a, b) != 0) {
      return false;
    }
    TieBreaker same = spec.sameKey();
    return same == null || same.compare(a.rec, a.start, a.length, b.rec, b.start, b.length) == 0;
  }

  private int compareKeys(Keyed a, Keyed b) {
    if (spec.derivesKeys()) {
      return EntrySpec.compareRecords(a.key, 0, a.keyLength, b.key, 0, b.keyLength);
    }
    if (layout.place() == EntryLayout.KeyPlace.RANGE) {
      int n = layout.fixedKeyLength();
      return RecordIndex.compareBytes(
          a.rec, a.start + layout.keyOffset(), b.rec, b.start + layout.keyOffset(), n);
    }
    return EntrySpec.compareRecords(a.rec, a.start, a.length, b.rec, b.start, b.length);
  }

  /** One record (not copied: valid as long as its buffer is) and its normalized key. */
  public final class Keyed {
    private ByteBuffer rec;
    private int start;
    private int length;
    private ByteBuffer key = ByteBuffer.allocate(64);
    private int keyLength;
    private byte[] own = new byte[0]; // a copy of the record, for copyOf

    private Keyed() {}

    /**
     * Points at the record {@code [start, start + length)} of {@code buffer} and computes its key.
     *
     * @throws IllegalArgumentException if the record is too short for a fixed byte-range field
     */
    public Keyed set(ByteBuffer buffer, int start, int length) {
      this.rec = buffer;
      this.start = start;
      this.length = length;
      if (layout.recordSize() > 0 && length != layout.recordSize()) {
        throw new IllegalArgumentException(
            "a record of " + length + " bytes in records of " + layout.recordSize());
      }
      if (spec.derivesKeys()) {
        int n = spec.encodeKey(buffer, start, length, key);
        if (n < 0) {
          key = ByteBuffer.allocate(Math.max(-n, key.capacity() * 2));
          n = spec.encodeKey(buffer, start, length, key);
        }
        keyLength = n;
      }
      return this;
    }

    /** Makes this holder a copy of {@code other}'s record and key, independent of its buffer. */
    public void copyOf(Keyed other) {
      if (own.length < other.length) {
        own = new byte[Math.max(other.length, own.length * 2)];
      }
      other.rec.get(other.start, own, 0, other.length);
      rec = ByteBuffer.wrap(own);
      start = 0;
      length = other.length;
      if (spec.derivesKeys()) {
        if (key.capacity() < other.keyLength) {
          key = ByteBuffer.allocate(other.keyLength);
        }
        key.put(0, other.key, 0, other.keyLength);
        keyLength = other.keyLength;
      }
    }

    /** The record's buffer. */
    public ByteBuffer buffer() {
      return rec;
    }

    /** The record's first byte in {@link #buffer()}. */
    public int start() {
      return start;
    }

    /** The record's length. */
    public int length() {
      return length;
    }
  }
}

package dev.joule.core.index;

import dev.joule.core.record.FixedLengthFormat;
import java.nio.ByteBuffer;

/**
 * How one record sits in an arena or a run block, together with its normalized key: an
 * <em>entry</em>. The engine sorts, merges and writes entries; only the output stage strips them
 * back to records. Five shapes, chosen once per sort:
 *
 * <pre>
 * RANGE          fixed record, key = bytes [keyOffset, keyOffset + keyLength) of it (gensort)
 *                | record (recordSize) |
 * WHOLE          variable record, key = the record itself (plain text lines)
 *                | u32 recordLength | record |
 * DERIVED, fixed record (key of fixed or variable length, encoded from the record's fields)
 *                | u32 keyLength (variable keys only) | key | record (recordSize) |
 * DERIVED, variable record
 *                | u32 recordLength | u32 keyLength (variable keys only) | key | record |
 * TAIL, fixed or variable record (a derived key whose last field is the whole record, raw)
 *                | u32 recordLength (variable records only) | u32 keyLength | key |
 * </pre>
 *
 * Lengths are big-endian unsigned 32-bit ints (records up to {@link #MAX_RECORD_LENGTH}). A RANGE
 * or WHOLE key costs no bytes: it is read where the record is. A DERIVED key is stored once, in
 * front of its record, so that every later comparison is a byte comparison. A TAIL key already ends
 * with the record's bytes unchanged (GNU's last-resort comparison of whole lines folded into the
 * key), so the record is read there instead of being stored a second time.
 *
 * <p>Every accessor takes the buffer and the absolute index of the entry's first byte; the key
 * always starts at a constant distance from it ({@link #keyStart(int)}). Immutable and thread-safe.
 */
public final class EntryLayout {
  /** Where the key of an entry is. */
  public enum KeyPlace {
    /** A byte range of a fixed-size record. */
    RANGE,
    /** The whole record. */
    WHOLE,
    /** A normalized key stored in front of the record. */
    DERIVED,
    /** A normalized key that ends with the whole record, raw: the record is its last bytes. */
    TAIL
  }

  /**
   * The largest record an entry holds: 1 GiB less room for a header and a key of the same size, so
   * that an entry fits one arena slab. Formats set their own, lower limits.
   */
  public static final int MAX_RECORD_LENGTH = (1 << 29) - 64;

  private final int recordSize; // > 0 fixed, 0 variable
  private final KeyPlace place;
  private final int keyOffset; // RANGE: in the record
  private final int keyLength; // RANGE or DERIVED fixed-length key: > 0; else 0 (variable)
  private final int keyStart; // key's distance from the entry start
  private final int keyLengthField; // distance of the u32 key length, or -1
  private final int headerBytes; // bytes before the key (DERIVED) or the record (WHOLE)

  private EntryLayout(int recordSize, KeyPlace place, int keyOffset, int keyLength) {
    this.recordSize = recordSize;
    this.place = place;
    this.keyOffset = keyOffset;
    this.keyLength = keyLength;
    int h = recordSize == 0 ? 4 : 0;
    int lengthField = -1;
    if ((place == KeyPlace.DERIVED || place == KeyPlace.TAIL) && keyLength == 0) {
      lengthField = h;
      h += 4;
    }
    if (place == KeyPlace.WHOLE) {
      lengthField = 0; // the record length is the key length
    }
    this.headerBytes = h;
    this.keyLengthField = lengthField;
    this.keyStart = place == KeyPlace.RANGE ? keyOffset : h;
  }

  /** Fixed records with the key at a byte range of each: the entry is the record. */
  public static EntryLayout range(int recordSize, int keyOffset, int keyLength) {
    if (recordSize < 1 || keyOffset < 0 || keyLength < 1 || keyOffset + keyLength > recordSize) {
      throw new IllegalArgumentException(
          "key [" + keyOffset + ", +" + keyLength + ") outside a record of " + recordSize);
    }
    return new EntryLayout(recordSize, KeyPlace.RANGE, keyOffset, keyLength);
  }

  /** The entry layout of {@code format}'s records and key (a byte range). */
  public static EntryLayout of(FixedLengthFormat format) {
    return range(format.recordSize(), format.key().offset(), format.key().length());
  }

  /** Variable records sorted by their whole bytes: {@code | u32 length | record |}. */
  public static EntryLayout whole() {
    return new EntryLayout(0, KeyPlace.WHOLE, 0, 0);
  }

  /**
   * Records (of {@code recordSize} bytes, or variable when 0) with a stored normalized key (of
   * {@code keyLength} bytes, or variable when 0).
   */
  public static EntryLayout derived(int recordSize, int keyLength) {
    if (recordSize < 0 || keyLength < 0) {
      throw new IllegalArgumentException("negative size: " + recordSize + ", " + keyLength);
    }
    return new EntryLayout(recordSize, KeyPlace.DERIVED, 0, keyLength);
  }

  /**
   * Records (of {@code recordSize} bytes, or variable when 0) whose stored normalized key ends with
   * the whole record, unescaped (its last field, ascending): the entry holds the key alone.
   */
  public static EntryLayout tail(int recordSize) {
    if (recordSize < 0) {
      throw new IllegalArgumentException("negative record size: " + recordSize);
    }
    return new EntryLayout(recordSize, KeyPlace.TAIL, 0, 0);
  }

  /**
   * The layout with these fields (as {@link #place()}, {@link #recordSize()}, {@link #keyOffset()}
   * and {@link #fixedKeyLength()} report them), for readers of stored runs.
   *
   * @throws IllegalArgumentException if they describe no layout
   */
  public static EntryLayout of(KeyPlace place, int recordSize, int keyOffset, int keyLength) {
    switch (place) {
      case RANGE:
        return range(recordSize, keyOffset, keyLength);
      case WHOLE:
        if (recordSize != 0 || keyOffset != 0 || keyLength != 0) {
          throw new IllegalArgumentException("a WHOLE layout has no sizes");
        }
        return whole();
      case TAIL:
        if (keyOffset != 0 || keyLength != 0) {
          throw new IllegalArgumentException("a TAIL layout has no key offset or fixed key length");
        }
        return tail(recordSize);
      default:
        if (keyOffset != 0) {
          throw new IllegalArgumentException("a DERIVED layout has no key offset");
        }
        return derived(recordSize, keyLength);
    }
  }

  /** Offset of the key in a record (RANGE layouts; 0 otherwise). */
  public int keyOffset() {
    return keyOffset;
  }

  /** Where the key is. */
  public KeyPlace place() {
    return place;
  }

  /** Whether entries store a key of their own (DERIVED and TAIL), with its length unless fixed. */
  public boolean storesKey() {
    return place == KeyPlace.DERIVED || place == KeyPlace.TAIL;
  }

  /** Whether every entry has the same size ({@link #fixedEntrySize()}). */
  public boolean fixedSize() {
    return recordSize > 0 && (place == KeyPlace.RANGE || keyLength > 0);
  }

  /** The size of every entry, for {@link #fixedSize()} layouts; else 0. */
  public int fixedEntrySize() {
    if (!fixedSize()) {
      return 0;
    }
    return place == KeyPlace.RANGE ? recordSize : keyLength + recordSize;
  }

  /** The fixed record size, or 0 for variable records. */
  public int recordSize() {
    return recordSize;
  }

  /** Whether keys differ in length from entry to entry. */
  public boolean variableKey() {
    return keyLength == 0;
  }

  /** The key length of every entry for fixed-length keys; 0 for variable keys. */
  public int fixedKeyLength() {
    return keyLength;
  }

  /** Distance from an entry's first byte to its key's first byte (the same for every entry). */
  public int keyStart(int entryStart) {
    return entryStart + keyStart;
  }

  /** Bytes between the entry start and the key, for {@link #keyStart}. */
  public int keyDistance() {
    return keyStart;
  }

  /** The key length of the entry at {@code at}. */
  public int keyLength(ByteBuffer b, int at) {
    return keyLengthField < 0 ? keyLength : b.getInt(at + keyLengthField);
  }

  /** Index of the first record byte of the entry at {@code at}. */
  public int recordStart(ByteBuffer b, int at) {
    switch (place) {
      case RANGE:
        return at;
      case WHOLE:
        return at + 4;
      case TAIL:
        return at + headerBytes + keyLength(b, at) - recordLength(b, at);
      default:
        return at + headerBytes + keyLength(b, at);
    }
  }

  /** Record length of the entry at {@code at}. */
  public int recordLength(ByteBuffer b, int at) {
    return recordSize > 0 ? recordSize : b.getInt(at);
  }

  /** Total length of the entry at {@code at}. */
  public int entryLength(ByteBuffer b, int at) {
    if (fixedSize()) {
      return fixedEntrySize();
    }
    return entryLength(recordLength(b, at), storesKey() ? keyLength(b, at) : 0);
  }

  /**
   * Whether an entry header may state these lengths (as read from a run: neither negative nor over
   * {@link #MAX_RECORD_LENGTH}, and a TAIL key at least as long as the record it ends with).
   */
  public boolean plausible(int recordLength, int derivedKeyLength) {
    return recordLength >= 0
        && derivedKeyLength >= 0
        && recordLength <= MAX_RECORD_LENGTH
        && derivedKeyLength <= MAX_RECORD_LENGTH
        && (place != KeyPlace.TAIL || recordLength <= derivedKeyLength);
  }

  /** The length of an entry holding a record of {@code recordLength} and a derived key. */
  public int entryLength(int recordLength, int derivedKeyLength) {
    switch (place) {
      case RANGE:
        return recordSize;
      case WHOLE:
        return 4 + recordLength;
      case TAIL:
        return headerBytes + derivedKeyLength;
      default:
        return headerBytes + derivedKeyLength + recordLength;
    }
  }

  /**
   * Writes the header of an entry at {@code at} for a record of {@code recordLength} and a derived
   * key of {@code derivedKeyLength} (ignored unless DERIVED or TAIL); returns the index where the
   * key (DERIVED, TAIL) or the record (otherwise) goes.
   */
  public int writeHeader(ByteBuffer b, int at, int recordLength, int derivedKeyLength) {
    if (recordSize == 0) {
      b.putInt(at, recordLength);
    }
    if (storesKey() && keyLength == 0) {
      b.putInt(at + headerBytes - 4, derivedKeyLength);
    }
    return at + (place == KeyPlace.RANGE ? 0 : headerBytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EntryLayout e
        && e.recordSize == recordSize
        && e.place == place
        && e.keyOffset == keyOffset
        && e.keyLength == keyLength;
  }

  @Override
  public int hashCode() {
    return ((recordSize * 31 + place.ordinal()) * 31 + keyOffset) * 31 + keyLength;
  }

  @Override
  public String toString() {
    switch (place) {
      case RANGE:
        return "entries(fixed " + recordSize + ", key [" + keyOffset + ", +" + keyLength + "))";
      case WHOLE:
        return "entries(variable, key = record)";
      case TAIL:
        return "entries("
            + (recordSize > 0 ? "fixed " + recordSize : "variable")
            + ", derived key ending with the record)";
      default:
        return "entries("
            + (recordSize > 0 ? "fixed " + recordSize : "variable")
            + ", derived key "
            + (keyLength > 0 ? keyLength + " bytes" : "variable")
            + ")";
    }
  }
}

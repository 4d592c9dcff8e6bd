package dev.joule.io.input;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.index.TieBreaker;
import dev.joule.core.key.KeyField;
import dev.joule.core.key.KeyLocation;
import dev.joule.core.key.KeyNormalizer;
import dev.joule.core.key.KeyType;
import dev.joule.core.key.SortKey;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.LengthPrefixedFormat;
import dev.joule.core.record.LineFormat;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.block.BlockWriter;
import dev.joule.io.config.LastResort;
import dev.joule.io.config.SortConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * How one sort turns its records into entries (a record with its normalized key, {@link
 * EntryLayout}), orders them, and writes them back out. Decided once from the {@link SortConfig},
 * before any data is read, and shared by every stage that reads or writes entries:
 *
 * <ul>
 *   <li>the layout: {@code RANGE} for fixed records whose key is a byte range of them (read in
 *       place: {@link #inPlace()}), {@code WHOLE} for lines and rows sorted by all their bytes (no
 *       key is stored), {@code TAIL} when an ascending last resort ends the key with the record,
 *       {@code DERIVED} otherwise (the {@link KeyNormalizer}'s key stored in front of the record,
 *       {@link #encodeKey});
 *   <li>the {@link #tie() tie breaker} of equal normalized keys: the key's inexact fields ({@code
 *       -V}), then the {@link LastResort}; null when equal keys simply keep input order;
 *   <li>the {@link #sameKey() equality} that unique mode drops records by (the key alone, never the
 *       last resort, as GNU's {@code -u});
 *   <li>the output framing of a record ({@link #frame}).
 * </ul>
 *
 * <p>Immutable and thread-safe.
 */
public final class EntrySpec {
  private final RecordFormat format;
  private final EntryLayout layout;
  private final KeyNormalizer keys; // DERIVED layouts of a SortKey; null otherwise
  private final TieBreaker tie;
  private final TieBreaker sameKey;
  private final boolean unique;
  private final boolean equalMeansIdentical;

  private EntrySpec(
      RecordFormat format,
      EntryLayout layout,
      KeyNormalizer keys,
      TieBreaker tie,
      TieBreaker sameKey,
      boolean unique,
      boolean equalMeansIdentical) {
    this.format = format;
    this.layout = layout;
    this.keys = keys;
    this.tie = tie;
    this.sameKey = sameKey;
    this.unique = unique;
    this.equalMeansIdentical = equalMeansIdentical;
  }

  /** The entries of {@code config}'s records and key. */
  public static EntrySpec of(SortConfig config) {
    RecordFormat f = config.format();
    SortKey key = config.key();
    LastResort last = config.lastResort();
    boolean unique = config.unique();
    // Whether records that compare equal are identical, so that a repeat may be counted on its
    // twin (RepeatFilter): the order ends with the whole record, and nothing is dropped by key.
    boolean identical = !unique && last != LastResort.NONE;
    if (f instanceof FixedLengthFormat fixed) {
      if (key == null) {
        return new EntrySpec(
            f, EntryLayout.of(fixed), null, lastResort(null, last), null, unique, false);
      }
      EntryLayout range = byteRange(key, fixed.recordSize());
      if (range != null) {
        return new EntrySpec(f, range, null, lastResort(null, last), null, unique, false);
      }
    } else if (key == null || isWholeRecord(key)) {
      return new EntrySpec(f, EntryLayout.whole(), null, null, null, unique, !unique);
    }
    KeyNormalizer n = KeyNormalizer.compile(key);
    int recordSize = f instanceof FixedLengthFormat fixed ? fixed.recordSize() : 0;
    if (n.exact() && last != LastResort.NONE && !unique) {
      // The last resort as one more key field (the whole record, raw when ascending): the radix
      // sort, the merge and the validator then order equal keys by bytes instead of calling a
      // comparator on every pair (docs/decisions/D23). Not in unique mode, which drops by the key
      // alone. Ascending, the key then ends with the record as it is, and the entry need not hold
      // it twice (a TAIL layout, D27).
      boolean descending = last == LastResort.DESCENDING;
      List<KeyField> fields = new ArrayList<>(key.fields());
      fields.add(
          KeyField.of(KeyLocation.wholeRecord(), KeyType.bytes()).withDescending(descending));
      KeyNormalizer folded = KeyNormalizer.compile(SortKey.of(fields));
      EntryLayout layout =
          descending ? EntryLayout.derived(recordSize, 0) : EntryLayout.tail(recordSize);
      return new EntrySpec(f, layout, folded, null, null, false, true);
    }
    TieBreaker tail = n.tieBreaker();
    return new EntrySpec(
        f, EntryLayout.derived(recordSize, 0), n, lastResort(tail, last), tail, unique, identical);
  }

  /**
   * Key/value pairs of a session: the key is the caller's (already order-preserving bytes), stored
   * in front of the value; equal keys keep input order, or with a last resort are ordered by their
   * values' unsigned bytes (ascending or descending), input order only between identical values.
   * Unique mode keeps the first pair of each key, whatever the last resort.
   */
  public static EntrySpec pairs(boolean unique, LastResort last) {
    return new EntrySpec(
        RecordFormat.lengthPrefixed(),
        EntryLayout.derived(0, 0),
        null,
        unique ? null : lastResort(null, last),
        null,
        unique,
        false);
  }

  /** The RANGE layout of a single ascending byte-range key of fixed records, or null. */
  private static EntryLayout byteRange(SortKey key, int recordSize) {
    if (key.fields().size() != 1) {
      return null;
    }
    KeyField k = key.fields().get(0);
    if (k.descending() || k.type().kind() != KeyType.Kind.BYTES) {
      return null;
    }
    KeyLocation l = k.location();
    if (l.kind() == KeyLocation.Kind.WHOLE_RECORD) {
      return EntryLayout.range(recordSize, 0, recordSize);
    }
    if (l.kind() == KeyLocation.Kind.BYTE_RANGE) {
      long end = l.fixedLength() ? (long) l.offset() + l.length() : recordSize;
      if (l.offset() < recordSize && end <= recordSize) {
        return EntryLayout.range(recordSize, l.offset(), (int) end - l.offset());
      }
    }
    return null;
  }

  private static boolean isWholeRecord(SortKey key) {
    return key.equals(SortKey.wholeRecord());
  }

  /** {@code tail} (or nothing), then the whole records as {@code last} says. */
  private static TieBreaker lastResort(TieBreaker tail, LastResort last) {
    if (last == LastResort.NONE) {
      return tail;
    }
    boolean descending = last == LastResort.DESCENDING;
    return (a, as, al, b, bs, bl) -> {
      int c = tail == null ? 0 : tail.compare(a, as, al, b, bs, bl);
      if (c != 0) {
        return c;
      }
      int w = compareRecords(a, as, al, b, bs, bl);
      return descending ? -w : w;
    };
  }

  /** Unsigned bytes, then a prefix before the longer: the order of whole records and of keys. */
  static int compareRecords(ByteBuffer a, int as, int al, ByteBuffer b, int bs, int bl) {
    int c = RecordIndex.compareBytes(a, as, b, bs, Math.min(al, bl));
    return c != 0 ? c : Integer.compare(al, bl);
  }

  /** The record format. */
  public RecordFormat format() {
    return format;
  }

  /** The entry layout. */
  public EntryLayout layout() {
    return layout;
  }

  /** The tie breaker of equal keys, or null. */
  public TieBreaker tie() {
    return tie;
  }

  /**
   * What else must be equal, beyond the normalized keys, for two records to have equal keys (their
   * inexact fields), or null when the normalized keys say it all.
   */
  public TieBreaker sameKey() {
    return sameKey;
  }

  /** Whether only the first record of each run of equal keys is output. */
  public boolean unique() {
    return unique;
  }

  /**
   * Whether two records that compare equal are always identical, byte for byte: the sort orders by
   * the whole record (as its key, or GNU's last resort after the key) and drops nothing by key. A
   * repeated record may then be held once with a count ({@code RepeatFilter}), since identical
   * records are adjacent in the output and indistinguishable there.
   */
  public boolean equalMeansIdentical() {
    return equalMeansIdentical;
  }

  /**
   * Whether the output cannot tell apart the input order of records that compare equal: they are
   * identical ({@link #equalMeansIdentical()}), or unique mode keeps one of records that are
   * identical (the whole record is the key and nothing else decides). Chunks may then hold their
   * entries in any order, and records may go into chunks out of input order (parallel parsing).
   */
  public boolean orderFree() {
    return equalMeansIdentical
        || (unique
            && layout.place() == EntryLayout.KeyPlace.WHOLE
            && tie == null
            && sameKey == null);
  }

  /**
   * Whether deriving a key is most of what parsing a record costs: a field collated in a locale
   * ({@link SortKey#collated()}), whose transform is a call into the C library per line.
   */
  public boolean parseBound() {
    return keys != null && keys.sortKey().collated();
  }

  /** Whether entries are the input's records, read straight into arenas (fixed records). */
  public boolean inPlace() {
    return layout.place() == EntryLayout.KeyPlace.RANGE;
  }

  /** Whether entries store a key derived from the record ({@link #encodeKey}). */
  public boolean derivesKeys() {
    return keys != null;
  }

  /** An upper bound of the stored key of a record of {@code length} bytes (0 if none is stored). */
  public int maxKeyLength(int length) {
    return keys == null ? 0 : keys.maxKeyLength(length);
  }

  /**
   * Writes the normalized key of the record {@code [start, start + length)} of {@code src} into
   * {@code dst} from index 0 and returns its length, or minus the length needed when {@code dst} is
   * too small (nothing written then).
   *
   * @throws IllegalArgumentException if the record is too short for a fixed byte-range field
   */
  public int encodeKey(ByteBuffer src, int start, int length, ByteBuffer dst) {
    return encodeKey(src, start, length, dst, 0);
  }

  /**
   * {@link #encodeKey(ByteBuffer, int, int, ByteBuffer)} from index {@code dstPos} of {@code dst}:
   * minus the key's length when it does not fit before the limit (bytes from {@code dstPos} may
   * then have been written).
   */
  public int encodeKey(ByteBuffer src, int start, int length, ByteBuffer dst, int dstPos) {
    return keys.encode(src, start, length, dst, dstPos);
  }

  /** Output bytes per record beyond the record: a line's delimiter, a row's length. */
  public int framing() {
    if (format instanceof LineFormat) {
      return 1;
    }
    return format instanceof LengthPrefixedFormat ? LengthPrefixedFormat.LENGTH_BYTES : 0;
  }

  /** Where a record starts in its framed bytes ({@link #frame}): after a row's length. */
  public int recordOffsetInFrame() {
    return format instanceof LengthPrefixedFormat ? LengthPrefixedFormat.LENGTH_BYTES : 0;
  }

  /** Writes one record's framing and bytes to {@code out}, as the output format wants them. */
  public void frame(ByteBuffer src, int start, int length, FramedSink out) throws IOException {
    if (format instanceof LengthPrefixedFormat) {
      out.putInt(length);
      out.put(src, start, length);
    } else if (format instanceof LineFormat lf) {
      out.put(src, start, length);
      out.put(lf.delimiter());
    } else {
      out.put(src, start, length);
    }
  }

  /** Where {@link #frame} writes. */
  public interface FramedSink {
    /** Appends {@code length} bytes at {@code start} of {@code src}. */
    void put(ByteBuffer src, int start, int length) throws IOException;

    /** Appends one byte. */
    void put(byte b) throws IOException;

    /** Appends a big-endian int. */
    void putInt(int v) throws IOException;

    /** A sink that appends at {@code out}'s position (which advances); it must have room. */
    static FramedSink of(ByteBuffer out) {
      return new FramedSink() {
        @Override
        public void put(ByteBuffer src, int start, int length) {
          out.put(out.position(), src, start, length);
          out.position(out.position() + length);
        }

        @Override
        public void put(byte b) {
          out.put(b);
        }

        @Override
        public void putInt(int v) {
          out.putInt(v);
        }
      };
    }

    /** A sink that appends to {@code out}. */
    static FramedSink of(BlockWriter out) {
      return new FramedSink() {
        @Override
        public void put(ByteBuffer src, int start, int length) throws IOException {
          out.put(src, start, length);
        }

        @Override
        public void put(byte b) throws IOException {
          out.put(b);
        }

        @Override
        public void putInt(int v) throws IOException {
          out.putInt(v);
        }
      };
    }
  }

  /**
   * Bytes of the entry of a record of {@code length} bytes with a stored key of {@code keyLength}.
   */
  int entryLength(int length, int keyLength) {
    return layout.entryLength(length, keyLength);
  }

  /**
   * Writes the entry of the record {@code [start, start + length)} of {@code src} at {@code at} of
   * {@code dst} (which has room for it), with the stored key {@code [keyStart, keyStart +
   * keyLength)} of {@code key}.
   */
  void writeEntry(
      ByteBuffer dst,
      int at,
      ByteBuffer src,
      int start,
      int length,
      ByteBuffer key,
      int keyStart,
      int keyLength) {
    int p = layout.writeHeader(dst, at, length, keyLength);
    if (keyLength > 0) {
      dst.put(p, key, keyStart, keyLength);
      p += keyLength;
    }
    if (layout.place() != EntryLayout.KeyPlace.TAIL) {
      dst.put(p, src, start, length);
    }
  }
}

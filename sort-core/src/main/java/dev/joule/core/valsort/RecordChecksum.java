package dev.joule.core.valsort;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;

/**
 * The Sort Benchmark checksum: the sum, modulo 2^128, of the zlib CRC-32 of every record, each
 * taken as an unsigned 32-bit value. The sum does not depend on record order, so a sort's input and
 * output must have the same one, and the sums of partitions add up to the sum of the whole.
 *
 * <p>{@link #castagnoli()} makes the same sum over CRC-32C values instead, for a check that need
 * not match valsort (a sort session's check of its own output): the JDK's CRC-32C intrinsic ran
 * about three times as fast as its CRC-32 here (5.7 against 1.8 GB/s), and the two CRCs were 24 %
 * of a session's adding and iterating thread (async-profiler, 1 GB of pairs, 2026-11-28). Sums of
 * the two kinds must never be added or compared; {@link #add(RecordChecksum)} refuses to mix them.
 *
 * <p>Mutable accumulator; not thread-safe. Give each thread its own and {@link
 * #add(RecordChecksum)} them at the end.
 */
public final class RecordChecksum {
  /** Records up to this length are copied to the heap for the CRC; longer ones get a view. */
  private static final int SCRATCH_BYTES = 1024;

  /**
   * Records up to this length get their CRC from {@link #TABLE} instead of {@link CRC32}.
   * RecordChecksumBenchmark, ns per record, CRC32 after a copy vs the tables (one JDK 17 run, 3
   * iterations; the same on heap, direct and read-only direct buffers): 7 bytes 23.5 vs 8.7, 16
   * bytes 17.4 vs 9.3, 32 bytes 18.9 vs 19.0, 101 bytes 19.5 vs 64.5.
   */
  static final int TABLE_BYTES = 24;

  /** zlib's CRC-32 polynomial, bit-reversed (the CRC shifts right). */
  private static final int CRC32_POLYNOMIAL = 0xEDB88320;

  private static final int[] TABLE = crcTables();

  private final Checksum crc;
  private final boolean castagnoli;
  private long hi;
  private long lo;
  private byte[] scratch; // made on first use: most checksums only add other checksums

  /** A checksum of zero records. */
  public RecordChecksum() {
    this(false);
  }

  private RecordChecksum(boolean castagnoli) {
    this.castagnoli = castagnoli;
    this.crc = castagnoli ? new CRC32C() : new CRC32();
  }

  /** A checksum of zero records that sums CRC-32C values (see the class comment). */
  public static RecordChecksum castagnoli() {
    return new RecordChecksum(true);
  }

  /** Whether this sums CRC-32C values rather than valsort's CRC-32. */
  public boolean isCastagnoli() {
    return castagnoli;
  }

  /** A copy of this checksum (its kind and value). */
  public RecordChecksum copy() {
    RecordChecksum c = new RecordChecksum(castagnoli);
    c.hi = hi;
    c.lo = lo;
    return c;
  }

  /** A checksum of zero records of the same kind as this one. */
  public RecordChecksum emptyOfSameKind() {
    return new RecordChecksum(castagnoli);
  }

  /** A checksum with the given 128-bit value. */
  public static RecordChecksum of(long hi, long lo) {
    RecordChecksum c = new RecordChecksum();
    c.hi = hi;
    c.lo = lo;
    return c;
  }

  /**
   * Adds the CRC-32 of {@code length} bytes at absolute index {@code index} of {@code buf}, and
   * returns it (for a caller that adds the same record to another sum).
   */
  public int addRecord(ByteBuffer buf, int index, int length) {
    int value = crcOf(buf, index, length);
    addCrc(value);
    return value;
  }

  /**
   * Adds the CRC-32 of the record that {@code view} holds from its position to its limit, read
   * where it lies (a direct buffer goes straight to the CRC's intrinsic, no copy to the heap), and
   * returns it; the view's position is left at its limit. For a caller that keeps one view per
   * buffer and moves it from record to record (a session's chunk slabs, its cursor's blocks): the
   * copy {@link #addRecord(ByteBuffer, int, int)} makes instead of a slice per record was 14 % of a
   * session's main thread (async-profiler, wall clock, 1 GB of pairs, 2026-11-28).
   */
  public int addRecord(ByteBuffer view) {
    int length = view.remaining();
    int value;
    if (length <= TABLE_BYTES && !castagnoli) {
      value = tableCrc(view, view.position(), length);
      view.position(view.limit());
    } else {
      crc.reset();
      crc.update(view);
      value = (int) crc.getValue();
    }
    addCrc(value);
    return value;
  }

  /**
   * The CRC-32 of {@code length} bytes at absolute index {@code index} of {@code buf}, not added
   * (for a caller that adds it only later, with {@link #addCrc(int)}, or elsewhere).
   */
  public int crcOf(ByteBuffer buf, int index, int length) {
    int value;
    if (length <= TABLE_BYTES && !castagnoli) {
      Objects.checkFromIndexSize(index, length, buf.limit()); // as the copy below checks
      value = tableCrc(buf, index, length);
    } else {
      crc.reset();
      if (length <= SCRATCH_BYTES) {
        if (scratch == null) {
          scratch = new byte[SCRATCH_BYTES];
        }
        // A copy into scratch, not a slice per record: for variable-length records the slices
        // were 88 % of all heap allocation of a sort (JFR, MemoryBoundTest's 1 GB of rows), and
        // the young generation the collector grew for them doubled the resident set. A cached
        // view does not help in the merge, where consecutive records come from different buffers.
        buf.get(index, scratch, 0, length);
        crc.update(scratch, 0, length);
      } else {
        crc.update(buf.slice(index, length));
      }
      value = (int) crc.getValue();
    }
    return value;
  }

  /**
   * The CRC-32 of a short record, read where it lies, eight bytes per step through eight tables
   * ("slicing by 8"): below {@link #TABLE_BYTES} the copy to the heap and the {@link CRC32} call
   * cost more than the bytes' own work.
   */
  private static int tableCrc(ByteBuffer buf, int index, int length) {
    final int[] t = TABLE;
    boolean swap = buf.order() != ByteOrder.LITTLE_ENDIAN; // the CRC takes the bytes in order
    int c = -1;
    int i = index;
    for (int end = index + length - Long.BYTES; i <= end; i += Long.BYTES) {
      long w = buf.getLong(i);
      if (swap) {
        w = Long.reverseBytes(w);
      }
      int lo = (int) w ^ c;
      int hi = (int) (w >>> 32);
      c =
          t[7 * 256 + (lo & 0xFF)]
              ^ t[6 * 256 + ((lo >>> 8) & 0xFF)]
              ^ t[5 * 256 + ((lo >>> 16) & 0xFF)]
              ^ t[4 * 256 + (lo >>> 24)]
              ^ t[3 * 256 + (hi & 0xFF)]
              ^ t[2 * 256 + ((hi >>> 8) & 0xFF)]
              ^ t[256 + ((hi >>> 16) & 0xFF)]
              ^ t[hi >>> 24];
    }
    for (int end = index + length; i < end; i++) {
      c = t[(c ^ buf.get(i)) & 0xFF] ^ (c >>> 8);
    }
    return ~c;
  }

  /**
   * Table {@code s} (at {@code s * 256}) maps a byte to the CRC register after that byte and {@code
   * s} zero bytes: table 0 is the byte-at-a-time table, each next one shifts it a byte on.
   */
  private static int[] crcTables() {
    int[] t = new int[8 * 256];
    for (int n = 0; n < 256; n++) {
      int c = n;
      for (int bit = 0; bit < 8; bit++) {
        c = (c & 1) != 0 ? (c >>> 1) ^ CRC32_POLYNOMIAL : c >>> 1;
      }
      t[n] = c;
    }
    for (int s = 1; s < 8; s++) {
      for (int n = 0; n < 256; n++) {
        int prev = t[(s - 1) * 256 + n];
        t[s * 256 + n] = (prev >>> 8) ^ t[prev & 0xFF];
      }
    }
    return t;
  }

  /**
   * Adds the CRC-32 of each of {@code count} consecutive records of {@code recordLength} bytes, the
   * first at absolute index {@code index} of {@code buf}. One view per call, none per record, and
   * {@code buf}'s position and limit are left alone.
   */
  public void addRecords(ByteBuffer buf, int index, int count, int recordLength) {
    ByteBuffer view = buf.duplicate();
    view.clear();
    int off = index;
    for (int r = 0; r < count; r++, off += recordLength) {
      view.limit(off + recordLength);
      view.position(off);
      crc.reset();
      crc.update(view);
      addCrc((int) crc.getValue());
    }
  }

  /** Adds the CRC-32 of {@code length} bytes at {@code offset} of {@code a}. */
  public void addRecord(byte[] a, int offset, int length) {
    crc.reset();
    crc.update(a, offset, length);
    addCrc((int) crc.getValue());
  }

  /** Adds one record's CRC-32 (the 32 bits taken as unsigned). */
  public void addCrc(int crc32) {
    long add = crc32 & 0xFFFF_FFFFL;
    long sum = lo + add;
    if (Long.compareUnsigned(sum, lo) < 0) {
      hi++;
    }
    lo = sum;
  }

  /** Adds another checksum to this one (partition sums add up). */
  public void add(RecordChecksum other) {
    sameKind(other);
    add(other.hi, other.lo);
  }

  private void add(long h, long l) {
    long sum = lo + l;
    hi += h + (Long.compareUnsigned(sum, lo) < 0 ? 1 : 0);
    lo = sum;
  }

  /** Adds {@code other} {@code times} times (modulo 2^128; {@code times} taken as unsigned). */
  public void addTimes(RecordChecksum other, long times) {
    sameKind(other);
    addTimes(other.hi, other.lo, times);
  }

  /** Adds one record's CRC-32 (taken as unsigned) {@code times} times. */
  public void addCrc(int crc32, long times) {
    addTimes(0, crc32 & 0xFFFF_FFFFL, times);
  }

  private void addTimes(long h, long l, long times) {
    // (h·2^64 + l) · t mod 2^128 = (h·t + high(l·t))·2^64 + low(l·t)
    long high =
        h * times
            + Math.multiplyHigh(l, times) // signed; the two terms below make it unsigned
            + ((l >> 63) & times)
            + ((times >> 63) & l);
    add(high, l * times);
  }

  /**
   * Subtracts another checksum from this one, modulo 2^128: what is left is the sum of the records
   * of this one that {@code other} does not cover, when {@code other}'s records are a subset (a
   * run's records kept out of its chunk's, the rest being the duplicates unique mode left out).
   */
  public void subtract(RecordChecksum other) {
    sameKind(other);
    long diff = lo - other.lo;
    hi -= other.hi + (Long.compareUnsigned(lo, other.lo) < 0 ? 1 : 0);
    lo = diff;
  }

  private void sameKind(RecordChecksum other) {
    if (other.castagnoli != castagnoli) {
      throw new IllegalArgumentException(
          "a CRC-32C sum and a CRC-32 sum cannot be combined: " + this + ", " + other);
    }
  }

  /** Upper 64 bits of the 128-bit sum. */
  public long hi() {
    return hi;
  }

  /** Lower 64 bits of the 128-bit sum. */
  public long lo() {
    return lo;
  }

  /** Lower-case hex without leading zeros, as gensort and valsort print it ("0" for no records). */
  public String toHex() {
    if (hi == 0) {
      return Long.toHexString(lo);
    }
    String low = Long.toHexString(lo);
    return Long.toHexString(hi) + "0".repeat(16 - low.length()) + low;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RecordChecksum c && c.hi == hi && c.lo == lo && c.castagnoli == castagnoli;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(hi) * 31 + Long.hashCode(lo);
  }

  @Override
  public String toString() {
    return castagnoli ? "crc32c-sum:" + toHex() : toHex();
  }
}

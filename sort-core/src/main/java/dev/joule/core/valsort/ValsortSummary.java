package dev.joule.core.valsort;

import dev.joule.core.gensort.Uint128;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The result of validating a sequence of 100-byte records: valsort's {@code struct summary}
 * (docs/formats.md, valsort), readable from and writable to its exact 280-byte little-endian form.
 *
 * <p>Layout: five 128-bit counters, each as hi-64 then lo-64 in native (little-endian) order —
 * first_unordered (0 = none), unordered_count, record_count, duplicate_count, checksum — then the
 * first and the last record (100 bytes each). Immutable and thread-safe (record bytes are copied in
 * and out).
 */
public final class ValsortSummary {
  /** Size of the binary summary. */
  public static final int BYTES = 5 * 16 + 2 * ValsortSummary.RECORD_SIZE;

  /** Record size the summary describes. */
  public static final int RECORD_SIZE = 100;

  private final Uint128 firstUnordered;
  private final Uint128 unorderedCount;
  private final Uint128 recordCount;
  private final Uint128 duplicateCount;
  private final Uint128 checksum;
  private final byte[] firstRecord;
  private final byte[] lastRecord;

  /** A summary with the given fields; the record arrays (100 bytes each) are copied. */
  public ValsortSummary(
      Uint128 firstUnordered,
      Uint128 unorderedCount,
      Uint128 recordCount,
      Uint128 duplicateCount,
      Uint128 checksum,
      byte[] firstRecord,
      byte[] lastRecord) {
    if (firstRecord.length != RECORD_SIZE || lastRecord.length != RECORD_SIZE) {
      throw new IllegalArgumentException("records must be " + RECORD_SIZE + " bytes");
    }
    this.firstUnordered = firstUnordered;
    this.unorderedCount = unorderedCount;
    this.recordCount = recordCount;
    this.duplicateCount = duplicateCount;
    this.checksum = checksum;
    this.firstRecord = firstRecord.clone();
    this.lastRecord = lastRecord.clone();
  }

  /**
   * Reads one summary at {@code src}'s position (advancing it by {@link #BYTES}); order ignored.
   */
  public static ValsortSummary readFrom(ByteBuffer src) {
    ByteBuffer b = src.slice().order(ByteOrder.LITTLE_ENDIAN);
    Uint128[] c = new Uint128[5];
    for (int k = 0; k < 5; k++) {
      c[k] = Uint128.of(b.getLong(16 * k), b.getLong(16 * k + 8));
    }
    byte[] first = new byte[RECORD_SIZE];
    byte[] last = new byte[RECORD_SIZE];
    b.get(80, first);
    b.get(80 + RECORD_SIZE, last);
    src.position(src.position() + BYTES);
    return new ValsortSummary(c[0], c[1], c[2], c[3], c[4], first, last);
  }

  /** Writes the 280-byte form at {@code dst}'s position, advancing it; order ignored. */
  public void writeTo(ByteBuffer dst) {
    ByteBuffer b = dst.slice().order(ByteOrder.LITTLE_ENDIAN);
    Uint128[] c = {firstUnordered, unorderedCount, recordCount, duplicateCount, checksum};
    for (int k = 0; k < 5; k++) {
      b.putLong(16 * k, c[k].hi());
      b.putLong(16 * k + 8, c[k].lo());
    }
    b.put(80, firstRecord);
    b.put(80 + RECORD_SIZE, lastRecord);
    dst.position(dst.position() + BYTES);
  }

  /** The 280-byte form. */
  public byte[] toBytes() {
    ByteBuffer b = ByteBuffer.allocate(BYTES);
    writeTo(b);
    return b.array();
  }

  /** 0-based index of the first record smaller than its predecessor; zero when there is none. */
  public Uint128 firstUnordered() {
    return firstUnordered;
  }

  /** Records smaller than their predecessor. */
  public Uint128 unorderedCount() {
    return unorderedCount;
  }

  /** Records validated. */
  public Uint128 recordCount() {
    return recordCount;
  }

  /** Records whose key equals their predecessor's (k equal adjacent keys count k−1). */
  public Uint128 duplicateCount() {
    return duplicateCount;
  }

  /** The 128-bit sum of the records' CRC-32s. */
  public RecordChecksum checksum() {
    return RecordChecksum.of(checksum.hi(), checksum.lo());
  }

  /** A copy of the first record. */
  public byte[] firstRecord() {
    return firstRecord.clone();
  }

  /** A copy of the last record. */
  public byte[] lastRecord() {
    return lastRecord.clone();
  }

  /** Compares the first 10 bytes (the key) of the last record with {@code other}'s first. */
  int compareLastKeyToFirstKeyOf(ValsortSummary other) {
    return Arrays.compareUnsigned(lastRecord, 0, 10, other.firstRecord, 0, 10);
  }

  /** True when no record is out of order. */
  public boolean isOrdered() {
    return unorderedCount.isZero();
  }

  /**
   * The lines valsort 1.5 prints on stderr for this summary, in order: the first-unordered line
   * (when there is one), {@code Records:}, {@code Checksum:}, then the verdict.
   */
  public List<String> reportLines() {
    List<String> lines = new ArrayList<>();
    if (!firstUnordered.isZero()) {
      lines.add("First unordered record is record " + firstUnordered);
    }
    lines.add("Records: " + recordCount);
    lines.add("Checksum: " + checksum.toHexString());
    if (isOrdered()) {
      lines.add("Duplicate keys: " + duplicateCount);
      lines.add("SUCCESS - all records are in order");
    } else {
      lines.add("ERROR - there are " + unorderedCount + " unordered records");
    }
    return lines;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ValsortSummary s)) {
      return false;
    }
    return firstUnordered.equals(s.firstUnordered)
        && unorderedCount.equals(s.unorderedCount)
        && recordCount.equals(s.recordCount)
        && duplicateCount.equals(s.duplicateCount)
        && checksum.equals(s.checksum)
        && Arrays.equals(firstRecord, s.firstRecord)
        && Arrays.equals(lastRecord, s.lastRecord);
  }

  @Override
  public int hashCode() {
    return recordCount.hashCode() * 31 + checksum.hashCode();
  }

  @Override
  public String toString() {
    return String.join("; ", reportLines());
  }
}

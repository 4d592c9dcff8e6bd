package dev.joule.spark.record;

import java.io.Serializable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Fixed-size input records wrapped for the shuffle and the engine: the record's global ordinal (its
 * position in the concatenated input, 8 bytes big-endian) is inserted right after the key, so that
 * key and ordinal form one contiguous sort key of {@code keyLength + 8} bytes.
 *
 * <pre>
 * input record   [ head ... | key (L) | tail ... ]                  R bytes
 * wrapped record [ head ... | key (L) | ordinal (8) | tail ... ]    R + 8 bytes
 *                            ^ sort key: key, then ordinal
 * </pre>
 *
 * <p>Sorting wrapped records by the sort key gives the input's key order with equal keys in input
 * order: exactly the stable order of {@code joule sort} on the concatenated input. Immutable.
 */
public final class OrdinalRecordLayout implements SortKeyLayout, Serializable {
  private static final long serialVersionUID = 1L;

  /** Bytes added to each record. */
  public static final int ORDINAL_BYTES = 8;

  /** Largest input record: wrapped records must fit the engine's 65535-byte limit. */
  public static final int MAX_RECORD_SIZE = 65_535 - ORDINAL_BYTES;

  private static final VarHandle LONG_BE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final int recordSize;
  private final int keyOffset;
  private final int keyLength;
  private final int head;

  /**
   * @throws IllegalArgumentException when the key does not fit the record or the record is too
   *     large
   */
  public OrdinalRecordLayout(int recordSize, int keyOffset, int keyLength) {
    if (recordSize < 1 || recordSize > MAX_RECORD_SIZE) {
      throw new IllegalArgumentException(
          "record size " + recordSize + " is outside 1.." + MAX_RECORD_SIZE);
    }
    if (keyOffset < 0 || keyLength < 1 || (long) keyOffset + keyLength > recordSize) {
      throw new IllegalArgumentException(
          "key at offset "
              + keyOffset
              + " of length "
              + keyLength
              + " does not fit in a record of "
              + recordSize
              + " bytes");
    }
    this.recordSize = recordSize;
    this.keyOffset = keyOffset;
    this.keyLength = keyLength;
    this.head = keyOffset + keyLength;
  }

  /** The gensort layout: 100-byte records, 10-byte key at offset 0. */
  public static OrdinalRecordLayout gensort() {
    return new OrdinalRecordLayout(100, 0, 10);
  }

  public int recordSize() {
    return recordSize;
  }

  public int keyOffset() {
    return keyOffset;
  }

  public int keyLength() {
    return keyLength;
  }

  /** True for gensort's layout, the only one valsort summaries describe. */
  public boolean isGensort() {
    return recordSize == 100 && keyOffset == 0 && keyLength == 10;
  }

  @Override
  public int wrappedSize() {
    return recordSize + ORDINAL_BYTES;
  }

  @Override
  public int sortKeyOffset() {
    return keyOffset;
  }

  @Override
  public int sortKeyLength() {
    return keyLength + ORDINAL_BYTES;
  }

  /** Writes the wrapped form of the record at {@code src[srcOff]} to {@code dst[dstOff]}. */
  public void wrap(byte[] src, int srcOff, long ordinal, byte[] dst, int dstOff) {
    System.arraycopy(src, srcOff, dst, dstOff, head);
    LONG_BE.set(dst, dstOff + head, ordinal);
    System.arraycopy(src, srcOff + head, dst, dstOff + head + ORDINAL_BYTES, recordSize - head);
  }

  /**
   * Writes the record of the wrapped record at index 0 of {@code wrapped} to {@code dst[dstOff]}.
   */
  public void unwrap(ByteBuffer wrapped, byte[] dst, int dstOff) {
    wrapped.get(0, dst, dstOff, head);
    wrapped.get(head + ORDINAL_BYTES, dst, dstOff + head, recordSize - head);
  }

  /** The sort key of the record at {@code src[srcOff]} with {@code ordinal}: key, then ordinal. */
  public byte[] sortKey(byte[] src, int srcOff, long ordinal) {
    byte[] k = new byte[sortKeyLength()];
    System.arraycopy(src, srcOff + keyOffset, k, 0, keyLength);
    LONG_BE.set(k, keyLength, ordinal);
    return k;
  }

  /** The record without its key: the part that travels as the value in the Spark engine. */
  public byte[] rest(byte[] src, int srcOff) {
    byte[] v = new byte[recordSize - keyLength];
    System.arraycopy(src, srcOff, v, 0, keyOffset);
    System.arraycopy(src, srcOff + head, v, keyOffset, recordSize - head);
    return v;
  }

  /** Reassembles a record from a sort key ({@link #sortKey}) and its {@link #rest}. */
  public void join(byte[] sortKey, byte[] rest, byte[] dst, int dstOff) {
    System.arraycopy(rest, 0, dst, dstOff, keyOffset);
    System.arraycopy(sortKey, 0, dst, dstOff + keyOffset, keyLength);
    System.arraycopy(rest, keyOffset, dst, dstOff + head, recordSize - head);
  }

  @Override
  public String toString() {
    return "records of " + recordSize + " bytes, key [" + keyOffset + ".." + head + ")";
  }
}

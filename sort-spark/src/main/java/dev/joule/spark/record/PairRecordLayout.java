package dev.joule.spark.record;

import java.io.Serializable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Key/value pairs of variable length as fixed-size records for the engine, which sorts fixed-size
 * records only. Every key is padded with zero bytes to the longest key and followed by its length,
 * which orders keys exactly as {@link java.util.Arrays#compareUnsigned(byte[], byte[])} does (where
 * the padded bytes are equal, one key is a prefix of the other, and the shorter one is smaller);
 * then comes the ordinal that makes the sort stable; the value follows, padded to the longest
 * value.
 *
 * <pre>
 * [ key, zero-padded to maxKey | key length (4) | ordinal (8) | value length (4) | value, padded ]
 *   ^ sort key: maxKey + 12 bytes
 * </pre>
 *
 * <p>The padding costs space when lengths vary a lot; the wrapped size must stay within the
 * engine's 65535-byte records. Immutable.
 */
public final class PairRecordLayout implements SortKeyLayout, Serializable {
  private static final long serialVersionUID = 1L;

  /** Length fields and ordinal. */
  public static final int OVERHEAD = 4 + 8 + 4;

  private static final int MAX_WRAPPED = 65_535;
  private static final VarHandle INT_BE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONG_BE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final int maxKey;
  private final int maxValue;

  /**
   * @throws IllegalArgumentException when the wrapped records would exceed the engine's limit
   */
  public PairRecordLayout(int maxKey, int maxValue) {
    if (maxKey < 0 || maxValue < 0 || (long) maxKey + maxValue + OVERHEAD > MAX_WRAPPED) {
      throw new IllegalArgumentException(
          "keys of up to "
              + maxKey
              + " bytes and values of up to "
              + maxValue
              + " bytes need records of "
              + ((long) maxKey + maxValue + OVERHEAD)
              + " bytes; joule sorts fixed-size records of at most "
              + MAX_WRAPPED
              + " bytes");
    }
    this.maxKey = maxKey;
    this.maxValue = maxValue;
  }

  public int maxKey() {
    return maxKey;
  }

  public int maxValue() {
    return maxValue;
  }

  @Override
  public int wrappedSize() {
    return maxKey + maxValue + OVERHEAD;
  }

  @Override
  public int sortKeyOffset() {
    return 0;
  }

  @Override
  public int sortKeyLength() {
    return maxKey + 12;
  }

  /**
   * Writes the wrapped pair, padding included, to {@code dst[dstOff]}.
   *
   * @throws IllegalArgumentException when the key or the value is longer than the layout allows
   */
  public void wrap(byte[] key, byte[] value, long ordinal, byte[] dst, int dstOff) {
    if (key.length > maxKey || value.length > maxValue) {
      throw new IllegalArgumentException(
          "a key of "
              + key.length
              + " bytes or a value of "
              + value.length
              + " bytes is longer than the sampling pass saw (keys "
              + maxKey
              + ", values "
              + maxValue
              + "): the input RDD is not deterministic; persist it before sorting");
    }
    System.arraycopy(key, 0, dst, dstOff, key.length);
    Arrays.fill(dst, dstOff + key.length, dstOff + maxKey, (byte) 0);
    INT_BE.set(dst, dstOff + maxKey, key.length);
    LONG_BE.set(dst, dstOff + maxKey + 4, ordinal);
    INT_BE.set(dst, dstOff + maxKey + 12, value.length);
    int v = dstOff + maxKey + OVERHEAD;
    System.arraycopy(value, 0, dst, v, value.length);
    Arrays.fill(dst, v + value.length, v + maxValue, (byte) 0);
  }

  /** The key of the wrapped record at index 0 of {@code wrapped}. */
  public byte[] key(ByteBuffer wrapped) {
    byte[] k = new byte[wrapped.getInt(maxKey)];
    wrapped.get(0, k);
    return k;
  }

  /** The value of the wrapped record at index 0 of {@code wrapped}. */
  public byte[] value(ByteBuffer wrapped) {
    byte[] v = new byte[wrapped.getInt(maxKey + 12)];
    wrapped.get(maxKey + OVERHEAD, v);
    return v;
  }

  /** The sort key of {@code key} with {@code ordinal}, as {@link #wrap} lays it out. */
  public byte[] sortKey(byte[] key, long ordinal) {
    byte[] k = new byte[sortKeyLength()];
    System.arraycopy(key, 0, k, 0, key.length);
    INT_BE.set(k, maxKey, key.length);
    LONG_BE.set(k, maxKey + 4, ordinal);
    return k;
  }

  @Override
  public String toString() {
    return "pairs: keys up to " + maxKey + " bytes, values up to " + maxValue + " bytes";
  }
}

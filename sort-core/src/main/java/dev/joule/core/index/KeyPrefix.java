package dev.joule.core.index;

import java.nio.ByteBuffer;

/**
 * Normalized key prefixes: the first 8 key bytes read big-endian as an unsigned {@code long}, so
 * that {@link Long#compareUnsigned} on two prefixes agrees with {@link
 * java.util.Arrays#compareUnsigned} on the first 8 key bytes. Keys shorter than 8 bytes are padded
 * with zero bytes on the right; a shorter key is then equal in prefix to a longer key that
 * continues with zeros, and the full-key comparison (which also compares lengths) decides.
 */
public final class KeyPrefix {
  private KeyPrefix() {}

  /**
   * The prefix of the key of {@code keyLength} bytes at absolute index {@code keyIndex} of {@code
   * buf}. The buffer's byte order is ignored; bytes are combined big-endian.
   */
  public static long of(ByteBuffer buf, int keyIndex, int keyLength) {
    if (keyLength >= 8) {
      long v = buf.getLong(keyIndex);
      return buf.order() == java.nio.ByteOrder.BIG_ENDIAN ? v : Long.reverseBytes(v);
    }
    long v = 0;
    for (int i = 0; i < keyLength; i++) {
      v = (v << 8) | (buf.get(keyIndex + i) & 0xFFL);
    }
    return v << (8 * (8 - keyLength));
  }

  /** Same as {@link #of(ByteBuffer, int, int)} for a heap array. */
  public static long of(byte[] a, int keyIndex, int keyLength) {
    long v = 0;
    int n = Math.min(8, keyLength);
    for (int i = 0; i < n; i++) {
      v = (v << 8) | (a[keyIndex + i] & 0xFFL);
    }
    return v << (8 * (8 - n));
  }
}

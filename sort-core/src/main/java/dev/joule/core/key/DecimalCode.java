package dev.joule.core.key;

import java.nio.ByteBuffer;

/**
 * The order-preserving code of a decimal number shared by GNU {@code -n}/{@code -h} and {@link
 * KeyEncoder}'s decimals. A nonzero value is written as {@code 0.d1 d2 ... dn x 10^e} with {@code
 * d1 != 0} and no trailing zero digit:
 *
 * <ul>
 *   <li>zero: the single byte {@code 0x80};
 *   <li>positive: a header for {@code e} — {@code 0xC0 + e} for {@code -61 <= e <= 62}, else {@code
 *       0xFF} (larger) or {@code 0x81} (smaller) followed by {@code e} as 8 bytes big-endian with
 *       the sign bit flipped — then the digits as nibbles {@code d + 1}, then a 0 nibble, padded
 *       with a 0 nibble to a whole byte;
 *   <li>negative: every byte of the positive code of its magnitude inverted.
 * </ul>
 *
 * Bigger exponents mean bigger magnitudes, equal exponents compare digit by digit, and the 0
 * terminator nibble sorts below every digit, so the code is prefix-free and its bytes order as the
 * numbers do; inverting reverses that for negatives, all of which sort below zero's {@code 0x80}.
 * Eight bytes hold the header and 14 digits.
 */
final class DecimalCode {
  static final int ZERO = 0x80;

  private DecimalCode() {}

  static int headerLength(long exponent) {
    return exponent >= -61 && exponent <= 62 ? 1 : 9;
  }

  /** Bytes of the code of a nonzero value with {@code digits} significant digits. */
  static int length(long exponent, long digits) {
    return headerLength(exponent) + (int) ((digits + 2) / 2);
  }

  /** Bytes needed at most for a value written with up to {@code digits} digits. */
  static int maxLength(long digits) {
    return 9 + (int) ((digits + 2) / 2);
  }

  static int writeHeader(ByteBuffer dst, int pos, long exponent) {
    if (exponent >= -61 && exponent <= 62) {
      dst.put(pos, (byte) (0xC0 + exponent));
      return 1;
    }
    dst.put(pos, (byte) (exponent > 0 ? 0xFF : 0x81));
    dst.putLong(pos + 1, bigEndian(dst, exponent ^ Long.MIN_VALUE));
    return 9;
  }

  /** {@code v} arranged so that {@code putLong} in {@code dst}'s order stores it big-endian. */
  static long bigEndian(ByteBuffer dst, long v) {
    return dst.order() == java.nio.ByteOrder.BIG_ENDIAN ? v : Long.reverseBytes(v);
  }

  static void invert(ByteBuffer dst, int from, int to) {
    for (int i = from; i < to; i++) {
      dst.put(i, (byte) ~dst.get(i));
    }
  }
}

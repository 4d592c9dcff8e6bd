package dev.joule.core.memory;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Finds a byte in a buffer eight bytes at a time: the line splitter's delimiter, a GNU key's {@code
 * -t} separator. Stateless; nothing here allocates.
 */
public final class ByteSearch {
  private static final long ONES = 0x0101_0101_0101_0101L;
  private static final long LOWS = 0x7F7F_7F7F_7F7F_7F7FL;

  private ByteSearch() {}

  /**
   * Index of the first {@code value} in {@code [from, to)} of {@code b} (absolute indices), or -1.
   * In {@code x = word ^ value-in-every-byte} the match is a zero byte, and {@code ~(((x & 7F..) +
   * 7F..) | x | 7F..)} sets the high bit of exactly the zero bytes (no carry crosses bytes, so
   * unlike the shorter {@code (x - 01..) & ~x & 80..} it has no false hit before a real one); the
   * word is read big-endian, so the first byte in memory is the most significant.
   */
  public static int indexOf(ByteBuffer b, int from, int to, byte value) {
    long pattern = (value & 0xFFL) * ONES;
    boolean swap = b.order() != ByteOrder.BIG_ENDIAN;
    int i = from;
    for (; i + Long.BYTES <= to; i += Long.BYTES) {
      long w = b.getLong(i);
      long x = (swap ? Long.reverseBytes(w) : w) ^ pattern;
      long zero = ~(((x & LOWS) + LOWS) | x | LOWS);
      if (zero != 0) {
        return i + (Long.numberOfLeadingZeros(zero) >>> 3);
      }
    }
    for (; i < to; i++) {
      if (b.get(i) == value) {
        return i;
      }
    }
    return -1;
  }
}

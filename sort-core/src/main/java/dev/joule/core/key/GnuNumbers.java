package dev.joule.core.key;

import java.nio.ByteBuffer;

/**
 * GNU sort's {@code -n}, {@code -h} and {@code -M} in the C locale, as normalized keys.
 *
 * <p>{@code -n} (gnulib's strnumcmp with no thousands separator): after leading blanks, an optional
 * {@code -}, digits, optionally {@code .} and more digits; anything else ends the number and a key
 * without digits is 0. The comparison is exactly by value ({@code 1.50 == 1.5}, {@code -0 == 0},
 * {@code 007 == 7}, {@code "-" == "" == 0}), so the key is {@link DecimalCode} of that value.
 *
 * <p>{@code -h}: the same number, preceded by the unit order of GNU's {@code find_unit_order}: the
 * byte right after the number (after its fraction if it has a {@code .}) read as K/k=1, M=2, G=3,
 * T=4, P=5, E=6, Z=7, Y=8, R=9, Q=10, else 0, negated for a negative number, and 0 for a number
 * whose digits are all zeros. Keys order by unit first, then by value: one byte {@code 0x80 + unit}
 * then the {@code -n} code.
 *
 * <p>{@code -M}: after leading blanks, the first three bytes upper-cased must spell JAN..DEC, else
 * the month is 0 (before JAN): one byte, the month number.
 *
 * <p>Costs one pass over the key's bytes; no allocation. Stateless.
 */
final class GnuNumbers {
  private static final int[] MONTHS = new int[12];

  static {
    String names = "JANFEBMARAPRMAYJUNJULAUGSEPOCTNOVDEC";
    for (int m = 0; m < 12; m++) {
      MONTHS[m] =
          (names.charAt(3 * m) << 16) | (names.charAt(3 * m + 1) << 8) | names.charAt(3 * m + 2);
    }
  }

  private GnuNumbers() {}

  static int maxNumericLength(int keyLength, boolean human) {
    return (human ? 1 : 0) + DecimalCode.maxLength(keyLength);
  }

  /**
   * Writes the {@code -n} (or {@code -h}) code of the key in {@code rec[s, e)} at {@code dst[pos]};
   * returns its length. With {@code dst == null} only measures.
   */
  static int encodeNumeric(ByteBuffer rec, int s, int e, ByteBuffer dst, int pos, boolean human) {
    int p = s;
    while (p < e && CLocale.BLANK[rec.get(p) & 0xFF]) {
      p++;
    }
    boolean negative = p < e && rec.get(p) == '-';
    if (negative) {
      p++;
    }
    while (p < e && rec.get(p) == '0') {
      p++;
    }
    int intStart = p;
    while (p < e && CLocale.isDigit(rec.get(p))) {
      p++;
    }
    int intEnd = p;
    int fracStart = p;
    int fracEnd = p;
    if (p < e && rec.get(p) == '.') {
      fracStart = ++p;
      while (p < e && CLocale.isDigit(rec.get(p))) {
        p++;
      }
      fracEnd = p;
    }
    int unitAt = p;
    while (fracEnd > fracStart && rec.get(fracEnd - 1) == '0') {
      fracEnd--;
    }
    long exponent;
    int firstFrac = fracStart;
    if (intStart < intEnd) {
      exponent = (long) intEnd - intStart;
    } else {
      while (firstFrac < fracEnd && rec.get(firstFrac) == '0') {
        firstFrac++;
      }
      exponent = (long) fracStart - firstFrac;
    }
    long digits = ((long) intEnd - intStart) + ((long) fracEnd - firstFrac);
    int out = pos;
    if (human) {
      int unit = 0;
      if (digits > 0 && unitAt < e) {
        unit = unitOrder(rec.get(unitAt));
        if (negative) {
          unit = -unit;
        }
      }
      if (dst != null) {
        dst.put(out, (byte) (0x80 + unit));
      }
      out++;
    }
    if (digits == 0) {
      if (dst != null) {
        dst.put(out, (byte) DecimalCode.ZERO);
      }
      return out + 1 - pos;
    }
    if (dst == null) {
      return out - pos + DecimalCode.length(exponent, digits);
    }
    int numberStart = out;
    out += DecimalCode.writeHeader(dst, out, exponent);
    int pending = -1;
    for (int i = intStart; i < intEnd; i++) {
      int nibble = rec.get(i) - '0' + 1;
      if (pending < 0) {
        pending = nibble;
      } else {
        dst.put(out++, (byte) (pending << 4 | nibble));
        pending = -1;
      }
    }
    for (int i = firstFrac; i < fracEnd; i++) {
      int nibble = rec.get(i) - '0' + 1;
      if (pending < 0) {
        pending = nibble;
      } else {
        dst.put(out++, (byte) (pending << 4 | nibble));
        pending = -1;
      }
    }
    // The terminator nibble: alone in a byte, or after the last digit.
    dst.put(out++, (byte) (pending < 0 ? 0 : pending << 4));
    if (negative) {
      DecimalCode.invert(dst, numberStart, out);
    }
    return out - pos;
  }

  static int unitOrder(byte b) {
    switch (b) {
      case 'K':
      case 'k':
        return 1;
      case 'M':
        return 2;
      case 'G':
        return 3;
      case 'T':
        return 4;
      case 'P':
        return 5;
      case 'E':
        return 6;
      case 'Z':
        return 7;
      case 'Y':
        return 8;
      case 'R':
        return 9;
      case 'Q':
        return 10;
      default:
        return 0;
    }
  }

  /** GNU's month of the key in {@code rec[s, e)}: 0 when unknown, else 1..12. */
  static int month(ByteBuffer rec, int s, int e) {
    int p = s;
    while (p < e && CLocale.BLANK[rec.get(p) & 0xFF]) {
      p++;
    }
    if (e - p < 3) {
      return 0;
    }
    int name =
        ((CLocale.UPPER[rec.get(p) & 0xFF] & 0xFF) << 16)
            | ((CLocale.UPPER[rec.get(p + 1) & 0xFF] & 0xFF) << 8)
            | (CLocale.UPPER[rec.get(p + 2) & 0xFF] & 0xFF);
    for (int m = 0; m < 12; m++) {
      if (MONTHS[m] == name) {
        return m + 1;
      }
    }
    return 0;
  }
}

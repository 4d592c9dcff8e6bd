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
 * T=4, P=5, E=6, Z=7, Y=8, R=9, Q=10 (R and Q only after coreutils 9.1), else 0, negated for a
 * negative number, and 0 for a number whose digits are all zeros. Keys order by unit first, then by
 * value: one byte {@code 0x80 + unit} then the {@code -n} code.
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

  /**
   * How a locale writes numbers, as GNU sort reads them for {@code -n} and {@code -h}: the decimal
   * point byte; the thousands separator byte strnumcmp skips (among leading zeros and after integer
   * digits), or -1; the separator {@code -h}'s unit scan ({@code traverse_raw_number}) lets through
   * once after a digit, or -1; {@code -f}'s upper case for {@code -h}'s unit byte, or null without
   * {@code -f}. Immutable.
   */
  static final class Conventions {
    private final byte point;
    private final int separator;
    private final int unitSeparator;
    private final byte[] upper;

    Conventions(byte point, int separator, int unitSeparator, byte[] upper) {
      this.point = point;
      this.separator = separator;
      this.unitSeparator = unitSeparator;
      this.upper = upper;
    }

    byte point() {
      return point;
    }

    int separator() {
      return separator;
    }

    int unitSeparator() {
      return unitSeparator;
    }

    byte[] upper() {
      return upper;
    }

    /** The C locale's in current coreutils: {@code .}, no separator, no {@code -f}. */
    static final Conventions C = new Conventions((byte) '.', -1, -1, null);

    /**
     * {@code locale}'s conventions in the release ({@code old}: coreutils 9.1, whose strnumcmp
     * compares unsigned bytes with GNU's {@code NON_CHAR}, 128, when the locale has no one-byte
     * separator, and never matches a separator byte of 0x80 or more; its unit scan compares signed
     * chars, where 128 matches nothing), with {@code -f} if {@code fold}.
     */
    static Conventions of(TextLocale locale, boolean old, boolean fold) {
      int sep = locale.thousandsSeparator;
      int value;
      if (sep == TextLocale.NO_SEPARATOR) {
        value = old ? 0x80 : -1;
      } else {
        value = old && sep >= 0x80 ? -1 : sep;
      }
      return new Conventions(locale.decimalPoint, value, sep, fold ? locale.upper : null);
    }
  }

  static int maxNumericLength(int keyLength, boolean human) {
    return (human ? 1 : 0) + DecimalCode.maxLength(keyLength);
  }

  /**
   * Writes the {@code -n} code (or with {@code maxUnit > 0} the {@code -h} code, units above {@code
   * maxUnit} counting as none) of the key in {@code rec[s, e)} at {@code dst[pos]}; returns its
   * length. The conventions' separator is skipped wherever GNU's strnumcmp skips a thousands
   * separator: among the leading zeros and after each integer digit. With {@code dst == null} only
   * measures.
   */
  static int encodeNumeric(
      ByteBuffer rec, int s, int e, ByteBuffer dst, int pos, int maxUnit, Conventions numbers) {
    int separator = numbers.separator();
    byte point = numbers.point();
    byte sep = (byte) separator;
    boolean skips = separator >= 0;
    int p = s;
    while (p < e && CLocale.BLANK[rec.get(p) & 0xFF]) {
      p++;
    }
    boolean negative = p < e && rec.get(p) == '-';
    if (negative) {
      p++;
    }
    int numberStart = p;
    while (p < e && (rec.get(p) == '0' || (skips && rec.get(p) == sep))) {
      p++;
    }
    int intStart = p;
    long intDigits = 0;
    while (p < e) {
      byte b = rec.get(p);
      if (CLocale.isDigit(b)) {
        intDigits++;
      } else if (!skips || b != sep) {
        break;
      }
      p++;
    }
    int intEnd = p;
    int fracStart = p;
    int fracEnd = p;
    if (p < e && rec.get(p) == point) {
      fracStart = ++p;
      while (p < e && CLocale.isDigit(rec.get(p))) {
        p++;
      }
      fracEnd = p;
    }
    while (fracEnd > fracStart && rec.get(fracEnd - 1) == '0') {
      fracEnd--;
    }
    long exponent;
    int firstFrac = fracStart;
    if (intDigits > 0) {
      exponent = intDigits;
    } else {
      while (firstFrac < fracEnd && rec.get(firstFrac) == '0') {
        firstFrac++;
      }
      exponent = (long) fracStart - firstFrac;
    }
    long digits = intDigits + ((long) fracEnd - firstFrac);
    int out = pos;
    if (maxUnit > 0) {
      int unit = digits > 0 ? unit(rec, numberStart, e, maxUnit, numbers) : 0;
      if (dst != null) {
        dst.put(out, (byte) (0x80 + (negative ? -unit : unit)));
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
    int codeStart = out;
    out += DecimalCode.writeHeader(dst, out, exponent);
    int pending = -1;
    for (int i = intStart; i < intEnd; i++) {
      byte b = rec.get(i);
      if (!CLocale.isDigit(b)) {
        continue; // a skipped separator
      }
      int nibble = b - '0' + 1;
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
      DecimalCode.invert(dst, codeStart, out);
    }
    return out - pos;
  }

  /**
   * GNU's {@code find_unit_order} for a nonzero number starting at {@code p}: the byte where its
   * scan of the number stops ({@link #digitsEnd(ByteBuffer, int, int, Conventions)}). A number
   * whose scan stops early, at a separator, has that separator as its unit byte: no unit.
   */
  private static int unit(ByteBuffer rec, int p, int e, int maxUnit, Conventions numbers) {
    p = digitsEnd(rec, p, e, numbers);
    if (p >= e) {
      return 0;
    }
    byte b = rec.get(p);
    int u = unitOrder(numbers.upper() != null ? numbers.upper()[b & 0xFF] : b);
    return u > maxUnit ? 0 : u;
  }

  /**
   * The end of the digits at {@code p}, then of a {@code .} and the digits after it, if any: where
   * GNU's scan of a number's digits stops ({@code traverse_raw_number} in the C locale).
   */
  static int digitsEnd(ByteBuffer rec, int p, int e) {
    return digitsEnd(rec, p, e, Conventions.C);
  }

  /**
   * GNU's {@code traverse_raw_number} from {@code p}: digits, each followed by at most one unit
   * separator, then, unless a separator ended the digits (the scan then stops at it), the decimal
   * point and digits.
   */
  static int digitsEnd(ByteBuffer rec, int p, int e, Conventions numbers) {
    int sep = numbers.unitSeparator();
    boolean afterSeparator = false;
    while (p < e && CLocale.isDigit(rec.get(p))) {
      p++;
      afterSeparator = sep >= 0 && p < e && (rec.get(p) & 0xFF) == sep;
      if (afterSeparator) {
        p++;
      }
    }
    if (afterSeparator) {
      return p - 1;
    }
    if (p < e && rec.get(p) == numbers.point()) {
      p++;
      while (p < e && CLocale.isDigit(rec.get(p))) {
        p++;
      }
    }
    return p;
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

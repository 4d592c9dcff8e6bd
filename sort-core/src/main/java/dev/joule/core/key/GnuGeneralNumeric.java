package dev.joule.core.key;

import java.math.BigInteger;
import java.nio.ByteBuffer;

/**
 * GNU sort's {@code -g}: the key converted as glibc's {@code strtold} does on x86-64 (80-bit x87
 * extended precision: 64-bit significand with explicit integer bit, 15-bit exponent, round to
 * nearest even, gradual underflow, overflow to infinity), ordered conversion errors first, then
 * NaNs, then numbers with {@code -0 == +0}.
 *
 * <p>Accepted, as {@code strtold}: leading {@code isspace} bytes, an optional sign, then {@code
 * inf}/{@code infinity} or {@code nan} in any case ({@code nan(chars)} for a payload), or a decimal
 * number (digits with an optional {@code .}, at least one digit, optional {@code e[+-]digits}) or a
 * hexadecimal one ({@code 0x}, hex digits with an optional {@code .}, optional {@code
 * p[+-]digits}). {@code 0x} without a hex digit reads as 0. An exponent without digits is not part
 * of the number. Anything else is a conversion error.
 *
 * <p>Normalized key: {@code 0x00} for an error; {@code 0x01} then the NaN's rank for a NaN ({@link
 * KeyType.GnuRelease#CURRENT}: one byte, 0 for a negative NaN and 1 for a positive one; {@link
 * KeyType.GnuRelease#COREUTILS_9_1}: the 64-bit significand's bytes least significant first, then
 * {@code 0x7F} for positive or {@code 0xFF} for negative, which is memcmp order of the stored
 * value); {@code 0x02} then 10 bytes for a number: the 80-bit value big-endian (sign, 15-bit biased
 * exponent, 64-bit significand) with the sign bit set for positive values and every bit inverted
 * for negative ones, zero always positive. Distinct 80-bit values have distinct
 * significand/exponent pairs, so the code orders exactly as the values.
 *
 * <p>Cost: numbers with at most 19 significant digits and a decimal exponent within ±27 (or any
 * hexadecimal number) convert with 128-bit integer arithmetic and no allocation; others take an
 * exact {@link BigInteger} path that allocates. Stateless.
 */
final class GnuGeneralNumeric {
  static final int MAX_LENGTH = 11;

  private static final int ERROR = 0x00;
  private static final int NAN = 0x01;
  private static final int NUMBER = 0x02;

  private static final int EXP_BIAS = 16383;
  private static final int EXP_INF = 0x7FFF;

  /** The exponent of the least significant bit of the smallest subnormal. */
  private static final int MIN_LSB = -16445;

  private static final long QUIET_NAN = 0xC000000000000000L;
  private static final long NAN_PAYLOAD = 0x3FFFFFFFFFFFFFFFL;
  private static final long EXP_LIMIT = 1_000_000_000L;

  private static final long[] POW5 = new long[28];

  static {
    POW5[0] = 1;
    for (int i = 1; i < POW5.length; i++) {
      POW5[i] = POW5[i - 1] * 5;
    }
  }

  private GnuGeneralNumeric() {}

  /**
   * Writes the key of {@code rec[s, e)} at {@code dst[pos]}; returns its length. {@code dst ==
   * null} only measures.
   */
  static int encode(ByteBuffer rec, int s, int e, ByteBuffer dst, int pos, boolean textNans) {
    return encode(rec, s, e, dst, pos, textNans, (byte) '.');
  }

  /** {@link #encode(ByteBuffer, int, int, ByteBuffer, int, boolean)} with this decimal point. */
  static int encode(
      ByteBuffer rec, int s, int e, ByteBuffer dst, int pos, boolean textNans, byte point) {
    int p = s;
    while (p < e && CLocale.SPACE[rec.get(p) & 0xFF]) {
      p++;
    }
    boolean negative = false;
    if (p < e && (rec.get(p) == '-' || rec.get(p) == '+')) {
      negative = rec.get(p) == '-';
      p++;
    }
    boolean digitFirst =
        p < e
            && (CLocale.isDigit(rec.get(p))
                || (rec.get(p) == point && p + 1 < e && CLocale.isDigit(rec.get(p + 1))));
    if (!digitFirst) {
      if (matches(rec, p, e, "inf")) {
        return writeNumber(dst, pos, negative, EXP_INF, Long.MIN_VALUE);
      }
      if (matches(rec, p, e, "nan")) {
        if (dst == null) {
          return textNans ? 2 : 10;
        }
        dst.put(pos, (byte) NAN);
        if (textNans) {
          dst.put(pos + 1, (byte) (negative ? 0 : 1));
          return 2;
        }
        long significand = QUIET_NAN | (nanPayload(rec, p + 3, e) & NAN_PAYLOAD);
        dst.putLong(pos + 1, DecimalCode.bigEndian(dst, Long.reverseBytes(significand)));
        dst.put(pos + 9, (byte) (negative ? 0xFF : 0x7F));
        return 10;
      }
      if (dst != null) {
        dst.put(pos, (byte) ERROR);
      }
      return 1;
    }
    if (dst == null) {
      return MAX_LENGTH;
    }
    if (rec.get(p) == '0' && p + 1 < e && (rec.get(p + 1) | 0x20) == 'x') {
      int q = p + 2;
      if (q < e
          && (CLocale.isHexDigit(rec.get(q))
              || (rec.get(q) == point && q + 1 < e && CLocale.isHexDigit(rec.get(q + 1))))) {
        return hex(rec, q, e, dst, pos, negative, point);
      }
      return writeNumber(dst, pos, false, 0, 0);
    }
    return decimal(rec, p, e, dst, pos, negative, point);
  }

  /**
   * Where {@code strtold} stops reading {@code rec[s, e)}: after the longest prefix it converts
   * (leading white space, a sign, then a decimal or hexadecimal number with an optional exponent,
   * {@code inf}, {@code infinity}, or {@code nan} with an optional {@code (chars)}), or {@code s}
   * when it converts nothing. For {@code --debug}'s mark of a {@code -g} key.
   */
  static int end(ByteBuffer rec, int s, int e) {
    return end(rec, s, e, (byte) '.');
  }

  /** {@link #end(ByteBuffer, int, int)} with this decimal point. */
  static int end(ByteBuffer rec, int s, int e, byte point) {
    int p = s;
    while (p < e && CLocale.SPACE[rec.get(p) & 0xFF]) {
      p++;
    }
    if (p < e && (rec.get(p) == '-' || rec.get(p) == '+')) {
      p++;
    }
    if (matches(rec, p, e, "infinity")) {
      return p + 8;
    }
    if (matches(rec, p, e, "inf")) {
      return p + 3;
    }
    if (matches(rec, p, e, "nan")) {
      int q = p + 3;
      if (q < e && rec.get(q) == '(') {
        int r = q + 1;
        while (r < e && (CLocale.isAlnum(rec.get(r)) || rec.get(r) == '_')) {
          r++;
        }
        if (r < e && rec.get(r) == ')') {
          return r + 1;
        }
      }
      return q;
    }
    boolean hex =
        p + 1 < e
            && rec.get(p) == '0'
            && (rec.get(p + 1) | 0x20) == 'x'
            && mantissaEnd(rec, p + 2, e, true, point) > p + 2;
    int digitsFrom = hex ? p + 2 : p;
    int m = mantissaEnd(rec, digitsFrom, e, hex, point);
    if (m == digitsFrom) {
      return s; // no digit: nothing converted
    }
    if (m < e && (rec.get(m) | 0x20) == (hex ? 'p' : 'e')) {
      int x = m + 1;
      if (x < e && (rec.get(x) == '-' || rec.get(x) == '+')) {
        x++;
      }
      int digits = x;
      while (x < e && CLocale.isDigit(rec.get(x))) {
        x++;
      }
      if (x > digits) {
        return x;
      }
    }
    return m;
  }

  /**
   * The end of the digits, a point and more digits at {@code p} (hexadecimal digits if {@code
   * hex}), or {@code p} when there is no digit among them.
   */
  private static int mantissaEnd(ByteBuffer rec, int p, int e, boolean hex, byte point) {
    int q = p;
    boolean digit = false;
    while (q < e && (hex ? CLocale.isHexDigit(rec.get(q)) : CLocale.isDigit(rec.get(q)))) {
      q++;
      digit = true;
    }
    if (q < e && rec.get(q) == point) {
      q++;
      while (q < e && (hex ? CLocale.isHexDigit(rec.get(q)) : CLocale.isDigit(rec.get(q)))) {
        q++;
        digit = true;
      }
    }
    return digit ? q : p;
  }

  private static boolean matches(ByteBuffer rec, int p, int e, String word) {
    if (e - p < word.length()) {
      return false;
    }
    for (int i = 0; i < word.length(); i++) {
      if ((rec.get(p + i) | 0x20) != word.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * glibc's payload of {@code nan(chars)}: {@code chars} ({@code [0-9A-Za-z_]*}) read as {@code
   * strtoull} base 0 reads them, if it reads all of them; 0 otherwise or without the parentheses.
   * Overflow saturates.
   */
  private static long nanPayload(ByteBuffer rec, int p, int e) {
    if (p >= e || rec.get(p) != '(') {
      return 0;
    }
    int start = p + 1;
    int q = start;
    while (q < e && (CLocale.isAlnum(rec.get(q)) || rec.get(q) == '_')) {
      q++;
    }
    if (q >= e || rec.get(q) != ')') {
      return 0;
    }
    int base = 10;
    int d = start;
    if (q - start >= 2 && rec.get(d) == '0' && (rec.get(d + 1) | 0x20) == 'x') {
      if (q - start >= 3 && CLocale.isHexDigit(rec.get(d + 2))) {
        base = 16;
        d += 2;
      } else {
        return 0; // strtoull reads only the "0": the sequence is not all read
      }
    } else if (q > start && rec.get(d) == '0') {
      base = 8;
    }
    long value = 0;
    boolean overflow = false;
    for (; d < q; d++) {
      int b = rec.get(d);
      int digit = CLocale.isHexDigit(b) ? CLocale.hexValue(b) : 99;
      if (digit >= base) {
        return 0;
      }
      long hi = Math.multiplyHigh(value, base) + ((value >> 63) & base);
      long next = value * base + digit;
      if (hi != 0 || Long.compareUnsigned(next, value * base) < 0) {
        overflow = true;
      }
      value = next;
    }
    return overflow ? -1L : value;
  }

  private static int decimal(
      ByteBuffer rec, int p, int e, ByteBuffer dst, int pos, boolean negative, byte point) {
    long m = 0;
    int kept = 0;
    long exp10 = 0;
    boolean droppedNonzero = false;
    int digitsStart = p;
    boolean seenPoint = false;
    for (; p < e; p++) {
      int b = rec.get(p);
      if (b == point && !seenPoint) {
        seenPoint = true;
        continue;
      }
      if (!CLocale.isDigit(b)) {
        break;
      }
      int d = b - '0';
      if (kept == 0 && d == 0) {
        if (seenPoint) {
          exp10--;
        }
      } else if (kept < 19) {
        m = m * 10 + d;
        kept++;
        if (seenPoint) {
          exp10--;
        }
      } else {
        droppedNonzero |= d != 0;
        if (!seenPoint) {
          exp10++;
        }
      }
    }
    int digitsEnd = p;
    long exponent = 0;
    if (p < e && (rec.get(p) | 0x20) == 'e') {
      int q = p + 1;
      boolean expNegative = false;
      if (q < e && (rec.get(q) == '+' || rec.get(q) == '-')) {
        expNegative = rec.get(q) == '-';
        q++;
      }
      if (q < e && CLocale.isDigit(rec.get(q))) {
        for (; q < e && CLocale.isDigit(rec.get(q)); q++) {
          exponent = Math.min(EXP_LIMIT, exponent * 10 + rec.get(q) - '0');
        }
        if (expNegative) {
          exponent = -exponent;
        }
      }
    }
    if (m == 0) {
      return writeNumber(dst, pos, false, 0, 0);
    }
    long e10 = exp10 + exponent;
    if (!droppedNonzero && e10 >= -27 && e10 <= 27) {
      return fastDecimal(dst, pos, negative, m, (int) e10);
    }
    return slowDecimal(rec, digitsStart, digitsEnd, exponent, dst, pos, negative, point);
  }

  /** {@code m x 10^e10} for {@code |e10| <= 27}, exactly in 128 bits. */
  private static int fastDecimal(ByteBuffer dst, int pos, boolean negative, long m, int e10) {
    if (e10 >= 0) {
      long f = POW5[e10];
      long lo = m * f;
      long hi = Math.multiplyHigh(m, f) + ((m >> 63) & f);
      return round(dst, pos, negative, hi, lo, e10, false);
    }
    long d = POW5[-e10];
    int shift = Long.numberOfLeadingZeros(m);
    long n = m << shift;
    // (n * 2^64) / d as a 128-bit quotient: high word, then the low word from the remainder.
    long qHi = Long.divideUnsigned(n, d);
    long r = Long.remainderUnsigned(n, d);
    long qLo = divide128(r, 0, d);
    // The remainder is below d, so the low 64 bits of r * 2^64 - qLo * d are all of it.
    long rest = -(qLo * d);
    return round(dst, pos, negative, qHi, qLo, e10 - 64 - shift, rest != 0);
  }

  /**
   * Divides the 128-bit {@code (u1, u0)} by {@code v} when {@code u1 < v} (unsigned), so that the
   * quotient fits 64 bits: Knuth's algorithm D with 32-bit digits on a normalized divisor. Returns
   * the quotient.
   */
  static long divide128(long u1, long u0, long v) {
    int s = Long.numberOfLeadingZeros(v);
    v <<= s;
    long vn1 = v >>> 32;
    long vn0 = v & 0xFFFFFFFFL;
    long un32 = s == 0 ? u1 : (u1 << s) | (u0 >>> (64 - s));
    long un10 = u0 << s;
    long un1 = un10 >>> 32;
    long un0 = un10 & 0xFFFFFFFFL;
    long q1 = Long.divideUnsigned(un32, vn1);
    long rhat = un32 - q1 * vn1;
    while (Long.compareUnsigned(q1, 1L << 32) >= 0
        || Long.compareUnsigned(q1 * vn0, (rhat << 32) | un1) > 0) {
      q1--;
      rhat += vn1;
      if (Long.compareUnsigned(rhat, 1L << 32) >= 0) {
        break;
      }
    }
    long un21 = (un32 << 32) + un1 - q1 * v;
    long q0 = Long.divideUnsigned(un21, vn1);
    rhat = un21 - q0 * vn1;
    while (Long.compareUnsigned(q0, 1L << 32) >= 0
        || Long.compareUnsigned(q0 * vn0, (rhat << 32) | un0) > 0) {
      q0--;
      rhat += vn1;
      if (Long.compareUnsigned(rhat, 1L << 32) >= 0) {
        break;
      }
    }
    return (q1 << 32) | q0;
  }

  private static int slowDecimal(
      ByteBuffer rec,
      int start,
      int end,
      long exponent,
      ByteBuffer dst,
      int pos,
      boolean neg,
      byte point) {
    BigInteger m = BigInteger.ZERO;
    long chunk = 0;
    int chunkDigits = 0;
    long fracDigits = 0;
    boolean seenPoint = false;
    for (int p = start; p < end; p++) {
      int b = rec.get(p);
      if (b == point) {
        seenPoint = true;
        continue;
      }
      chunk = chunk * 10 + (b - '0');
      if (seenPoint) {
        fracDigits++;
      }
      if (++chunkDigits == 18) {
        m = m.multiply(BigInteger.TEN.pow(18)).add(BigInteger.valueOf(chunk));
        chunk = 0;
        chunkDigits = 0;
      }
    }
    if (chunkDigits > 0) {
      m = m.multiply(BigInteger.TEN.pow(chunkDigits)).add(BigInteger.valueOf(chunk));
    }
    long e10 = exponent - fracDigits;
    // m < 10^digits, so the value is below 10^(e10 + digits) and at least 10^(e10 + digits - 1).
    long digits = m.toString().length();
    long magnitude = e10 + digits;
    if (magnitude > 4934) {
      return writeNumber(dst, pos, neg, EXP_INF, Long.MIN_VALUE);
    }
    if (magnitude < -4952) {
      return writeNumber(dst, pos, false, 0, 0);
    }
    BigInteger q;
    long binExp;
    boolean sticky = false;
    if (e10 >= 0) {
      q = m.multiply(BigInteger.TEN.pow((int) e10));
      binExp = 0;
    } else {
      BigInteger d = BigInteger.TEN.pow((int) -e10);
      int k = Math.max(0, d.bitLength() - m.bitLength() + 130);
      BigInteger[] qr = m.shiftLeft(k).divideAndRemainder(d);
      q = qr[0];
      sticky = qr[1].signum() != 0;
      binExp = -k;
    }
    int excess = q.bitLength() - 128;
    if (excess > 0) {
      sticky |= q.getLowestSetBit() < excess;
      q = q.shiftRight(excess);
      binExp += excess;
    }
    long lo = q.longValue();
    long hi = q.shiftRight(64).longValue();
    return round(dst, pos, neg, hi, lo, binExp, sticky);
  }

  private static int hex(
      ByteBuffer rec, int p, int e, ByteBuffer dst, int pos, boolean negative, byte point) {
    long hi = 0;
    long lo = 0;
    long binExp = 0;
    boolean sticky = false;
    boolean started = false;
    boolean seenPoint = false;
    for (; p < e; p++) {
      int b = rec.get(p);
      if (b == point && !seenPoint) {
        seenPoint = true;
        continue;
      }
      if (!CLocale.isHexDigit(b)) {
        break;
      }
      int d = CLocale.hexValue(b);
      if (!started && d == 0) {
        if (seenPoint) {
          binExp -= 4;
        }
        continue;
      }
      started = true;
      if ((hi >>> 60) == 0) {
        hi = (hi << 4) | (lo >>> 60);
        lo = (lo << 4) | d;
        if (seenPoint) {
          binExp -= 4;
        }
      } else {
        sticky |= d != 0;
        if (!seenPoint) {
          binExp += 4;
        }
      }
    }
    if (p < e && (rec.get(p) | 0x20) == 'p') {
      int q = p + 1;
      boolean expNegative = false;
      if (q < e && (rec.get(q) == '+' || rec.get(q) == '-')) {
        expNegative = rec.get(q) == '-';
        q++;
      }
      long exponent = 0;
      if (q < e && CLocale.isDigit(rec.get(q))) {
        for (; q < e && CLocale.isDigit(rec.get(q)); q++) {
          exponent = Math.min(EXP_LIMIT, exponent * 10 + rec.get(q) - '0');
        }
        binExp += expNegative ? -exponent : exponent;
      }
    }
    if (hi == 0 && lo == 0) {
      return writeNumber(dst, pos, false, 0, 0);
    }
    return round(dst, pos, negative, hi, lo, Math.max(-EXP_LIMIT * 4, binExp), sticky);
  }

  /**
   * Rounds {@code (hi:lo) x 2^binExp} (plus a nonzero fraction below its last bit if {@code
   * sticky}) to the nearest 80-bit value, ties to even, and writes it.
   */
  private static int round(
      ByteBuffer dst, int pos, boolean neg, long hi, long lo, long binExp, boolean sticky) {
    int bits = hi != 0 ? 128 - Long.numberOfLeadingZeros(hi) : 64 - Long.numberOfLeadingZeros(lo);
    long top = bits - 1 + binExp; // the unbiased exponent before rounding
    if (top > EXP_BIAS) {
      return writeNumber(dst, pos, neg, EXP_INF, Long.MIN_VALUE);
    }
    long lsb = Math.max(top - 63, MIN_LSB);
    long drop = lsb - binExp;
    long kept;
    boolean carry = false;
    if (drop <= 0) {
      kept = lo << -drop; // fits: at most 64 bits remain
    } else if (drop > 129) {
      kept = 0;
    } else {
      int n = (int) drop;
      boolean half;
      boolean below;
      if (n < 64) {
        kept = (hi << (64 - n)) | (lo >>> n);
        half = ((lo >>> (n - 1)) & 1) != 0;
        below = (lo & ((1L << (n - 1)) - 1)) != 0;
      } else if (n == 64) {
        kept = hi;
        half = lo < 0;
        below = (lo << 1) != 0;
      } else if (n < 128) {
        kept = hi >>> (n - 64);
        half = ((hi >>> (n - 65)) & 1) != 0;
        below = lo != 0 || (n > 65 && (hi & ((1L << (n - 65)) - 1)) != 0);
      } else if (n == 128) {
        kept = 0;
        half = hi < 0;
        below = lo != 0 || (hi << 1) != 0;
      } else {
        kept = 0;
        half = false;
        below = true;
      }
      below |= sticky;
      if (half && (below || (kept & 1) != 0)) {
        kept++;
        carry = kept == 0;
      }
    }
    long biased;
    if (lsb == top - 63) {
      biased = top + EXP_BIAS;
      if (carry) {
        kept = Long.MIN_VALUE;
        biased++;
      }
      if (biased >= EXP_INF) {
        return writeNumber(dst, pos, neg, EXP_INF, Long.MIN_VALUE);
      }
    } else {
      // Subnormal: the significand lost its top bits; rounding up into bit 63 makes it normal.
      biased = kept < 0 ? 1 : 0;
    }
    if (kept == 0) {
      return writeNumber(dst, pos, false, 0, 0);
    }
    return writeNumber(dst, pos, neg, (int) biased, kept);
  }

  private static int writeNumber(
      ByteBuffer dst, int pos, boolean negative, int biased, long significand) {
    if (dst == null) {
      return MAX_LENGTH;
    }
    dst.put(pos, (byte) NUMBER);
    int signExp = 0x8000 | biased;
    long bits = significand;
    if (negative) {
      signExp = ~signExp;
      bits = ~bits;
    }
    dst.put(pos + 1, (byte) (signExp >>> 8));
    dst.put(pos + 2, (byte) signExp);
    dst.putLong(pos + 3, DecimalCode.bigEndian(dst, bits));
    return MAX_LENGTH;
  }
}

package dev.joule.core.gensort;

/**
 * An unsigned 128-bit integer as two {@code long}s, for gensort record numbers, the LCG state and
 * valsort's 128-bit counters. All arithmetic wraps modulo 2^128, as the reference's {@code u16}
 * does.
 *
 * <p>Algorithm: schoolbook 64×64 → 128 products from {@link Math#multiplyHigh} plus the unsigned
 * correction (JDK 17 has no {@code unsignedMultiplyHigh}). Immutable and thread-safe; the hot loops
 * do not use it (they keep the halves in locals), so allocation here is off the per-record path.
 */
public final class Uint128 implements Comparable<Uint128> {
  /** Zero. */
  public static final Uint128 ZERO = new Uint128(0, 0);

  /** One. */
  public static final Uint128 ONE = new Uint128(0, 1);

  private static final int DECIMAL_RADIX = 10;

  private final long hi;
  private final long lo;

  private Uint128(long hi, long lo) {
    this.hi = hi;
    this.lo = lo;
  }

  /** The value {@code hi·2^64 + lo}, both halves taken as unsigned. */
  public static Uint128 of(long hi, long lo) {
    return hi == 0 && lo == 0 ? ZERO : new Uint128(hi, lo);
  }

  /** The value of {@code v} taken as an unsigned 64-bit number. */
  public static Uint128 ofUnsigned(long v) {
    return of(0, v);
  }

  /** Upper 64 bits. */
  public long hi() {
    return hi;
  }

  /** Lower 64 bits. */
  public long lo() {
    return lo;
  }

  /** True for zero. */
  public boolean isZero() {
    return hi == 0 && lo == 0;
  }

  /** {@code this + v} (v unsigned) modulo 2^128. */
  public Uint128 plus(long v) {
    long sum = lo + v;
    return of(hi + (Long.compareUnsigned(sum, lo) < 0 ? 1 : 0), sum);
  }

  /** {@code this + o} modulo 2^128. */
  public Uint128 plus(Uint128 o) {
    long sum = lo + o.lo;
    return of(hi + o.hi + (Long.compareUnsigned(sum, lo) < 0 ? 1 : 0), sum);
  }

  /** {@code this · o} modulo 2^128. */
  public Uint128 times(Uint128 o) {
    return of(mulHi(lo, o.lo, hi, o.hi), lo * o.lo);
  }

  /**
   * The upper half of the 128-bit product of (aHi:aLo)·(bHi:bLo) modulo 2^128; the lower half is
   * simply {@code aLo * bLo}.
   */
  static long mulHi(long aLo, long bLo, long aHi, long bHi) {
    return unsignedMultiplyHigh(aLo, bLo) + aLo * bHi + aHi * bLo;
  }

  /** The upper 64 bits of the unsigned 128-bit product {@code a·b} (JDK 18's method, for 17). */
  static long unsignedMultiplyHigh(long a, long b) {
    // signed high product, then add back b when a < 0 and a when b < 0 (two's complement fix-up)
    return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
  }

  /**
   * Parses an unsigned decimal number of up to 128 bits ({@code 0 … 2^128−1}).
   *
   * @throws NumberFormatException if {@code s} is empty, has a non-digit, or exceeds 128 bits
   */
  public static Uint128 parseDecimal(String s) {
    if (s.isEmpty()) {
      throw new NumberFormatException("empty number");
    }
    long h = 0;
    long l = 0;
    for (int i = 0; i < s.length(); i++) {
      int d = Character.digit(s.charAt(i), DECIMAL_RADIX);
      if (d < 0 || s.charAt(i) > '9') {
        throw new NumberFormatException("not a decimal number: \"" + s + "\"");
      }
      // (h:l)·10 + d, with overflow detection on the upper half
      long loTimes = l * DECIMAL_RADIX;
      long carryMul = unsignedMultiplyHigh(l, DECIMAL_RADIX);
      long hiTimes = h * DECIMAL_RADIX;
      if (unsignedMultiplyHigh(h, DECIMAL_RADIX) != 0) {
        throw new NumberFormatException("exceeds 128 bits: \"" + s + "\"");
      }
      long newHi = hiTimes + carryMul;
      if (Long.compareUnsigned(newHi, hiTimes) < 0) {
        throw new NumberFormatException("exceeds 128 bits: \"" + s + "\"");
      }
      long newLo = loTimes + d;
      if (Long.compareUnsigned(newLo, loTimes) < 0) {
        newHi++;
        if (newHi == 0) {
          throw new NumberFormatException("exceeds 128 bits: \"" + s + "\"");
        }
      }
      h = newHi;
      l = newLo;
    }
    return of(h, l);
  }

  /** Lower-case hex without leading zeros ("0" for zero), as gensort prints checksums. */
  public String toHexString() {
    if (hi == 0) {
      return Long.toHexString(lo);
    }
    String low = Long.toHexString(lo);
    return Long.toHexString(hi) + "0".repeat(16 - low.length()) + low;
  }

  /** Decimal, as valsort prints its counters. */
  @Override
  public String toString() {
    if (hi == 0 && lo >= 0) {
      return Long.toString(lo);
    }
    // repeated division by 10^18 keeps this short; not on any hot path
    StringBuilder out = new StringBuilder();
    long h = hi;
    long l = lo;
    final long chunk = 1_000_000_000_000_000_000L;
    while (h != 0 || Long.compareUnsigned(l, chunk) >= 0) {
      // long division of (h:l) by chunk, 64 bits at a time through Long.divideUnsigned on halves
      long qh = Long.divideUnsigned(h, chunk);
      long r = Long.remainderUnsigned(h, chunk);
      long ql = 0;
      for (int bit = 63; bit >= 0; bit--) {
        // r < chunk < 2^60, so shifting left by one never overflows
        r = (r << 1) | ((l >>> bit) & 1);
        ql <<= 1;
        if (r >= chunk) {
          r -= chunk;
          ql |= 1;
        }
      }
      String part = Long.toString(r);
      out.insert(0, "0".repeat(18 - part.length()) + part);
      h = qh;
      l = ql;
    }
    out.insert(0, Long.toUnsignedString(l));
    return out.toString();
  }

  @Override
  public int compareTo(Uint128 o) {
    int c = Long.compareUnsigned(hi, o.hi);
    return c != 0 ? c : Long.compareUnsigned(lo, o.lo);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Uint128 u && u.hi == hi && u.lo == lo;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(hi) * 31 + Long.hashCode(lo);
  }
}

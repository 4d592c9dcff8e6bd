package dev.joule.core.gensort;

/**
 * gensort's 128-bit linear congruential generator x ← (A·x + C) mod 2^128 with skip-ahead
 * (docs/formats.md, Generator). R(n) = fⁿ(0); record i is driven by R(i+1).
 *
 * <p>Algorithm: skip-ahead composes the precomputed maps f^(2^k) = (Aₖ, Cₖ) for the set bits of n,
 * at most 128 multiply-adds. Memory: two tables of 128 pairs (4 KiB), built once. Stateless and
 * thread-safe; the per-record stepping lives inline in {@link GensortGenerator}'s loop.
 */
public final class Lcg128 {
  /** Multiplier A, upper half. */
  public static final long A_HI = 0x2360ED051FC65DA4L;

  /** Multiplier A, lower half. */
  public static final long A_LO = 0x4385DF649FCCF645L;

  /** Increment C ("JimGrayRIP", six spaces, 0x01), upper half. */
  public static final long C_HI = 0x4A696D4772617952L;

  /** Increment C, lower half. */
  public static final long C_LO = 0x4950202020202001L;

  private static final int BITS = 128;
  // f^(2^k) as (A_k, C_k): A_{k+1} = A_k², C_{k+1} = A_k·C_k + C_k
  private static final Uint128[] POW_A = new Uint128[BITS];
  private static final Uint128[] POW_C = new Uint128[BITS];

  static {
    Uint128 a = Uint128.of(A_HI, A_LO);
    Uint128 c = Uint128.of(C_HI, C_LO);
    for (int k = 0; k < BITS; k++) {
      POW_A[k] = a;
      POW_C[k] = c;
      c = a.times(c).plus(c);
      a = a.times(a);
    }
  }

  private Lcg128() {}

  /** One step: A·x + C. */
  public static Uint128 next(Uint128 x) {
    return Uint128.of(A_HI, A_LO).times(x).plus(Uint128.of(C_HI, C_LO));
  }

  /** fⁿ(x): n steps from x, in at most 128 multiply-adds. */
  public static Uint128 skip(Uint128 x, Uint128 n) {
    Uint128 r = x;
    for (int k = 0; k < BITS; k++) {
      long word = k < 64 ? n.lo() : n.hi();
      if (((word >>> (k & 63)) & 1) != 0) {
        r = POW_A[k].times(r).plus(POW_C[k]);
      }
    }
    return r;
  }

  /** R(n) = fⁿ(0); R(i+1) drives record i. */
  public static Uint128 r(Uint128 n) {
    return skip(Uint128.ZERO, n);
  }
}

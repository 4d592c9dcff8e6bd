package dev.joule.core.gensort;

/**
 * gensort 1.5's skew index s(i) and key templates T(s) (docs/formats.md, Skew).
 *
 * <p>Algorithm: T(s) is the first 6 bytes of the normal key of record s, so the tables are derived
 * at class initialisation from R(1)…R(129) instead of being copied from the C source's two 129×6
 * tables. Memory: two arrays of 129 longs. Immutable after initialisation and thread-safe.
 */
final class SkewTemplates {
  /** s(i) ranges over 0…128. */
  static final int COUNT = 129;

  /** Key bits or characters a template may replace: 6 bytes (the reference's SKEW_BYTES). */
  static final int TEMPLATE_BYTES = 6;

  /** Binary skew replaces at most 8·6 = 48 key bits; larger draws mean "not skewed". */
  static final int MAX_SKEW_BITS = 8 * TEMPLATE_BYTES;

  // the reference tests `x & 0xF000000000000000`: any value ≥ 2^60 counts as "highest bit set"
  private static final long TOP_NIBBLE = 0xF000_0000_0000_0000L;

  /** T(s) for binary keys: the top 48 bits of R(s+1), left-aligned, low 16 bits zero. */
  private static final long[] BINARY = new long[COUNT];

  /** T(s) for ASCII keys: its first 6 characters, packed big-endian from the top byte. */
  private static final long[] ASCII = new long[COUNT];

  static {
    long hi = 0;
    long lo = 0;
    for (int s = 0; s < COUNT; s++) {
      Uint128 x = Lcg128.next(Uint128.of(hi, lo));
      hi = x.hi();
      lo = x.lo();
      BINARY[s] = hi & 0xFFFF_FFFF_FFFF_0000L;
      ASCII[s] = RecordEncoder.asciiKeyHigh(hi) & 0xFFFF_FFFF_FFFF_0000L;
    }
  }

  private SkewTemplates() {}

  /**
   * s(i) with the reference's quirks: the number of significant bits of i, except that i in [2^60,
   * 2^64) gives 64 and i ≥ 2^124 gives 128.
   */
  static int skewIndex(long numHi, long numLo) {
    if (numHi == 0) {
      if (numLo == 0) {
        return 0;
      }
      return (numLo & TOP_NIBBLE) != 0 ? 64 : 64 - Long.numberOfLeadingZeros(numLo);
    }
    return (numHi & TOP_NIBBLE) != 0 ? 128 : 128 - Long.numberOfLeadingZeros(numHi);
  }

  /** Template bits for binary keys, left-aligned in a long. */
  static long binary(int s) {
    return BINARY[s];
  }

  /** Template characters for ASCII keys, packed big-endian from the top byte. */
  static long ascii(int s) {
    return ASCII[s];
  }
}

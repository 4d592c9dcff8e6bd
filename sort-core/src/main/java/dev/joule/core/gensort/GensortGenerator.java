package dev.joule.core.gensort;

import java.nio.ByteBuffer;

/**
 * Generates consecutive gensort records, byte for byte as the reference gensort 1.5 (or the legacy
 * gensort 1.2 / TeraGen layout), starting at any 128-bit record number.
 *
 * <p>Algorithm: {@link #seek} skip-aheads to R(i+1) in at most 128 steps; then each record advances
 * a sliding window of ten LCG outputs by one step. The window is kept in two flat arrays that hold
 * {@value #BATCH} records' worth of outputs plus nine, filled a batch at a time, so the record loop
 * indexes them without modulo arithmetic; the last nine carry over to the next batch. Record
 * numbers wrap modulo 2^128 as in the reference.
 *
 * <p>Memory: two arrays of {@value #BATCH}+9 longs; nothing is allocated per record or per call
 * except one buffer duplicate per {@link #generate} call. Not thread-safe: one generator per thread
 * (see {@link ParallelGensort}).
 */
public final class GensortGenerator {
  /** Bytes per record. */
  public static final int RECORD_SIZE = RecordEncoder.RECORD_SIZE;

  /** Records per window refill: large enough to amortise the copy of the nine carried outputs. */
  private static final int BATCH = 128;

  private static final int CARRY = RecordEncoder.CHUNKS - 1;

  private final RecordLayout layout;
  private final boolean skew;
  private final long[] hi = new long[BATCH + CARRY];
  private final long[] lo = new long[BATCH + CARRY];

  /** Number of the next record to generate. */
  private long numHi;

  private long numLo;

  /** A generator positioned at record 0. */
  public GensortGenerator(GensortMode mode) {
    this.layout = mode.layout();
    this.skew = mode.skew();
    seek(Uint128.ZERO);
  }

  /** Positions the generator so that the next record generated is record {@code recordNumber}. */
  public GensortGenerator seek(Uint128 recordNumber) {
    Uint128 x = Lcg128.r(recordNumber.plus(1));
    hi[0] = x.hi();
    lo[0] = x.lo();
    for (int t = 1; t < CARRY; t++) {
      step(t);
    }
    numHi = recordNumber.hi();
    numLo = recordNumber.lo();
    return this;
  }

  /** The number of the next record {@link #generate} will write. */
  public Uint128 position() {
    return Uint128.of(numHi, numLo);
  }

  /**
   * Writes the next {@code records} records at {@code dst}'s position and advances that position by
   * {@code records * 100}. The byte order of {@code dst} does not matter.
   *
   * @throws java.nio.BufferOverflowException if fewer than {@code records * 100} bytes remain
   */
  public void generate(ByteBuffer dst, int records) {
    if (records < 0) {
      throw new IllegalArgumentException("records < 0: " + records);
    }
    int start = dst.position();
    if ((long) records * RECORD_SIZE > dst.remaining()) {
      throw new java.nio.BufferOverflowException();
    }
    ByteBuffer b = dst.duplicate(); // duplicates are BIG_ENDIAN, which the encoder relies on
    int off = start;
    int left = records;
    while (left > 0) {
      int n = Math.min(left, BATCH);
      for (int t = CARRY; t < CARRY + n; t++) {
        step(t);
      }
      off = encodeBatch(b, off, n);
      System.arraycopy(hi, n, hi, 0, CARRY);
      System.arraycopy(lo, n, lo, 0, CARRY);
      left -= n;
    }
    dst.position(off);
  }

  /** hi/lo[t] = A·(hi/lo[t−1]) + C mod 2^128. */
  private void step(int t) {
    long h = hi[t - 1];
    long l = lo[t - 1];
    long p = Lcg128.A_LO * l;
    long nl = p + Lcg128.C_LO;
    long carry = Long.compareUnsigned(nl, p) < 0 ? 1 : 0;
    hi[t] = Uint128.mulHi(Lcg128.A_LO, l, Lcg128.A_HI, h) + Lcg128.C_HI + carry;
    lo[t] = nl;
  }

  private int encodeBatch(ByteBuffer b, int off, int n) {
    long[] h = hi;
    long[] l = lo;
    long nh = numHi;
    long nl = numLo;
    for (int j = 0; j < n; j++, off += RECORD_SIZE) {
      switch (layout) {
        case BINARY:
          long keyHi = skew ? skewBinary(h[j], l[j], nh, nl) : h[j];
          RecordEncoder.putBinary(b, off, h, l, j, keyHi);
          break;
        case ASCII:
          long key8 = RecordEncoder.asciiKeyHigh(h[j]);
          if (skew) {
            key8 = skewAscii(key8, l[j], nh, nl);
          }
          RecordEncoder.putAscii(b, off, key8, l[j], nh, nl);
          break;
        default:
          RecordEncoder.putLegacy(b, off, h[j], l[j], nh, nl);
          break;
      }
      nl++;
      if (nl == 0) {
        nh++;
      }
    }
    numHi = nh;
    numLo = nl;
    return off;
  }

  /** Replaces the top b ≤ 48 key bits with T(s(i)); b is drawn from bits 32..37 of lo(R(i+1)). */
  private static long skewBinary(long xHi, long xLo, long numHi, long numLo) {
    int bits = (int) (xLo >>> 32) & 0x3F;
    if (bits == 0 || bits > SkewTemplates.MAX_SKEW_BITS) {
      return xHi; // about 25 % of records stay unskewed
    }
    long mask = -1L << (64 - bits);
    long t = SkewTemplates.binary(SkewTemplates.skewIndex(numHi, numLo));
    return (t & mask) | (xHi & ~mask);
  }

  /** Replaces the first n ≤ 6 key characters with T(s(i)); n is drawn from bits 32..34 of lo. */
  private static long skewAscii(long key8, long xLo, long numHi, long numLo) {
    int n = (int) (xLo >>> 32) & 0x7;
    if (n == 0 || n > SkewTemplates.TEMPLATE_BYTES) {
      return key8;
    }
    long mask = -1L << (64 - 8 * n);
    long t = SkewTemplates.ascii(SkewTemplates.skewIndex(numHi, numLo));
    return (t & mask) | (key8 & ~mask);
  }
}

package dev.joule.core.gensort;

import java.nio.ByteBuffer;

/**
 * Writes one gensort record of each layout from LCG outputs (docs/formats.md, Binary records to
 * ASCII records).
 *
 * <p>Algorithm: whole-word absolute puts on a BIG_ENDIAN buffer (a 10-byte chunk is one {@code
 * putLong} plus one {@code putShort}); hex digits are produced eight at a time with a
 * nibble-spreading bit trick, base-95 digits by division by the constant 95. No allocation. Memory:
 * three small constant tables. Stateless and thread-safe.
 */
final class RecordEncoder {
  /** Bytes per record. */
  static final int RECORD_SIZE = 100;

  /** 10-byte chunks per binary record, each from its own LCG output. */
  static final int CHUNKS = 10;

  private static final int CHUNK_SIZE = 10;

  private static final int BASE = 95;
  private static final long PRINTABLE_FIRST = ' ';
  private static final byte[] HEX =
      "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final int REPEAT4 = 0x0101_0101;
  private static final short TWO_SPACES = 0x2020;
  private static final short CR_LF = 0x0D0A;

  /** Upper 64 bits of the mask M_k of chunk k (M_0 = 0: the key is not masked). */
  static final long[] MASK_HI = new long[CHUNKS];

  /**
   * Upper 16 bits of the lower half of M_k, in the top of a long (the rest is dropped by top10).
   */
  static final long[] MASK_LO = new long[CHUNKS];

  static {
    // M1..M7: the 70 bytes with exactly four 1-bits, descending, ten per mask
    byte[] fourBits = new byte[70];
    int n = 0;
    for (int v = 0xFF; v >= 0; v--) {
      if (Integer.bitCount(v) == 4) {
        fourBits[n++] = (byte) v;
      }
    }
    for (int k = 1; k <= 7; k++) {
      setMask(k, fourBits, (k - 1) * CHUNK_SIZE);
    }
    setMask(8, bytes(0xC8, 0xC4, 0xC2, 0xC1, 0x98, 0x94, 0x92, 0x91, 0x8C, 0xE0), 0);
    setMask(9, bytes(0x17, 0x0F, 0x33, 0x2E, 0x2D, 0x2B, 0x27, 0x1E, 0x1D, 0x1B), 0);
  }

  private RecordEncoder() {}

  private static byte[] bytes(int... v) {
    byte[] b = new byte[v.length];
    for (int i = 0; i < v.length; i++) {
      b[i] = (byte) v[i];
    }
    return b;
  }

  private static void setMask(int k, byte[] src, int from) {
    ByteBuffer b = ByteBuffer.wrap(src, from, CHUNK_SIZE).slice();
    MASK_HI[k] = b.getLong(0);
    MASK_LO[k] = (long) b.getShort(8) << 48;
  }

  /**
   * Binary (§3): chunk k = top10(R(i+1+k) XOR M_k); {@code keyHi} replaces hi of chunk 0 (skew).
   */
  static void putBinary(ByteBuffer b, int off, long[] hi, long[] lo, int j, long keyHi) {
    b.putLong(off, keyHi);
    b.putShort(off + 8, (short) (lo[j] >>> 48));
    for (int k = 1; k < CHUNKS; k++) {
      int at = off + k * CHUNK_SIZE;
      b.putLong(at, hi[j + k] ^ MASK_HI[k]);
      b.putShort(at + 8, (short) ((lo[j + k] ^ MASK_LO[k]) >>> 48));
    }
  }

  /** Legacy / TeraGen (§4). */
  static void putLegacy(ByteBuffer b, int off, long xHi, long xLo, long numHi, long numLo) {
    b.putLong(off, xHi);
    b.putShort(off + 8, (short) (xLo >>> 48));
    b.putShort(off + 10, (short) 0x0011);
    putRecordNumber(b, off + 12, numHi, numLo);
    b.putInt(off + 44, 0x8899AABB);
    for (int g = 0; g < 12; g++) {
      b.putInt(off + 48 + 4 * g, HEX[(int) (xLo >>> (44 - 4 * g)) & 0xF] * REPEAT4);
    }
    b.putInt(off + 96, 0xCCDDEEFF);
  }

  /** ASCII (§5); {@code key8} is the packed first eight key characters (possibly skewed). */
  static void putAscii(ByteBuffer b, int off, long key8, long xLo, long numHi, long numLo) {
    b.putLong(off, key8);
    b.putInt(off + 8, (asciiKeyLow(xLo) << 16) | TWO_SPACES);
    putRecordNumber(b, off + 12, numHi, numLo);
    b.putShort(off + 44, TWO_SPACES);
    for (int g = 0; g < 13; g++) {
      b.putInt(off + 46 + 4 * g, HEX[(int) (xLo >>> (48 - 4 * g)) & 0xF] * REPEAT4);
    }
    b.putShort(off + 98, CR_LF);
  }

  /** i as 32 upper-case hex digits. */
  private static void putRecordNumber(ByteBuffer b, int off, long numHi, long numLo) {
    b.putLong(off, hex8((int) (numHi >>> 32)));
    b.putLong(off + 8, hex8((int) numHi));
    b.putLong(off + 16, hex8((int) (numLo >>> 32)));
    b.putLong(off + 24, hex8((int) numLo));
  }

  /** The 8 nibbles of v as upper-case hex characters, most significant in the top byte. */
  static long hex8(int v) {
    long x = v & 0xFFFF_FFFFL;
    x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFFL;
    x = (x | (x << 8)) & 0x00FF_00FF_00FF_00FFL;
    x = (x | (x << 4)) & 0x0F0F_0F0F_0F0F_0F0FL;
    // bytes holding 10..15 get +7 so that '0'+10 lands on 'A'
    long letters = ((x + 0x0606_0606_0606_0606L) >>> 4) & 0x0101_0101_0101_0101L;
    return x + 0x3030_3030_3030_3030L + letters * 7;
  }

  /** The first 8 key characters: base-95 digits of hi (unsigned), least significant first. */
  static long asciiKeyHigh(long h) {
    // first digit: h may be ≥ 2^63, so divide h/2 signed and fix up (remainder < 190)
    long q = ((h >>> 1) / BASE) << 1;
    long r = h - q * BASE;
    if (r >= BASE) {
      q++;
      r -= BASE;
    }
    long packed = (PRINTABLE_FIRST + r) << 56;
    for (int c = 1; c < 8; c++) {
      // q < 2^58 now: signed division by a constant, which the JIT turns into a multiply
      packed |= (PRINTABLE_FIRST + q % BASE) << (56 - 8 * c);
      q /= BASE;
    }
    return packed;
  }

  /** Key characters 8 and 9 from lo, packed in the low 16 bits. */
  static int asciiKeyLow(long l) {
    long q = ((l >>> 1) / BASE) << 1;
    long r = l - q * BASE;
    if (r >= BASE) {
      q++;
      r -= BASE;
    }
    return (int) (((PRINTABLE_FIRST + r) << 8) | (PRINTABLE_FIRST + q % BASE));
  }
}

package dev.joule.core.gensort;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * A slow, independent oracle for gensort records, written from docs/formats.md with BigInteger: it
 * shares no code with the generator, so agreement at offsets the reference vectors do not cover
 * (2^60, 2^64, 2^128) means something.
 */
final class OracleRecords {
  private static final BigInteger MOD = BigInteger.ONE.shiftLeft(128);
  private static final BigInteger A = new BigInteger("2360ED051FC65DA44385DF649FCCF645", 16);
  private static final BigInteger C = new BigInteger("4A696D47726179524950202020202001", 16);
  private static final String[] MASKS = {
    "00000000000000000000",
    "F0E8E4E2E1D8D4D2D1CC",
    "CAC9C6C5C3B8B4B2B1AC",
    "AAA9A6A5A39C9A999695",
    "938E8D8B87787472716C",
    "6A696665635C5A595655",
    "534E4D4B473C3A393635",
    "332E2D2B271E1D1B170F",
    "C8C4C2C198949291 8CE0".replace(" ", ""),
    "170F332E2D2B271E1D1B",
  };

  private OracleRecords() {}

  /** R(n) = f^n(0) by binary exponentiation of the affine map. */
  static BigInteger r(BigInteger n) {
    BigInteger a = A;
    BigInteger c = C;
    BigInteger x = BigInteger.ZERO;
    BigInteger m = n.mod(MOD);
    for (int k = 0; k < 128; k++) {
      if (m.testBit(k)) {
        x = a.multiply(x).add(c).mod(MOD);
      }
      c = a.multiply(c).add(c).mod(MOD);
      a = a.multiply(a).mod(MOD);
    }
    return x;
  }

  static byte[] record(GensortMode mode, BigInteger i) {
    BigInteger idx = i.mod(MOD);
    BigInteger x = r(idx.add(BigInteger.ONE));
    byte[] rec = new byte[100];
    switch (mode.layout()) {
      case BINARY:
        for (int k = 0; k < 10; k++) {
          BigInteger xk = r(idx.add(BigInteger.valueOf(k + 1)));
          BigInteger mk = new BigInteger(MASKS[k], 16).shiftLeft(48);
          System.arraycopy(top10(xk.xor(mk)), 0, rec, 10 * k, 10);
        }
        break;
      case LEGACY:
        System.arraycopy(top10(x), 0, rec, 0, 10);
        rec[10] = 0x00;
        rec[11] = 0x11;
        put(rec, 12, hex32(idx));
        put(rec, 44, new byte[] {(byte) 0x88, (byte) 0x99, (byte) 0xAA, (byte) 0xBB});
        for (int g = 0; g < 12; g++) {
          fill4(rec, 48 + 4 * g, nibble(x, 44 - 4 * g));
        }
        put(rec, 96, new byte[] {(byte) 0xCC, (byte) 0xDD, (byte) 0xEE, (byte) 0xFF});
        break;
      default:
        put(rec, 0, asciiKey(x));
        rec[10] = ' ';
        rec[11] = ' ';
        put(rec, 12, hex32(idx));
        rec[44] = ' ';
        rec[45] = ' ';
        for (int g = 0; g < 13; g++) {
          fill4(rec, 46 + 4 * g, nibble(x, 48 - 4 * g));
        }
        rec[98] = '\r';
        rec[99] = '\n';
    }
    if (mode.skew()) {
      int s = skewIndex(idx);
      BigInteger tx = r(BigInteger.valueOf(s + 1));
      long lo = x.longValue();
      if (mode.layout() == RecordLayout.BINARY) {
        int b = (int) (lo >>> 32) & 63;
        if (b > 48) {
          b = 0;
        }
        byte[] t = top10(tx);
        for (int bit = 0; bit < b; bit++) {
          int mask = 0x80 >>> (bit & 7);
          rec[bit >> 3] = (byte) ((rec[bit >> 3] & ~mask) | (t[bit >> 3] & mask));
        }
      } else {
        int n = (int) (lo >>> 32) & 7;
        if (n > 6) {
          n = 0;
        }
        System.arraycopy(asciiKey(tx), 0, rec, 0, n);
      }
    }
    return rec;
  }

  static int skewIndex(BigInteger i) {
    BigInteger hi = i.shiftRight(64);
    if (hi.signum() == 0) {
      return i.compareTo(BigInteger.ONE.shiftLeft(60)) >= 0 ? 64 : i.bitLength();
    }
    return hi.compareTo(BigInteger.ONE.shiftLeft(60)) >= 0 ? 128 : 64 + hi.bitLength();
  }

  private static byte[] asciiKey(BigInteger x) {
    byte[] k = new byte[10];
    BigInteger b95 = BigInteger.valueOf(95);
    BigInteger v = x.shiftRight(64);
    for (int c = 0; c < 8; c++) {
      k[c] = (byte) (32 + v.mod(b95).intValue());
      v = v.divide(b95);
    }
    v = x.and(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE));
    for (int c = 8; c < 10; c++) {
      k[c] = (byte) (32 + v.mod(b95).intValue());
      v = v.divide(b95);
    }
    return k;
  }

  private static byte[] top10(BigInteger x) {
    byte[] b = new byte[10];
    BigInteger t = x.shiftRight(48);
    for (int k = 9; k >= 0; k--) {
      b[k] = t.byteValue();
      t = t.shiftRight(8);
    }
    return b;
  }

  private static byte[] hex32(BigInteger i) {
    String h = i.toString(16).toUpperCase(java.util.Locale.ROOT);
    return ("0".repeat(32 - h.length()) + h).getBytes(StandardCharsets.US_ASCII);
  }

  private static byte nibble(BigInteger x, int shift) {
    int v = x.shiftRight(shift).intValue() & 0xF;
    return (byte) "0123456789ABCDEF".charAt(v);
  }

  private static void fill4(byte[] rec, int at, byte v) {
    for (int q = 0; q < 4; q++) {
      rec[at + q] = v;
    }
  }

  private static void put(byte[] rec, int at, byte[] src) {
    System.arraycopy(src, 0, rec, at, src.length);
  }
}

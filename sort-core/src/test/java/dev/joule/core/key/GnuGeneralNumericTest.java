package dev.joule.core.key;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@code -g}'s conversion at the edges of the x87 format, and its 128-bit division. */
class GnuGeneralNumericTest {
  private static String key(String text) {
    byte[] b = text.getBytes(StandardCharsets.ISO_8859_1);
    ByteBuffer dst = ByteBuffer.allocate(16);
    int n = GnuGeneralNumeric.encode(ByteBuffer.wrap(b), 0, b.length, dst, 0, true);
    byte[] k = java.util.Arrays.copyOf(dst.array(), n);
    return KeyEncoderTest.hex(k);
  }

  /** A positive number's key: class 0x02, sign|exponent, significand. */
  private static String number(int biasedExponent, long significand) {
    return String.format(
        java.util.Locale.ROOT, "02%04x%016x", 0x8000 | biasedExponent, significand);
  }

  @Test
  void roundsToNearestEvenAt64Bits() {
    assertEquals(number(0x3FFF, 0x8000000000000000L), key("1"));
    assertEquals(number(0x3FFF, 0x8000000000000000L), key("  +1.000e0x"));
    assertEquals(number(0x3FFB, 0xCCCCCCCCCCCCCCCDL), key("0.1")); // 0.1 rounds up
    assertEquals(number(0x3FFB, 0xCCCCCCCCCCCCCCCDL), key("1e-1"));
    assertEquals(number(0x3FFB, 0xCCCCCCCCCCCCCCCDL), key("0.1000000000000000000000000000001"));
    assertEquals(number(0x3FFB, 0xCCCCCCCCCCCCCCCDL), key("0x.cccccccccccccccccp-3"));
    // 2^64 + 1 is halfway between two 64-bit significands: even wins; + 3 rounds up.
    assertEquals(number(0x3FFF + 64, 0x8000000000000000L), key("18446744073709551617"));
    assertEquals(number(0x3FFF + 64, 0x8000000000000002L), key("18446744073709551619"));
    assertEquals(number(0x3FFF + 64, 0x8000000000000003L), key("1844674407370955162.2e1"));
  }

  @Test
  void overflowsToInfinityAndUnderflowsThroughSubnormalsToZero() {
    String inf = number(0x7FFF, 0x8000000000000000L);
    assertEquals(inf, key("inf"));
    assertEquals(inf, key("1.2e4932"));
    assertEquals(inf, key("0x1p16384"));
    assertEquals(inf, key("1e999999999999999999"));
    assertEquals(number(0x7FFE, -1L), key("0x1.fffffffffffffffep16383")); // the largest
    assertEquals(inf, key("0x1.ffffffffffffffffp16383")); // halfway above it: even is infinity
    assertEquals(number(0x7FFE, -1L), key("1.18973149535723176502e4932"));
    assertEquals(number(1, 0x8000000000000000L), key("0x1p-16382")); // smallest normal
    assertEquals(number(0, 0x4000000000000000L), key("0x1p-16383")); // subnormal
    assertEquals(number(0, 1), key("0x1p-16445")); // smallest subnormal
    assertEquals(number(0, 1), key("0x1.8p-16446")); // 0.75 of it rounds up
    assertEquals(number(0, 0), key("0x1p-16446")); // half of it: even is zero
    assertEquals(number(0, 2), key("0x1.8p-16445")); // 1.5 of it: even is 2
    assertEquals(number(0, 1), key("3.6451995318824746025e-4951"));
    assertEquals(number(0, 0), key("1e-5000"));
    assertEquals(number(0, 0), key("-0"));
    assertEquals(number(0, 0), key("0e999999999"));
    assertEquals(number(0, 0), key("0x"));
    assertEquals(number(0, 0), key("-0xg"));
  }

  @Test
  void errorsAndNans() {
    assertEquals("00", key(""));
    assertEquals("00", key("-"));
    assertEquals("00", key("."));
    assertEquals("00", key("e5"));
    assertEquals("00", key("- 1"));
    assertEquals("0101", key("nan"));
    assertEquals("0100", key("-NaN(123)"));
    assertEquals("0101", key("\u000b\r+nan("));
    // the negative of a number is every bit of its key but the class inverted
    assertEquals("02" + "4000" + "7fffffffffffffff", key("-1"));
  }

  @Test
  void divide128MatchesBigInteger() {
    Random r = new Random(Seeds.BASE);
    for (int i = 0; i < 200_000; i++) {
      long v = r.nextLong() >>> r.nextInt(63);
      if (v == 0) {
        continue;
      }
      long u1 = Long.remainderUnsigned(r.nextLong(), v);
      long u0 = r.nextLong();
      BigInteger u = unsigned(u1).shiftLeft(64).or(unsigned(u0));
      long q = GnuGeneralNumeric.divide128(u1, u0, v);
      assertEquals(
          u.divide(unsigned(v)), unsigned(q), u1 + ":" + u0 + " / " + v + " seed " + Seeds.BASE);
    }
  }

  private static BigInteger unsigned(long x) {
    return new BigInteger(Long.toUnsignedString(x));
  }
}

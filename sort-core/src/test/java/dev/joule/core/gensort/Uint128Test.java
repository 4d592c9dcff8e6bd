package dev.joule.core.gensort;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.joule.testing.TestSeed;
import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class Uint128Test {
  private static final BigInteger MOD = BigInteger.ONE.shiftLeft(128);

  static BigInteger big(Uint128 v) {
    return new BigInteger(Long.toUnsignedString(v.hi()))
        .shiftLeft(64)
        .add(new BigInteger(Long.toUnsignedString(v.lo())));
  }

  @Test
  void arithmeticAndFormattingAgreeWithBigInteger() {
    long seed = TestSeed.of(Uint128Test.class, 0x0128_0128L);
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int t = 0; t < 10_000; t++) {
      Uint128 a = Uint128.of(rnd.nextInt(4) == 0 ? 0 : rnd.nextLong(), rnd.nextLong());
      Uint128 b = Uint128.of(rnd.nextLong(), rnd.nextLong());
      String msg = "seed " + seed;
      assertEquals(big(a).multiply(big(b)).mod(MOD), big(a.times(b)), msg);
      assertEquals(big(a).add(big(b)).mod(MOD), big(a.plus(b)), msg);
      assertEquals(big(a).toString(), a.toString(), msg);
      assertEquals(big(a).toString(16), a.toHexString(), msg);
      assertEquals(a, Uint128.parseDecimal(a.toString()), msg);
      assertEquals(Integer.signum(big(a).compareTo(big(b))), Integer.signum(a.compareTo(b)), msg);
    }
  }

  @Test
  void parseLimits() {
    String max = MOD.subtract(BigInteger.ONE).toString();
    assertEquals(Uint128.of(-1, -1), Uint128.parseDecimal(max));
    assertThrows(NumberFormatException.class, () -> Uint128.parseDecimal(MOD.toString()));
    assertThrows(NumberFormatException.class, () -> Uint128.parseDecimal(""));
    assertThrows(NumberFormatException.class, () -> Uint128.parseDecimal("12a"));
    assertThrows(NumberFormatException.class, () -> Uint128.parseDecimal("-1"));
    assertEquals("1000000000000000000", Uint128.parseDecimal("1000000000000000000").toString());
  }

  @Test
  void skipAheadEqualsStepping() {
    Uint128 x = Uint128.ZERO;
    for (int n = 1; n <= 300; n++) {
      x = Lcg128.next(x);
      assertEquals(x, Lcg128.r(Uint128.ofUnsigned(n)));
    }
    assertEquals(Uint128.of(Lcg128.C_HI, Lcg128.C_LO), Lcg128.r(Uint128.ONE));
  }
}

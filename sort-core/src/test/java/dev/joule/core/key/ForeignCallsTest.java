package dev.joule.core.key;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.joule.testing.TestLocales;
import dev.joule.testing.TestSeed;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The downcalls of a sort in a locale: bound on every JDK whose foreign function API is final (CI
 * runs this suite on JDK 17 and 25), and giving what JNA's binding of the same C functions gives,
 * on random text.
 */
class ForeignCallsTest {
  private static final long SEED = TestSeed.of(ForeignCallsTest.class, 0xF0_2E16_0001L);
  private static final String[] PIECES = {
    "a", "A", "á", "Å", "ß", "e", "é", "z", "Z", "0", "9", " ", "-", ",", ".", "日本", "ж", "\t", "~"
  };

  @BeforeAll
  static void locales() throws Exception {
    TestLocales.prepare(List.of("en_US.UTF-8", "de_DE.UTF-8"));
  }

  @Test
  void theDowncallsAreBoundFromTheFirstJdkWithTheFinalApi() {
    int feature = Runtime.version().feature();
    if (feature >= ForeignCalls.FIRST_JDK) {
      assertTrue(ForeignCalls.bound(), "JDK " + feature + ": " + ForeignCalls.WHY_NOT);
    } else {
      assertFalse(ForeignCalls.bound());
      assertTrue(ForeignCalls.WHY_NOT.contains("JDK " + feature), ForeignCalls.WHY_NOT);
    }
  }

  @Test
  void theyGiveWhatJnasBindingGivesOnRandomText() {
    SplittableRandom r = new SplittableRandom(SEED);
    for (String name : List.of("en_US.UTF-8", "de_DE.UTF-8")) {
      long locale = TextLocale.of(name).handle();
      try (Memory a = new Memory(256);
          Memory b = new Memory(256);
          Memory out = new Memory(4096)) {
        for (int i = 0; i < 2000; i++) {
          byte[] x = text(r);
          byte[] y = r.nextInt(8) == 0 ? x.clone() : text(r);
          put(a, x);
          put(b, y);
          long pa = Pointer.nativeValue(a);
          long pb = Pointer.nativeValue(b);
          String what = name + " case " + i + " seed=" + SEED;
          assertEquals(
              Integer.signum(LibC.strcoll_l(pa, pb, locale)),
              Integer.signum(ForeignCalls.strcoll(pa, pb, locale)),
              what);
          long po = Pointer.nativeValue(out);
          // a room too small returns the length it needs, as through JNA
          assertEquals(LibC.strxfrm_l(po, pa, 1, locale), ForeignCalls.strxfrm(0, pa, 0, locale));
          long n = ForeignCalls.strxfrm(po, pa, 4096, locale);
          byte[] viaForeign = out.getByteArray(0, (int) n);
          assertEquals(n, LibC.strxfrm_l(po, pa, 4096, locale), what);
          assertArrayEquals(out.getByteArray(0, (int) n), viaForeign, what);
        }
      }
    }
  }

  private static byte[] text(SplittableRandom r) {
    StringBuilder s = new StringBuilder();
    for (int n = r.nextInt(1, 20); n > 0; n--) {
      s.append(PIECES[r.nextInt(PIECES.length)]);
    }
    return s.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void put(Memory m, byte[] text) {
    m.write(0, text, 0, text.length);
    m.setByte(text.length, (byte) 0);
  }
}

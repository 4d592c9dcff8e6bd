package dev.joule.core.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.testing.TestLocales;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Locales as GNU sort takes them from the environment, and keys in them against the C library's
 * {@code strcoll} (the reference: GNU compares with it, and the collated code is built from {@code
 * strxfrm}, another function). The locales are built by {@link TestLocales} under {@code LOCPATH}.
 */
class TextLocaleTest {
  @BeforeAll
  static void locales() throws Exception {
    TestLocales.prepare(List.of("en_US.UTF-8", "de_DE.UTF-8"));
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void theVariablesChooseAsSetlocaleDoes() {
    assertSame(TextLocale.C, TextLocale.fromEnvironment(Map.of()));
    assertSame(TextLocale.C, TextLocale.fromEnvironment(Map.of("LANG", "POSIX", "LC_ALL", "")));
    TextLocale en = TextLocale.fromEnvironment(Map.of("LANG", "en_US.UTF-8"));
    assertEquals("en_US.UTF-8", en.collationName());
    assertTrue(en.hardCollation() && !en.byteCollation() && !en.failed() && en.utf8());
    // LC_ALL wins over LC_COLLATE, which wins over LANG
    assertEquals(
        "de_DE.UTF-8",
        TextLocale.fromEnvironment(
                Map.of("LC_ALL", "de_DE.UTF-8", "LC_COLLATE", "en_US.UTF-8", "LANG", "C"))
            .collationName());
    TextLocale mixed =
        TextLocale.fromEnvironment(Map.of("LC_COLLATE", "de_DE.UTF-8", "LANG", "en_US.UTF-8"));
    assertEquals("de_DE.UTF-8", mixed.collationName());
    assertEquals('.', mixed.decimalPoint); // LC_NUMERIC from LANG
    assertEquals(',', en.thousandsSeparator);
    TextLocale de = TextLocale.of("de_DE.UTF-8");
    assertEquals(',', de.decimalPoint);
    assertEquals('.', de.thousandsSeparator);
  }

  @Test
  void aLocaleThatIsNotInstalledIsTheCLocaleAsAWhole() {
    TextLocale missing = TextLocale.fromEnvironment(Map.of("LANG", "xx_XX.UTF-8"));
    assertTrue(missing.failed() && missing.byteCollation() && !missing.hardCollation());
    assertTrue(missing.failure().contains("xx_XX.UTF-8"), missing.failure());
    // one category missing: setlocale(LC_ALL, "") sets none, so LC_COLLATE is C too
    TextLocale partly =
        TextLocale.fromEnvironment(Map.of("LANG", "en_US.UTF-8", "LC_MONETARY", "xx_XX"));
    assertTrue(partly.failed() && partly.byteCollation());
    assertThrows(IllegalArgumentException.class, () -> TextLocale.of("xx_XX.UTF-8"));
  }

  @Test
  void cUtf8CollatesByBytesButIsGnusOwnLocale() {
    TextLocale c8 = TextLocale.fromEnvironment(Map.of("LC_ALL", "C.UTF-8"));
    assertTrue(c8.byteCollation() && c8.cEquivalent() && c8.hardCollation());
    assertEquals(KeyType.bytes(), KeyType.collated(c8));
    KeyType numeric = KeyType.gnuNumeric();
    assertSame(numeric, numeric.inLocale(c8));
    assertEquals(KeyType.bytes(), KeyType.collated(TextLocale.C));
    // -R hashes C.UTF-8's transform (a copy, NULs added), not the bytes as in C
    KeyType random = KeyType.gnuRandom(new byte[16], false, KeyType.Ignore.NONE);
    assertEquals(c8, random.inLocale(c8).locale());
    assertSame(random, random.inLocale(TextLocale.C));
  }

  @Test
  void collatedTypes() {
    TextLocale en = TextLocale.of("en_US.UTF-8");
    KeyType t = KeyType.collated(en, true, KeyType.Ignore.NONDICTIONARY);
    assertEquals(KeyType.Kind.COLLATED, t.kind());
    assertFalse(t.exact());
    assertEquals(en, t.locale());
    assertEquals(t, KeyType.text(true, KeyType.Ignore.NONDICTIONARY).inLocale(en));
    assertNotEquals(t, KeyType.collated(en));
    KeyType binary = KeyType.integer(4, true, java.nio.ByteOrder.BIG_ENDIAN);
    assertSame(binary, binary.inLocale(en));
  }

  /** The engine's order of two records: the normalized keys, then compareTail. */
  private static int order(KeyNormalizer n, byte[] a, byte[] b) {
    int d = Arrays.compareUnsigned(key(n, a), key(n, b));
    if (d != 0) {
      return Integer.signum(d);
    }
    return Integer.signum(
        n.compareTail(ByteBuffer.wrap(a), 0, a.length, ByteBuffer.wrap(b), 0, b.length));
  }

  private static byte[] key(KeyNormalizer n, byte[] rec) {
    ByteBuffer dst = ByteBuffer.allocate(16);
    int len = n.encode(ByteBuffer.wrap(rec), 0, rec.length, dst, 0);
    if (len < 0) {
      dst = ByteBuffer.allocate(-len);
      len = n.encode(ByteBuffer.wrap(rec), 0, rec.length, dst, 0);
    }
    return Arrays.copyOf(dst.array(), len);
  }

  /** strcoll through the binding, on texts without NUL (the reference). */
  private static int strcoll(TextLocale l, byte[] a, byte[] b) {
    FieldCodec.Collated c =
        (FieldCodec.Collated)
            FieldCodec.of(KeyField.of(KeyLocation.wholeRecord(), KeyType.collated(l)));
    return Integer.signum(
        c.compareFull(ByteBuffer.wrap(a), 0, a.length, ByteBuffer.wrap(b), 0, b.length));
  }

  @Test
  void glibcsTransformDisagreesWithStrcollBeyondThePrimaryLevel() {
    TextLocale de = TextLocale.of("de_DE.UTF-8");
    KeyNormalizer n =
        KeyNormalizer.compile(
            SortKey.of(KeyField.of(KeyLocation.wholeRecord(), KeyType.collated(de))));
    String[][] pairs = {{" 9,M", " -,9M"}, {"+0e1,", "-0,E1"}};
    for (String[] p : pairs) {
      byte[] a = utf8(p[0]);
      byte[] b = utf8(p[1]);
      int coll = strcoll(de, a, b);
      int xfrm = Integer.signum(Arrays.compareUnsigned(de.transform(a), de.transform(b)));
      assertEquals(-coll, xfrm, "glibc's strxfrm and strcoll disagree on " + Arrays.toString(p));
      assertEquals(coll, order(n, a, b), Arrays.toString(p));
    }
  }

  private static final String[] PIECES = {
    "a", "A", "e", "é", "E", "É", "z", "ä", "Ä", "ß", "ss", "o", "ö", "å", "-", "'", " ", ",", ".",
    "0", "9", "ж", "Ж", "日", "\u0301", "\u00a0", "\u0001", "\u007f", "\u00ff", "_"
  };

  private static byte[] randomText(SplittableRandom r) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int n = r.nextInt(6);
    for (int i = 0; i < n; i++) {
      String p = PIECES[r.nextInt(PIECES.length)];
      if (p.equals("\u00ff")) {
        out.write(0xFF); // not UTF-8
      } else {
        out.writeBytes(utf8(p));
      }
    }
    return out.toByteArray();
  }

  /**
   * The normalized key and compareTail order random texts as strcoll does, in both directions; the
   * test that fails when the code holds more than the primary level of strxfrm.
   */
  @Test
  void collatedKeysOrderAsStrcoll() {
    for (String name : List.of("de_DE.UTF-8", "en_US.UTF-8")) {
      TextLocale l = TextLocale.of(name);
      for (boolean descending : new boolean[] {false, true}) {
        KeyNormalizer n =
            KeyNormalizer.compile(
                SortKey.of(
                    KeyField.of(KeyLocation.wholeRecord(), KeyType.collated(l))
                        .withDescending(descending)));
        for (int i = 0; i < 8; i++) {
          Seeds.run(
              name + (descending ? " descending" : ""),
              i,
              seed -> {
                SplittableRandom r = new SplittableRandom(seed);
                for (int k = 0; k < 400; k++) {
                  byte[] a = randomText(r);
                  byte[] b = randomText(r);
                  int want =
                      a.length == 0 || b.length == 0
                          ? Integer.compare(a.length == 0 ? 0 : 1, b.length == 0 ? 0 : 1)
                          : strcoll(l, a, b);
                  assertEquals(
                      descending ? -want : want,
                      order(n, a, b),
                      KeyTesting.show(a) + " vs " + KeyTesting.show(b));
                }
              });
        }
      }
    }
  }

  @Test
  void nulSeparatedPartsAndEmptyKeysAsGnusXmemcoll0() {
    TextLocale en = TextLocale.of("en_US.UTF-8");
    KeyNormalizer n =
        KeyNormalizer.compile(
            SortKey.of(KeyField.of(KeyLocation.wholeRecord(), KeyType.collated(en))));
    // the empty key first, even before text the collation ignores
    assertEquals(-1, order(n, new byte[0], new byte[] {1}));
    assertEquals(-1, order(n, new byte[0], utf8("-")));
    // fewer parts first when the parts agree; else the first part that differs decides
    assertEquals(-1, order(n, utf8("a"), utf8("a\0")));
    assertEquals(-1, order(n, utf8("a\0"), utf8("a\0\0")));
    assertEquals(-1, order(n, utf8("a\0b"), utf8("a\0C")));
    assertEquals(1, order(n, utf8("b\0a"), utf8("a\0b")));
    assertEquals(-1, order(n, utf8("\0z"), utf8("a")));
    // bytes that are not UTF-8 collate alike: equal keys, left to input order
    assertEquals(0, order(n, new byte[] {(byte) 0xFF}, new byte[] {(byte) 0xFE}));
  }

  @Test
  void numbersAndMonthsOfTheLocale() {
    TextLocale de = TextLocale.of("de_DE.UTF-8");
    KeyNormalizer n =
        KeyNormalizer.compile(
            SortKey.of(KeyField.of(KeyLocation.wholeRecord(), KeyType.gnuNumeric().inLocale(de))));
    // 1.234,5 is 1234.5; '.' groups digits, ',' is the decimal point
    assertEquals(1, order(n, utf8("1.234,5"), utf8("999")));
    assertEquals(0, order(n, utf8("1234,50"), utf8("1.2.3.4,5")));
    assertEquals(-1, order(n, utf8("0,5"), utf8("0,6")));
    KeyNormalizer h =
        KeyNormalizer.compile(
            SortKey.of(
                KeyField.of(KeyLocation.wholeRecord(), KeyType.gnuHumanNumeric().inLocale(de))));
    // the unit follows the number after one group separator at most
    assertEquals(1, order(h, utf8("1.5K"), utf8("900")));
    KeyNormalizer m =
        KeyNormalizer.compile(
            SortKey.of(KeyField.of(KeyLocation.wholeRecord(), KeyType.gnuMonth().inLocale(de))));
    assertEquals(1, order(m, utf8("Mär"), utf8("Feb")));
    assertEquals(1, order(m, utf8(" dez"), utf8("Okt")));
    assertEquals(-1, order(m, utf8("MÄR"), utf8("Jan"))); // ä is not upper-cased byte by byte
  }

  @Test
  void debugNamesTheLocaleAndCountsColumns() throws Exception {
    TextLocale en = TextLocale.of("en_US.UTF-8");
    GnuDebug d = GnuDebug.of("n", TextPosition.BLANK_SEPARATED, List.of(), false, false, en);
    assertEquals(
        List.of(
            "text ordering performed using \u2018en_US.UTF-8\u2019 sorting rules",
            "note numbers use \u2018.\u2019 as a decimal point in this locale"),
        d.warnings());
    byte[] line = utf8("日本 x");
    assertEquals(6, DisplayWidth.columns(ByteBuffer.wrap(line), 0, line.length, en));
    assertEquals(1, DisplayWidth.columns(ByteBuffer.wrap(new byte[] {(byte) 0xFF}), 0, 1, en));
    // C.UTF-8, known without the C library, still reads characters for the widths as GNU does
    TextLocale c8 = TextLocale.fromEnvironment(Map.of("LANG", "C.UTF-8"));
    assertEquals(6, DisplayWidth.columns(ByteBuffer.wrap(line), 0, line.length, c8));
    assertEquals(8, DisplayWidth.columns(ByteBuffer.wrap(line), 0, line.length, TextLocale.C));
    Map<String, String> env = new HashMap<>();
    env.put("LANG", "xx_XX.UTF-8");
    TextLocale failed = TextLocale.fromEnvironment(env);
    assertEquals(
        List.of("failed to set locale", "text ordering performed using simple byte comparison"),
        GnuDebug.of("", TextPosition.BLANK_SEPARATED, List.of(), false, false, failed).warnings());
  }
}

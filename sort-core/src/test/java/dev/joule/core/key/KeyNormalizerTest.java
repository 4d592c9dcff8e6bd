package dev.joule.core.key;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The engine-facing contract: room, bounds, exactness, tails, multi-field keys. */
class KeyNormalizerTest {
  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  @Test
  void aSingleAscendingBytesFieldEncodesAsItsOwnBytes() {
    KeyNormalizer gensort =
        KeyNormalizer.compile(SortKey.of(KeyField.of(KeyLocation.bytes(0, 10), KeyType.bytes())));
    assertTrue(gensort.exact());
    assertEquals(10, gensort.maxKeyLength(100));
    byte[] rec = new byte[100];
    new Random(7).nextBytes(rec);
    assertArrayEquals(Arrays.copyOf(rec, 10), KeyTesting.normalize(gensort, rec));

    // GNU's field 2 without -b starts at the blanks after field 1; NULs are data, not blanks
    KeyNormalizer field =
        KeyNormalizer.compile(SortKey.of(KeyField.text(TextPosition.field(2), KeyType.bytes())));
    assertArrayEquals(bytes("  cd"), KeyTesting.normalize(field, bytes("ab  cd ef")));
    assertArrayEquals(bytes(" \0b\0"), KeyTesting.normalize(field, bytes("a \0b\0 c")));
  }

  @Test
  void tooLittleRoomReturnsMinusTheLengthNeeded() {
    KeyNormalizer n =
        KeyNormalizer.compile(
            SortKey.of(
                KeyField.of(KeyLocation.wholeRecord(), KeyType.text(true, KeyType.Ignore.NONE))
                    .reversed()));
    byte[] rec = bytes("ab\0c");
    int need = KeyTesting.normalize(n, rec).length;
    assertEquals(4 + 1 + 2, need); // four bytes, one escape, the terminator
    ByteBuffer small = ByteBuffer.allocate(need - 1);
    assertEquals(-need, n.encode(ByteBuffer.wrap(rec), 0, rec.length, small, 0));
    assertArrayEquals(new byte[need - 1], small.array()); // nothing written
    ByteBuffer exact = ByteBuffer.allocate(need + 3);
    assertEquals(need, n.encode(ByteBuffer.wrap(rec), 0, rec.length, exact, 3));
  }

  @Test
  void fixedRangesRejectShortRecords() {
    KeyNormalizer n =
        KeyNormalizer.compile(
            SortKey.of(KeyField.binary(4, KeyType.integer(4, true, ByteOrder.LITTLE_ENDIAN))));
    ByteBuffer dst = ByteBuffer.allocate(16);
    assertThrows(
        IllegalArgumentException.class, () -> n.encode(ByteBuffer.allocate(7), 0, 7, dst, 0));
    assertEquals(4, n.encode(ByteBuffer.allocate(8), 0, 8, dst, 0));
    assertThrows(
        IllegalArgumentException.class,
        () -> KeyField.of(KeyLocation.bytes(0, 3), KeyType.integer(4, true, ByteOrder.BIG_ENDIAN)));
  }

  /**
   * A key is the same bytes whether its buffer has room to spare or ends right after it, in either
   * byte order: numbers of up to 40 digits and units ({@code -n}, {@code -h}), then a text field.
   */
  @Test
  void numericCodesAreTheSameWithExactlyTheRoomTheyNeed() {
    KeyNormalizer n =
        KeyNormalizer.compile(
            SortKey.of(
                KeyField.text(TextPosition.field(1), KeyType.gnuNumeric()),
                KeyField.text(TextPosition.field(2), KeyType.gnuHumanNumeric()),
                KeyField.text(TextPosition.field(3), KeyType.bytes())));
    Random r = new Random(Seeds.BASE);
    for (int t = 0; t < 5000; t++) {
      String line =
          number(r) + " " + number(r) + (r.nextBoolean() ? "K" : "") + " tail" + r.nextInt(10);
      byte[] rec = bytes(line);
      ByteBuffer roomy = ByteBuffer.allocate(512);
      int len = n.encode(ByteBuffer.wrap(rec), 0, rec.length, roomy, 0);
      ByteOrder order = r.nextBoolean() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
      ByteBuffer exact = ByteBuffer.allocate(len).order(order);
      assertEquals(len, n.encode(ByteBuffer.wrap(rec), 0, rec.length, exact, 0), line);
      assertArrayEquals(
          Arrays.copyOf(roomy.array(), len),
          exact.array(),
          () -> "'" + line + "', seed " + Seeds.BASE);
    }
  }

  private static String number(Random r) {
    StringBuilder b = new StringBuilder(r.nextBoolean() ? "-" : "");
    int digits = r.nextInt(4) == 0 ? r.nextInt(41) : r.nextInt(6);
    for (int i = 0; i < digits; i++) {
      b.append((char) ('0' + r.nextInt(10)));
    }
    if (r.nextBoolean()) {
      b.append('.');
      for (int i = r.nextInt(r.nextInt(4) == 0 ? 30 : 4); i > 0; i--) {
        b.append((char) ('0' + r.nextInt(10)));
      }
    }
    return b.toString();
  }

  @Test
  void versionKeysAreInexactAndDecidedByTheTail() {
    SortKey key =
        SortKey.of(
            KeyField.text(TextPosition.field(1), KeyType.gnuNumeric()),
            KeyField.text(TextPosition.field(2), KeyType.gnuVersion()).reversed(),
            KeyField.text(TextPosition.field(3), KeyType.bytes()));
    KeyNormalizer n = KeyNormalizer.compile(key);
    assertFalse(n.exact());
    byte[] a = bytes("1 v1.10 x");
    byte[] b = bytes("1 v1.9 y");
    byte[] ka = KeyTesting.normalize(n, a);
    byte[] kb = KeyTesting.normalize(n, b);
    assertArrayEquals(ka, kb); // same number, same -V class
    // v1.10 > v1.9, reversed
    assertEquals(
        -1,
        Integer.signum(
            n.compareTail(ByteBuffer.wrap(a), 0, a.length, ByteBuffer.wrap(b), 0, b.length)));
    byte[] c = bytes("1 v1.9 x");
    assertEquals(
        -1,
        Integer.signum(
            n.compareTail(ByteBuffer.wrap(c), 0, c.length, ByteBuffer.wrap(b), 0, b.length)));
    assertEquals(
        0,
        KeyNormalizer.compile(SortKey.wholeRecord())
            .compareTail(ByteBuffer.wrap(a), 0, a.length, ByteBuffer.wrap(b), 0, b.length));
  }

  /**
   * Random multi-field keys over random lines, with GNU types in both directions: the normalized
   * order (plus tail) equals a comparator that compares field by field with the references, and no
   * key is longer than {@link KeyNormalizer#maxKeyLength}.
   */
  @Test
  void multiFieldKeysMatchFieldByFieldReferences() {
    for (int c = 0; c < 40; c++) {
      Seeds.run("multi-field", 40000 + c, KeyNormalizerTest::multiField);
    }
  }

  private static void multiField(long seed) {
    Random r = new Random(seed);
    int sep = r.nextBoolean() ? -1 : ':';
    int n = 1 + r.nextInt(3);
    List<KeyField> fields = new ArrayList<>();
    List<KeyType> types = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      KeyType t;
      switch (r.nextInt(7)) {
        case 0:
          t = KeyType.gnuNumeric();
          break;
        case 1:
          t = KeyType.gnuHumanNumeric();
          break;
        case 2:
          t = KeyType.gnuMonth();
          break;
        case 3:
          t = KeyType.gnuGeneralNumeric();
          break;
        case 4:
          t = KeyType.gnuVersion();
          break;
        case 5:
          t = KeyType.text(r.nextBoolean(), KeyType.Ignore.values()[r.nextInt(3)]);
          break;
        default:
          t = KeyType.bytes();
      }
      int f = 1 + r.nextInt(3);
      TextPosition p = r.nextBoolean() ? TextPosition.field(f) : TextPosition.fromField(f);
      if (sep >= 0) {
        p = p.withSeparator(sep);
      }
      fields.add(KeyField.text(p, t).withDescending(r.nextBoolean()));
      types.add(t);
    }
    KeyNormalizer norm = KeyNormalizer.compile(SortKey.of(fields));
    List<byte[]> lines = new ArrayList<>();
    for (int i = 0; i < 80; i++) {
      lines.add(Gen.line(r, sep, true));
    }
    List<byte[]> keys = new ArrayList<>();
    for (byte[] l : lines) {
      byte[] k = KeyTesting.normalize(norm, l);
      assertTrue(k.length <= norm.maxKeyLength(l.length));
      keys.add(k);
    }
    // Each line's fields once, so that -g's BigDecimal reference runs once per field.
    byte[][][] cut = new byte[lines.size()][n][];
    java.util.IdentityHashMap<byte[], GnuReference.General> memo =
        new java.util.IdentityHashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      for (int f = 0; f < n; f++) {
        cut[i][f] = field(lines.get(i), fields.get(f).location().position());
      }
    }
    for (int i = 0; i < lines.size(); i++) {
      for (int j = 0; j < lines.size(); j++) {
        byte[] a = lines.get(i);
        byte[] b = lines.get(j);
        int want = 0;
        for (int f = 0; f < n && want == 0; f++) {
          byte[] fa = cut[i][f];
          byte[] fb = cut[j][f];
          int d =
              types.get(f).kind() == KeyType.Kind.GNU_GENERAL_NUMERIC
                  ? Integer.signum(
                      GnuReference.compareGeneral(
                          memo.computeIfAbsent(fa, GnuReference::general),
                          memo.computeIfAbsent(fb, GnuReference::general),
                          KeyType.GnuRelease.CURRENT))
                  : Integer.signum(reference(types.get(f), fa, fb));
          want = fields.get(f).descending() ? -d : d;
        }
        int got = KeyTesting.compare(norm, a, keys.get(i), b, keys.get(j));
        if (want != got) {
          assertEquals(
              want,
              got,
              SortKey.of(fields) + ": " + KeyTesting.show(a) + " vs " + KeyTesting.show(b));
        }
      }
    }
  }

  private static byte[] field(byte[] line, TextPosition p) {
    long r = TextFields.locate(ByteBuffer.wrap(line), 0, line.length, p);
    return Arrays.copyOfRange(line, TextFields.startOf(r), TextFields.endOf(r));
  }

  private static int reference(KeyType t, byte[] a, byte[] b) {
    KeyType.GnuRelease rel = KeyType.GnuRelease.CURRENT;
    switch (t.kind()) {
      case GNU_NUMERIC:
        return GnuReference.compareNumeric(a, b, rel);
      case GNU_HUMAN_NUMERIC:
        return GnuReference.compareHuman(a, b, rel);
      case GNU_MONTH:
        return GnuReference.compareMonth(a, b);
      case GNU_GENERAL_NUMERIC:
        return GnuReference.compareGeneral(a, b, rel);
      case GNU_VERSION:
        return GnuReference.compareVersion(a, b, false);
      default:
        return Arrays.compareUnsigned(
            GnuReference.filtered(a, t.foldCase(), t.ignore()),
            GnuReference.filtered(b, t.foldCase(), t.ignore()));
    }
  }

  @Test
  void gnuOptionsParseLikeGnu() {
    SortKey k = GnuSortKeys.parse("nr", ':', List.of("2,3", "1b,1f"));
    assertEquals(KeyType.gnuNumeric(), k.fields().get(0).type()); // inherits -n -r
    assertTrue(k.fields().get(0).descending());
    assertEquals(KeyType.text(true, KeyType.Ignore.NONE), k.fields().get(1).type()); // own options
    assertFalse(k.fields().get(1).descending());
    assertEquals(
        TextPosition.of(2, 1, false, 3, 0, false).withSeparator(':'),
        k.fields().get(0).location().position());
    assertEquals(SortKey.wholeRecord(), GnuSortKeys.parse("", -1, List.of()));
    assertEquals(
        SortKey.of(KeyField.of(KeyLocation.wholeRecord(), KeyType.bytes()).reversed()),
        GnuSortKeys.parse("r", -1, List.of()));
    assertEquals(
        KeyType.text(false, KeyType.Ignore.NONDICTIONARY),
        GnuSortKeys.parse("", -1, List.of("1di")).fields().get(0).type());
    assertThrows(IllegalArgumentException.class, () -> GnuSortKeys.parse("", -1, List.of("0")));
    assertThrows(IllegalArgumentException.class, () -> GnuSortKeys.parse("", -1, List.of("1.0")));
    assertThrows(IllegalArgumentException.class, () -> GnuSortKeys.parse("", -1, List.of("1,0")));
    assertThrows(IllegalArgumentException.class, () -> GnuSortKeys.parse("", -1, List.of("1nM")));
    assertThrows(IllegalArgumentException.class, () -> GnuSortKeys.parse("", -1, List.of("1nd")));
    assertThrows(IllegalArgumentException.class, () -> GnuSortKeys.parse("", -1, List.of("1x")));
    assertThrows(IllegalArgumentException.class, () -> GnuSortKeys.parse("", -1, List.of("1R")));
    assertThrows(IllegalArgumentException.class, () -> GnuSortKeys.parse("gn", -1, List.of()));
    assertEquals(
        TextPosition.of(3, 2, true, 4, 5, true),
        GnuSortKeys.parse("", -1, List.of("3.2b,4.5b")).fields().get(0).location().position());
  }
}

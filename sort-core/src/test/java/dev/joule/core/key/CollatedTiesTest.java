package dev.joule.core.key;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.index.TieBreaker;
import dev.joule.core.index.TieGroup;
import dev.joule.core.index.TieSlots;
import dev.joule.testing.TestLocales;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A tie group of collated fields ({@link CollatedTies}) orders its copies as {@link
 * KeyNormalizer#compareTail} orders the records in place (itself checked against {@code strcoll} by
 * {@link TextLocaleTest} and against GNU sort by the CLI's differential test): every pair of a
 * group, for GNU keys whose tail is collated, with options that filter and fold the key, NUL bytes,
 * empty fields, bytes that are not UTF-8, and lines long enough to grow the group's block.
 */
class CollatedTiesTest {
  @BeforeAll
  static void locales() throws Exception {
    TestLocales.prepare(List.of("en_US.UTF-8", "de_DE.UTF-8"));
  }

  private static final String[] PIECES = {
    "a", "A", "e", "é", "E", "É", "z", "ä", "Ä", "ß", "ss", "ö", "-", "'", ".", "0", "9", "ж", "日",
    "\u0301", "\u00a0", "\u0001", "\u0000", "\u00ff"
  };

  private static byte[] text(SplittableRandom r, int pieces) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = r.nextInt(pieces + 1); i > 0; i--) {
      String p = PIECES[r.nextInt(PIECES.length)];
      if (p.equals("\u00ff")) {
        out.write(0xFF); // not UTF-8
      } else {
        out.writeBytes(p.getBytes(UTF_8));
      }
    }
    return out.toByteArray();
  }

  /** Lines of three fields; the second drawn from a pool of five, so that keys tie. */
  private static List<byte[]> lines(SplittableRandom r, byte sep, int count, int longPieces) {
    List<byte[]> pool = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      pool.add(text(r, 4));
    }
    List<byte[]> lines = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ByteArrayOutputStream l = new ByteArrayOutputStream();
      l.writeBytes(text(r, r.nextInt(8) == 0 ? longPieces : 5));
      l.write(sep);
      l.writeBytes(pool.get(r.nextInt(pool.size())));
      l.write(sep);
      l.writeBytes(text(r, 5));
      lines.add(l.toByteArray());
    }
    return lines;
  }

  private static int signum(int x) {
    return Integer.signum(x);
  }

  private static void sameOrder(KeyNormalizer n, List<byte[]> lines, String what) {
    TieBreaker tie = n.tieBreaker();
    TieGroup g = tie.group();
    assertNotNull(g, what);
    List<ByteBuffer> held = new ArrayList<>();
    for (byte[] l : lines) {
      // the records sit inside larger buffers, as in an arena
      ByteBuffer b = ByteBuffer.allocateDirect(l.length + 7);
      b.put(3, l);
      held.add(b);
      assertTrue(g.add(b, 3, l.length), what);
    }
    for (int i = 0; i < lines.size(); i++) {
      for (int j = i; j < lines.size(); j++) {
        int want =
            signum(
                n.compareTail(
                    held.get(i), 3, lines.get(i).length, held.get(j), 3, lines.get(j).length));
        assertEquals(
            want,
            signum(g.compare(i, j)),
            what + ": " + KeyTesting.show(lines.get(i)) + " vs " + KeyTesting.show(lines.get(j)));
      }
    }
  }

  @Test
  void aGroupOrdersAsTheRecordsInPlace() {
    String[][] specs = { // global options, separator, keys
      {"", "", "2,2"},
      {"", ",", "2,2f"},
      {"", ",", "2,2d 1,1r"},
      {"r", "", "2,2"},
      {"i", ",", ""},
      {"b", "", "2"},
    };
    for (String name : List.of("en_US.UTF-8", "de_DE.UTF-8")) {
      TextLocale l = TextLocale.of(name);
      for (String[] s : specs) {
        int sep = s[1].isEmpty() ? -1 : s[1].charAt(0);
        List<String> keys = s[2].isEmpty() ? List.of() : List.of(s[2].split(" "));
        KeyNormalizer n =
            KeyNormalizer.compile(
                GnuSortKeys.parse(
                    s[0], sep, KeyType.GnuRelease.CURRENT, keys, null, l, false, false));
        String what = name + " -" + s[0] + " -t'" + s[1] + "' -k " + s[2];
        for (int i = 0; i < 6; i++) {
          int longPieces = i == 0 ? 2500 : 5;
          Seeds.run(
              what,
              i,
              seed -> {
                SplittableRandom r = new SplittableRandom(seed);
                // case 0 has lines of up to 2500 pieces: the block grows from 16 KiB while a
                // record is copied
                sameOrder(n, lines(r, sep < 0 ? (byte) ' ' : (byte) sep, 60, longPieces), what);
              });
        }
      }
    }
  }

  /**
   * Slots ({@link CollatedSlots}, a merge's heads) order as the records in place, whatever they
   * held before (short and long lines in turn, so that blocks grow and shrink), and after swaps.
   */
  @Test
  void slotsOrderAsTheRecordsInPlace() {
    TextLocale de = TextLocale.of("de_DE.UTF-8");
    for (String keys : List.of("2,2", "2,2f 1,1r")) {
      KeyNormalizer n =
          KeyNormalizer.compile(
              GnuSortKeys.parse(
                  "",
                  ',',
                  KeyType.GnuRelease.CURRENT,
                  List.of(keys.split(" ")),
                  null,
                  de,
                  false,
                  false));
      TieSlots slots = n.tieBreaker().slots(3);
      Seeds.run(
          "slots -k " + keys,
          0,
          seed -> {
            SplittableRandom r = new SplittableRandom(seed);
            List<byte[]> lines = lines(r, (byte) ',', 400, 3000);
            for (int i = 0; i + 1 < lines.size(); i += 2) {
              byte[] a = lines.get(i);
              byte[] b = lines.get(i + 1);
              slots.set(2, ByteBuffer.wrap(a), 0, a.length);
              slots.set(1, ByteBuffer.wrap(b), 0, b.length);
              slots.swap(2, 0); // slot 0: a
              int want =
                  signum(
                      n.compareTail(
                          ByteBuffer.wrap(a), 0, a.length, ByteBuffer.wrap(b), 0, b.length));
              String what = KeyTesting.show(a) + " vs " + KeyTesting.show(b);
              assertEquals(want, signum(slots.compare(0, 1)), what);
              assertEquals(-want, signum(slots.compare(1, 0)), what);
              if (slots.identical(0, 1)) {
                assertEquals(0, want, what);
              }
              slots.set(2, ByteBuffer.wrap(a), 0, a.length);
              assertTrue(slots.identical(0, 2), what);
            }
          });
    }
  }

  @Test
  void aRecordTheBlockCannotHoldIsRefusedAndTheGroupKeepsTheOthers() {
    TextLocale en = TextLocale.of("en_US.UTF-8");
    KeyNormalizer n = keyed("2,2", en);
    TieGroup g = n.tieBreaker().group();
    byte[] b = "x Bé z".getBytes(UTF_8);
    byte[] a = "y be z".getBytes(UTF_8);
    assertTrue(g.add(ByteBuffer.wrap(b), 0, b.length));
    byte[] huge = new byte[CollatedTies.CAPACITY];
    java.util.Arrays.fill(huge, (byte) 'q');
    assertFalse(g.add(ByteBuffer.wrap(huge), 0, huge.length));
    assertTrue(g.add(ByteBuffer.wrap(a), 0, a.length));
    // "be" before "Bé" in en_US; the refused record took no number
    assertEquals(
        signum(n.compareTail(ByteBuffer.wrap(a), 0, a.length, ByteBuffer.wrap(b), 0, b.length)),
        signum(g.compare(1, 0)));
    assertTrue(g.compare(1, 0) < 0);
  }

  /** GNU's {@code -k spec} in {@code locale}, blank-separated, with its last resort. */
  private static KeyNormalizer keyed(String spec, TextLocale locale) {
    return KeyNormalizer.compile(
        GnuSortKeys.parse(
            "", -1, KeyType.GnuRelease.CURRENT, List.of(spec), null, locale, false, false));
  }

  @Test
  void onlyKeysWhoseTailIsCollatedHaveGroups() {
    TextLocale en = TextLocale.of("en_US.UTF-8");
    KeyNormalizer version = keyed("2,2V", en);
    assertNull(version.tieBreaker().group());
    KeyNormalizer exact = KeyNormalizer.compile(GnuSortKeys.parse("", -1, List.of("2,2n")));
    assertNull(exact.tieBreaker());
  }
}

package dev.joule.core.key;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * For every record key type, in both directions: the normalized keys of random records order as an
 * independent reference comparator written from the type's definition ({@link GnuReference}, Java's
 * own number comparisons), {@code compareTail} included where the key is inexact.
 */
class RecordKeyTypesTest {
  private static final int CASES = 12;
  private static final int RECORDS = 150;

  interface Reference {
    int compare(byte[] a, byte[] b);
  }

  private static void property(
      String name, KeyType type, Reference ref, Function<Random, byte[]> gen, int caseBase) {
    property(name, type, ref, gen, caseBase, CASES);
  }

  /** {@code cases} seeded cases of {@link #RECORDS} records, every pair compared both ways. */
  private static void property(
      String name,
      KeyType type,
      Reference ref,
      Function<Random, byte[]> gen,
      int caseBase,
      int cases) {
    for (int c = 0; c < cases; c++) {
      Seeds.run(
          name,
          caseBase + c,
          seed -> {
            Random r = new Random(seed);
            List<byte[]> recs = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++) {
              recs.add(gen.apply(r));
            }
            for (boolean desc : new boolean[] {false, true}) {
              KeyNormalizer n =
                  KeyNormalizer.compile(
                      SortKey.of(
                          KeyField.of(KeyLocation.wholeRecord(), type).withDescending(desc)));
              List<byte[]> keys = new ArrayList<>();
              for (byte[] rec : recs) {
                keys.add(KeyTesting.normalize(n, rec));
              }
              for (int i = 0; i < RECORDS; i++) {
                for (int j = i; j < RECORDS; j++) {
                  byte[] a = recs.get(i);
                  byte[] b = recs.get(j);
                  int want = Integer.signum(ref.compare(a, b)) * (desc ? -1 : 1);
                  int got = KeyTesting.compare(n, a, keys.get(i), b, keys.get(j));
                  if (want != got) {
                    assertEquals(
                        want,
                        got,
                        name
                            + (desc ? " desc " : " ")
                            + KeyTesting.show(a)
                            + " vs "
                            + KeyTesting.show(b));
                  }
                }
              }
            }
          });
    }
  }

  private static byte[] numberish(Random r) {
    return r.nextInt(4) == 0
        ? Gen.key(r)
        : Gen.number(r).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  @Test
  void gnuNumeric() {
    for (KeyType.GnuRelease rel : KeyType.GnuRelease.values()) {
      property(
          "-n " + rel,
          KeyType.gnuNumeric(rel),
          (a, b) -> GnuReference.compareNumeric(a, b, rel),
          RecordKeyTypesTest::numberish,
          50 * rel.ordinal());
    }
  }

  @Test
  void gnuHumanNumeric() {
    for (KeyType.GnuRelease rel : KeyType.GnuRelease.values()) {
      for (boolean fold : new boolean[] {false, true}) {
        property(
            "-h " + rel + (fold ? " f" : ""),
            KeyType.gnuHumanNumeric(fold, rel),
            (a, b) ->
                GnuReference.compareHuman(
                    GnuReference.filtered(a, fold, KeyType.Ignore.NONE),
                    GnuReference.filtered(b, fold, KeyType.Ignore.NONE),
                    rel),
            RecordKeyTypesTest::numberish,
            100 + 50 * rel.ordinal() + (fold ? 25 : 0),
            CASES / 2);
      }
    }
  }

  @Test
  void gnuMonth() {
    property(
        "-M",
        KeyType.gnuMonth(),
        GnuReference::compareMonth,
        r ->
            r.nextInt(3) == 0
                ? Gen.key(r)
                : Gen.month(r).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1),
        200);
  }

  @Test
  void gnuGeneralNumeric() {
    Function<Random, byte[]> gen =
        r -> {
          int k = r.nextInt(4);
          String s = k == 0 ? Gen.hex(r) : k == 1 ? Gen.token(r) : Gen.number(r);
          return s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        };
    // The reference converts with BigDecimal: once per record, not per pair.
    java.util.IdentityHashMap<byte[], GnuReference.General> memo =
        new java.util.IdentityHashMap<>();
    for (KeyType.GnuRelease nans : KeyType.GnuRelease.values()) {
      property(
          "-g " + nans,
          KeyType.gnuGeneralNumeric(nans),
          (a, b) ->
              GnuReference.compareGeneral(
                  memo.computeIfAbsent(a, GnuReference::general),
                  memo.computeIfAbsent(b, GnuReference::general),
                  nans),
          gen,
          300 + 50 * nans.ordinal());
    }
  }

  @Test
  void gnuVersion() {
    Function<Random, byte[]> gen =
        r ->
            r.nextInt(3) == 0
                ? Gen.key(r)
                : Gen.version(r).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    int base = 400;
    for (KeyType.GnuRelease suffix : KeyType.GnuRelease.values()) {
      boolean whole = suffix == KeyType.GnuRelease.COREUTILS_9_1;
      for (boolean fold : new boolean[] {false, true}) {
        for (KeyType.Ignore ignore : KeyType.Ignore.values()) {
          property(
              "-V" + (fold ? "f" : "") + ignore + suffix,
              KeyType.gnuVersion(fold, ignore, suffix),
              (a, b) ->
                  GnuReference.compareVersion(
                      GnuReference.filtered(a, fold, ignore),
                      GnuReference.filtered(b, fold, ignore),
                      whole),
              gen,
              base,
              CASES / 3);
          base += 20;
        }
      }
    }
  }

  @Test
  void text() {
    int base = 600;
    for (boolean fold : new boolean[] {false, true}) {
      for (KeyType.Ignore ignore : KeyType.Ignore.values()) {
        property(
            "text" + (fold ? "f" : "") + ignore,
            KeyType.text(fold, ignore),
            (a, b) ->
                java.util.Arrays.compareUnsigned(
                    GnuReference.filtered(a, fold, ignore), GnuReference.filtered(b, fold, ignore)),
            Gen::key,
            base);
        base += 20;
      }
    }
  }

  /** Binary integers and floats of every width, signedness and byte order, at an odd offset. */
  @Test
  void binaryNumbers() {
    for (int c = 0; c < 40; c++) {
      Seeds.run(
          "binary",
          800 + c,
          seed -> {
            Random r = new Random(seed);
            int kind = r.nextInt(6);
            int width = kind < 4 ? 1 << kind : kind == 4 ? 4 : 8;
            boolean floating = kind >= 4;
            boolean signed = floating || r.nextBoolean();
            ByteOrder order = r.nextBoolean() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
            KeyType type =
                floating
                    ? (width == 4 ? KeyType.float32(order) : KeyType.float64(order))
                    : KeyType.integer(width, signed, order);
            boolean desc = r.nextBoolean();
            KeyNormalizer n =
                KeyNormalizer.compile(SortKey.of(KeyField.binary(3, type).withDescending(desc)));
            List<byte[]> recs = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
              byte[] rec = new byte[3 + width + 2];
              r.nextBytes(rec);
              ByteBuffer f = ByteBuffer.wrap(rec, 3, width).slice().order(order);
              int special = r.nextInt(12);
              if (floating && special < 6) {
                double[] sp = {
                  0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.0
                };
                if (width == 4) {
                  f.putFloat(0, (float) sp[special]);
                } else {
                  f.putDouble(0, sp[special]);
                }
              } else if (!floating && special < 3) {
                long[] sp = {0, -1, 1L << (8 * width - 1)};
                for (int b = 0; b < width; b++) {
                  rec[3 + (order == ByteOrder.BIG_ENDIAN ? width - 1 - b : b)] =
                      (byte) (sp[special] >>> (8 * b));
                }
              }
              recs.add(rec);
            }
            List<byte[]> keys = new ArrayList<>();
            for (byte[] rec : recs) {
              keys.add(KeyTesting.normalize(n, rec));
            }
            for (int i = 0; i < recs.size(); i++) {
              byte[] a = recs.get(i);
              byte[] ka = keys.get(i);
              for (int j = 0; j < recs.size(); j++) {
                byte[] b = recs.get(j);
                byte[] kb = keys.get(j);
                int want =
                    Integer.signum(referenceBinary(a, b, width, signed, floating, order))
                        * (desc ? -1 : 1);
                assertEquals(
                    want,
                    Integer.signum(java.util.Arrays.compareUnsigned(ka, kb)),
                    type + " desc=" + desc);
              }
            }
          });
    }
  }

  private static int referenceBinary(
      byte[] a, byte[] b, int width, boolean signed, boolean floating, ByteOrder order) {
    ByteBuffer x = ByteBuffer.wrap(a, 3, width).slice().order(order);
    ByteBuffer y = ByteBuffer.wrap(b, 3, width).slice().order(order);
    if (floating) {
      return width == 4
          ? TotalOrder.compare(
              x.getFloat(0),
              y.getFloat(0),
              Float.floatToRawIntBits(x.getFloat(0)),
              Float.floatToRawIntBits(y.getFloat(0)),
              23)
          : TotalOrder.compare(
              x.getDouble(0),
              y.getDouble(0),
              Double.doubleToRawLongBits(x.getDouble(0)),
              Double.doubleToRawLongBits(y.getDouble(0)),
              52);
    }
    long u = 0;
    long v = 0;
    for (int i = 0; i < width; i++) {
      u = (u << 8) | (a[order == ByteOrder.BIG_ENDIAN ? 3 + i : 3 + width - 1 - i] & 0xFF);
      v = (v << 8) | (b[order == ByteOrder.BIG_ENDIAN ? 3 + i : 3 + width - 1 - i] & 0xFF);
    }
    if (signed) {
      int shift = 64 - 8 * width;
      return Long.compare(u << shift >> shift, v << shift >> shift);
    }
    return Long.compareUnsigned(u, v);
  }
}

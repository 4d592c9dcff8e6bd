package dev.joule.spark.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The wrapped forms: round trips, and the sort key order against an independent comparison. */
class RecordLayoutTest {
  private static final long SEED = 77L;

  @Test
  void ordinalGoesRightAfterTheKeyAndComesOutAgain() {
    OrdinalRecordLayout l = new OrdinalRecordLayout(16, 5, 3);
    byte[] rec = new byte[16];
    new SplittableRandom(SEED).nextBytes(rec);
    byte[] wrapped = new byte[l.wrappedSize() + 4];
    l.wrap(rec, 0, 0x0102030405060708L, wrapped, 4);
    ByteBuffer w = ByteBuffer.wrap(wrapped, 4, l.wrappedSize()).slice();
    assertArrayEquals(Arrays.copyOfRange(rec, 0, 8), Arrays.copyOfRange(wrapped, 4, 12));
    assertEquals(0x0102030405060708L, w.getLong(8));
    assertArrayEquals(Arrays.copyOfRange(rec, 8, 16), Arrays.copyOfRange(wrapped, 20, 28));
    byte[] back = new byte[16];
    l.unwrap(w, back, 0);
    assertArrayEquals(rec, back);
    byte[] sortKey = l.sortKey(rec, 0, 0x0102030405060708L);
    assertArrayEquals(
        Arrays.copyOfRange(wrapped, 4 + l.sortKeyOffset(), 4 + l.sortKeyOffset() + 11), sortKey);
    byte[] joined = new byte[16];
    l.join(sortKey, l.rest(rec, 0), joined, 0);
    assertArrayEquals(rec, joined);
  }

  @Test
  void badLayoutsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new OrdinalRecordLayout(10, 5, 6));
    assertThrows(IllegalArgumentException.class, () -> new OrdinalRecordLayout(65_528, 0, 10));
    assertThrows(IllegalArgumentException.class, () -> new OrdinalRecordLayout(10, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new PairRecordLayout(40_000, 30_000));
  }

  @Test
  void pairSortKeysOrderAsUnsignedKeysThenOrdinal() {
    SplittableRandom r = new SplittableRandom(SEED);
    byte[] alphabet = {0, 1, (byte) 0x7F, (byte) 0x80, (byte) 0xFF};
    PairRecordLayout l = new PairRecordLayout(6, 3);
    for (int t = 0; t < 20_000; t++) {
      byte[] a = randomKey(r, alphabet);
      byte[] b = randomKey(r, alphabet);
      long oa = r.nextInt(4);
      long ob = r.nextInt(4);
      int expected = Arrays.compareUnsigned(a, b);
      if (expected == 0) {
        expected = Long.compare(oa, ob);
      }
      int actual = Arrays.compareUnsigned(l.sortKey(a, oa), l.sortKey(b, ob));
      assertEquals(
          Integer.signum(expected),
          Integer.signum(actual),
          Arrays.toString(a) + " vs " + Arrays.toString(b) + " (seed " + SEED + ")");
    }
  }

  private static byte[] randomKey(SplittableRandom r, byte[] alphabet) {
    byte[] k = new byte[r.nextInt(7)];
    for (int i = 0; i < k.length; i++) {
      k[i] = alphabet[r.nextInt(alphabet.length)];
    }
    return k;
  }

  @Test
  void pairsComeBackWhole() {
    PairRecordLayout l = new PairRecordLayout(5, 7);
    byte[] dst = new byte[l.wrappedSize()];
    java.util.Arrays.fill(dst, (byte) 0x55); // padding must be zeroed by wrap
    byte[] key = {1, 2};
    byte[] value = {9, 8, 7};
    l.wrap(key, value, 42, dst, 0);
    ByteBuffer w = ByteBuffer.wrap(dst);
    assertArrayEquals(key, l.key(w));
    assertArrayEquals(value, l.value(w));
    assertArrayEquals(l.sortKey(key, 42), Arrays.copyOf(dst, l.sortKeyLength()));
    assertEquals(0, dst[l.wrappedSize() - 1], "value padding");
    assertThrows(IllegalArgumentException.class, () -> l.wrap(new byte[6], value, 1, dst, 0));
  }
}

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
  }

  @Test
  void pairEngineKeysOrderAsUnsignedKeysThenOrdinal() {
    SplittableRandom r = new SplittableRandom(SEED);
    byte[] alphabet = {0, 1, (byte) 0x7F, (byte) 0x80, (byte) 0xFF};
    for (int t = 0; t < 20_000; t++) {
      byte[] a = randomKey(r, alphabet);
      byte[] b = randomKey(r, alphabet);
      long oa = r.nextBoolean() ? r.nextInt(4) : r.nextLong(Long.MAX_VALUE);
      long ob = r.nextBoolean() ? r.nextInt(4) : r.nextLong(Long.MAX_VALUE);
      int expected = Arrays.compareUnsigned(a, b);
      if (expected == 0) {
        expected = Long.compare(oa, ob);
      }
      int actual = Arrays.compareUnsigned(PairKey.encode(a, oa), PairKey.encode(b, ob));
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
  void pairKeysAndOrdinalsComeBackFromTheEngineKey() {
    SplittableRandom r = new SplittableRandom(SEED + 1);
    byte[] alphabet = {0, 0, (byte) 0xFF, 1, 2};
    for (int t = 0; t < 2_000; t++) {
      byte[] key = randomKey(r, alphabet);
      long ordinal = r.nextLong(Long.MAX_VALUE);
      byte[] engineKey = PairKey.encode(key, ordinal);
      assertEquals(PairKey.encodedLength(key), engineKey.length, "seed " + (SEED + 1));
      byte[] framed = new byte[engineKey.length + 6]; // the key anywhere inside a larger buffer
      System.arraycopy(engineKey, 0, framed, 3, engineKey.length);
      ByteBuffer view = ByteBuffer.wrap(framed, 3, engineKey.length);
      assertArrayEquals(key, PairKey.key(view), "seed " + (SEED + 1));
      assertEquals(ordinal, PairKey.ordinal(view));
      assertEquals(3, view.position(), "position unchanged");
    }
    for (byte[] bad :
        new byte[][] {
          {}, {1, 2, 3}, {0, 1, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}
        }) {
      assertThrows(IllegalArgumentException.class, () -> PairKey.key(ByteBuffer.wrap(bad)));
    }
  }

  @Test
  void pairEntriesOfAnyLengthComeBackInOrder() throws Exception {
    SplittableRandom r = new SplittableRandom(SEED + 2);
    java.io.ByteArrayOutputStream chunk = new java.io.ByteArrayOutputStream();
    java.util.List<byte[][]> written = new java.util.ArrayList<>();
    for (int i = 0; i < 500; i++) {
      byte[] k = new byte[r.nextInt(40)];
      byte[] v = new byte[r.nextInt(3) == 0 ? 0 : r.nextInt(300)];
      r.nextBytes(k);
      r.nextBytes(v);
      byte[] entry = new byte[(int) PairEntries.entryLength(k.length, v.length)];
      System.arraycopy(k, 0, entry, 4, k.length);
      System.arraycopy(v, 0, entry, PairEntries.valueOffset(k.length), v.length);
      PairEntries.writeLengths(entry, k.length, v.length);
      chunk.write(entry);
      written.add(new byte[][] {k, v});
    }
    byte[] bytes = chunk.toByteArray();
    java.util.List<byte[][]> read = new java.util.ArrayList<>();
    PairEntries.forEach(
        bytes,
        (c, ko, kl, vo, vl) ->
            read.add(
                new byte[][] {
                  Arrays.copyOfRange(c, ko, ko + kl), Arrays.copyOfRange(c, vo, vo + vl)
                }));
    assertEquals(written.size(), read.size(), "seed " + (SEED + 2));
    for (int i = 0; i < written.size(); i++) {
      assertArrayEquals(
          written.get(i)[0], read.get(i)[0], "key " + i + " (seed " + (SEED + 2) + ")");
      assertArrayEquals(written.get(i)[1], read.get(i)[1], "value " + i);
    }
    byte[] cut = Arrays.copyOf(bytes, bytes.length - 1);
    assertThrows(
        IllegalArgumentException.class, () -> PairEntries.forEach(cut, (c, a, b, d, e) -> {}));
  }
}

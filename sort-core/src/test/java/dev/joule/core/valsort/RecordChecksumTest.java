package dev.joule.core.valsort;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.joule.testing.TestSeed;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** The 128-bit checksum's arithmetic against BigInteger, the definition's sum modulo 2^128. */
class RecordChecksumTest {
  private static final long SEED = TestSeed.of(RecordChecksumTest.class, 0xC4EC_5005L);
  private static final BigInteger MOD = BigInteger.ONE.shiftLeft(128);

  private static BigInteger value(RecordChecksum c) {
    return new BigInteger(1, toBytes(c.hi(), c.lo()));
  }

  private static byte[] toBytes(long hi, long lo) {
    byte[] b = new byte[16];
    for (int i = 0; i < 8; i++) {
      b[i] = (byte) (hi >>> (56 - 8 * i));
      b[8 + i] = (byte) (lo >>> (56 - 8 * i));
    }
    return b;
  }

  @Test
  void subtractIsTheSumOfTheRecordsLeft() {
    Random r = new Random(SEED);
    RecordChecksum all = new RecordChecksum();
    RecordChecksum some = new RecordChecksum();
    BigInteger expectedRest = BigInteger.ZERO;
    for (int i = 0; i < 1000; i++) {
      byte[] rec = new byte[r.nextInt(20)];
      r.nextBytes(rec);
      all.addRecord(rec, 0, rec.length);
      if (r.nextBoolean()) {
        some.addRecord(rec, 0, rec.length);
      } else {
        CRC32 crc = new CRC32();
        crc.update(rec);
        expectedRest = expectedRest.add(BigInteger.valueOf(crc.getValue()));
      }
    }
    all.subtract(some);
    assertEquals(expectedRest, value(all), "seed " + SEED);
  }

  /**
   * Every length on both sides of the table path's limit, at every alignment, in buffers of both
   * byte orders, heap, direct and read-only: each record's CRC is the JDK's CRC-32 of its bytes.
   */
  @Test
  void recordCrcIsZlibsCrc32InEveryKindOfBuffer() {
    Random r = new Random(SEED + 2);
    byte[] bytes = new byte[256];
    r.nextBytes(bytes);
    ByteBuffer heap = ByteBuffer.wrap(bytes);
    ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(0, bytes);
    ByteBuffer[] buffers = {
      heap,
      heap.duplicate().order(ByteOrder.LITTLE_ENDIAN),
      direct,
      direct.duplicate().order(ByteOrder.LITTLE_ENDIAN),
      direct.asReadOnlyBuffer(),
      direct.asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN)
    };
    for (ByteBuffer b : buffers) {
      for (int length = 0; length <= 2 * RecordChecksum.TABLE_BYTES + 9; length++) {
        for (int at = 0; at < 9; at++) {
          CRC32 crc = new CRC32();
          crc.update(bytes, at, length);
          RecordChecksum sum = new RecordChecksum();
          int got = sum.addRecord(b, at, length);
          String where = b + ", length " + length + " at " + at + ", seed " + SEED;
          assertEquals((int) crc.getValue(), got, where);
          assertEquals(crc.getValue(), sum.lo(), where);
        }
      }
    }
  }

  /**
   * A CRC-32C sum (a session's own check) sums java.util.zip.CRC32C's values, by every entry point
   * and buffer kind, short records included (no CRC-32 table on that path); it never mixes with a
   * valsort sum.
   */
  @Test
  void castagnoliSumsAreSumsOfCrc32cValuesAndNeverMix() {
    Random r = new Random(SEED + 4);
    byte[] bytes = new byte[256];
    r.nextBytes(bytes);
    ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(0, bytes);
    BigInteger expected = BigInteger.ZERO;
    RecordChecksum byIndex = RecordChecksum.castagnoli();
    RecordChecksum byView = RecordChecksum.castagnoli();
    RecordChecksum byArray = RecordChecksum.castagnoli();
    for (int length = 0; length <= 2 * RecordChecksum.TABLE_BYTES + 9; length++) {
      int at = r.nextInt(9);
      CRC32C crc = new CRC32C();
      crc.update(bytes, at, length);
      expected = expected.add(BigInteger.valueOf(crc.getValue()));
      String where = "length " + length + " at " + at + ", seed " + SEED;
      assertEquals((int) crc.getValue(), byIndex.addRecord(direct, at, length), where);
      assertEquals(
          (int) crc.getValue(),
          byView.addRecord(direct.asReadOnlyBuffer().limit(at + length).position(at)),
          where);
      byArray.addRecord(bytes, at, length);
    }
    assertEquals(expected.mod(MOD), value(byIndex));
    assertEquals(byIndex, byView);
    assertEquals(byIndex, byArray);
    RecordChecksum valsort = RecordChecksum.of(byIndex.hi(), byIndex.lo());
    assertNotEquals(valsort, byIndex, "equal numbers of different CRCs are different sums");
    assertEquals(byIndex, byIndex.copy());
    assertThrows(IllegalArgumentException.class, () -> valsort.add(byIndex));
    assertThrows(IllegalArgumentException.class, () -> byIndex.emptyOfSameKind().add(valsort));
    assertThrows(IllegalArgumentException.class, () -> byIndex.subtract(valsort));
  }

  /**
   * A short record's last bytes are read as one word with the bytes after them, or, at the end of
   * the buffer, with the bytes before them, or one by one in a buffer of fewer than eight bytes.
   */
  @Test
  void shortRecordsEndingAtTheLimitHaveZlibsCrc32() {
    Random r = new Random(SEED + 3);
    byte[] bytes = new byte[RecordChecksum.TABLE_BYTES + 1];
    r.nextBytes(bytes);
    ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(0, bytes);
    ByteBuffer[] buffers = {
      ByteBuffer.wrap(bytes),
      ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN),
      direct,
      direct.asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN)
    };
    for (ByteBuffer whole : buffers) {
      for (int limit = 0; limit <= bytes.length; limit++) {
        ByteBuffer b = whole.duplicate().order(whole.order()).limit(limit);
        for (int at = 0; at <= limit; at++) {
          CRC32 crc = new CRC32();
          crc.update(bytes, at, limit - at);
          String where = b + ", " + (limit - at) + " bytes at " + at + ", seed " + SEED;
          assertEquals(
              (int) crc.getValue(), new RecordChecksum().addRecord(b, at, limit - at), where);
        }
      }
    }
  }

  @Test
  void addTimesIsRepeatedAddition() {
    Random r = new Random(SEED + 1);
    for (int i = 0; i < 200; i++) {
      RecordChecksum one = RecordChecksum.of(r.nextInt(3) == 0 ? r.nextLong() : 0, r.nextLong());
      long times = i < 100 ? r.nextInt(1000) : r.nextLong();
      RecordChecksum sum = RecordChecksum.of(r.nextLong(), r.nextLong());
      BigInteger expected =
          value(sum)
              .add(value(one).multiply(new BigInteger(Long.toUnsignedString(times))))
              .mod(MOD);
      sum.addTimes(one, times);
      assertEquals(expected, value(sum), "seed " + SEED + ", case " + i);
    }
  }

  @Test
  void subtractBorrowsAcrossTheWordsAndWrapsModulo2To128() {
    long[][] cases = {
      {1, 0, 0, 1}, {0, 0, 0, 1}, {5, -1L, 7, 3}, {-1L, -1L, -1L, -1L}, {0, 7, 0, 9}
    };
    for (long[] c : cases) {
      RecordChecksum a = RecordChecksum.of(c[0], c[1]);
      BigInteger expected = value(a).subtract(value(RecordChecksum.of(c[2], c[3]))).mod(MOD);
      a.subtract(RecordChecksum.of(c[2], c[3]));
      assertEquals(expected, value(a), java.util.Arrays.toString(c));
    }
  }
}

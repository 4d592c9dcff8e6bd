package dev.joule.core.gensort;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.joule.core.valsort.RecordChecksum;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class GensortGeneratorTest {
  static final GensortMode BIN = GensortMode.BINARY;
  static final GensortMode ASCII = GensortMode.ASCII;
  static final GensortMode SKEW = new GensortMode(RecordLayout.BINARY, true);
  static final GensortMode ASCII_SKEW = new GensortMode(RecordLayout.ASCII, true);
  static final GensortMode LEGACY = new GensortMode(RecordLayout.LEGACY, false);

  static byte[] generate(GensortMode mode, Uint128 first, int count) {
    ByteBuffer buf = ByteBuffer.allocateDirect(count * 100);
    new GensortGenerator(mode).seek(first).generate(buf, count);
    assertEquals(count * 100, buf.position());
    byte[] out = new byte[count * 100];
    buf.flip().get(out);
    return out;
  }

  static String checksum(GensortMode mode, Uint128 first, long count) {
    GensortGenerator gen = new GensortGenerator(mode).seek(first);
    RecordChecksum sum = new RecordChecksum();
    ByteBuffer buf = ByteBuffer.allocateDirect(10_000 * 100);
    for (long done = 0; done < count; ) {
      int n = (int) Math.min(10_000, count - done);
      buf.clear();
      gen.generate(buf, n);
      sum.addRecords(buf, 0, n, 100);
      done += n;
    }
    return sum.toHex();
  }

  static GensortMode mode(String name) {
    switch (name) {
      case "bin":
        return BIN;
      case "ascii":
        return ASCII;
      case "skew":
        return SKEW;
      case "ascii-skew":
        return ASCII_SKEW;
      default:
        return LEGACY;
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "bin-1000.dat, bin, 0",
    "ascii-1000.dat, ascii, 0",
    "skew-1000.dat, skew, 0",
    "ascii-skew-1000.dat, ascii-skew, 0",
    "bin-b123456789-1000.dat, bin, 123456789",
  })
  void matchesReferenceFilesByteForByte(String file, String mode, String start) {
    byte[] expected = Vectors.load(file);
    byte[] actual = generate(mode(mode), Uint128.parseDecimal(start), 1000);
    int at = Arrays.mismatch(expected, actual);
    assertEquals(-1, at, () -> file + " differs at byte " + at + " (record " + at / 100 + ")");
  }

  @ParameterizedTest(name = "{0} {1} records from {2}")
  @CsvSource({
    "bin, 1000, 0, 1ea6370b955",
    "ascii, 1000, 0, 1f5dfb3631a",
    "skew, 1000, 0, 1e96301166b",
    "ascii-skew, 1000, 0, 1eef17d1cac",
    "bin, 1000, 123456789, 1f013ceee6d",
    "bin, 1000000, 0, 7a0e0d4868cd4",
    "ascii, 1000000, 0, 7a19cff467438",
    "skew, 1000000, 0, 79f9a7e6de673",
    "ascii-skew, 1000000, 0, 7a135fbce6df2",
  })
  void checksumsMatchTheReference(String mode, long count, String start, String expected) {
    assertEquals(expected, checksum(mode(mode), Uint128.parseDecimal(start), count));
  }

  @Test
  void binaryRecordZeroStartsWithJimGrayRip() {
    byte[] rec = generate(BIN, Uint128.ZERO, 1);
    byte[] prefix = {
      0x4A, 0x69, 0x6D, 0x47, 0x72, 0x61, 0x79, 0x52, 0x49, 0x50, 0x65, 0x08, 0x00, 0x60
    };
    assertArrayEquals(prefix, Arrays.copyOf(rec, prefix.length));
  }

  @Test
  void asciiRecordZeroKey() {
    byte[] rec = generate(ASCII, Uint128.ZERO, 1);
    assertEquals("AsfAGHM5om", new String(rec, 0, 10, StandardCharsets.US_ASCII));
  }

  @Test
  void legacyKeysEqualBinaryKeysAndLayoutFollowsTeraGen() {
    byte[] legacy = generate(LEGACY, Uint128.ofUnsigned(0xABCDEFL), 300);
    byte[] binary = generate(BIN, Uint128.ofUnsigned(0xABCDEFL), 300);
    for (int r = 0; r < 300; r++) {
      assertArrayEquals(
          Arrays.copyOfRange(binary, r * 100, r * 100 + 10),
          Arrays.copyOfRange(legacy, r * 100, r * 100 + 10));
    }
    String rec0 = new String(legacy, 12, 32, StandardCharsets.US_ASCII);
    assertEquals("00000000000000000000000000ABCDEF", rec0);
    assertEquals(0x11, legacy[11]);
    assertEquals((byte) 0xFF, legacy[99]);
  }

  static final Uint128[] OFFSETS = {
    Uint128.ZERO,
    Uint128.ofUnsigned((1L << 32) - 6),
    Uint128.ofUnsigned((1L << 60) - 6),
    Uint128.of(0, -6L), // 2^64 − 6
    Uint128.of(0x0FFF_FFFF_FFFF_FFFFL, -6L), // 2^124 − 6: s(i) jumps to 128
    Uint128.of(-1L, -56L), // 2^128 − 56: wraps to record 0
  };

  static Stream<Arguments> modesAndOffsets() {
    return Stream.of(BIN, LEGACY, ASCII, SKEW, ASCII_SKEW)
        .flatMap(m -> Arrays.stream(OFFSETS).map(o -> Arguments.of(m, o)));
  }

  @ParameterizedTest(name = "{0} at {1}")
  @MethodSource("modesAndOffsets")
  void rangesConcatenateAndAgreeWithTheOracle(GensortMode mode, Uint128 offset) {
    int n = 37;
    int m = 200; // crosses the generator's internal batch boundary
    byte[] whole = generate(mode, offset, n + m);
    byte[] left = generate(mode, offset, n);
    byte[] right = generate(mode, offset.plus(n), m);
    byte[] joined = Arrays.copyOf(left, whole.length);
    System.arraycopy(right, 0, joined, left.length, right.length);
    assertArrayEquals(whole, joined);

    BigInteger base = new BigInteger(offset.toString());
    for (int r = 0;
        r < 60;
        r++) { // the oracle is slow; its first 60 records span every boundary here
      byte[] expected = OracleRecords.record(mode, base.add(BigInteger.valueOf(r)));
      byte[] actual = Arrays.copyOfRange(whole, r * 100, r * 100 + 100);
      int rr = r;
      assertArrayEquals(expected, actual, () -> mode + " record " + offset + "+" + rr);
    }
  }

  @Test
  void generatingOneRecordAtATimeEqualsOneCall() {
    for (GensortMode mode : new GensortMode[] {BIN, ASCII_SKEW, LEGACY}) {
      byte[] whole = generate(mode, Uint128.ofUnsigned(99), 300);
      GensortGenerator gen = new GensortGenerator(mode).seek(Uint128.ofUnsigned(99));
      ByteBuffer buf = ByteBuffer.allocate(300 * 100);
      for (int r = 0; r < 300; r++) {
        gen.generate(buf, 1);
      }
      assertArrayEquals(whole, buf.array(), mode.toString());
      assertEquals(Uint128.ofUnsigned(399), gen.position());
    }
  }

  @Test
  void skewIndexQuirks() {
    assertEquals(0, SkewTemplates.skewIndex(0, 0));
    assertEquals(1, SkewTemplates.skewIndex(0, 1));
    assertEquals(4, SkewTemplates.skewIndex(0, 15));
    assertEquals(60, SkewTemplates.skewIndex(0, (1L << 60) - 1));
    assertEquals(64, SkewTemplates.skewIndex(0, 1L << 60));
    assertEquals(64, SkewTemplates.skewIndex(0, -1L));
    assertEquals(65, SkewTemplates.skewIndex(1, 0));
    assertEquals(124, SkewTemplates.skewIndex((1L << 60) - 1, 0));
    assertEquals(128, SkewTemplates.skewIndex(1L << 60, 0));
  }
}

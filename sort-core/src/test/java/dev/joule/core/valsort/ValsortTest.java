package dev.joule.core.valsort;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.gensort.GensortGenerator;
import dev.joule.core.gensort.GensortMode;
import dev.joule.core.gensort.Uint128;
import dev.joule.core.gensort.Vectors;
import dev.joule.testing.TestSeed;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ValsortTest {
  static final byte[] SORTED = Vectors.load("ascii-1000.sorted.dat");

  static ValsortSummary validate(byte[] data) throws ValsortException {
    StreamingValidator v = new StreamingValidator();
    v.accept(ByteBuffer.wrap(data));
    return v.finish();
  }

  static List<String> expectedLines(String file) {
    List<String> lines = new ArrayList<>();
    for (String l : new String(Vectors.load(file), StandardCharsets.US_ASCII).lines().toList()) {
      if (!l.startsWith("exit ")) {
        lines.add(l);
      }
    }
    return lines;
  }

  /**
   * Records with the given keys (10-byte keys from the low bytes of the values), payload varies.
   */
  static byte[] records(long... keys) {
    ByteBuffer b = ByteBuffer.allocate(keys.length * 100);
    for (int r = 0; r < keys.length; r++) {
      b.putShort(
          r * 100, (short) 0x7F00); // top key bytes: a byte ≥ 0x80 elsewhere tests unsignedness
      b.putLong(r * 100 + 2, keys[r]);
      b.put(r * 100 + 10 + r % 90, (byte) r);
    }
    return b.array();
  }

  @Test
  void sortedReferenceFileReportsAndSummaryMatchTheReference() throws Exception {
    ValsortSummary s = validate(SORTED);
    assertEquals(expectedLines("ascii-1000.sorted.valsort.txt"), s.reportLines());
    byte[] reference = Vectors.load("ascii-1000.sorted.sum");
    assertArrayEquals(reference, s.toBytes());
    assertEquals(s, ValsortSummary.readFrom(ByteBuffer.wrap(reference)));
  }

  @Test
  void unsortedReferenceFileReportsLikeTheReference() throws Exception {
    ValsortSummary s = validate(Vectors.load("ascii-1000.dat"));
    assertEquals(expectedLines("ascii-1000.unsorted.valsort.txt"), s.reportLines());
    assertEquals(Uint128.ofUnsigned(2), s.firstUnordered());
    assertEquals(Uint128.ofUnsigned(497), s.unorderedCount());
  }

  @Test
  void first400SortedRecords() throws Exception {
    ValsortSummary s = validate(Arrays.copyOf(SORTED, 400 * 100));
    assertTrue(s.reportLines().contains("Records: 400"));
    assertTrue(s.reportLines().contains("Checksum: c4df938655"));
    ByteBuffer raw = ByteBuffer.wrap(s.toBytes()).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(0, raw.getLong(32)); // record_count hi
    assertEquals(0x190, raw.getLong(40)); // record_count lo
  }

  @Test
  void swappingRecords10And11() throws Exception {
    byte[] d = SORTED.clone();
    System.arraycopy(SORTED, 1100, d, 1000, 100);
    System.arraycopy(SORTED, 1000, d, 1100, 100);
    ValsortSummary s = validate(d);
    assertEquals("First unordered record is record 11", s.reportLines().get(0));
    assertEquals(Uint128.ONE, s.unorderedCount());
  }

  @Test
  void summariesInOrderCombineToTheWholeAndWrongOrderReportsRecord600() throws Exception {
    ValsortSummary a = validate(Arrays.copyOf(SORTED, 40_000));
    ValsortSummary b = validate(Arrays.copyOfRange(SORTED, 40_000, 100_000));
    assertEquals(validate(SORTED), new SummaryCombiner().add(a).add(b).result());

    ValsortSummary wrong = new SummaryCombiner().add(b).add(a).result();
    assertEquals("First unordered record is record 600", wrong.reportLines().get(0));
    assertEquals(Uint128.ONE, wrong.unorderedCount());
    assertEquals(Uint128.ofUnsigned(1000), wrong.recordCount());
  }

  @Test
  void firstUnorderedInsideALaterPartitionBecomesGlobal() throws Exception {
    byte[] d = records(1, 2, 3, 4, 5, 7, 6, 8);
    ValsortSummary whole = validate(d);
    assertEquals(Uint128.ofUnsigned(6), whole.firstUnordered());
    ValsortSummary combined =
        new SummaryCombiner()
            .add(validate(Arrays.copyOf(d, 400)))
            .add(validate(Arrays.copyOfRange(d, 400, 800)))
            .result();
    assertEquals(whole, combined);
  }

  @Test
  void duplicatesCountKMinusOneAndCrossBoundaries() throws Exception {
    byte[] d = records(1, 5, 5, 5, 9, 9, 0x80);
    ValsortSummary s = validate(d);
    assertEquals(Uint128.ofUnsigned(3), s.duplicateCount());
    assertTrue(s.isOrdered(), s.toString());
    assertEquals("Duplicate keys: 3", s.reportLines().get(2));
    ValsortSummary split =
        new SummaryCombiner()
            .add(validate(Arrays.copyOf(d, 200)))
            .add(validate(Arrays.copyOfRange(d, 200, 700)))
            .result();
    assertEquals(s, split);
  }

  @Test
  void keyComparisonIsUnsignedAndIgnoresThePayload() throws Exception {
    byte[] d = records(0x7F, 0x80, 0xFF);
    d[299] = 0; // payload differences must not matter
    assertTrue(validate(d).isOrdered());
    assertEquals(Uint128.ONE, validate(records(0x80, 0x7F)).firstUnordered());
  }

  @Test
  void partialTrailingRecordAndEmptyInputAreFatal() {
    ValsortException partial =
        assertThrows(ValsortException.class, () -> validate(Arrays.copyOf(SORTED, 250)));
    assertEquals("partial record found at end", partial.getMessage());
    ValsortException empty = assertThrows(ValsortException.class, () -> validate(new byte[0]));
    assertEquals("there must be at least one record to be validated", empty.getMessage());
    assertThrows(ValsortException.class, () -> new SummaryCombiner().result());
  }

  @Test
  void randomChunkingGivesTheSameSummary() throws Exception {
    long seed = TestSeed.of(ValsortTest.class, 0x7A150E7L);
    SplittableRandom rnd = new SplittableRandom(seed);
    byte[] data = Vectors.load("ascii-skew-1000.dat");
    ValsortSummary expected = validate(data);
    for (int trial = 0; trial < 50; trial++) {
      StreamingValidator v = new StreamingValidator();
      int pos = 0;
      while (pos < data.length) {
        int n = Math.min(data.length - pos, rnd.nextInt(1, 450));
        ByteBuffer chunk =
            rnd.nextBoolean()
                ? ByteBuffer.allocateDirect(n)
                : ByteBuffer.allocate(n + 7).position(7);
        chunk.put(data, pos, n).flip().position(chunk.capacity() - n);
        if (rnd.nextBoolean()) {
          chunk.order(ByteOrder.LITTLE_ENDIAN);
        }
        v.accept(chunk);
        assertEquals(chunk.limit(), chunk.position());
        pos += n;
      }
      assertEquals(expected, v.finish(), "seed " + seed + " trial " + trial);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 8})
  void parallelValidationEqualsSequential(int threads) throws Exception {
    int n = 10_007;
    ByteBuffer data = ByteBuffer.allocate(n * 100);
    new GensortGenerator(GensortMode.ASCII).seek(Uint128.ZERO).generate(data, n);
    byte[] bytes = data.array();
    ValsortSummary expected = validate(bytes);
    ParallelValidator pv = new ParallelValidator(threads, 1000 + 37);
    ValsortSummary actual =
        pv.validate(
            bytes.length,
            (dst, position) -> {
              int len = (int) Math.min(dst.remaining(), bytes.length - position);
              dst.put(bytes, (int) position, len);
              return len;
            });
    assertEquals(expected, actual);

    ValsortException partial =
        assertThrows(
            ValsortException.class,
            () ->
                pv.validate(
                    2050,
                    (dst, position) -> {
                      int len = (int) Math.min(dst.remaining(), 2050 - position);
                      dst.put(bytes, (int) position, len);
                      return len;
                    }));
    assertEquals(ValsortException.PARTIAL_RECORD, partial.getMessage());
  }

  static ValsortSummary validateIgnoringCase(byte[] data) throws ValsortException {
    StreamingValidator v = new StreamingValidator(true);
    v.accept(ByteBuffer.wrap(data));
    return v.finish();
  }

  static byte[] asciiRecords(String... prefixes) {
    byte[] d = new byte[prefixes.length * 100];
    Arrays.fill(d, (byte) '~');
    for (int r = 0; r < prefixes.length; r++) {
      byte[] p = prefixes[r].getBytes(StandardCharsets.ISO_8859_1);
      System.arraycopy(p, 0, d, r * 100, p.length);
    }
    return d;
  }

  @Test
  void caseInsensitiveQuirkFoldsCaseAndComparesThePayload() throws Exception {
    // folded: "apple" < "BANANA" even though 'B' < 'a' as bytes
    assertTrue(validateIgnoringCase(asciiRecords("apple", "BANANA", "cherry")).isOrdered());
    assertEquals(Uint128.ONE, validate(asciiRecords("apple", "BANANA")).unorderedCount());
    // equal keys (ignoring case) are ordered by the payload, and are not duplicates
    byte[] tie = asciiRecords("KEYKEYKEYK..........b", "keykeykeyk..........a");
    ValsortSummary s = validateIgnoringCase(tie);
    assertEquals(Uint128.ONE, s.firstUnordered());
    assertEquals(Uint128.ZERO, s.duplicateCount());
    assertTrue(validate(tie).isOrdered()); // memcmp on 10 bytes: "KEY…" < "key…"
    // a NUL in the first record ends the comparison: equal up to there counts as a duplicate
    byte[] nul = asciiRecords("abc\0x", "ABC\0y");
    assertEquals(Uint128.ONE, validateIgnoringCase(nul).duplicateCount());
    // identical records: the reference's behaviour is undefined there; joule calls them equal
    assertEquals(Uint128.ONE, validateIgnoringCase(asciiRecords("same", "same")).duplicateCount());
    // -s boundaries use the same comparison
    ValsortSummary a = validateIgnoringCase(asciiRecords("apple"));
    ValsortSummary b = validateIgnoringCase(asciiRecords("BANANA"));
    assertTrue(new SummaryCombiner(true).add(a).add(b).result().isOrdered());
    assertEquals(Uint128.ONE, new SummaryCombiner().add(a).add(b).result().unorderedCount());
  }

  @Test
  void summaryRoundTripsThrough280Bytes() throws Exception {
    ValsortSummary s = validate(records(3, 1, 1, 2));
    byte[] raw = s.toBytes();
    assertEquals(280, raw.length);
    assertEquals(s, ValsortSummary.readFrom(ByteBuffer.wrap(raw)));
  }
}

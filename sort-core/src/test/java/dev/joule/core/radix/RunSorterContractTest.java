package dev.joule.core.radix;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.KeyPrefix;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.index.TieBreaker;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.testing.KeyShape;
import dev.joule.testing.RandomRecords;
import dev.joule.testing.TestSeed;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The contract of {@link RunSorter}: stable sort by full unsigned key, for every key shape, record
 * and key size, key position, sub-range and thread count. Each variant is a short subclass. The
 * reference is an independent stable sort of heap records ({@code Arrays.compareUnsigned} on the
 * key, then input ordinal). Every case prints its seed on failure.
 */
abstract class RunSorterContractTest {
  private static final long BASE_SEED = TestSeed.of(RunSorterContractTest.class, 0xC0_47AC7L);

  /** A tie breaker: whole records, descending (the opposite of input order for sorted data). */
  private static final TieBreaker DESCENDING =
      (a, as, al, b, bs, bl) -> {
        int c = RecordIndex.compareBytes(b, bs, a, as, Math.min(al, bl));
        return c != 0 ? c : Integer.compare(bl, al);
      };

  /** A new sorter of this variant with {@code threads} workers (variants may ignore it). */
  abstract RunSorter newSorter(int threads);

  @ParameterizedTest
  @EnumSource(KeyShape.class)
  void randomFormatsAndSubRanges(KeyShape shape) {
    SplittableRandom rnd = new SplittableRandom(BASE_SEED ^ shape.ordinal());
    for (int threads = 1; threads <= 4; threads++) {
      try (RunSorter sorter = newSorter(threads)) {
        for (int iter = 0; iter < 6; iter++) {
          long seed = rnd.nextLong();
          SplittableRandom r = new SplittableRandom(seed);
          int recordSize = 1 + r.nextInt(r.nextBoolean() ? 120 : 1000);
          int keyLength = 1 + r.nextInt(Math.min(64, recordSize));
          int keyOffset =
              r.nextInt(4) == 0 ? recordSize - keyLength : r.nextInt(recordSize - keyLength + 1);
          int n = r.nextInt(4) == 0 ? r.nextInt(3) : r.nextInt(3000);
          int from = n == 0 ? 0 : r.nextInt(n + 1);
          int to = from + r.nextInt(n - from + 1);
          if (r.nextBoolean()) {
            from = 0;
            to = n;
          }
          check(
              sorter,
              shape,
              RecordFormat.fixed(recordSize, KeySpec.bytes(keyOffset, keyLength)),
              n,
              from,
              to,
              slabBytes(r, n, recordSize),
              seed);
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(KeyShape.class)
  void gensortRunsLargeEnoughForParallelPaths(KeyShape shape) {
    long seed = BASE_SEED ^ (31L * shape.ordinal() + 7);
    for (int threads : new int[] {1, 2, 4}) {
      try (RunSorter sorter = newSorter(threads)) {
        check(sorter, shape, RecordFormat.gensort(), 150_000, 0, 150_000, 1 << 20, seed);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(KeyShape.class)
  void midSizedRunsTakeTheWideDigitPaths(KeyShape shape) {
    long seed = BASE_SEED ^ (17L * shape.ordinal() + 3);
    for (int threads : new int[] {1, 2}) {
      try (RunSorter sorter = newSorter(threads)) {
        check(
            sorter,
            shape,
            RecordFormat.fixed(24, KeySpec.bytes(3, 12)),
            20_000,
            0,
            20_000,
            1 << 16,
            seed + threads);
      }
    }
  }

  @Test
  void keyAtTheVeryEndOfLongRecords() {
    long seed = BASE_SEED ^ 99;
    try (RunSorter sorter = newSorter(2)) {
      for (int kl : new int[] {1, 7, 8, 9, 10, 11, 17, 64}) {
        check(
            sorter,
            KeyShape.SHARED_PREFIX_9,
            RecordFormat.fixed(1000, KeySpec.bytes(1000 - kl, kl)),
            2000,
            0,
            2000,
            8192,
            seed + kl);
      }
    }
  }

  @Test
  void emptyAndTinyRuns() {
    try (RunSorter sorter = newSorter(3)) {
      for (int n = 0; n <= 2; n++) {
        check(sorter, KeyShape.REVERSED, RecordFormat.gensort(), n, 0, n, 4096, BASE_SEED + n);
      }
    }
  }

  /** Small slabs (many slab boundaries), but at most ~200 of them. */
  private static int slabBytes(SplittableRandom r, int n, int recordSize) {
    long pages = 1L + r.nextInt(4) + recordSize / 4096;
    pages = Math.max(pages, ((long) n * recordSize / 200 + 4095) / 4096 + 1);
    return (int) (4096L * pages);
  }

  private static void check(
      RunSorter sorter,
      KeyShape shape,
      FixedLengthFormat format,
      int n,
      int from,
      int to,
      int slabBytes,
      long seed) {
    String what =
        sorter
            + " "
            + shape
            + " "
            + format
            + " n="
            + n
            + " range=["
            + from
            + ","
            + to
            + ") slab="
            + slabBytes
            + " seed="
            + seed;
    checkFixed(
        sorter, RandomRecords.generate(shape, n, format, seed), format, from, to, slabBytes, what);
  }

  /**
   * Sorts {@code records} (fixed {@code format}) as RANGE entries, range {@code [from, to)}, and
   * compares the order with an independent stable reference; also every key word, which sorters may
   * not leave changed.
   */
  private static void checkFixed(
      RunSorter sorter,
      byte[][] records,
      FixedLengthFormat format,
      int from,
      int to,
      int slabBytes,
      String what) {
    int n = records.length;
    try (RecordArena arena =
        RecordArena.allocate(
            RandomRecords.capacityFor(n, format.recordSize(), slabBytes), slabBytes)) {
      long[] addr = RandomRecords.fill(arena, records, format.recordSize());
      RecordIndex index = RecordIndex.forArena(arena, format);
      assertEquals(n, index.build(arena.view(), format), what);
      sorter.sort(index, from, to);
      int ko = format.key().offset();
      int ke = format.key().end();
      int[] order =
          referenceOrder(from, to, (x, y) -> byDefinition(records[x], ko, ke, records[y], ko, ke));
      long[] expected = new long[n];
      long[] actual = new long[n];
      for (int i = 0; i < n; i++) {
        int ord = i < from || i >= to ? i : order[i - from];
        expected[i] = addr[ord];
        actual[i] = index.ref(i) & RecordIndex.ADDRESS_MASK;
        long prefix = KeyPrefix.of(records[ord], format.key().offset(), format.key().length());
        if (prefix != index.prefix(i)) {
          assertEquals(prefix, index.prefix(i), what + ": key word of entry " + i);
        }
      }
      assertArrayEquals(expected, actual, what);
    }
  }

  /**
   * Variable-length keys (key = the whole record, lengths 0..{@code maxLength}), every shape: a key
   * that is a prefix of another sorts first, zero bytes are key bytes (not padding), keys longer
   * than the index's 1023-byte length field work, and runs large enough for the parallel root.
   */
  @ParameterizedTest
  @EnumSource(KeyShape.class)
  void variableLengthKeys(KeyShape shape) {
    long seed = BASE_SEED ^ (43L * shape.ordinal() + 11);
    SplittableRandom r = new SplittableRandom(seed);
    for (int threads : new int[] {1, 2, 4}) {
      try (RunSorter sorter = newSorter(threads)) {
        for (int maxLength : new int[] {0, 3, 12, 40, 1100}) {
          int n = maxLength > 100 ? 2000 : threads == 4 ? 90_000 : 5000;
          checkVariable(sorter, shape, n, maxLength, null, r.nextLong());
        }
      }
    }
  }

  /**
   * A tie breaker orders entries with equal keys (here: keys are the first two bytes of the record
   * at most, the tie breaker compares whole records, descending), stably; in the parallel root, in
   * big equal-key groups and in insertion-sorted buckets.
   */
  @ParameterizedTest
  @EnumSource(
      value = KeyShape.class,
      names = {"UNIFORM", "ALL_EQUAL", "LOW_CARDINALITY", "TWO_DISTINCT"})
  void tieBreakerOrdersEqualKeys(KeyShape shape) {
    long seed = BASE_SEED ^ (59L * shape.ordinal() + 5);
    for (int threads : new int[] {1, 2}) {
      try (RunSorter sorter = newSorter(threads)) {
        checkVariable(sorter, shape, threads == 2 ? 80_000 : 3000, 6, DESCENDING, seed + threads);
      }
    }
  }

  /**
   * Keys over 64 bytes that split off a few entries per byte (entry i differs from the others only
   * at byte i % 160): deeper than the radix sorter's histogram levels, so the rest is merge sorted,
   * which must keep the order exact (an insertion sort there would be O(n²)).
   */
  @Test
  void longKeysThatSplitOneByteAtATime() {
    long seed = BASE_SEED ^ 71;
    try (RunSorter sorter = newSorter(2)) {
      int n = 4000;
      int len = 200;
      byte[][] records = new byte[n][len];
      SplittableRandom r = new SplittableRandom(seed);
      for (int i = 0; i < n; i++) {
        records[i][i % 160] = (byte) (1 + r.nextInt(3));
      }
      checkRecords(sorter, records, null, "one split per byte, seed " + seed);
    }
  }

  /**
   * Variable keys far longer than the ten key bytes the index words hold ({@link #segmentKeys}:
   * long shared prefixes at many depths, many equal keys, keys that are prefixes of one another,
   * zero bytes that padding must not pass for), all sharing their first {@code sharedPrefix} bytes;
   * WHOLE entries, or DERIVED ones whose keys are followed by random record bytes (which a sorter
   * must not take for key bytes; after a WHOLE entry comes the next one's length, mostly zeros), 1
   * and 2 threads, runs small, mid-sized and above the parallel root's threshold, whole runs and
   * sub-ranges.
   */
  @ParameterizedTest
  @ValueSource(ints = {0, 8, 10, 11, 20, 37})
  void variableKeysLongerThanTheIndexedPrefix(int sharedPrefix) {
    SplittableRandom r = new SplittableRandom(BASE_SEED ^ (101L * sharedPrefix + 13));
    for (int threads : new int[] {1, 2}) {
      try (RunSorter sorter = newSorter(threads)) {
        for (int size : new int[] {200, 3000, RadixRunSorter.PARALLEL_SCATTER_THRESHOLD}) {
          long seed = r.nextLong();
          SplittableRandom c = new SplittableRandom(seed);
          int n = size + c.nextInt(size / 2);
          byte[][] keys = segmentKeys(c, n, sharedPrefix);
          byte[][] records = c.nextBoolean() ? keys : randomRecords(c, n);
          int from = c.nextInt(3) == 0 ? c.nextInt(n / 4) : 0;
          int to = from == 0 ? n : n - c.nextInt(n / 4);
          String what =
              sorter
                  + (records == keys ? " whole" : " derived")
                  + " shared="
                  + sharedPrefix
                  + " n="
                  + n
                  + " ["
                  + from
                  + ","
                  + to
                  + ")";
          checkEntries(sorter, keys, records, null, from, to, what + " seed=" + seed);
        }
      }
    }
  }

  /**
   * All keys share their first 1,030 bytes, past the ref word's length field: key lengths come from
   * the arena, and the sorter has a long way to the first byte that differs.
   */
  @Test
  void variableKeysWithAVeryLongSharedPrefix() {
    SplittableRandom r = new SplittableRandom(BASE_SEED ^ 103);
    for (int threads : new int[] {1, 2}) {
      try (RunSorter sorter = newSorter(threads)) {
        long seed = r.nextLong();
        byte[][] keys = segmentKeys(new SplittableRandom(seed), 3000, 1030);
        checkEntries(sorter, keys, keys, null, 0, keys.length, sorter + " seed=" + seed);
      }
    }
  }

  /**
   * Fixed keys of {@code keyLength} bytes, more than the index words hold, at a random offset of
   * the record; the keys are {@link #segmentKeys} cut or zero-padded to that length, sharing a
   * random part of it (up to all of it). Same runs as the variable case.
   */
  @ParameterizedTest
  @ValueSource(ints = {11, 16, 21, 40, 64})
  void fixedKeysLongerThanTheIndexedPrefix(int keyLength) {
    SplittableRandom r = new SplittableRandom(BASE_SEED ^ (211L * keyLength + 17));
    for (int threads : new int[] {1, 2}) {
      try (RunSorter sorter = newSorter(threads)) {
        for (int size : new int[] {200, 3000, RadixRunSorter.PARALLEL_SCATTER_THRESHOLD}) {
          long seed = r.nextLong();
          SplittableRandom c = new SplittableRandom(seed);
          int n = size + c.nextInt(size / 2);
          byte[][] keys = segmentKeys(c, n, c.nextInt(keyLength + 1));
          int recordSize = keyLength + c.nextInt(24);
          int keyOffset = c.nextInt(recordSize - keyLength + 1);
          byte[][] records = new byte[n][recordSize];
          for (int i = 0; i < n; i++) {
            for (int j = 0; j < recordSize; j++) {
              records[i][j] = (byte) c.nextInt(256);
            }
            System.arraycopy(
                Arrays.copyOf(keys[i], keyLength), 0, records[i], keyOffset, keyLength);
          }
          int from = c.nextInt(3) == 0 ? c.nextInt(n / 4) : 0;
          int to = from == 0 ? n : n - c.nextInt(n / 4);
          FixedLengthFormat format =
              RecordFormat.fixed(recordSize, KeySpec.bytes(keyOffset, keyLength));
          String what = sorter + " " + format + " n=" + n + " [" + from + "," + to + ")";
          checkFixed(
              sorter,
              records,
              format,
              from,
              to,
              slabBytes(c, n, recordSize),
              what + " seed=" + seed);
        }
      }
    }
  }

  /**
   * DERIVED keys longer than the index words hold, cut from the record so that many equal keys have
   * different records: the tie breaker (records descending) orders them, also where the sorter had
   * to go past the indexed prefix to find them equal.
   */
  @Test
  void tieBreakerPastTheIndexedPrefix() {
    SplittableRandom r = new SplittableRandom(BASE_SEED ^ 107);
    for (int threads : new int[] {1, 2}) {
      try (RunSorter sorter = newSorter(threads)) {
        for (int size : new int[] {3000, RadixRunSorter.PARALLEL_SCATTER_THRESHOLD}) {
          long seed = r.nextLong();
          SplittableRandom c = new SplittableRandom(seed);
          int n = size + c.nextInt(size / 2);
          byte[][] records = segmentKeys(c, n, 6 + c.nextInt(10));
          int keyBytes = 12 + c.nextInt(30);
          byte[][] keys = new byte[n][];
          for (int i = 0; i < n; i++) {
            keys[i] = Arrays.copyOf(records[i], Math.min(keyBytes, records[i].length));
          }
          String what = sorter + " key<=" + keyBytes + " n=" + n + " seed=" + seed;
          checkEntries(sorter, keys, records, DESCENDING, 0, n, what);
        }
      }
    }
  }

  /** {@code n} records of 0..40 random bytes. */
  static byte[][] randomRecords(SplittableRandom r, int n) {
    byte[][] records = new byte[n][];
    for (int i = 0; i < n; i++) {
      records[i] = new byte[r.nextInt(41)];
      for (int j = 0; j < records[i].length; j++) {
        records[i][j] = (byte) r.nextInt(256);
      }
    }
    return records;
  }

  /**
   * {@code n} keys: {@code sharedPrefix} random bytes common to all, then a number of segments
   * (from 0..2 to 2..12) drawn from a pool of 1..40 segments of 1..12 bytes, some all zero, some
   * all 0xFF, some of zeros and ones, some random. With few segments, keys repeat, share prefixes
   * of many lengths, and are prefixes of one another.
   */
  static byte[][] segmentKeys(SplittableRandom r, int n, int sharedPrefix) {
    int[] pools = {1, 2, 3, 8, 40};
    byte[][] segments = new byte[pools[r.nextInt(pools.length)]][];
    for (int i = 0; i < segments.length; i++) {
      byte[] g = new byte[1 + r.nextInt(12)];
      int kind = r.nextInt(4);
      for (int j = 0; j < g.length; j++) {
        g[j] =
            (byte) (kind == 0 ? 0 : kind == 1 ? 0xFF : kind == 2 ? r.nextInt(2) : r.nextInt(256));
      }
      segments[i] = g;
    }
    // no key ends at the shared prefix in a third of the cases: the first differing byte decides
    int minSegments = r.nextInt(3);
    int maxSegments = minSegments + 2 + r.nextInt(9);
    byte[] prefix = new byte[sharedPrefix];
    for (int j = 0; j < sharedPrefix; j++) {
      prefix[j] = (byte) r.nextInt(256);
    }
    byte[][] keys = new byte[n][];
    byte[] buf = new byte[sharedPrefix + 12 * maxSegments];
    System.arraycopy(prefix, 0, buf, 0, sharedPrefix);
    for (int i = 0; i < n; i++) {
      int len = sharedPrefix;
      for (int k = minSegments + r.nextInt(maxSegments - minSegments + 1); k > 0; k--) {
        byte[] g = segments[r.nextInt(segments.length)];
        System.arraycopy(g, 0, buf, len, g.length);
        len += g.length;
      }
      keys[i] = Arrays.copyOf(buf, len);
    }
    return keys;
  }

  private static void checkVariable(
      RunSorter sorter, KeyShape shape, int n, int maxLength, TieBreaker tie, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    byte[][] full = shape.keys(n, Math.max(1, maxLength), seed);
    byte[][] records = new byte[n][];
    for (int i = 0; i < n; i++) {
      int len = maxLength == 0 ? 0 : r.nextInt(4) == 0 ? maxLength : r.nextInt(maxLength + 1);
      records[i] = Arrays.copyOf(full[i], len);
    }
    checkRecords(
        sorter,
        records,
        tie,
        sorter + " " + shape + " n=" + n + " max=" + maxLength + " seed=" + seed);
  }

  /**
   * Sorts {@code records} as WHOLE entries (key = record; with a tie breaker, key = the first two
   * bytes as a DERIVED key) and compares with a stable reference sort.
   */
  private static void checkRecords(
      RunSorter sorter, byte[][] records, TieBreaker tie, String what) {
    byte[][] keys = records;
    if (tie != null) {
      keys = new byte[records.length][];
      for (int i = 0; i < records.length; i++) {
        keys[i] = Arrays.copyOf(records[i], Math.min(2, records[i].length));
      }
    }
    checkEntries(sorter, keys, records, tie, 0, records.length, what);
  }

  /**
   * Sorts entries {@code [from, to)} of {@code records} with their {@code keys}: WHOLE entries if
   * {@code keys == records}, else DERIVED ones with variable keys; ties of equal keys go to {@code
   * tie} (may be null). Compares the order with a stable reference written from the definition of
   * the order, and every entry's key and ref word with their values before the sort (sorters may
   * not leave them changed).
   */
  private static void checkEntries(
      RunSorter sorter,
      byte[][] keys,
      byte[][] records,
      TieBreaker tie,
      int from,
      int to,
      String what) {
    int n = records.length;
    boolean whole = keys == records;
    EntryLayout layout = whole ? EntryLayout.whole() : EntryLayout.derived(0, 0);
    long bytes = 0;
    int longest = 0;
    for (int i = 0; i < n; i++) {
      int len = layout.entryLength(records[i].length, whole ? 0 : keys[i].length);
      bytes += len;
      longest = Math.max(longest, len);
    }
    // at most ~128 slabs, as an arena has at most 256
    int slab = Math.max(1 << 16, Integer.highestOneBit((int) Math.max(longest, bytes / 128)) << 1);
    try (RecordArena arena =
        RecordArena.allocate(Math.max(4096, bytes + (long) slab * (1 + bytes / slab)), slab)) {
      RecordIndex index = RecordIndex.allocate(n);
      index.bind(arena.view(), layout, tie);
      ByteBuffer[] slabs = new ByteBuffer[arena.slabCount()];
      int s = 0;
      int at = 0;
      long[] addr = new long[n];
      for (int i = 0; i < n; i++) {
        byte[] rec = records[i];
        byte[] key = keys[i];
        int len = layout.entryLength(rec.length, whole ? 0 : key.length);
        if (at + len > arena.slabCapacity(s)) {
          s++;
          at = 0;
        }
        if (slabs[s] == null) {
          slabs[s] = arena.writableWindow(s, 0, arena.slabCapacity(s));
        }
        ByteBuffer b = slabs[s];
        int p = layout.writeHeader(b, at, rec.length, key.length);
        if (!whole) {
          b.put(p, key);
          p += key.length;
        }
        b.put(p, rec);
        arena.setFilled(s, at + len);
        addr[i] = ((long) s << RecordIndex.OFFSET_BITS) | at;
        index.add(s, at);
        at += len;
      }
      long[] keyWords = new long[n];
      long[] refWords = new long[n];
      for (int i = 0; i < n; i++) {
        keyWords[i] = index.prefix(i);
        refWords[i] = index.ref(i);
      }
      sorter.sort(index, from, to);
      int[] order =
          referenceOrder(
              from,
              to,
              (x, y) -> {
                int c = byDefinition(keys[x], 0, keys[x].length, keys[y], 0, keys[y].length);
                if (c != 0 || tie == null) {
                  return c;
                }
                byte[] a = records[x];
                byte[] b = records[y];
                return tie.compare(
                    ByteBuffer.wrap(a), 0, a.length, ByteBuffer.wrap(b), 0, b.length);
              });
      long[] expected = new long[n];
      long[] actual = new long[n];
      for (int i = 0; i < n; i++) {
        int ord = i < from || i >= to ? i : order[i - from];
        expected[i] = addr[ord];
        actual[i] = index.ref(i) & RecordIndex.ADDRESS_MASK;
      }
      assertArrayEquals(expected, actual, what);
      for (int i = 0; i < n; i++) {
        int ord = i < from || i >= to ? i : order[i - from];
        assertEquals(keyWords[ord], index.prefix(i), what + ": key word of entry " + i);
        assertEquals(refWords[ord], index.ref(i), what + ": ref word of entry " + i);
      }
    }
  }

  /**
   * The order of key bytes {@code a[ai, ae)} and {@code b[bi, be)} by definition: the first byte
   * where they differ, as an unsigned number, decides; if one is a prefix of the other, the shorter
   * comes first.
   */
  static int byDefinition(byte[] a, int ai, int ae, byte[] b, int bi, int be) {
    for (; ai < ae && bi < be; ai++, bi++) {
      int x = a[ai] & 0xFF;
      int y = b[bi] & 0xFF;
      if (x != y) {
        return x < y ? -1 : 1;
      }
    }
    return Integer.compare(ae - ai, be - bi);
  }

  /**
   * The input ordinals {@code [from, to)} in {@code order}, equal ones by ordinal (stability made
   * explicit rather than taken from the library sort).
   */
  static int[] referenceOrder(int from, int to, Comparator<Integer> order) {
    Integer[] ord = new Integer[to - from];
    for (int i = 0; i < ord.length; i++) {
      ord[i] = from + i;
    }
    Arrays.sort(ord, order.thenComparing(Comparator.naturalOrder()));
    int[] out = new int[ord.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = ord[i];
    }
    return out;
  }
}

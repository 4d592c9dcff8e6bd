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
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The contract of {@link RunSorter}: stable sort by full unsigned key, for every key shape, record
 * and key size, key position, sub-range and thread count. Each variant is a short subclass. The
 * reference is an independent stable sort of heap records ({@code Arrays.compareUnsigned} on the
 * key, then input ordinal). Every case prints its seed on failure.
 */
abstract class RunSorterContractTest {
  private static final long BASE_SEED = Long.getLong("joule.test.seed", System.nanoTime());

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
    byte[][] records = RandomRecords.generate(shape, n, format, seed);
    try (RecordArena arena =
        RecordArena.allocate(
            RandomRecords.capacityFor(n, format.recordSize(), slabBytes), slabBytes)) {
      long[] addr = RandomRecords.fill(arena, records, format.recordSize());
      RecordIndex index = RecordIndex.forArena(arena, format);
      assertEquals(n, index.build(arena.view(), format), what);
      sorter.sort(index, from, to);
      int[] order = RandomRecords.referenceOrder(records, format, from, to);
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
    TieBreaker descending =
        (a, as, al, b, bs, bl) -> {
          int c = RecordIndex.compareBytes(b, bs, a, as, Math.min(al, bl));
          return c != 0 ? c : Integer.compare(bl, al);
        };
    for (int threads : new int[] {1, 2}) {
      try (RunSorter sorter = newSorter(threads)) {
        checkVariable(sorter, shape, threads == 2 ? 80_000 : 3000, 6, descending, seed + threads);
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

  private static void checkVariable(
      RunSorter sorter, KeyShape shape, int n, int maxLength, TieBreaker tie, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    byte[][] full = shape.keys(n, Math.max(1, maxLength), seed);
    byte[][] records = new byte[n][];
    for (int i = 0; i < n; i++) {
      int len = maxLength == 0 ? 0 : r.nextInt(4) == 0 ? maxLength : r.nextInt(maxLength + 1);
      records[i] = java.util.Arrays.copyOf(full[i], len);
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
    int n = records.length;
    EntryLayout layout = tie == null ? EntryLayout.whole() : EntryLayout.derived(0, 0);
    long bytes = 0;
    for (byte[] rec : records) {
      bytes += 8 + 2 + rec.length;
    }
    int slab = 1 << 16;
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
        byte[] key = tie == null ? rec : java.util.Arrays.copyOf(rec, Math.min(2, rec.length));
        int len = layout.entryLength(rec.length, key.length);
        if (at + len > arena.slabCapacity(s)) {
          s++;
          at = 0;
        }
        if (slabs[s] == null) {
          slabs[s] = arena.writableWindow(s, 0, arena.slabCapacity(s));
        }
        ByteBuffer b = slabs[s];
        int p = layout.writeHeader(b, at, rec.length, key.length);
        if (tie != null) {
          b.put(p, key);
          p += key.length;
        }
        b.put(p, rec);
        arena.setFilled(s, at + len);
        addr[i] = ((long) s << RecordIndex.OFFSET_BITS) | at;
        index.add(s, at);
        at += len;
      }
      sorter.sort(index, 0, n);
      Integer[] order = new Integer[n];
      for (int i = 0; i < n; i++) {
        order[i] = i;
      }
      java.util.Arrays.sort(
          order,
          (x, y) -> {
            byte[] a = records[x];
            byte[] b = records[y];
            if (tie == null) {
              return java.util.Arrays.compareUnsigned(a, b);
            }
            int c =
                java.util.Arrays.compareUnsigned(
                    a, 0, Math.min(2, a.length), b, 0, Math.min(2, b.length));
            return c != 0
                ? c
                : tie.compare(ByteBuffer.wrap(a), 0, a.length, ByteBuffer.wrap(b), 0, b.length);
          });
      long[] expected = new long[n];
      long[] actual = new long[n];
      for (int i = 0; i < n; i++) {
        expected[i] = addr[order[i]];
        actual[i] = index.ref(i) & RecordIndex.ADDRESS_MASK;
      }
      assertArrayEquals(expected, actual, what);
    }
  }
}

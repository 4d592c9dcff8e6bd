package dev.joule.core.radix;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.joule.core.index.KeyPrefix;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.testing.KeyShape;
import dev.joule.testing.RandomRecords;
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
}

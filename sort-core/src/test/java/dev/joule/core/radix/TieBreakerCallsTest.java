package dev.joule.core.radix;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.index.TieBreaker;
import dev.joule.testing.TestSeed;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * How often the radix sorter calls a tie breaker, which may be a C library call per comparison (a
 * key in a locale orders its ties with {@code strcoll}): small groups of equal keys are ordered by
 * binary insertion, about log2(m) calls an entry, not the m/4 of a linear insertion sort. The order
 * is checked against a stable sort of heap records by the same definition.
 */
class TieBreakerCallsTest {
  private static final long SEED = TestSeed.of(TieBreakerCallsTest.class, 0x71EB_0001L);

  /**
   * Groups below the radix sorter's insertion threshold, so that they end in a small-range sort.
   */
  private static final int GROUP = RadixRunSorter.DEFAULT_INSERTION_THRESHOLD - 2;

  private static final int GROUPS = 200;

  @Test
  void smallGroupsOfEqualKeysCallTheTieBreakerAboutLog2TimesAnEntry() {
    int n = GROUP * GROUPS;
    SplittableRandom r = new SplittableRandom(SEED);
    byte[] keys = new byte[n];
    byte[][] records = new byte[n][];
    for (int i = 0; i < n; i++) {
      keys[i] = (byte) r.nextInt(GROUPS); // about GROUP entries a key
      records[i] = new byte[8];
      for (int j = 0; j < 8; j++) {
        records[i][j] = (byte) r.nextInt(4); // equal records happen: input order must stay
      }
    }
    AtomicLong calls = new AtomicLong();
    TieBreaker tie =
        (a, as, al, b, bs, bl) -> {
          calls.incrementAndGet();
          return RecordIndex.compareBytes(a, as, b, bs, 8);
        };
    int[] actual = TieFixture.radixOrder(keys, records, tie);
    assertArrayEquals(TieFixture.referenceOrder(keys, records), actual, "seed=" + SEED);
    double perEntry = (double) calls.get() / n;
    // binary insertion: 4.1 an entry for these groups of about 30; a linear insertion sort: 6.1
    assertTrue(perEntry < 5, "tie breaker calls an entry: " + perEntry + " seed=" + SEED);
  }
}

package dev.joule.core.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.testing.TestSeed;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The counts of a chunk's repeated entries, looked up by ref word, against a map of the counts
 * given: every address answers its own count whatever the ref's key bits, others answer 0.
 */
class RepeatCountsTest {
  private static final long SEED = TestSeed.of(RepeatCountsTest.class, 0x2E9E_A7L);

  @Test
  void eachEntryAnswersItsOwnCount() {
    Random r = new Random(SEED);
    for (int round = 0; round < 50; round++) {
      int n = 1 + r.nextInt(3000);
      long[] refs = new long[n];
      long[] extras = new long[n];
      Map<Long, Long> expected = new HashMap<>();
      for (int i = 0; i < n; i++) {
        long address;
        do {
          address = r.nextLong() & RecordIndex.ADDRESS_MASK;
        } while (expected.containsKey(address));
        refs[i] = address | (r.nextLong() & ~RecordIndex.ADDRESS_MASK); // key bits above it
        extras[i] = r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(1_000_000);
        expected.put(address, extras[i]);
      }
      RepeatCounts c = RepeatCounts.of(refs, extras, n);
      long total = 0;
      for (int i = 0; i < n; i++) {
        long a = refs[i] & RecordIndex.ADDRESS_MASK;
        assertEquals(expected.get(a), c.extra(a), "seed " + SEED + ", round " + round);
        assertEquals(extras[i], c.extra(refs[i]), "seed " + SEED + ", round " + round);
        total += extras[i];
      }
      assertEquals(total, c.total(), "seed " + SEED);
      assertEquals(total == 0, c.isEmpty(), "seed " + SEED);
      for (int k = 0; k < 1000; k++) {
        long other = r.nextLong() & RecordIndex.ADDRESS_MASK;
        if (!expected.containsKey(other)) {
          assertEquals(0, c.extra(other), "seed " + SEED);
        }
      }
    }
  }

  @Test
  void noCountsIsEmpty() {
    RepeatCounts none = RepeatCounts.of(new long[] {-1, 5}, new long[] {0, 0}, 2);
    assertTrue(none.isEmpty());
    assertEquals(0, none.extra(5));
    assertEquals(0, RepeatCounts.NONE.extra(12345));
    assertEquals(0, RepeatCounts.NONE.total());
  }

  @Test
  void anEntryCountedTwiceIsRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> RepeatCounts.of(new long[] {7, 7 | 1L << 60}, new long[] {1, 2}, 2));
    assertThrows(
        IllegalArgumentException.class, () -> RepeatCounts.of(new long[] {7}, new long[] {-1}, 1));
  }
}

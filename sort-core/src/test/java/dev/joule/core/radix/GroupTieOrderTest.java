package dev.joule.core.radix;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.index.TieBreaker;
import dev.joule.core.index.TieGroup;
import dev.joule.testing.TestSeed;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The radix sorter's ties through a {@link TieGroup}: each record of a group of equal keys is
 * copied into the group once and compared there, never in place, in small ranges and in buckets of
 * equal keys alike; a group that will not hold its records is ordered in place instead. The order
 * is checked against a stable sort of heap records by the same definition.
 */
class GroupTieOrderTest {
  private static final long SEED = TestSeed.of(GroupTieOrderTest.class, 0x6A0E_0001L);

  private static final int RECORD = 8;

  /** A tie breaker on a record's 8 bytes, unsigned, with a heap group of up to {@code room}. */
  private static final class Counted implements TieBreaker {
    final AtomicLong inPlace = new AtomicLong();
    final AtomicLong added = new AtomicLong();
    final AtomicLong refused = new AtomicLong();
    final int room;

    Counted(int room) {
      this.room = room;
    }

    @Override
    public int compare(ByteBuffer a, int as, int al, ByteBuffer b, int bs, int bl) {
      inPlace.incrementAndGet();
      return RecordIndex.compareBytes(a, as, b, bs, RECORD);
    }

    @Override
    public TieGroup group() {
      byte[][] held = new byte[room][];
      return new TieGroup() {
        int count;

        @Override
        public boolean add(ByteBuffer buffer, int start, int length) {
          if (count == room) {
            refused.incrementAndGet();
            return false;
          }
          assertEquals(RECORD, length);
          held[count] = new byte[RECORD];
          buffer.get(start, held[count++]);
          added.incrementAndGet();
          return true;
        }

        @Override
        public int compare(int a, int b) {
          return Arrays.compareUnsigned(held[a], held[b]);
        }
      };
    }
  }

  @ParameterizedTest(name = "{0} keys, {1} entries, room {2}")
  @CsvSource({
    // groups of about 30: small ranges, each run of equal keys ordered by byTies
    "200, 6000, 100000",
    // groups of 5000: buckets of equal keys at the end of the radix passes (finishEqual)
    "4, 20000, 100000",
    // groups larger than the group's room: ordered in place, in chunks that fit
    "4, 20000, 10",
  })
  void tiesAreOrderedThroughTheGroupWithOneCopyOfEachRecord(int distinctKeys, int n, int room) {
    SplittableRandom r = new SplittableRandom(SEED);
    byte[] keys = new byte[n];
    byte[][] records = new byte[n][];
    for (int i = 0; i < n; i++) {
      keys[i] = (byte) r.nextInt(distinctKeys);
      records[i] = new byte[RECORD];
      for (int j = 0; j < RECORD; j++) {
        records[i][j] = (byte) r.nextInt(3); // equal records happen: input order must stay
      }
    }
    Counted tie = new Counted(room);
    int[] actual = TieFixture.radixOrder(keys, records, tie);
    String where = "seed=" + SEED + " room=" + room;
    assertArrayEquals(TieFixture.referenceOrder(keys, records), actual, where);
    if (room >= n) {
      assertEquals(n, tie.added.get(), "records copied into groups, " + where);
      assertEquals(0, tie.inPlace.get(), "comparisons in place, " + where);
    } else {
      assertTrue(tie.refused.get() > 0, "no group was full, " + where);
      assertTrue(tie.inPlace.get() > 0, "a full group was not ordered in place, " + where);
    }
  }
}

package dev.joule.core.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.joule.core.memory.RecordArena;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.testing.KeyShape;
import dev.joule.testing.RandomRecords;
import dev.joule.testing.TestSeed;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RecordIndexTest {
  private static final long SEED = TestSeed.of(RecordIndexTest.class, 0x1DE7_0001L);

  @Test
  void buildPacksPrefixTieBytesAndAddressesInInputOrder() {
    FixedLengthFormat f = RecordFormat.fixed(100, KeySpec.bytes(3, 10));
    byte[][] records = RandomRecords.generate(KeyShape.UNIFORM, 200, f, SEED);
    try (RecordArena arena =
        RecordArena.allocate(RandomRecords.capacityFor(200, 100, 4096), 4096)) {
      long[] addr = RandomRecords.fill(arena, records, 100);
      RecordIndex index = RecordIndex.forArena(arena, f);
      assertEquals(200, index.build(arena.view(), f));
      assertEquals(10, index.indexedKeyBytes());
      for (int i = 0; i < 200; i++) {
        String what = "entry " + i + " seed=" + SEED;
        assertEquals(KeyPrefix.of(records[i], 3, 10), index.prefix(i), what);
        assertEquals(addr[i], index.ref(i) & RecordIndex.ADDRESS_MASK, what);
        long tie = ((records[i][11] & 0xFFL) << 56) | ((records[i][12] & 0xFFL) << 48);
        assertEquals(tie, index.ref(i) & index.tieMask(), what);
        if (i > 0) {
          assertEquals(-1, Long.signum(Long.compare(addr[i - 1], addr[i])), "addresses grow");
        }
      }
    }
  }

  @Test
  void compareAgreesWithArraysCompareUnsigned() {
    SplittableRandom r = new SplittableRandom(SEED);
    for (int kl : new int[] {1, 5, 8, 9, 10, 13, 40}) {
      FixedLengthFormat f = RecordFormat.fixed(64, KeySpec.bytes(64 - kl, kl));
      byte[][] records = RandomRecords.generate(KeyShape.LOW_CARDINALITY, 300, f, r.nextLong());
      try (RecordArena arena =
          RecordArena.allocate(RandomRecords.capacityFor(300, 64, 4096), 4096)) {
        RandomRecords.fill(arena, records, 64);
        RecordIndex index = RecordIndex.forArena(arena, f);
        index.build(arena.view(), f);
        for (int t = 0; t < 2000; t++) {
          int i = r.nextInt(300);
          int j = r.nextInt(300);
          int want = Arrays.compareUnsigned(records[i], 64 - kl, 64, records[j], 64 - kl, 64);
          if (want == 0) {
            want = Integer.compare(i, j);
          }
          assertEquals(
              Integer.signum(want),
              Integer.signum(index.compare(i, j)),
              "kl=" + kl + " i=" + i + " j=" + j + " seed=" + SEED);
        }
      }
    }
  }

  @Test
  void compareKeyToComparesAcrossArenasForMergeCursors() {
    SplittableRandom r = new SplittableRandom(SEED);
    FixedLengthFormat f = RecordFormat.fixed(50, KeySpec.bytes(10, 20));
    byte[][] a = RandomRecords.generate(KeyShape.SHARED_PREFIX_9, 100, f, SEED);
    byte[][] b = RandomRecords.generate(KeyShape.SHARED_PREFIX_9, 100, f, SEED); // same prefix
    b[3] = a[5].clone();
    try (RecordArena ra = RecordArena.allocate(8192, 4096);
        RecordArena rb = RecordArena.allocate(3 * 4096, 4096)) {
      RandomRecords.fill(ra, a, 50);
      RandomRecords.fill(rb, b, 50);
      RecordIndex ia = RecordIndex.forArena(ra, f);
      RecordIndex ib = RecordIndex.forArena(rb, f);
      ia.build(ra.view(), f);
      ib.build(rb.view(), f);
      assertEquals(0, ia.compareKeyTo(5, ib, 3));
      for (int t = 0; t < 1000; t++) {
        int i = r.nextInt(100);
        int j = r.nextInt(100);
        int want = Arrays.compareUnsigned(a[i], 10, 30, b[j], 10, 30);
        assertEquals(
            Integer.signum(want),
            Integer.signum(ia.compareKeyTo(i, ib, j)),
            "i=" + i + " j=" + j + " seed=" + SEED);
      }
    }
  }

  @Test
  void budgetSplitLeavesRoomForTheIndex() {
    long arena = RecordIndex.arenaBytesForBudget(1 << 30, 100);
    assertEquals(0, arena % 4096);
    long index = arena / 100 * RecordIndex.BYTES_PER_ENTRY;
    assertEquals(true, arena + index <= (1 << 30));
    assertEquals(true, arena + index > (1 << 30) - 8192);
  }

  @Test
  void partialRecordAtSlabEndIsIgnoredAndCapacityIsChecked() {
    FixedLengthFormat f = RecordFormat.fixed(1000, KeySpec.bytes(0, 4));
    try (RecordArena arena = RecordArena.allocate(2 * 4096, 4096)) {
      arena.setFilled(0, 4096); // 4 whole records and 96 bytes of a fifth
      arena.setFilled(1, 2000);
      RecordIndex index = RecordIndex.forArena(arena, f);
      assertEquals(8, index.capacity());
      assertEquals(6, index.build(arena.view(), f));
      assertEquals(1, index.slab(4));
      assertEquals(0, index.offset(4));
      assertThrows(
          IllegalArgumentException.class, () -> RecordIndex.allocate(5).build(arena.view(), f));
    }
  }

  @Test
  void secondLineReadsTheNextCacheLineAndStopsAtTheSlabsEnd() {
    int size = RecordIndex.CACHE_LINE; // the second line of a record is the next record's start
    FixedLengthFormat f = RecordFormat.fixed(size, KeySpec.bytes(0, 4));
    int perSlab = 4096 / size;
    byte[][] records = RandomRecords.generate(KeyShape.UNIFORM, 2 * perSlab, f, SEED);
    try (RecordArena arena = RecordArena.allocate(2 * 4096, 4096)) {
      RandomRecords.fill(arena, records, size);
      RecordIndex index = RecordIndex.forArena(arena, f);
      assertEquals(2 * perSlab, index.build(arena.view(), f));
      for (int i = 0; i < 2 * perSlab; i++) {
        long ref = index.ref(i);
        int slab = RecordIndex.slabOf(ref);
        int at = RecordIndex.offsetOf(ref);
        byte expected =
            at + size < 4096 ? records[i + 1][0] : records[slab * perSlab + perSlab - 1][size - 1];
        assertEquals(expected, index.secondLine(ref), "entry " + i + " seed=" + SEED);
      }
    }
  }
}

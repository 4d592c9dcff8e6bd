package dev.joule.core.gather;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.radix.RadixRunSorter;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.testing.KeyShape;
import dev.joule.testing.RandomRecords;
import dev.joule.testing.TestSeed;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RecordGathererTest {
  private static final long SEED = TestSeed.of(RecordGathererTest.class, 0x6A7E_0002L);

  @Test
  void parallelGatherEqualsSequentialAndTheReference() {
    FixedLengthFormat f = RecordFormat.fixed(37, KeySpec.bytes(5, 12));
    int n = 50_000;
    byte[][] records = RandomRecords.generate(KeyShape.SKEW, n, f, SEED);
    try (RecordArena arena = RecordArena.allocate(RandomRecords.capacityFor(n, 37, 65536), 65536);
        RadixRunSorter sorter = new RadixRunSorter(3)) {
      RandomRecords.fill(arena, records, 37);
      RecordIndex index = RecordIndex.forArena(arena, f);
      index.build(arena.view(), f);
      sorter.sort(index);
      ByteBuffer seq = ByteBuffer.allocate(n * 37 + 5).position(5);
      ByteBuffer par = ByteBuffer.allocateDirect(n * 37 + 5).position(5);
      new RecordGatherer(null).gather(index, 0, n, seq);
      new RecordGatherer(sorter.pool()).gather(index, 0, n, par);
      assertEquals(seq.capacity(), seq.position());
      assertEquals(par.capacity(), par.position());
      byte[] a = new byte[n * 37];
      byte[] b = new byte[n * 37];
      seq.position(5).get(a);
      par.position(5).get(b);
      assertArrayEquals(a, b, "seed=" + SEED);
      int[] order = RandomRecords.referenceOrder(records, f, 0, n);
      for (int i = 0; i < n; i++) {
        byte[] got = new byte[37];
        System.arraycopy(a, i * 37, got, 0, 37);
        assertArrayEquals(records[order[i]], got, "record " + i + " seed=" + SEED);
      }
    }
  }

  @Test
  void resumableRangesFillSuccessiveBuffers() {
    FixedLengthFormat f = RecordFormat.gensort();
    int n = 20_011;
    SplittableRandom r = new SplittableRandom(SEED);
    byte[][] records = RandomRecords.generate(KeyShape.UNIFORM, n, f, SEED);
    try (RecordArena arena =
            RecordArena.allocate(RandomRecords.capacityFor(n, 100, 1 << 16), 1 << 16);
        RadixRunSorter sorter = new RadixRunSorter(2)) {
      RandomRecords.fill(arena, records, 100);
      RecordIndex index = RecordIndex.forArena(arena, f);
      index.build(arena.view(), f);
      sorter.sort(index);
      ByteBuffer whole = ByteBuffer.allocate(n * 100);
      RecordGatherer g = new RecordGatherer(sorter.pool());
      g.gather(index, 0, n, whole);
      ByteBuffer pieces = ByteBuffer.allocate(n * 100);
      int next = 0;
      while (next < n) {
        ByteBuffer buf = ByteBuffer.allocateDirect(100 * (1 + r.nextInt(9000)) + r.nextInt(100));
        int k = RecordGatherer.recordsThatFit(index, next, n, buf);
        g.gather(index, next, next + k, buf);
        assertEquals(k * 100, buf.position());
        pieces.put(buf.flip());
        next += k;
      }
      assertArrayEquals(whole.array(), pieces.array(), "seed=" + SEED);
      assertThrows(
          BufferOverflowException.class, () -> g.gather(index, 0, 2, ByteBuffer.allocate(199)));
    }
  }
}

package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.radix.RadixRunSorter;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.LastResort;
import dev.joule.io.config.SortConfig;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.plan.SessionPlan;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session's first chunk grows into the whole budget until it spills; once its run is written it
 * gives back its arena and keeps its index, charged, for its next fills ({@code
 * SessionChunk.releaseArena}). Given back whole, the index's arrays were heap garbage that the
 * collector's old generation kept: 29 MB of a 48 MB old generation in the embedding race of issue
 * 27, whose peak RSS they took above budget + the JVM's baseline + 64 MiB.
 */
class OversizedChunkTest {
  @TempDir Path dir;

  @Test
  void anOversizedChunkKeepsItsIndexAndOnlyItForItsNextFills() throws Exception {
    SessionPlan plan = plan16MiB();
    EntrySpec spec = EntrySpec.pairs(false, LastResort.NONE);
    Random random = new Random(27);
    try (SessionChunk chunk = new SessionChunk(spec, plan, 0, true, true)) {
      fill(chunk, spec, random);
      assertTrue(chunk.oversized(), chunk.charged() + " bytes, a chunk " + plan.chunkBytes());
      RecordIndex index = chunk.index();
      long indexBytes = (long) index.capacity() * RecordIndex.BYTES_PER_ENTRY;
      long held = chunk.charged();

      chunk.keepToChunkBytes(); // the session's first spill
      assertEquals(held - indexBytes, chunk.releaseArena(), "the arena's bytes come back");
      assertEquals(indexBytes, chunk.charged(), "the index stays charged");
      assertNull(chunk.arena());
      assertTrue(chunk.isEmpty());

      long added = fill(chunk, spec, random);
      assertSame(index, chunk.index(), "the next fill uses the same index");
      assertEquals(indexBytes, (long) chunk.index().capacity() * RecordIndex.BYTES_PER_ENTRY);
      assertEquals(added, chunk.index().size(), "it holds the new entries, and only them");
      assertTrue(chunk.charged() <= plan.chunkBytes(), chunk.charged() + " bytes");
    }
  }

  /**
   * A written oversized chunk keeps its first slabs, as many as a chunk may hold, instead of giving
   * back its arena to grow it again as fresh memory ({@code SessionChunk.keepHead}): the same
   * buffers take the next fill, and the chunk holds no more than a chunk of a spilling session.
   */
  @Test
  void anOversizedPairChunkKeepsItsFirstSlabsForItsNextFills() throws Exception {
    SessionPlan plan = plan16MiB();
    EntrySpec spec = EntrySpec.pairs(false, LastResort.NONE);
    Random random = new Random(28);
    try (SessionChunk chunk = new SessionChunk(spec, plan, 0, true, true)) {
      fill(chunk, spec, random);
      assertTrue(chunk.oversized(), chunk.charged() + " bytes, a chunk " + plan.chunkBytes());
      RecordArena arena = chunk.arena();
      long firstBytes = arena.writableWindow(0, 0, 8).getLong(0); // random: not zero
      long held = chunk.charged();

      chunk.keepToChunkBytes(); // the session's first spill
      long freed = chunk.keepHead();
      assertSame(arena, chunk.arena(), "the arena stays");
      assertTrue(arena.allocatedSlabs() > 0, "with its first slabs");
      assertTrue(chunk.charged() <= plan.chunkBytes(), chunk.charged() + " bytes kept");
      assertEquals(held - freed, chunk.charged());
      assertTrue(!chunk.oversized() && chunk.isEmpty());
      assertTrue(firstBytes != 0);
      assertEquals(firstBytes, arena.writableWindow(0, 0, 8).getLong(0), "slab 0 is the same");
      int slabs = arena.allocatedSlabs();

      long added = fill(chunk, spec, random);
      assertEquals(added, chunk.index().size(), "it holds the new entries, and only them");
      assertSame(arena, chunk.arena());
      assertTrue(arena.allocatedSlabs() >= slabs);
      assertTrue(chunk.charged() <= plan.chunkBytes(), chunk.charged() + " bytes");
    }
  }

  /** Fixed records in place keep their first slabs too, and index only them when next sorted. */
  @Test
  void anOversizedChunkOfFixedRecordsKeepsItsFirstSlabs() throws Exception {
    SessionPlan plan = plan16MiB();
    int size = 100;
    EntrySpec spec =
        EntrySpec.of(
            SortConfig.builder()
                .format(RecordFormat.fixed(size, KeySpec.bytes(0, 10)))
                .tempDirs(java.util.List.of(dir))
                .build());
    try (SessionChunk chunk = new SessionChunk(spec, plan, size, false, true);
        RadixRunSorter sorter = new RadixRunSorter(1)) {
      long records = fillFixed(chunk, size, new Random(29));
      assertTrue(chunk.oversized(), chunk.charged() + " bytes, a chunk " + plan.chunkBytes());
      assertEquals(records, chunk.sort(sorter));
      RecordArena arena = chunk.arena();

      chunk.keepToChunkBytes();
      chunk.keepHead();
      assertSame(arena, chunk.arena(), "the arena stays");
      assertTrue(chunk.charged() <= plan.chunkBytes(), chunk.charged() + " bytes kept");
      long again = fillFixed(chunk, size, new Random(30));
      assertTrue(again > 0 && again < records, again + " records after " + records);
      assertEquals(again, chunk.sort(sorter), "the new index holds the kept slabs' records");
      assertTrue(chunk.charged() <= plan.chunkBytes(), chunk.charged() + " bytes");
    }
  }

  /** Adds random fixed records in place until the chunk cannot grow; returns how many. */
  private static long fillFixed(SessionChunk chunk, int size, Random random) {
    byte[] rec = new byte[size * 64];
    long n = 0;
    while (true) {
      random.nextBytes(rec);
      ByteBuffer b = ByteBuffer.wrap(rec);
      while (b.hasRemaining()) {
        int put = chunk.appendInPlace(b);
        if (put > 0) {
          n += put / size;
          continue;
        }
        long step = chunk.growthFor(0);
        if (step == 0) {
          return n;
        }
        chunk.grow(step);
      }
    }
  }

  /**
   * Past {@code SessionPlan.PROJECTED_INDEX_FROM} entries the index grows to what the chunk's limit
   * holds at the entries' mean size, not by doubling: pairs of 116 bytes fill a 16 MiB budget's
   * first chunk with an index within a tenth of their number (doubling: 1.24 times it here, and
   * left each smaller step's arrays to the collector).
   */
  @Test
  void aLargeChunkGrowsItsIndexToTheEntriesItsLimitHolds() throws Exception {
    SessionPlan plan = plan16MiB();
    EntrySpec spec = EntrySpec.pairs(false, LastResort.NONE);
    try (SessionChunk chunk = new SessionChunk(spec, plan, 0, true, true)) {
      byte[] key = new byte[8];
      byte[] value = new byte[100];
      long n = 0;
      outer:
      while (true) {
        java.util.Arrays.fill(key, (byte) n);
        while (!chunk.append(ByteBuffer.wrap(value), 0, 100, ByteBuffer.wrap(key), 0, 8)) {
          long step = chunk.growthFor(spec.layout().entryLength(100, 8));
          if (step == 0) {
            break outer;
          }
          chunk.grow(step);
        }
        n++;
      }
      RecordIndex index = chunk.index();
      assertEquals(n, index.size());
      assertTrue(n > 4 * SessionPlan.PROJECTED_INDEX_FROM, n + " entries");
      assertTrue(
          index.capacity() <= n + n / 10, index.capacity() + " index entries for " + n + " pairs");
      assertTrue(chunk.charged() <= plan.firstChunkBytes());
    }
  }

  /**
   * A budget far above the input (a stream sorted at the default budget, a quarter of the RAM) does
   * not size the index for it: past {@code SessionPlan.INDEX_PROJECTION_FREE} entries the index
   * grows at most {@code SessionPlan.MAX_INDEX_GROWTH}-fold per step, so it stays within that many
   * times the entries held (projected to the limit instead, 2,000,000 pairs of 24 bytes took an
   * index of 38 million entries, 600 MB of heap).
   */
  @Test
  void aSmallInputUnderALargeBudgetKeepsASmallIndex() throws Exception {
    SessionPlan plan =
        SessionPlan.of(
            SortConfig.builder()
                .memoryBudget(DataSize.ofGiB(2))
                .threads(2)
                .tempDirs(java.util.List.of(dir))
                .build());
    EntrySpec spec = EntrySpec.pairs(false, LastResort.NONE);
    try (SessionChunk chunk = new SessionChunk(spec, plan, 0, true, true)) {
      byte[] key = new byte[8];
      byte[] value = new byte[8];
      int n = 2_000_000;
      for (int i = 0; i < n; i++) {
        java.util.Arrays.fill(key, (byte) i);
        while (!chunk.append(ByteBuffer.wrap(value), 0, 8, ByteBuffer.wrap(key), 0, 8)) {
          long step = chunk.growthFor(spec.layout().entryLength(8, 8));
          assertTrue(step > 0, "a 2 GiB chunk refused to grow at " + i + " entries");
          chunk.grow(step);
        }
      }
      RecordIndex index = chunk.index();
      assertEquals(n, index.size());
      assertTrue(n > SessionPlan.INDEX_PROJECTION_FREE);
      assertTrue(
          index.capacity() <= (long) SessionPlan.MAX_INDEX_GROWTH * n,
          index.capacity() + " index entries for " + n + " pairs");
    }
  }

  /** A session's plan for a 16 MiB budget and 64 KiB temp transfers. */
  private SessionPlan plan16MiB() throws Exception {
    return SessionPlan.of(
        SortConfig.builder()
            .memoryBudget(DataSize.ofMiB(16))
            .threads(2)
            .tempDirs(java.util.List.of(dir))
            .transferSize(FileKind.TEMP, DataSize.ofKiB(64))
            .build());
  }

  /** Adds random pairs until the chunk cannot grow; returns how many it took. */
  private static long fill(SessionChunk chunk, EntrySpec spec, Random random) {
    long n = 0;
    byte[] key = new byte[64];
    byte[] value = new byte[500];
    while (true) {
      int k = 4 + random.nextInt(61);
      int v = random.nextInt(501);
      random.nextBytes(key);
      random.nextBytes(value);
      ByteBuffer kb = ByteBuffer.wrap(key, 0, k);
      ByteBuffer vb = ByteBuffer.wrap(value, 0, v);
      while (!chunk.append(vb, 0, v, kb, 0, k)) {
        long step = chunk.growthFor(spec.layout().entryLength(v, k));
        if (step == 0) {
          return n;
        }
        chunk.grow(step);
      }
      n++;
    }
  }
}

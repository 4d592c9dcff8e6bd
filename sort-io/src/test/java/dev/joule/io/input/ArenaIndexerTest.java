package dev.joule.io.input;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.gather.RecordGatherer;
import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.radix.RadixRunSorter;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.RecordFormat;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.block.BlockFile;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.run.RunReader;
import dev.joule.io.run.RunWriter;
import dev.joule.io.testing.PipelineTestSupport;
import dev.joule.testing.ArenaLeakExtension;
import dev.joule.testing.TestSeed;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run gathered with the arena's (pre-sort) checksum has a footer that verifies against its data.
 */
class ArenaIndexerTest {
  private static final long SEED = TestSeed.of(ArenaIndexerTest.class, 0x5EED_1234L);

  @TempDir Path dir;

  @Test
  void gatheredRunWithKnownChecksumVerifies() throws Exception {
    FixedLengthFormat f = RecordFormat.gensort();
    byte[] data = PipelineTestSupport.records(SEED, 20_000, f, 0);
    try (RecordArena arena = RecordArena.allocate(data.length);
        RadixRunSorter sorter = new RadixRunSorter(2);
        BlockPool pool = new BlockPool(2, 16384)) {
      arena.writableWindow(0, 0, data.length).put(data);
      arena.setFilled(0, data.length);
      RecordChecksum known = ArenaIndexer.checksum(arena.view(), 100, sorter.pool());
      RecordIndex index = RecordIndex.forArena(arena, f);
      int n = index.build(arena.view(), f);
      sorter.sort(index);
      RunDescriptor d;
      try (BlockFile file =
          BlockFile.createNew(dir.resolve("run"), DirectIoPolicy.AUTO, NoticeSink.IGNORE)) {
        RunWriter w = new RunWriter(file, EntryLayout.of(f), 16384, pool, 1, SortThreads.JOULE);
        w.add(index, 0, n, new RecordGatherer(sorter.pool()), known);
        d = w.finish();
      }
      try (BlockFile file =
          BlockFile.openRead(dir.resolve("run"), DirectIoPolicy.AUTO, NoticeSink.IGNORE)) {
        RunDescriptor v =
            RunReader.open(file, EntryLayout.of(f)).verifyAll(ByteBuffer.allocateDirect(16384));
        assertEquals(d.checksum(), v.checksum());
        assertEquals(20_000, v.recordCount());
      }
    }
    ArenaLeakExtension.checkNoLeaks("gatheredRunWithKnownChecksumVerifies");
  }

  /**
   * The fused parallel pass (checksum and index of each range together) gives exactly the serial
   * build's entries and the separate pass's checksum, over several slabs and partly filled ones.
   */
  @Test
  void fusedChecksumAndIndexEqualsSerialBuild() throws Exception {
    FixedLengthFormat f = RecordFormat.gensort();
    int records = 3 * ArenaIndexer.CHECKSUM_GRAIN + 1234;
    byte[] data = PipelineTestSupport.records(SEED, records, f, 0);
    int slab = 409_600; // 4096 records of 100 bytes per slab: many slabs, the last partly filled
    try (RecordArena arena = RecordArena.allocate(data.length, slab);
        RadixRunSorter sorter = new RadixRunSorter(2)) {
      int at = 0;
      for (int s = 0; s < arena.slabCount() && at < data.length; s++) {
        int len = Math.min(slab, data.length - at);
        arena.writableWindow(s, 0, len).put(data, at, len);
        arena.setFilled(s, len);
        at += len;
      }
      RecordIndex serial = RecordIndex.forArena(arena, f);
      int n = serial.build(arena.view(), f);
      RecordChecksum separate = ArenaIndexer.checksum(arena.view(), 100, sorter.pool());
      RecordIndex fused = RecordIndex.forArena(arena, f);
      RecordChecksum sum = ArenaIndexer.checksumAndIndex(arena.view(), fused, f, sorter.pool());
      assertEquals(records, n);
      assertEquals(n, fused.size());
      assertEquals(separate, sum);
      assertArrayEquals(Arrays.copyOf(serial.keys(), n), Arrays.copyOf(fused.keys(), n));
      assertArrayEquals(Arrays.copyOf(serial.refs(), n), Arrays.copyOf(fused.refs(), n));
    }
    ArenaLeakExtension.checkNoLeaks("fusedChecksumAndIndexEqualsSerialBuild");
  }

  /**
   * A session's pass: each slab's sum in CRC-32C, equal to a reference summed record by record with
   * the JDK's {@link java.util.zip.CRC32C}, and the same index; without a kind, the index alone and
   * no sums.
   */
  @Test
  void slabSumsInTheSessionsKindAndTheIndexAlone() throws Exception {
    FixedLengthFormat f = RecordFormat.gensort();
    int records = 2 * ArenaIndexer.CHECKSUM_GRAIN + 777;
    byte[] data = PipelineTestSupport.records(SEED + 1, records, f, 0);
    int slab = 1_638_400; // 16384 records per slab: a grain spans two slabs, the last partly filled
    try (RecordArena arena = RecordArena.allocate(data.length, slab);
        RadixRunSorter sorter = new RadixRunSorter(2)) {
      long[] expected = new long[arena.slabCount()];
      int at = 0;
      for (int s = 0; s < arena.slabCount() && at < data.length; s++) {
        int len = Math.min(slab, data.length - at);
        arena.writableWindow(s, 0, len).put(data, at, len);
        arena.setFilled(s, len);
        for (int r = at; r < at + len; r += 100) {
          java.util.zip.CRC32C c = new java.util.zip.CRC32C();
          c.update(data, r, 100);
          expected[s] += c.getValue();
        }
        at += len;
      }
      RecordIndex serial = RecordIndex.forArena(arena, f);
      int n = serial.build(arena.view(), f);
      EntryLayout layout = EntryLayout.of(f);
      RecordIndex byKind = RecordIndex.forArena(arena, f);
      RecordChecksum[] sums =
          ArenaIndexer.checksumAndIndexBySlab(
              arena.view(), byKind, layout, null, RecordChecksum.castagnoli(), sorter.pool());
      assertEquals(arena.slabCount(), sums.length);
      for (int s = 0; s < sums.length; s++) {
        assertTrue(sums[s].isCastagnoli(), "slab " + s);
        assertEquals(Long.toHexString(expected[s]), sums[s].toHex(), "slab " + s);
      }
      RecordIndex alone = RecordIndex.forArena(arena, f);
      assertNull(
          ArenaIndexer.checksumAndIndexBySlab(
              arena.view(), alone, layout, null, null, sorter.pool()));
      for (RecordIndex i : new RecordIndex[] {byKind, alone}) {
        assertEquals(n, i.size());
        assertArrayEquals(Arrays.copyOf(serial.refs(), n), Arrays.copyOf(i.refs(), n));
        assertArrayEquals(Arrays.copyOf(serial.keys(), n), Arrays.copyOf(i.keys(), n));
      }
    }
    ArenaLeakExtension.checkNoLeaks("slabSumsInTheSessionsKindAndTheIndexAlone");
  }
}

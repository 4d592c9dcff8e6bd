package dev.joule.io.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.gather.RecordGatherer;
import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.radix.RadixRunSorter;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.block.BlockFile;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.Compression;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.testing.PipelineTestSupport;
import dev.joule.testing.ArenaLeakExtension;
import dev.joule.testing.TestSeed;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A run written from memory with its blocks compressed ahead on a second thread ({@link
 * CompressAhead}) is byte for byte the run written with each block compressed in turn on the
 * writer's thread (a sort of one thread, whose scratch limit is two): the blocks keep their order,
 * their compressed or raw form, their trailers and CRCs, and the footer its stored lengths. The
 * reference file comes from the inline path, which the corruption and round-trip suites check
 * against independent readers; the run's records are also read back and their count and checksum
 * verified.
 */
class CompressAheadTest {
  private static final long SEED = TestSeed.of(CompressAheadTest.class, 0xC0A4_EADL);
  private static final int BLOCK = 16 << 10;
  private static final FixedLengthFormat GENSORT = RecordFormat.gensort();

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"lz4", "zstd"})
  void aRunCompressedAheadIsTheRunCompressedInTurn(String codec) throws Exception {
    Compression c = codec.equals("lz4") ? Compression.lz4() : Compression.zstd(1);
    byte[] data = PipelineTestSupport.records(SEED, 20_000, GENSORT, 0);
    for (int at = 0; at < data.length; at += 100) {
      if ((data[at] & 0xff) < 0x40) {
        continue; // random payloads under the lowest keys: the run's first blocks stay raw
      }
      for (int i = 10; i < 100; i++) {
        data[at + i] = (byte) ('a' + (at / 100 + i) % 5); // text-like: the other blocks shrink
      }
    }
    AtomicInteger threads = new AtomicInteger();
    SortThreads counting =
        SortThreads.of(
            r -> {
              threads.incrementAndGet();
              Thread t = new Thread(r, "test-" + threads.get());
              t.setDaemon(true);
              return t;
            });
    try (RecordArena arena = RecordArena.allocate(data.length);
        RadixRunSorter sorter = new RadixRunSorter(2);
        BlockPool pool = new BlockPool(3, BLOCK)) {
      arena.writableWindow(0, 0, data.length).put(data);
      arena.setFilled(0, data.length);
      RecordIndex index = RecordIndex.forArena(arena, GENSORT);
      int n = index.build(arena.view(), GENSORT);
      sorter.sort(index);

      threads.set(0);
      Path inTurn = dir.resolve("in-turn");
      try (RunCompression one = new RunCompression(c, () -> 0, counting, 2)) {
        write(inTurn, index, n, sorter, pool, one, counting);
      }
      int inTurnThreads = threads.get();

      threads.set(0);
      Path ahead = dir.resolve("ahead");
      RunDescriptor d;
      try (RunCompression two = new RunCompression(c, () -> 0, counting, 8)) {
        d = write(ahead, index, n, sorter, pool, two, counting);
        RunCompression.ScratchBuffer back = two.tryAcquire(BLOCK);
        assertNotNull(back, "the writer gave its scratch buffers back");
        two.release(back);
      }
      assertEquals(inTurnThreads + 1, threads.get(), "one compressing thread, ahead of the writer");

      assertArrayEquals(Files.readAllBytes(inTurn), Files.readAllBytes(ahead), "seed " + SEED);
      int compressed = 0;
      for (int k = 0; k < d.blockCount(); k++) {
        compressed += d.compressed(k) ? 1 : 0;
      }
      assertTrue(compressed > 10 && compressed < d.blockCount(), compressed + " compressed");
      try (BlockFile f = BlockFile.openRead(ahead, DirectIoPolicy.OFF, NoticeSink.IGNORE);
          RunCompression r = new RunCompression(c, () -> 0)) {
        RunDescriptor v =
            RunReader.open(f, EntryLayout.of(GENSORT), r).verifyAll(ByteBuffer.allocate(BLOCK));
        assertEquals(20_000, v.recordCount());
        assertEquals(d.checksum(), v.checksum());
      }
    }
    ArenaLeakExtension.checkNoLeaks("aRunCompressedAheadIsTheRunCompressedInTurn");
  }

  /**
   * A run given up half way (a failed sort) ends the compressing thread and returns every buffer.
   */
  @Test
  void aRunClosedUnfinishedReturnsItsBuffersAndEndsItsThread() throws Exception {
    byte[] data = PipelineTestSupport.records(SEED, 5_000, GENSORT, 0);
    List<Thread> made = new ArrayList<>();
    SortThreads recording =
        SortThreads.of(
            r -> {
              Thread t = new Thread(r);
              t.setDaemon(true);
              made.add(t);
              return t;
            });
    try (RecordArena arena = RecordArena.allocate(data.length);
        RadixRunSorter sorter = new RadixRunSorter(2);
        BlockPool pool = new BlockPool(3, BLOCK);
        RunCompression lz4 = new RunCompression(Compression.lz4(), () -> 0, recording, 3)) {
      arena.writableWindow(0, 0, data.length).put(data);
      arena.setFilled(0, data.length);
      RecordIndex index = RecordIndex.forArena(arena, GENSORT);
      int n = index.build(arena.view(), GENSORT);
      sorter.sort(index);
      try (BlockFile f =
          BlockFile.createNew(dir.resolve("given-up"), DirectIoPolicy.OFF, NoticeSink.IGNORE)) {
        RunWriter w = new RunWriter(f, EntryLayout.of(GENSORT), BLOCK, pool, 2, recording, lz4);
        w.add(index, 0, n / 2, new RecordGatherer(sorter.pool()), null);
        w.close();
      }
      for (Thread t : made) {
        assertTrue(!t.isAlive(), t + " still runs");
      }
      List<RunCompression.ScratchBuffer> all = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        RunCompression.ScratchBuffer s = lz4.tryAcquire(BLOCK);
        assertNotNull(s, "scratch buffer " + i + " was given back");
        all.add(s);
      }
      all.forEach(lz4::release);
    }
  }

  private static RunDescriptor write(
      Path p,
      RecordIndex index,
      int n,
      RadixRunSorter sorter,
      BlockPool pool,
      RunCompression compression,
      SortThreads threads)
      throws IOException {
    try (BlockFile f = BlockFile.createNew(p, DirectIoPolicy.OFF, NoticeSink.IGNORE);
        RunWriter w =
            new RunWriter(f, EntryLayout.of(GENSORT), BLOCK, pool, 2, threads, compression)) {
      w.add(index, 0, n, new RecordGatherer(sorter.pool()), null);
      return w.finish();
    }
  }
}

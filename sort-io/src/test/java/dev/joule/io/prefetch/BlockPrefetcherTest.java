package dev.joule.io.prefetch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.merge.TournamentTree;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.block.BlockFile;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.run.RunReader;
import dev.joule.io.run.RunWriter;
import dev.joule.testing.TestSeed;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The prefetch schedule's order, and a prefetched merge with the smallest pool (k + 1 buffers). */
class BlockPrefetcherTest {
  static final long SEED = TestSeed.of(BlockPrefetcherTest.class, 0x5EED_1234L);
  static final FixedLengthFormat F = RecordFormat.fixed(16, KeySpec.bytes(0, 8));
  static final int BLOCK = 4096;

  @TempDir Path dir;

  @Test
  void scheduleOrdersBlocksByFirstKeyAfterEveryRunsFirstBlock() throws Exception {
    List<byte[][]> runs = runs(3, 2000, 7);
    RunDescriptor[] d = write(runs);
    int[] from = new int[d.length];
    int[] to = new int[d.length];
    for (int i = 0; i < d.length; i++) {
      to[i] = d[i].blockCount();
    }
    PrefetchSchedule s = PrefetchSchedule.of(d, from, to);
    int total = Arrays.stream(d).mapToInt(RunDescriptor::blockCount).sum();
    assertEquals(total, s.size());
    for (int i = 0; i < d.length; i++) {
      assertEquals(0, s.block(i), "first blocks first");
    }
    for (int i = d.length + 1; i < s.size(); i++) {
      long a = d[s.run(i - 1)].firstKeyPrefix(s.block(i - 1));
      long b = d[s.run(i)].firstKeyPrefix(s.block(i));
      assertEquals(
          true, Long.compareUnsigned(a, b) <= 0, "schedule position " + i + " seed " + SEED);
    }
  }

  @Test
  void mergeWithTheSmallestPoolAndSkewedBlocksCompletes() throws Exception {
    for (int k : new int[] {1, 2, 5, 9}) {
      List<byte[][]> runs = runs(k, 3000, 3); // few distinct keys: prefix ties everywhere
      RunDescriptor[] d = write(runs);
      RunReader[] readers = new RunReader[k];
      List<BlockFile> files = new ArrayList<>();
      for (int i = 0; i < k; i++) {
        BlockFile f = BlockFile.openRead(d[i].path(), DirectIoPolicy.AUTO, NoticeSink.IGNORE);
        files.add(f);
        readers[i] = RunReader.open(f, EntryLayout.of(F));
      }
      int[] from = new int[k];
      int[] to = new int[k];
      for (int i = 0; i < k; i++) {
        to[i] = d[i].blockCount();
      }
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      try (BlockPool pool = new BlockPool(k + 1, BLOCK);
          BlockPrefetcher p =
              new BlockPrefetcher(
                  readers,
                  from,
                  to,
                  PrefetchSchedule.of(d, from, to),
                  pool,
                  2,
                  SortThreads.JOULE)) {
        FileRunCursor[] cursors = new FileRunCursor[k];
        for (int i = 0; i < k; i++) {
          cursors[i] = new FileRunCursor(d[i], p, i, 0, d[i].recordCount());
        }
        TournamentTree t = new TournamentTree(cursors);
        byte[] rec = new byte[16];
        while (t.next()) {
          t.current().buffer().get(t.current().position(), rec);
          got.write(rec);
        }
        for (FileRunCursor c : cursors) {
          c.close();
        }
      }
      for (BlockFile f : files) {
        f.close();
      }
      assertArrayEquals(reference(runs), got.toByteArray(), "k=" + k + " seed " + SEED);
    }
  }

  private List<byte[][]> runs(int k, int n, int distinct) {
    Random r = new Random(SEED + k);
    List<byte[][]> runs = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      byte[][] recs = new byte[n + r.nextInt(n)][16];
      for (int j = 0; j < recs.length; j++) {
        r.nextBytes(recs[j]);
        recs[j][0] = (byte) r.nextInt(distinct);
        Arrays.fill(recs[j], 1, 7, (byte) 0);
      }
      Arrays.sort(recs, (a, b) -> Arrays.compareUnsigned(a, 0, 8, b, 0, 8));
      runs.add(recs);
    }
    return runs;
  }

  private RunDescriptor[] write(List<byte[][]> runs) throws Exception {
    RunDescriptor[] d = new RunDescriptor[runs.size()];
    try (BlockPool pool = new BlockPool(2, BLOCK)) {
      for (int i = 0; i < d.length; i++) {
        Path p = dir.resolve("run" + i + "-" + System.nanoTime());
        try (BlockFile f = BlockFile.createNew(p, DirectIoPolicy.AUTO, NoticeSink.IGNORE)) {
          RunWriter w = new RunWriter(f, EntryLayout.of(F), BLOCK, pool, 1, SortThreads.JOULE);
          for (byte[] rec : runs.get(i)) {
            w.add(ByteBuffer.wrap(rec));
          }
          d[i] = w.finish();
        }
      }
    }
    return d;
  }

  private static byte[] reference(List<byte[][]> runs) {
    List<byte[]> all = new ArrayList<>();
    runs.forEach(r -> all.addAll(Arrays.asList(r)));
    all.sort(
        Comparator.comparing(
            x -> x, (a, b) -> Arrays.compareUnsigned(a, 0, 8, b, 0, 8))); // stable: run order
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    all.forEach(o::writeBytes);
    return o.toByteArray();
  }
}

package dev.joule.io.prefetch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.merge.MergeSplitter;
import dev.joule.io.block.BlockFile;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.Compression;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.run.RunCompression;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.run.RunReader;
import dev.joule.io.run.RunWriter;
import dev.joule.testing.TestSeed;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The split's searches over compressed runs narrow by the blocks' first keys before they read: a
 * split of 6 compressed runs of about 10 blocks into 4 parts reads one or two blocks per run and
 * cut (30 here; 127 without narrowing, more than the runs hold), not one per step of a binary
 * search (the cut vectors equal a brute-force count of the stable merge). Rows share prefixes
 * longer than the 64 key bytes a footer keeps, so some first keys cannot tell.
 */
class RunFileViewSearchTest {
  private static final long SEED = TestSeed.of(RunFileViewSearchTest.class, 0x5EA2_C401L);
  private static final int BLOCK = 16 << 10;
  private static final EntryLayout ROWS = EntryLayout.whole();

  @TempDir Path dir;

  @Test
  void aSplitOfCompressedRunsReadsTheBlockOfEachCutNotOnePerStep() throws IOException {
    Random r = new Random(SEED);
    int k = 6;
    int parts = 4;
    byte[][][] runs = new byte[k][][];
    BlockFile[] files = new BlockFile[k];
    RunFileView[] views = new RunFileView[k];
    long blocks = 0;
    try (BlockPool pool = new BlockPool(3, BLOCK);
        RunCompression lz4 = new RunCompression(Compression.lz4(), () -> 0)) {
      for (int i = 0; i < k; i++) {
        runs[i] = rows(r, 4000);
        Path p = dir.resolve("run-" + i);
        try (BlockFile f = BlockFile.createNew(p, DirectIoPolicy.OFF, NoticeSink.IGNORE);
            RunWriter w = new RunWriter(f, ROWS, BLOCK, pool, 2, SortThreads.JOULE, lz4)) {
          for (byte[] row : runs[i]) {
            ByteBuffer e = ByteBuffer.allocate(ROWS.entryLength(row.length, 0));
            e.put(ROWS.writeHeader(e, 0, row.length, 0), row);
            w.add(e.clear());
          }
          w.finish();
        }
        files[i] = BlockFile.openRead(p, DirectIoPolicy.OFF, NoticeSink.IGNORE);
        RunDescriptor d = RunReader.open(files[i], ROWS, lz4).descriptor();
        assertTrue(d.compressed(1), "the runs' blocks are stored compressed");
        blocks += d.blockCount();
        ByteBuffer page = ByteBuffer.allocateDirect(2 * 4096).alignedSlice(4096).slice(0, 4096);
        views[i] = new RunFileView(files[i], d, page, null);
      }
      long[][] cuts = MergeSplitter.split(views, parts);
      long[][] expected = bruteForce(runs, parts);
      for (int j = 0; j <= parts; j++) {
        assertArrayEquals(expected[j], cuts[j], "cut " + j + ", seed " + SEED);
      }
      long decoded = 0;
      for (RunFileView v : views) {
        decoded += v.blocksDecoded();
      }
      long bound = 2L * k * (parts - 1);
      long read = decoded;
      long all = blocks;
      assertTrue(
          read <= bound,
          () -> read + " blocks decoded of " + all + " for " + (parts - 1) + " cuts, seed " + SEED);
    } finally {
      for (BlockFile f : files) {
        if (f != null) {
          f.close();
        }
      }
    }
  }

  /** {@code n} rows in order: a prefix of 70 bytes shared by runs of rows, then a few letters. */
  private static byte[][] rows(Random r, int n) {
    byte[][] rows = new byte[n][];
    String[] prefixes = new String[8];
    for (int p = 0; p < prefixes.length; p++) {
      prefixes[p] = String.valueOf((char) ('a' + p)).repeat(70);
    }
    for (int j = 0; j < n; j++) {
      String tail = Integer.toString(r.nextInt(1_000_000), 36);
      String row = r.nextInt(3) == 0 ? prefixes[r.nextInt(8)] + tail : tail + " line of text";
      rows[j] = row.getBytes(StandardCharsets.US_ASCII);
    }
    Arrays.sort(rows, Arrays::compareUnsigned);
    return rows;
  }

  /** Per part boundary, the rows of each run before it in the stable merge order. */
  private static long[][] bruteForce(byte[][][] runs, int parts) {
    int k = runs.length;
    List<int[]> merged = new ArrayList<>(); // {run, position}
    for (int i = 0; i < k; i++) {
      for (int j = 0; j < runs[i].length; j++) {
        merged.add(new int[] {i, j});
      }
    }
    merged.sort(
        (a, b) -> {
          int c = Arrays.compareUnsigned(runs[a[0]][a[1]], runs[b[0]][b[1]]);
          return c != 0 ? c : Integer.compare(a[0], b[0]);
        });
    long total = merged.size();
    long[][] cuts = new long[parts + 1][k];
    for (int j = 0; j <= parts; j++) {
      long rank = total * j / parts;
      for (int n = 0; n < rank; n++) {
        cuts[j][merged.get(n)[0]]++;
      }
    }
    return cuts;
  }
}

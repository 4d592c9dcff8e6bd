package dev.joule.io.prefetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.merge.SortedRunView;
import dev.joule.io.block.BlockFile;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.error.CorruptRunException;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.run.RunReader;
import dev.joule.io.run.RunWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: a run block whose used bytes or entry lengths disagree with its entries, written with
 * a CRC32C that matches (a writer's bug, or damage rewritten with its checksum), passed {@link
 * RunReader#readBlock}, and the merge's {@link FileRunCursor} walked past its blocks: it asked the
 * prefetcher for a block outside the merge's range and waited forever (the sort hung), or failed
 * with an ArrayIndexOutOfBoundsException. Each such block must now be a {@link CorruptRunException}
 * naming the run, and never a hang. Also: the splitter's {@link RunFileView} reads a probed entry
 * once.
 */
class InconsistentRunTest {
  static final int BLOCK = 4096;
  static final EntryLayout FIXED = EntryLayout.range(16, 0, 10);
  static final EntryLayout ROWS = EntryLayout.whole();

  @TempDir Path dir;

  @Test
  void fixedBlockWithOneEntryLessInItsUsedBytes() throws Exception {
    byte[][] recs = new byte[600][16];
    Random r = new Random(1);
    for (byte[] rec : recs) {
      r.nextBytes(rec);
    }
    Arrays.sort(recs, Arrays::compareUnsigned);
    Path run = write(FIXED, recs);
    RunDescriptor d = descriptor(run, FIXED);
    rewrite(run, d, 1, -16, 12);
    CorruptRunException e = assertThrows(CorruptRunException.class, () -> readAll(run, FIXED));
    assertTrue(e.getMessage().contains("block 1 used bytes"), e.getMessage());
    assertCorruptThroughAMerge(run, FIXED);
  }

  @Test
  void variableEntryLengthThatDisagreesWithItsBlock() throws Exception {
    for (int delta : new int[] {-3, 5, 1 << 28}) {
      Path run = write(ROWS, rows());
      RunDescriptor d = descriptor(run, ROWS);
      int k = firstBlockWithEntries(d, 2);
      ByteBuffer first = ByteBuffer.wrap(Files.readAllBytes(run));
      // the record length of the block's second entry (the footer keeps the first one's key)
      int second = (int) d.blockOffset(k) + 4 + first.getInt((int) d.blockOffset(k));
      rewriteAt(run, d, k, second, first.getInt(second) + delta);
      CorruptRunException e = assertThrows(CorruptRunException.class, () -> readAll(run, ROWS));
      assertTrue(e.getMessage().contains("block " + k + " entr"), delta + ": " + e.getMessage());
      assertCorruptThroughAMerge(run, ROWS);
      Files.delete(run);
    }
  }

  /**
   * A continuation piece one byte short: no block check can see it (a continuation holds no entry
   * header), so the cursor that joins the pieces must.
   */
  @Test
  void continuationPieceShorterThanTheEntrySays() throws Exception {
    Path run = write(ROWS, rows());
    RunDescriptor d = descriptor(run, ROWS);
    int k = 0;
    while (d.entriesStarting(k) != 0) {
      k++;
    }
    rewrite(run, d, k, -1, 12);
    readAll(run, ROWS); // every block on its own is consistent
    assertCorruptThroughAMerge(run, ROWS);
  }

  /**
   * The final merge's splitter reads entries through {@link RunFileView} from unverified pages. An
   * entry length there that points outside the run failed with an ArrayIndexOutOfBoundsException
   * (or asked for an array of up to 2 GiB), not as a corrupt run.
   */
  @Test
  void splitterViewOfAnImpossibleEntryLength() throws Exception {
    for (int value : new int[] {-40, 1 << 28, 300_000}) {
      Path run = write(ROWS, rows());
      RunDescriptor d = descriptor(run, ROWS);
      int k = firstBlockWithEntries(d, 3);
      ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(run));
      int second = (int) d.blockOffset(k) + 4 + b.getInt((int) d.blockOffset(k));
      rewriteAt(run, d, k, second, value);
      try (BlockFile f = BlockFile.openRead(run, DirectIoPolicy.OFF, NoticeSink.IGNORE)) {
        RunFileView view =
            new RunFileView(
                f,
                d,
                ByteBuffer.allocateDirect(2 * BLOCK).alignedSlice(BLOCK).slice(0, BLOCK),
                null);
        long third = d.firstEntryOf(k) + 2;
        for (Executable probe :
            new Executable[] {() -> view.probe(third), () -> view.recordBytesBefore(third)}) {
          UncheckedIOException e = assertThrows(UncheckedIOException.class, probe);
          CorruptRunException c = assertInstanceOf(CorruptRunException.class, e.getCause());
          assertEquals(run, c.file(), c.getMessage());
        }
      }
      Files.delete(run);
    }
  }

  /**
   * The splitter probes a run that holds one line larger than an arena at the same index in every
   * round; the view must read that entry once (it re-read its megabytes per probe: 18 s for the
   * split of ParsedSortTest's 6 MiB lines). Changing the file after the first probe shows whether
   * the view reads it again: the entry is 3 MiB, three times the view's page cache.
   */
  @Test
  void splitterViewReadsARepeatedlyProbedEntryOnce() throws Exception {
    byte[] big = new byte[3 << 20];
    new Random(3).nextBytes(big);
    Path run = write(ROWS, new byte[][] {big});
    RunDescriptor d = descriptor(run, ROWS);
    try (BlockFile f = BlockFile.openRead(run, DirectIoPolicy.OFF, NoticeSink.IGNORE)) {
      RunFileView view =
          new RunFileView(
              f, d, ByteBuffer.allocateDirect(2 * BLOCK).alignedSlice(BLOCK).slice(0, BLOCK), null);
      SortedRunView.Probe probe = view.probe(0);
      assertEquals(0, view.compare(0, probe));
      byte[] bytes = Files.readAllBytes(run);
      int at = (int) d.blockOffset(0) + 100; // inside the entry's first page, past its header
      bytes[at] ^= 0x5A;
      Files.write(run, bytes);
      assertEquals(0, view.compare(0, probe), "the view read entry 0 again");
    }
  }

  /**
   * Large entries compare with a probe where they lie, chunk by chunk, as their copies would: rows
   * of 70 KiB to 300 KiB (over the 64 KiB bound), equal ones and ones that differ only after their
   * first chunk or in length, against probes taken by another view.
   */
  @Test
  void largeEntriesCompareInPlaceAsTheirCopies() throws Exception {
    Random r = new Random(4);
    byte[] base = new byte[300 << 10];
    r.nextBytes(base);
    byte[][] rows = new byte[12][];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = Arrays.copyOf(base, (70 << 10) + r.nextInt(230 << 10));
      if (i % 3 == 1) {
        rows[i][(64 << 10) + r.nextInt(rows[i].length - (64 << 10))] ^= 1; // late difference
      }
    }
    rows[5] = rows[4].clone();
    rows[7] = new byte[] {1, 2, 3}; // a small one among them
    Arrays.sort(rows, Arrays::compareUnsigned);
    Path run = write(ROWS, rows);
    RunDescriptor d = descriptor(run, ROWS);
    try (BlockFile f = BlockFile.openRead(run, DirectIoPolicy.OFF, NoticeSink.IGNORE)) {
      RunFileView view = new RunFileView(f, d, page(), null);
      RunFileView probes = new RunFileView(f, d, page(), null);
      for (int j = 0; j < rows.length; j++) {
        SortedRunView.Probe probe = probes.probe(j);
        for (int i = 0; i < rows.length; i++) {
          assertEquals(
              Integer.signum(Arrays.compareUnsigned(rows[i], rows[j])),
              Integer.signum(view.compare(i, probe)),
              "entry " + i + " against probe " + j);
        }
      }
    }
  }

  private static ByteBuffer page() {
    return ByteBuffer.allocateDirect(2 * BLOCK).alignedSlice(BLOCK).slice(0, BLOCK);
  }

  /** Rows of 0..60 bytes and every 25th of 5000..9000 bytes, in order. */
  private static byte[][] rows() {
    Random r = new Random(2);
    byte[][] rows = new byte[500][];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = new byte[i % 25 == 7 ? 5000 + r.nextInt(4000) : r.nextInt(60)];
      r.nextBytes(rows[i]);
    }
    Arrays.sort(rows, Arrays::compareUnsigned);
    return rows;
  }

  private Path write(EntryLayout layout, byte[][] recs) throws IOException {
    return writeRun(dir, layout, recs);
  }

  /** A run file in {@code dir} of {@code recs} (in order), blocks of {@link #BLOCK} bytes. */
  static Path writeRun(Path dir, EntryLayout layout, byte[][] recs) throws IOException {
    Path p = dir.resolve("run-" + System.nanoTime());
    try (BlockPool pool = new BlockPool(2, BLOCK);
        BlockFile f = BlockFile.createNew(p, DirectIoPolicy.OFF, NoticeSink.IGNORE);
        RunWriter w = new RunWriter(f, layout, BLOCK, pool, 1, SortThreads.JOULE)) {
      for (byte[] rec : recs) {
        ByteBuffer e = ByteBuffer.allocate(layout.entryLength(rec.length, 0));
        e.put(layout.writeHeader(e, 0, rec.length, 0), rec);
        w.add(e.clear());
      }
      w.finish();
    }
    return p;
  }

  static RunDescriptor descriptor(Path run, EntryLayout layout) throws IOException {
    try (BlockFile f = BlockFile.openRead(run, DirectIoPolicy.OFF, NoticeSink.IGNORE)) {
      return RunReader.open(f, layout).descriptor();
    }
  }

  private static int firstBlockWithEntries(RunDescriptor d, int n) {
    for (int k = 0; k < d.blockCount(); k++) {
      if (d.entriesStarting(k) >= n) {
        return k;
      }
    }
    throw new AssertionError("no block starts " + n + " entries");
  }

  /** Adds {@code delta} to the int {@code fromEnd} bytes before block k's end; fixes the CRC. */
  private static void rewrite(Path run, RunDescriptor d, int k, int delta, int fromEnd)
      throws IOException {
    int at = (int) (d.blockOffset(k) + d.blockLength(k)) - fromEnd;
    rewriteAt(run, d, k, at, ByteBuffer.wrap(Files.readAllBytes(run)).getInt(at) + delta);
  }

  private static void rewriteAt(Path run, RunDescriptor d, int k, int at, int value)
      throws IOException {
    byte[] b = Files.readAllBytes(run);
    ByteBuffer bb = ByteBuffer.wrap(b);
    bb.putInt(at, value);
    int start = (int) d.blockOffset(k);
    int end = start + d.blockLength(k);
    CRC32C c = new CRC32C();
    c.update(b, start, end - 4 - start);
    bb.putInt(end - 4, (int) c.getValue());
    Files.write(run, b);
  }

  private static void readAll(Path run, EntryLayout layout) throws IOException {
    try (BlockFile f = BlockFile.openRead(run, DirectIoPolicy.OFF, NoticeSink.IGNORE)) {
      RunReader r = RunReader.open(f, layout);
      ByteBuffer buf = ByteBuffer.allocateDirect(2 * BLOCK).alignedSlice(BLOCK).slice(0, BLOCK);
      for (int k = 0; k < r.descriptor().blockCount(); k++) {
        r.readBlock(k, buf.clear());
      }
    }
  }

  /** Merges the run alone to its end: must end in a CorruptRunException naming it, in time. */
  private static void assertCorruptThroughAMerge(Path run, EntryLayout layout) {
    CorruptRunException e =
        assertTimeoutPreemptively(
            Duration.ofSeconds(10),
            () ->
                assertThrows(
                    CorruptRunException.class,
                    () -> {
                      List<RunDescriptor> runs = new ArrayList<>();
                      runs.add(descriptor(run, layout));
                      try (MergeInputs in =
                              new MergeInputs(runs, layout, DirectIoPolicy.OFF, NoticeSink.IGNORE);
                          BlockPool pool = new BlockPool(2, BLOCK);
                          MergeSource m = MergeSource.whole(in, pool, null, SortThreads.JOULE)) {
                        while (m.next()) {
                          m.current();
                        }
                      }
                    }),
            "the merge of a damaged run must fail, not hang");
    assertEquals(run, e.file(), e.getMessage());
  }
}

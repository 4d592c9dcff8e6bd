package dev.joule.io.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.KeyPrefix;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.IoTestSupport;
import dev.joule.io.block.BlockFile;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.error.CorruptRunException;
import dev.joule.io.testing.FaultFileSystemProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RunFileTest {
  static final FixedLengthFormat GENSORT = RecordFormat.gensort();
  static final EntryLayout GENSORT_ENTRIES = EntryLayout.of(GENSORT);

  /** Golden fixture geometry: 100-byte records, 4096-byte blocks (40 records each), 100 records. */
  static final int GOLDEN_BLOCK = 4096;

  static final int GOLDEN_RECORDS = 100;
  static final String GOLDEN = "/runs/v3/gensort-100x100-b4096.run";

  @TempDir Path tmp;
  BlockPool pool;

  @BeforeEach
  void setUp() {
    pool = new BlockPool(3, 64 << 10);
  }

  @AfterEach
  void tearDown() {
    IoTestSupport.assertPoolFull(pool);
    pool.close();
  }

  /** {@code n} records sorted by key, deterministic from {@code seed}. */
  static byte[] sortedRecords(long seed, int n, FixedLengthFormat f) {
    int rs = f.recordSize();
    byte[][] recs = new byte[n][rs];
    Random r = new Random(seed);
    for (byte[] rec : recs) {
      r.nextBytes(rec);
    }
    KeySpec k = f.key();
    Arrays.sort(
        recs, (a, b) -> Arrays.compareUnsigned(a, k.offset(), k.end(), b, k.offset(), k.end()));
    byte[] all = new byte[n * rs];
    for (int i = 0; i < n; i++) {
      System.arraycopy(recs[i], 0, all, i * rs, rs);
    }
    return all;
  }

  RunDescriptor write(
      Path file, FixedLengthFormat f, int blockSize, byte[] records, DirectIoPolicy policy)
      throws IOException {
    return write(file, EntryLayout.of(f), blockSize, records, policy);
  }

  /** Writes {@code entries} (whole entries of {@code layout}) in uneven batches. */
  RunDescriptor write(
      Path file, EntryLayout layout, int blockSize, byte[] entries, DirectIoPolicy policy)
      throws IOException {
    return write(file, layout, blockSize, entries, policy, null);
  }

  /** As the other, the blocks compressed as {@code compression} decides (null: none). */
  RunDescriptor write(
      Path file,
      EntryLayout layout,
      int blockSize,
      byte[] entries,
      DirectIoPolicy policy,
      RunCompression compression)
      throws IOException {
    try (BlockFile bf = BlockFile.createNew(file, policy, NoticeSink.IGNORE);
        RunWriter w =
            new RunWriter(bf, layout, blockSize, pool, 2, SortThreads.JOULE, compression)) {
      ByteBuffer src = ByteBuffer.wrap(entries);
      int batch = 0;
      while (src.hasRemaining()) { // feed in uneven batches of whole entries
        int end = src.position();
        for (int e = 0; e <= batch % 37 && end < src.limit(); e++) {
          end += layout.entryLength(src, end);
        }
        w.add(src.slice(src.position(), end - src.position()));
        src.position(end);
        batch++;
      }
      return w.finish();
    }
  }

  /** Reads every entry back by walking the blocks (joining large entries); checks the counts. */
  byte[] readAll(Path file, EntryLayout layout, DirectIoPolicy policy) throws IOException {
    try (BlockFile bf = BlockFile.openRead(file, policy, NoticeSink.IGNORE)) {
      RunReader r = RunReader.open(bf, layout);
      RunDescriptor d = r.descriptor();
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      ByteBuffer buf = ByteBuffer.allocateDirect(d.blockSize() + 4096).alignedSlice(4096);
      long entries = 0;
      int pending = 0; // bytes of a large entry still to come from the next blocks
      for (int k = 0; k < d.blockCount(); k++) {
        ByteBuffer b = r.readBlock(k, buf.clear());
        byte[] bytes = new byte[b.remaining()];
        b.get(b.position(), bytes);
        if (pending > 0) {
          assertEquals(0, d.entriesStarting(k), "a continuation block starts no entry");
          int n = Math.min(pending, bytes.length);
          out.write(bytes, 0, n);
          pending -= n;
          continue;
        }
        ByteBuffer bb = ByteBuffer.wrap(bytes);
        int at = 0;
        for (int e = 0; e < d.entriesStarting(k); e++) {
          int len = layout.entryLength(bb, at);
          int n = Math.min(len, bytes.length - at);
          out.write(bytes, at, n);
          pending = len - n;
          at += n;
          entries++;
        }
      }
      assertEquals(0, pending);
      assertEquals(d.recordCount(), entries);
      r.verifyAll(buf);
      return out.toByteArray();
    }
  }

  byte[] readAll(Path file, FixedLengthFormat f, DirectIoPolicy policy) throws IOException {
    return readAll(file, EntryLayout.of(f), policy);
  }

  @ParameterizedTest(name = "records={0} recordSize={1} block={2} {3}")
  @CsvSource({
    "0, 100, 4096, ON", "1, 100, 4096, OFF", "40, 100, 4096, ON", "41, 100, 4096, AUTO",
    "80, 100, 4096, ON", "1000, 100, 8192, OFF", "5000, 100, 65536, ON", "300, 7, 4096, ON",
    "3, 5000, 8192, ON", "2, 4084, 4096, OFF"
  })
  void roundTrip(int n, int recordSize, int blockSize, DirectIoPolicy policy) throws IOException {
    FixedLengthFormat f =
        RecordFormat.fixed(
            recordSize, KeySpec.bytes(recordSize > 12 ? 2 : 0, Math.min(recordSize, 10)));
    byte[] recs = sortedRecords(IoTestSupport.seed() + n, n, f);
    Path file = tmp.resolve("run");
    RunDescriptor d = write(file, f, blockSize, recs, policy);
    assertEquals(0, Files.size(file) % 4096);
    assertEquals(d.fileSize(), Files.size(file));
    assertEquals(n, d.recordCount());
    RecordChecksum sum = new RecordChecksum();
    for (int i = 0; i < n; i++) {
      sum.addRecord(recs, i * recordSize, recordSize);
    }
    assertEquals(sum, d.checksum());
    int perBlock = (blockSize - 12) / recordSize;
    for (int k = 0; k < d.blockCount(); k++) {
      int first = k * perBlock * recordSize;
      assertEquals(
          KeyPrefix.of(recs, first + f.key().offset(), f.key().length()), d.firstKeyPrefix(k));
    }
    for (long i = 0; i < n; i++) {
      assertEquals(i / perBlock, d.locate(i)[0]);
      assertEquals((i % perBlock) * recordSize, d.locate(i)[1]);
    }
    assertArrayEquals(recs, readAll(file, f, policy));
  }

  /**
   * Entries of varying size (key = record, a stored key in front, or a stored key ending with the
   * record), some larger than a block: they round-trip byte for byte, the checksum covers the
   * records only, every block's first key is the footer's, and {@link RunDescriptor#locate} finds
   * every entry.
   */
  @ParameterizedTest(name = "{0} block={1} maxRecord={2}")
  @CsvSource({
    "WHOLE, 4096, 300",
    "DERIVED, 4096, 300",
    "TAIL, 4096, 300",
    "WHOLE, 8192, 30000",
    "DERIVED, 4096, 20000",
    "TAIL, 4096, 20000"
  })
  void variableEntriesRoundTrip(EntryLayout.KeyPlace place, int blockSize, int maxRecord)
      throws IOException {
    long seed = IoTestSupport.seed() ^ (blockSize + maxRecord + place.ordinal());
    Random r = new Random(seed);
    EntryLayout layout = EntryLayout.of(place, 0, 0, 0);
    boolean derived = place != EntryLayout.KeyPlace.WHOLE;
    int n = 700;
    java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
    RecordChecksum sum = new RecordChecksum();
    long[] recordBytesBefore = new long[n + 1];
    byte[][] keys = new byte[n][];
    for (int i = 0; i < n; i++) {
      byte[] rec = new byte[r.nextInt(20) == 0 ? r.nextInt(maxRecord) : r.nextInt(60)];
      r.nextBytes(rec);
      byte[] key = derived ? Arrays.copyOf(rec, Math.min(rec.length, r.nextInt(90))) : rec;
      if (place == EntryLayout.KeyPlace.TAIL) {
        key = Arrays.copyOf(key, key.length + rec.length);
        System.arraycopy(rec, 0, key, key.length - rec.length, rec.length);
      }
      keys[i] = key;
      ByteBuffer e = ByteBuffer.allocate(layout.entryLength(rec.length, key.length));
      int p = layout.writeHeader(e, 0, rec.length, key.length);
      if (derived) {
        e.put(p, key);
        p += key.length;
      }
      if (place != EntryLayout.KeyPlace.TAIL) {
        e.put(p, rec);
      }
      assertEquals(
          ByteBuffer.wrap(rec),
          e.slice(layout.recordStart(e, 0), layout.recordLength(e, 0)),
          "entry " + i);
      recordBytesBefore[i + 1] = recordBytesBefore[i] + rec.length;
      all.write(e.array(), 0, e.capacity());
      sum.addRecord(rec, 0, rec.length);
    }
    byte[] entries = all.toByteArray();
    Path file = tmp.resolve("var");
    RunDescriptor d = write(file, layout, blockSize, entries, DirectIoPolicy.ON);
    assertEquals(n, d.recordCount(), "seed " + seed);
    assertEquals(sum, d.checksum(), "seed " + seed);
    assertArrayEquals(entries, readAll(file, layout, DirectIoPolicy.OFF), "seed " + seed);
    for (int k = 0; k < d.blockCount(); k++) {
      if (d.entriesStarting(k) > 0) {
        byte[] key = keys[(int) d.firstEntryOf(k)];
        assertEquals(key.length, d.firstKeyLength(k), "block " + k + ", seed " + seed);
        assertArrayEquals(
            Arrays.copyOf(key, Math.min(64, key.length)), d.firstKey(k), "block " + k);
      }
    }
    for (int i = 0; i < n; i++) {
      long[] at = d.locate(i);
      assertTrue(at[2] <= i, "locate gives an entry at or before " + i);
      assertEquals(d.blockOf(i), at[0], "entry " + i + " starts in the located block");
      assertEquals(recordBytesBefore[(int) at[2]], d.recordBytesBeforeLocated(i), "entry " + i);
    }
    assertEquals(recordBytesBefore[n], d.recordBytes());
  }

  /** A run of no entries of varying size (a spill of nothing) reads back as empty. */
  @ParameterizedTest(name = "derived={0}")
  @CsvSource({"false", "true"})
  void anEmptyRunOfVariableEntriesReadsBack(boolean derived) throws IOException {
    EntryLayout layout = derived ? EntryLayout.derived(0, 0) : EntryLayout.whole();
    Path file = tmp.resolve("empty");
    RunDescriptor d = write(file, layout, 4096, new byte[0], DirectIoPolicy.ON);
    assertEquals(0, d.recordCount());
    assertEquals(0, d.blockCount());
    assertEquals(d.fileSize(), Files.size(file));
    assertArrayEquals(new byte[0], readAll(file, layout, DirectIoPolicy.OFF));
  }

  /** Page rows keep an entry index's low 32 bits; the reader restores it across 2^31 and 2^32. */
  @Test
  void pageEntryIndexesPast32BitsAreRestored() {
    long[] indexes = {
      0, 5, 512, (1L << 31) - 1, 1L << 31, (1L << 32) - 3, 1L << 32, (3L << 31) + 7, 1L << 33
    };
    long previous = 0;
    for (long i : indexes) {
      long restored = RunLayout.unwrapEntryIndex(previous, (int) i);
      assertEquals(i, restored, "after " + previous);
      previous = restored;
    }
  }

  private byte[] goldenRecords() {
    return sortedRecords(20260101L, GOLDEN_RECORDS, GENSORT);
  }

  /**
   * Pins format v3: the writer must reproduce the committed fixture byte for byte, and the reader
   * must read it.
   */
  @Test
  void writerReproducesGoldenFile() throws IOException {
    Path file = tmp.resolve("golden");
    write(file, GENSORT, GOLDEN_BLOCK, goldenRecords(), DirectIoPolicy.AUTO);
    byte[] golden;
    try (InputStream in = RunFileTest.class.getResourceAsStream(GOLDEN)) {
      if (in == null) {
        if (Boolean.getBoolean("joule.regenerateGolden")) {
          Path out = Path.of("src/test/resources" + GOLDEN);
          Files.createDirectories(out.getParent());
          Files.copy(file, out);
          fail("golden file written to " + out.toAbsolutePath() + "; commit it and rerun");
        }
        throw new AssertionError(
            "missing fixture " + GOLDEN + " (regenerate with -Djoule.regenerateGolden=true)");
      }
      golden = in.readAllBytes();
    }
    assertArrayEquals(
        golden, Files.readAllBytes(file), "run format v3 changed: bump the version instead");
    Path copy = tmp.resolve("golden-copy");
    Files.write(copy, golden);
    assertArrayEquals(goldenRecords(), readAll(copy, GENSORT, DirectIoPolicy.OFF));
  }

  /**
   * Every single-bit flip anywhere in a small run file is detected (CRC32C detects all 1-bit
   * errors).
   */
  @Test
  void everySingleBitFlipIsDetected() throws IOException {
    Path good = tmp.resolve("good");
    write(good, GENSORT, GOLDEN_BLOCK, goldenRecords(), DirectIoPolicy.OFF);
    byte[] bytes = Files.readAllBytes(good);
    Path bad = tmp.resolve("bad");
    Random r = new Random(IoTestSupport.seed());
    ByteBuffer buf = ByteBuffer.allocateDirect(2 * GOLDEN_BLOCK).alignedSlice(4096);
    Files.write(bad, bytes);
    try (FileChannel ch = FileChannel.open(bad, StandardOpenOption.WRITE)) {
      for (int pos = 0; pos < bytes.length; pos++) {
        int bit = r.nextInt(8);
        ch.write(
            ByteBuffer.wrap(new byte[] {(byte) (bytes[pos] ^ (1 << bit))}), pos); // flip in place
        assertCorrupt(bad, buf, "bit " + bit + " of byte " + pos);
        ch.write(ByteBuffer.wrap(new byte[] {bytes[pos]}), pos); // and restore
      }
    }
  }

  /** Truncation to every shorter length is detected, and appended garbage too. */
  @Test
  void everyTruncationIsDetected() throws IOException {
    Path good = tmp.resolve("good");
    write(good, GENSORT, GOLDEN_BLOCK, goldenRecords(), DirectIoPolicy.OFF);
    byte[] bytes = Files.readAllBytes(good);
    Path bad = tmp.resolve("bad");
    ByteBuffer buf = ByteBuffer.allocateDirect(2 * GOLDEN_BLOCK).alignedSlice(4096);
    Files.write(bad, bytes);
    try (FileChannel ch = FileChannel.open(bad, StandardOpenOption.WRITE)) {
      for (int len = bytes.length - 1;
          len >= 0;
          len--) { // shrinking one byte at a time: no rewrites
        ch.truncate(len);
        assertCorrupt(bad, buf, "truncated to " + len);
      }
    }
    for (int extra : new int[] {1, 4096}) {
      Files.write(
          bad,
          Arrays.copyOf(bytes, bytes.length + extra),
          StandardOpenOption.CREATE,
          StandardOpenOption.TRUNCATE_EXISTING);
      assertCorrupt(bad, buf, "appended " + extra);
    }
  }

  private static void assertCorrupt(Path file, ByteBuffer buf, String what) throws IOException {
    try (BlockFile bf = BlockFile.openRead(file, DirectIoPolicy.OFF, NoticeSink.IGNORE)) {
      CorruptRunException e =
          assertThrows(
              CorruptRunException.class,
              () -> RunReader.open(bf, GENSORT_ENTRIES).verifyAll(buf),
              what);
      assertTrue(
          e.getMessage().startsWith("corrupt run file " + file + " at offset "), e.getMessage());
      assertEquals(file, e.file());
    }
  }

  @Test
  void checksumMismatchNamesOffsetExpectedAndActual() throws IOException {
    Path file = tmp.resolve("r");
    write(file, GENSORT, GOLDEN_BLOCK, goldenRecords(), DirectIoPolicy.OFF);
    byte[] b = Files.readAllBytes(file);
    b[4096 + 5] ^= 1; // a record byte of block 0
    Files.write(file, b);
    try (BlockFile bf = BlockFile.openRead(file, DirectIoPolicy.OFF, NoticeSink.IGNORE)) {
      RunReader r = RunReader.open(bf, GENSORT_ENTRIES);
      ByteBuffer buf = ByteBuffer.allocateDirect(8192).alignedSlice(4096);
      CorruptRunException e = assertThrows(CorruptRunException.class, () -> r.readBlock(0, buf));
      assertEquals(4096 + 4096 - 4, e.offset());
      assertTrue(
          e.getMessage()
              .matches(
                  "corrupt run file .* at offset 8188: block 0 CRC32C mismatch \\(expected"
                      + " 0x[0-9a-f]+, actual 0x[0-9a-f]+\\)"),
          e.getMessage());
    }
  }

  @Test
  void wrongFormatOrForeignFileIsRejected() throws IOException {
    Path file = tmp.resolve("r");
    write(file, GENSORT, GOLDEN_BLOCK, goldenRecords(), DirectIoPolicy.OFF);
    try (BlockFile bf = BlockFile.openRead(file, DirectIoPolicy.OFF, NoticeSink.IGNORE)) {
      assertThrows(
          CorruptRunException.class, () -> RunReader.open(bf, EntryLayout.range(100, 0, 8)));
    }
    Path foreign = tmp.resolve("foreign");
    Files.write(foreign, new byte[3 * 4096]);
    try (BlockFile bf = BlockFile.openRead(foreign, DirectIoPolicy.OFF, NoticeSink.IGNORE)) {
      assertThrows(CorruptRunException.class, () -> RunReader.open(bf, null));
    }
  }

  @Test
  void shortReadsAndWritesGiveTheSameRun() throws IOException {
    FaultFileSystemProvider faults =
        FaultFileSystemProvider.create(IoTestSupport.seed()).shortIo(true);
    byte[] recs = sortedRecords(7, 2000, GENSORT);
    Path plain = tmp.resolve("plain");
    Path shortIo = faults.wrap(tmp.resolve("short"));
    write(plain, GENSORT, 8192, recs, DirectIoPolicy.ON);
    write(shortIo, GENSORT, 8192, recs, DirectIoPolicy.ON);
    assertArrayEquals(Files.readAllBytes(plain), Files.readAllBytes(tmp.resolve("short")));
    assertArrayEquals(recs, readAll(shortIo, GENSORT, DirectIoPolicy.ON));
    faults.assertNoOpenHandles();
  }
}

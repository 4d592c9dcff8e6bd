package dev.joule.io.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.joule.core.index.KeyPrefix;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.IoTestSupport;
import dev.joule.io.block.BlockFile;
import dev.joule.io.block.BlockPool;
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

  /** Golden fixture geometry: 100-byte records, 4096-byte blocks (40 records each), 100 records. */
  static final int GOLDEN_BLOCK = 4096;

  static final int GOLDEN_RECORDS = 100;
  static final String GOLDEN = "/runs/v1/gensort-100x100-b4096.run";

  @TempDir Path tmp;
  private BlockPool pool;

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
    try (BlockFile bf = BlockFile.createNew(file, policy, NoticeSink.IGNORE);
        RunWriter w = new RunWriter(bf, f, blockSize, pool, 2)) {
      ByteBuffer src = ByteBuffer.wrap(records);
      int rs = f.recordSize();
      while (src.hasRemaining()) { // feed in uneven batches of whole records
        int n = Math.min(src.remaining(), rs * (1 + (src.position() / rs) % 37));
        w.add(src.slice(src.position(), n));
        src.position(src.position() + n);
      }
      return w.finish();
    }
  }

  byte[] readAll(Path file, FixedLengthFormat f, DirectIoPolicy policy) throws IOException {
    try (BlockFile bf = BlockFile.openRead(file, policy, NoticeSink.IGNORE)) {
      RunReader r = RunReader.open(bf, f);
      RunDescriptor d = r.descriptor();
      ByteBuffer out = ByteBuffer.allocate((int) (d.recordCount() * f.recordSize()));
      ByteBuffer buf = ByteBuffer.allocateDirect(d.blockSize() + 4096).alignedSlice(4096);
      for (int k = d.blockCount() - 1; k >= 0; k--) { // by position, in any order
        ByteBuffer b = r.readBlock(k, buf.clear());
        assertEquals(d.recordsInBlock(k) * f.recordSize(), b.remaining());
        out.put(
            (int) ((long) k * d.recordsPerBlock() * f.recordSize()),
            b,
            b.position(),
            b.remaining());
      }
      r.verifyAll(buf);
      return out.array();
    }
  }

  @ParameterizedTest(name = "records={0} recordSize={1} block={2} {3}")
  @CsvSource({
    "0, 100, 4096, ON", "1, 100, 4096, OFF", "40, 100, 4096, ON", "41, 100, 4096, AUTO",
    "80, 100, 4096, ON", "1000, 100, 8192, OFF", "5000, 100, 65536, ON", "300, 7, 4096, ON",
    "3, 5000, 8192, ON", "2, 4088, 4096, OFF"
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
    for (int k = 0; k < d.blockCount(); k++) {
      int first = k * d.recordsPerBlock() * recordSize;
      assertEquals(
          KeyPrefix.of(recs, first + f.key().offset(), f.key().length()), d.firstKeyPrefix(k));
    }
    assertArrayEquals(recs, readAll(file, f, policy));
  }

  private byte[] goldenRecords() {
    return sortedRecords(20260101L, GOLDEN_RECORDS, GENSORT);
  }

  /**
   * Pins format v1: the writer must reproduce the committed fixture byte for byte, and the reader
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
          Files.copy(file, out);
          fail("golden file written to " + out.toAbsolutePath() + "; commit it and rerun");
        }
        throw new AssertionError(
            "missing fixture " + GOLDEN + " (regenerate with -Djoule.regenerateGolden=true)");
      }
      golden = in.readAllBytes();
    }
    assertArrayEquals(
        golden, Files.readAllBytes(file), "run format v1 changed: bump the version instead");
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
              CorruptRunException.class, () -> RunReader.open(bf, GENSORT).verifyAll(buf), what);
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
      RunReader r = RunReader.open(bf, GENSORT);
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
          CorruptRunException.class,
          () -> RunReader.open(bf, RecordFormat.fixed(100, KeySpec.bytes(0, 8))));
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

package dev.joule.io.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.IoTestSupport;
import dev.joule.io.block.BlockFile;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.Compression;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.error.CorruptRunException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Run format v3's compressed blocks: every codec round-trips every shape of run (incompressible
 * records, which stay raw; highly repetitive ones; text lines with entries larger than a block; an
 * empty run), read both through heap copies and through the sort's scratch buffers; a flipped bit
 * in a compressed block is a {@link CorruptRunException} naming the run; and {@code auto} stores
 * random bytes raw while it compresses text for a slow device and not for a fast one.
 */
class CompressedRunTest {
  static final FixedLengthFormat GENSORT = RecordFormat.gensort();

  /**
   * Temp block size: large enough that a compressed block's page granularity does not hide its
   * ratio (a 0.7 block of 8 KiB still takes both pages).
   */
  static final int BLOCK = 32 << 10;

  /** Shapes of run, each with whether its blocks shrink. */
  enum Shape {
    RANDOM_RECORDS(false),
    REPETITIVE_RECORDS(true),
    TEXT_WITH_LARGE_LINES(true),
    EMPTY(false);

    final boolean shrinks;

    Shape(boolean shrinks) {
      this.shrinks = shrinks;
    }
  }

  @TempDir Path tmp;
  private final RunFileTest runs = new RunFileTest();
  private RunCompression compression;

  @BeforeEach
  void setUp() {
    runs.tmp = tmp;
    runs.pool = new BlockPool(3, 128 << 10);
  }

  @AfterEach
  void tearDown() {
    IoTestSupport.assertPoolFull(runs.pool);
    runs.pool.close();
    if (compression != null) {
      compression.close();
    }
  }

  static Stream<Arguments> codecsAndShapes() {
    List<Arguments> all = new ArrayList<>();
    for (Compression c : List.of(Compression.lz4(), Compression.zstd(1), Compression.zstd(6))) {
      for (Shape s : Shape.values()) {
        all.add(Arguments.of(c, s));
      }
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("codecsAndShapes")
  void everyCodecRoundTripsEveryShape(Compression c, Shape shape) throws IOException {
    compression = new RunCompression(c, () -> 0);
    long seed = IoTestSupport.seed() ^ shape.ordinal();
    EntryLayout layout =
        shape == Shape.TEXT_WITH_LARGE_LINES
            ? EntryLayout.of(EntryLayout.KeyPlace.WHOLE, 0, 0, 0)
            : EntryLayout.of(GENSORT);
    byte[] entries = entries(shape, seed);
    Path file = tmp.resolve("run");
    RunDescriptor d = runs.write(file, layout, BLOCK, entries, DirectIoPolicy.AUTO, compression);
    assertEquals(d.fileSize(), Files.size(file), "seed " + seed);
    int compressed = 0;
    for (int k = 0; k < d.blockCount(); k++) {
      compressed += d.compressed(k) ? 1 : 0;
    }
    if (shape.shrinks) {
      assertTrue(compressed > d.blockCount() / 2, compressed + " of " + d.blockCount());
      assertTrue(d.storedBytes() < d.rawBytes() * 0.8, d.storedBytes() + " of " + d.rawBytes());
    } else {
      assertEquals(0, compressed, "blocks that do not shrink are stored raw");
      assertEquals(d.rawBytes(), d.storedBytes());
    }
    assertArrayEquals(entries, runs.readAll(file, layout, DirectIoPolicy.OFF), "seed " + seed);
    assertArrayEquals(entries, readThroughScratch(file, layout), "seed " + seed);
  }

  /** Whole entries of {@code shape}, in key order. */
  static byte[] entries(Shape shape, long seed) {
    switch (shape) {
      case RANDOM_RECORDS:
        return RunFileTest.sortedRecords(seed, 10_000, GENSORT);
      case REPETITIVE_RECORDS:
        byte[] recs = RunFileTest.sortedRecords(seed, 10_000, GENSORT);
        for (int at = 0; at < recs.length; at += 100) {
          Arrays.fill(recs, at + 10, at + 100, (byte) ('A' + (at / 100) % 3)); // keys stay sorted
        }
        return recs;
      case TEXT_WITH_LARGE_LINES:
        return textEntries(seed);
      default:
        return new byte[0];
    }
  }

  /** Lines of words from a small vocabulary, one in 40 of up to 100 000 bytes, sorted. */
  static byte[] textEntries(long seed) {
    Random r = new Random(seed);
    String[] words = {"alpha", "beta", "gamma", "delta", "sort", "merge", "run", "block"};
    List<byte[]> lines = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      StringBuilder sb = new StringBuilder();
      int target = r.nextInt(40) == 0 ? r.nextInt(100_000) : r.nextInt(80);
      while (sb.length() < target) {
        sb.append(words[r.nextInt(words.length)]).append(r.nextInt(100)).append(' ');
      }
      lines.add(sb.toString().getBytes(StandardCharsets.US_ASCII));
    }
    lines.sort(Arrays::compareUnsigned);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] line : lines) {
      out.writeBytes(ByteBuffer.allocate(4).putInt(0, line.length).array());
      out.writeBytes(line);
    }
    return out.toByteArray();
  }

  /** Reads every block into a direct buffer through the sort's scratch buffers. */
  private byte[] readThroughScratch(Path file, EntryLayout layout) throws IOException {
    try (BlockFile bf = BlockFile.openRead(file, DirectIoPolicy.AUTO, NoticeSink.IGNORE);
        BlockPool one = new BlockPool(1, 128 << 10)) {
      RunReader r = RunReader.open(bf, layout, compression);
      ByteBuffer buf = one.acquire();
      try {
        r.verifyAll(buf);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int k = 0; k < r.descriptor().blockCount(); k++) {
          ByteBuffer b = r.readBlock(k, buf.clear());
          byte[] bytes = new byte[b.remaining()];
          b.get(bytes);
          out.writeBytes(bytes);
        }
        return out.toByteArray();
      } finally {
        one.release(buf);
      }
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * A flipped bit anywhere in a compressed block (its compressed bytes, padding or trailer) is a
   * {@link CorruptRunException} naming the run, reported before any decompressed byte is used.
   */
  @Test
  void aFlippedBitInACompressedBlockIsCorruptionNamingTheRun() throws IOException {
    compression = new RunCompression(Compression.lz4(), () -> 0);
    EntryLayout layout = EntryLayout.of(EntryLayout.KeyPlace.WHOLE, 0, 0, 0);
    byte[] entries = textEntries(IoTestSupport.seed());
    Path good = tmp.resolve("good");
    RunDescriptor d = runs.write(good, layout, BLOCK, entries, DirectIoPolicy.OFF, compression);
    int k = 0;
    while (!d.compressed(k)) {
      k++;
    }
    byte[] bytes = Files.readAllBytes(good);
    Random r = new Random(IoTestSupport.seed());
    Path bad = tmp.resolve("bad");
    for (int i = 0; i < 200; i++) {
      int at = (int) d.blockOffset(k) + r.nextInt(d.storedLength(k));
      byte[] damaged = bytes.clone();
      damaged[at] ^= (byte) (1 << r.nextInt(8));
      Files.write(bad, damaged);
      CorruptRunException e =
          assertThrows(
              CorruptRunException.class,
              () -> runs.readAll(bad, layout, DirectIoPolicy.OFF),
              "flip at " + at);
      assertEquals(bad, e.file());
      assertTrue(e.getMessage().contains("block " + k + " CRC32C mismatch"), e.getMessage());
    }
  }

  /**
   * {@code auto}: random records are stored raw (only the probes are tried), text is compressed
   * when the temp device is slow (125 MB/s) and stored raw, but for the probes, when it is fast (20
   * GB/s) — the rule, not the data alone, makes the choice.
   */
  @Test
  void autoStoresRandomBytesRawAndCompressesTextOnlyForASlowDevice() throws IOException {
    byte[] random = entries(Shape.RANDOM_RECORDS, IoTestSupport.seed());
    EntryLayout fixed = EntryLayout.of(GENSORT);
    compression = new RunCompression(Compression.auto(), () -> 10e6);
    RunDescriptor d =
        runs.write(tmp.resolve("r"), fixed, BLOCK, random, DirectIoPolicy.OFF, compression);
    assertEquals(0, compression.blocks()[1], "random records: no block compressed");
    assertEquals(d.rawBytes(), d.storedBytes());
    compression.close();

    byte[] text = textEntries(IoTestSupport.seed());
    EntryLayout whole = EntryLayout.of(EntryLayout.KeyPlace.WHOLE, 0, 0, 0);
    compression = new RunCompression(Compression.auto(), () -> 10e6);
    RunDescriptor slow =
        runs.write(tmp.resolve("s"), whole, BLOCK, text, DirectIoPolicy.OFF, compression);
    long[] slowBlocks = compression.blocks();
    assertTrue(slowBlocks[1] > slowBlocks[0] * 3 / 4, Arrays.toString(slowBlocks));
    compression.close();

    compression = new RunCompression(Compression.auto(), () -> 20e9);
    RunDescriptor fast =
        runs.write(tmp.resolve("f"), whole, BLOCK, text, DirectIoPolicy.OFF, compression);
    long[] fastBlocks = compression.blocks();
    long probes = RunCompression.PROBE_BLOCKS + fastBlocks[0] / RunCompression.PROBE_EVERY + 1;
    assertTrue(fastBlocks[1] <= probes, Arrays.toString(fastBlocks) + " probes " + probes);
    assertTrue(fast.storedBytes() > slow.storedBytes() * 3 / 2);
    assertArrayEquals(text, runs.readAll(tmp.resolve("f"), whole, DirectIoPolicy.OFF));
  }

  /**
   * {@code auto} on a slow device (10 MB/s): the first run is LZ4; LZ4 is then measured and bound
   * by the device, so the next run tries zstd, and the runs after it keep zstd, which moves more of
   * this text through the device (it stores it in fewer bytes); on a fast device (20 GB/s) every
   * run is LZ4. Every run reads back to its entries.
   */
  @Test
  void autoTakesZstdOnlyWhereTheDeviceBoundsLz4() throws IOException {
    byte[] text = textEntries(IoTestSupport.seed());
    EntryLayout whole = EntryLayout.of(EntryLayout.KeyPlace.WHOLE, 0, 0, 0);
    for (double device : new double[] {10e6, 20e9}) {
      compression = new RunCompression(Compression.auto(), () -> device);
      List<String> codecs = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        Path f = tmp.resolve("run-" + device + "-" + i);
        RunDescriptor d = runs.write(f, whole, BLOCK, text, DirectIoPolicy.OFF, compression);
        codecs.add(d.codec().toString().replaceAll(":.*", ""));
        assertArrayEquals(text, runs.readAll(f, whole, DirectIoPolicy.OFF), "run " + i);
      }
      List<String> expected =
          device < 1e9
              ? List.of("lz4", "zstd", "zstd", "zstd")
              : List.of("lz4", "lz4", "lz4", "lz4");
      assertEquals(expected, codecs, "device " + device + ": " + compression.report());
      compression.close();
    }
  }

  /**
   * {@code auto} learns the device from a timed read of its first run, where the writes said "fast"
   * (the busy rate of writes within a throttle's allowance): the probe reads the run on a simulated
   * device of 10 MB/s, the devices' rate becomes that, and the next run takes zstd with its blocks
   * compressed. Without the probe the next run keeps LZ4 and stores its blocks raw.
   */
  @Test
  void autoLearnsASlowDeviceFromATimedReadOfItsFirstRun() throws IOException {
    byte[] text = numberedLines(520_000); // about 29 MB: more than DeviceProbe.MIN_BYTES raw
    EntryLayout whole = EntryLayout.of(EntryLayout.KeyPlace.WHOLE, 0, 0, 0);
    autoOnASlowDevice(new long[1]);
    Path first = tmp.resolve("run-1");
    RunDescriptor d = runs.write(first, whole, BLOCK, text, DirectIoPolicy.AUTO, compression);
    assertTrue(d.footerOffset() >= DeviceProbe.MIN_BYTES, "run 1 stored " + d.footerOffset());
    compression.probeAfter(d, DirectIoPolicy.AUTO);
    compression.awaitProbe();
    assertEquals(10e6, compression.probedReadRate(), 0.05 * 10e6, "probed");
    assertEquals(10e6, compression.device(), 0.05 * 10e6, "the devices' rate for the rule");
    long[] before = compression.blocks();
    RunDescriptor next =
        runs.write(tmp.resolve("run-2"), whole, BLOCK, text, DirectIoPolicy.AUTO, compression);
    long[] after = compression.blocks();
    assertEquals("zstd", next.codec().toString().replaceAll(":.*", ""), compression.report() + "");
    long blocks = after[0] - before[0];
    long compressed = after[1] - before[1];
    assertTrue(compressed > blocks * 3 / 4, compressed + " of " + blocks + " compressed");
    assertArrayEquals(text, runs.readAll(tmp.resolve("run-2"), whole, DirectIoPolicy.OFF));
    assertEquals(10e6, compression.report().probedReadRate(), 0.05 * 10e6);
  }

  /**
   * Runs whose blocks do not shrink are not read back: no device rate could make compressing them
   * pay, and the read would take a slow device from the run writers. A later run of text is, once
   * the blocks tried in both runs together shrink by the margin (the ratio is the sort's: after two
   * random runs this text's tried blocks would just reach it, after one they are well within).
   */
  @Test
  void autoReadsNoRunBackWhileItsBlocksDoNotShrink() throws IOException {
    long[] reads = {0};
    autoOnASlowDevice(reads);
    long seed = IoTestSupport.seed();
    byte[] random = RunFileTest.sortedRecords(seed, 300_000, GENSORT); // 30 MB of random bytes
    EntryLayout records = EntryLayout.of(GENSORT);
    RunDescriptor d =
        runs.write(tmp.resolve("random"), records, BLOCK, random, DirectIoPolicy.AUTO, compression);
    assertTrue(d.footerOffset() >= DeviceProbe.MIN_BYTES, "stored " + d.footerOffset());
    compression.probeAfter(d, DirectIoPolicy.AUTO);
    compression.awaitProbe();
    assertEquals(0, reads[0], "seed " + seed + ": a run of random records was read back");
    assertEquals(0, compression.probedReadRate(), "seed " + seed);
    EntryLayout whole = EntryLayout.of(EntryLayout.KeyPlace.WHOLE, 0, 0, 0);
    RunDescriptor text =
        runs.write(
            tmp.resolve("text"),
            whole,
            BLOCK,
            numberedLines(520_000),
            DirectIoPolicy.AUTO,
            compression);
    compression.probeAfter(text, DirectIoPolicy.AUTO);
    compression.awaitProbe();
    assertTrue(reads[0] > 0, "seed " + seed + ": the run of text was not read back");
    assertEquals(10e6, compression.probedReadRate(), 0.05 * 10e6, "seed " + seed);
  }

  /**
   * {@code auto} whose writes say 1.3 GB/s and whose probe reads at 10 MB/s (each block-sized read
   * counted in {@code reads[0]}); skips the test where the temp dir takes no direct I/O.
   */
  private void autoOnASlowDevice(long[] reads) throws IOException {
    long perRead = (long) (BLOCK * 1e9 / 10e6);
    compression =
        new RunCompression(
            Compression.auto(),
            () -> 1.3e9,
            SortThreads.JOULE,
            4,
            DeviceProbe.MIN_BYTES,
            () -> ++reads[0] * perRead);
    Assumptions.assumeTrue(
        IoTestSupport.takesDirectIo(tmp), "no direct I/O in " + tmp + ": nothing to probe");
  }

  /** {@code n} lines {@code key<number> ...} in key order, as whole entries. */
  private static byte[] numberedLines(int n) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < n; i++) {
      byte[] line =
          String.format(Locale.ROOT, "key%09d alpha beta gamma %d delta sort merge", i, i % 97)
              .getBytes(StandardCharsets.US_ASCII);
      out.writeBytes(ByteBuffer.allocate(4).putInt(0, line.length).array());
      out.writeBytes(line);
    }
    return out.toByteArray();
  }

  /**
   * The free-space check of a new run asks for its raw size until this sort has stored enough
   * blocks to know its ratio, then for the raw size times that ratio and the margin; and the report
   * carries what the run's blocks did (raw, stored, blocks compressed, the codec's CPU).
   */
  @Test
  void aNewRunCountsOnTheRatioOnlyOnceItIsKnownAndTheReportSaysWhatCompressionDid()
      throws IOException {
    byte[] text = textEntries(IoTestSupport.seed());
    EntryLayout whole = EntryLayout.of(EntryLayout.KeyPlace.WHOLE, 0, 0, 0);
    compression = new RunCompression(Compression.lz4(), () -> 0);
    long raw = 64L << 20;
    assertEquals(raw, compression.expectedStored(raw), "nothing stored yet: the raw size");
    RunDescriptor d =
        runs.write(tmp.resolve("t"), whole, BLOCK, text, DirectIoPolicy.OFF, compression);
    long[] blocks = compression.blocks();
    assertTrue(blocks[0] >= RunCompression.RATIO_KNOWN_AFTER, Arrays.toString(blocks));
    double ratio = (double) compression.storedBytes() / compression.rawBytes();
    assertTrue(ratio < 0.6, "text: ratio " + ratio);
    long expected = (long) Math.ceil(raw * ratio * RunCompression.SPACE_MARGIN);
    assertEquals(expected, compression.expectedStored(raw));
    assertEquals(1, compression.expectedStored(1), "never more than the raw size");

    dev.joule.io.report.CompressionReport r = compression.report();
    assertEquals("lz4", r.policy());
    assertEquals("lz4", r.codec());
    assertEquals(d.rawBytes(), r.rawBytes());
    assertEquals(d.storedBytes(), r.storedBytes());
    assertEquals(blocks[0], r.blocks());
    assertEquals(blocks[1], r.compressedBlocks());
    assertEquals(r.rawBytes() - r.storedBytes(), r.savedBytes());
    // a named codec tries every block but one of a single page, which cannot save a page
    assertTrue(r.tried() && r.compressNanos() > 0, r.toString());
    assertTrue(r.triedBytes() <= r.rawBytes() && r.triedBytes() > r.rawBytes() * 0.9, r.toString());
    assertTrue(!RunCompression.off().report().tried());
  }
}

package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.gensort.GensortGenerator;
import dev.joule.core.gensort.GensortMode;
import dev.joule.core.gensort.Uint128;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.core.valsort.StreamingValidator;
import dev.joule.core.valsort.ValsortException;
import dev.joule.core.valsort.ValsortSummary;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.error.SortIOException;
import dev.joule.io.plan.SortPlan;
import dev.joule.io.report.SortReport;
import dev.joule.io.testing.CleanFailureContract;
import dev.joule.io.testing.PipelineTestSupport;
import dev.joule.io.testing.TestHooks;
import dev.joule.testing.TestSeed;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * End-to-end tests of ExternalSorter and SortSession against an in-memory stable reference sort.
 */
class ExternalSorterTest {
  static final long SEED = TestSeed.of(ExternalSorterTest.class, 0x5EED_1234L);
  static final FixedLengthFormat GENSORT = RecordFormat.gensort();

  @TempDir Path dir;
  List<Path> stripes;
  String name;
  SortReport last;

  @BeforeEach
  void setUp(TestInfo info) throws IOException {
    name = info.getDisplayName();
    stripes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      stripes.add(Files.createDirectories(dir.resolve("stripe" + i)));
    }
  }

  @AfterEach
  void leaks() throws Exception {
    PipelineTestSupport.assertNoLeaks(name, stripes);
  }

  SortConfig.Builder small(int stripeCount) {
    return SortConfig.builder()
        .memoryBudget(DataSize.ofMiB(8))
        .threads(2)
        .tempDirs(stripes.subList(0, stripeCount))
        .transferSize(FileKind.TEMP, DataSize.ofKiB(16))
        .transferSize(FileKind.INPUT, DataSize.ofKiB(64))
        .transferSize(FileKind.OUTPUT, DataSize.ofKiB(64));
  }

  byte[] sortAndCheck(byte[] data, SortConfig c) throws IOException {
    Path in = dir.resolve("in");
    Path out = dir.resolve("out");
    Files.write(in, data);
    SortReport r;
    try {
      r = ExternalSorter.sort(in, out, c);
    } catch (IOException | RuntimeException | Error e) {
      throw new AssertionError("seed " + SEED + ": " + e, e);
    }
    byte[] got = Files.readAllBytes(out);
    FixedLengthFormat f = (FixedLengthFormat) c.format();
    assertArrayEquals(PipelineTestSupport.reference(data, f), got, "seed " + SEED);
    long n = data.length / f.recordSize();
    assertEquals(n, r.records());
    assertEquals(r.input().checksum(), r.output().checksum());
    assertTrue(r.output().ordered());
    assertTrue(
        r.peakMemoryBytes() <= c.memoryBudget().bytes(),
        "peak " + r.peakMemoryBytes() + " over budget");
    if (c.format().equals(GENSORT) && n > 0) {
      // valsort's own logic (sort-core) agrees with the report
      StreamingValidator v = new StreamingValidator();
      v.accept(ByteBuffer.wrap(got));
      ValsortSummary s;
      try {
        s = v.finish();
      } catch (ValsortException e) {
        throw new AssertionError(e);
      }
      assertTrue(s.isOrdered());
      assertEquals(r.output().checksum(), s.checksum().toHex());
      assertEquals(r.output().duplicates(), s.duplicateCount().lo());
    }
    last = r;
    return got;
  }

  @Test
  void boundaryRecordCountsAroundOnePassCapacity() throws IOException {
    SortConfig c = small(1).build();
    long cap = SortPlan.of(0, c).onePassCapacity();
    for (long n : new long[] {0, 1, cap - 1, cap, cap + 1}) {
      byte[] data = PipelineTestSupport.records(SEED + n, n, GENSORT, 0);
      SortPlan p = ExternalSorter.plan(writeInput(data), dir.resolve("out"), c);
      assertEquals(n <= cap, p.onePass(), "n=" + n + " cap=" + cap);
      sortAndCheck(data, c);
    }
  }

  @Test
  void hundredsOfRunsWithIntermediatePasses() throws IOException {
    // 8 MiB budget, 16 KiB temp blocks, runs capped at 1024 records, fan-in 5: 300 runs, 4 passes.
    SortConfig c = TestHooks.runRecordsLimit(small(2).fanIn(5), 1024).build();
    byte[] data = PipelineTestSupport.records(SEED, 300 * 1024 - 17, GENSORT, 0);
    SortPlan p = ExternalSorter.plan(writeInput(data), dir.resolve("out"), c);
    assertFalse(p.onePass());
    assertEquals(300, p.runs());
    assertTrue(p.mergePasses() >= 3, p.describe());
    sortAndCheck(data, c);
  }

  @Test
  void fanInAboveTheLimitIsClampedWithANotice() throws IOException {
    List<String> notices = new ArrayList<>();
    SortConfig c =
        TestHooks.runRecordsLimit(small(1).fanIn(100_000).notices(notices::add), 1024).build();
    byte[] data = PipelineTestSupport.records(SEED, 80 * 1024, GENSORT, 0);
    SortPlan p = ExternalSorter.plan(writeInput(data), dir.resolve("out"), c);
    assertTrue(p.fanIn() < 100_000);
    assertTrue(p.describe().contains("clamped"), p.describe());
    sortAndCheck(data, c);
    assertTrue(notices.stream().anyMatch(n -> n.contains("clamped")), notices.toString());
  }

  @Test
  void manyRunsTinyRuns() throws IOException {
    // Force hundreds of runs by a tiny record memory: 1000-byte records, 8 MiB.
    FixedLengthFormat f = RecordFormat.fixed(1000, KeySpec.bytes(990, 10));
    SortConfig c = small(3).format(f).fanIn(8).build();
    long perRun = SortPlan.of(1L << 40, c).recordsPerRun();
    byte[] data = PipelineTestSupport.records(SEED, perRun * 3 + 7, f, 0);
    sortAndCheck(data, c);
  }

  @Test
  void skewedAndAllDuplicates() throws IOException {
    SortConfig c = small(2).build();
    long cap = SortPlan.of(0, c).onePassCapacity();
    sortAndCheck(PipelineTestSupport.records(SEED, cap * 2, GENSORT, 3), c);
    sortAndCheck(PipelineTestSupport.records(SEED, cap * 2, GENSORT, 1), c);
  }

  @Test
  void oddRecordFormats() throws IOException {
    int[][] formats = {{1, 0, 1}, {7, 3, 4}, {100, 90, 10}, {1000, 0, 10}};
    for (int[] fm : formats) {
      FixedLengthFormat f = RecordFormat.fixed(fm[0], KeySpec.bytes(fm[1], fm[2]));
      SortConfig c = small(1).format(f).build();
      long cap = SortPlan.of(0, c).onePassCapacity();
      long n = Math.min(cap * 2 + 5, 200_000);
      sortAndCheck(PipelineTestSupport.records(SEED + fm[0], n, f, fm[0] == 1 ? 0 : 50), c);
    }
  }

  @Test
  void threadsAndStripesGiveIdenticalOutput() throws IOException {
    byte[] data = gensort(300_000);
    byte[] first = null;
    for (int threads = 1; threads <= 4; threads++) {
      for (int s = 1; s <= 4; s++) {
        if (threads != 2 && s != 2) {
          continue; // threads 1..4 at 2 stripes, stripes 1..4 at 2 threads
        }
        SortConfig c = small(s).memoryBudget(DataSize.ofMiB(16)).threads(threads).build();
        byte[] got = sortAndCheck(data, c);
        String finalPhase = last.phases().get(last.phases().size() - 1).name();
        assertTrue(finalPhase.contains(threads == 1 ? "1 part" : threads + " parts"), finalPhase);
        if (first == null) {
          first = got;
        } else {
          assertArrayEquals(first, got, "threads " + threads + " stripes " + s);
        }
      }
    }
  }

  @Test
  void partialTrailingRecordFailsBeforeOutput() throws IOException {
    Path in = dir.resolve("in");
    Files.write(in, new byte[250]);
    Path out = dir.resolve("out");
    SortIOException e =
        assertThrows(SortIOException.class, () -> ExternalSorter.sort(in, out, small(1).build()));
    assertTrue(
        e.getMessage()
            .contains(
                "input size 250 is not a multiple of record size 100: 50 trailing bytes at offset"
                    + " 200"),
        e.getMessage());
    assertFalse(Files.exists(out));
  }

  @Test
  void outputEqualsInput() throws IOException {
    byte[] data = gensort(120_000);
    Path in = writeInput(data);
    ExternalSorter.sort(in, in, small(2).build());
    assertArrayEquals(PipelineTestSupport.reference(data, GENSORT), Files.readAllBytes(in));
  }

  @Test
  void sessionByteBufferAndNetty() throws IOException {
    for (long n : new long[] {0, 1000, 150_000}) {
      byte[] data = PipelineTestSupport.records(SEED + n, n, GENSORT, 100);
      for (boolean netty : new boolean[] {false, true}) {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        try (RecordSession s = ExternalSorter.open(small(2).build())) {
          for (int off = 0; off < data.length; off += 100 * 777) {
            int len = Math.min(100 * 777, data.length - off);
            if (netty) {
              ByteBuf b =
                  Unpooled.wrappedBuffer(
                      Unpooled.wrappedBuffer(data, off, len / 2 + 3),
                      Unpooled.wrappedBuffer(data, off + len / 2 + 3, len - len / 2 - 3));
              s.addByteBuf(b);
            } else {
              s.add(ByteBuffer.wrap(data, off, len));
            }
          }
          try (RecordCursor cur = s.finish()) {
            byte[] rec = new byte[100];
            while (cur.next()) {
              ByteBuffer r = cur.record();
              assertTrue(r.isReadOnly());
              r.get(r.position(), rec);
              got.write(rec);
            }
          }
        }
        assertArrayEquals(
            PipelineTestSupport.reference(data, GENSORT),
            got.toByteArray(),
            "n=" + n + " netty=" + netty);
      }
    }
  }

  @Test
  void interruptCancelsAndCleansUp() throws IOException {
    byte[] data = gensort(200_000);
    Path in = writeInput(data);
    Path out = dir.resolve("out");
    SortConfig c =
        TestHooks.runRecordsLimit(small(2), 4096)
            .progress((phase, done, total) -> Thread.currentThread().interrupt())
            .build();
    try {
      assertThrows(SortCancelledException.class, () -> ExternalSorter.sort(in, out, c));
      assertTrue(Thread.currentThread().isInterrupted(), "interrupt flag kept");
    } finally {
      Thread.interrupted();
    }
    assertFalse(Files.exists(out));
    try (var l = Files.list(dir)) {
      assertEquals(
          List.of(), l.filter(p -> p.getFileName().toString().startsWith(".out")).toList());
    }
  }

  /**
   * An interrupt that lands after run formation, when the final merge (the only pass) is about to
   * open its runs, is seen first by a {@code FileChannel} call, which closes the channel and throws
   * {@link ClosedByInterruptException}; it cancels the sort like any other interrupt: {@link
   * SortCancelledException}, the flag kept, the previous output unchanged, nothing left behind. The
   * thread count (one part on the sorting thread, or parts on merge threads) and direct I/O are
   * drawn from the seed.
   */
  @Test
  void interruptBeforeTheFinalMergeOpensItsRunsCancelsCleanly() throws Exception {
    Random random = new Random(SEED + 1);
    int threads = 1 + random.nextInt(3);
    DirectIoPolicy io = random.nextBoolean() ? DirectIoPolicy.AUTO : DirectIoPolicy.OFF;
    String ctx = "seed " + SEED + ", threads " + threads + ", direct I/O " + io + ": ";
    Path in = writeInput(gensort(40_000));
    Path out = dir.resolve("out");
    byte[] previous = new byte[1000];
    random.nextBytes(previous);
    Files.write(out, previous);
    SortConfig.Builder b = TestHooks.runRecordsLimit(small(2), 4096).threads(threads).directIo(io);
    SortConfig c =
        TestHooks.afterRunFormation(b.fanIn(16), runs -> Thread.currentThread().interrupt())
            .build();
    SortPlan p = ExternalSorter.plan(in, out, c);
    assertEquals(1, p.mergePasses(), ctx + p.describe());
    CleanFailureContract.Snapshot before = CleanFailureContract.before(out, stripes);
    SortCancelledException e;
    try {
      e = assertThrows(SortCancelledException.class, () -> ExternalSorter.sort(in, out, c), ctx);
      assertTrue(Thread.currentThread().isInterrupted(), ctx + "interrupt flag kept");
    } finally {
      Thread.interrupted();
    }
    assertTrue(
        PipelineTestSupport.causedBy(e, ClosedByInterruptException.class),
        ctx + "no ClosedByInterruptException in the cause chain of " + e);
    before.assertCleanFailure(e, null, true, ctx);
    assertArrayEquals(previous, Files.readAllBytes(out), ctx + "previous output changed");
  }

  @Test
  void failureInTheMiddleCleansUpAndPropagates() throws IOException {
    byte[] data = gensort(200_000);
    Path in = writeInput(data);
    Path out = dir.resolve("out");
    Files.write(out, new byte[] {1, 2, 3});
    SortConfig c =
        TestHooks.runRecordsLimit(small(2), 4096)
            .progress(
                (phase, done, total) -> {
                  if (done > 1_000_000) {
                    throw new IllegalStateException("listener failed");
                  }
                })
            .build();
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> ExternalSorter.sort(in, out, c));
    assertEquals("listener failed", e.getMessage());
    assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(out), "previous output intact");
  }

  @Test
  void inputChangedWhileReadIsDetected() throws IOException {
    Path in = writeInput(gensort(200_000));
    Path out = dir.resolve("out");
    SortConfig c =
        TestHooks.runRecordsLimit(small(2), 4096)
            .progress(
                (phase, done, total) -> {
                  if (done < 2_000_000) {
                    try {
                      Files.write(in, new byte[100], java.nio.file.StandardOpenOption.APPEND);
                    } catch (IOException e) {
                      throw new java.io.UncheckedIOException(e);
                    }
                  }
                })
            .build();
    SortIOException e = assertThrows(SortIOException.class, () -> ExternalSorter.sort(in, out, c));
    assertTrue(e.getMessage().contains("input changed while being read"), e.getMessage());
    assertFalse(Files.exists(out));
  }

  @Test
  void missingOutputDirectoryFailsBeforeReading() throws IOException {
    Path in = writeInput(gensort(10));
    SortIOException e =
        assertThrows(
            SortIOException.class,
            () -> ExternalSorter.sort(in, dir.resolve("no/such/out"), small(1).build()));
    assertTrue(e.getMessage().contains("No such file or directory"), e.getMessage());
  }

  @Test
  void planDescribesRunsPassesMemoryAndTempSpace() throws IOException {
    SortConfig c = TestHooks.runRecordsLimit(small(2).fanIn(5), 1024).build();
    Path in = writeInput(gensort(100_000));
    String d = ExternalSorter.plan(in, dir.resolve("out"), c).describe();
    for (String s :
        new String[] {"runs", "fan-in 5", "merge pass", "memory", "temp stripe 1", "usable"}) {
      assertTrue(d.contains(s), s + " missing in\n" + d);
    }
  }

  byte[] gensort(int n) {
    ByteBuffer b = ByteBuffer.allocate(n * 100);
    new GensortGenerator(GensortMode.ASCII).seek(Uint128.ofUnsigned(SEED)).generate(b, n);
    return b.array();
  }

  Path writeInput(byte[] data) throws IOException {
    Path in = dir.resolve("in");
    Files.write(in, data);
    return in;
  }
}

package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.plan.SortPlan;
import dev.joule.io.report.SortReport;
import dev.joule.io.testing.CleanFailureContract;
import dev.joule.io.testing.FaultFileSystemProvider;
import dev.joule.io.testing.FaultOp;
import dev.joule.io.testing.PipelineTestSupport;
import dev.joule.io.testing.TestHooks;
import dev.joule.testing.TestSeed;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The one-pass sort of fixed records fills its arena slab by slab (docs/decisions/D21): with the
 * slab size shrunk by a test hook, a few hundred KiB of input span many slabs, and the output must
 * be the reference's byte for byte, within the budget, and a failure between two slabs must clean
 * up like any other.
 */
class OnePassSlabsTest extends OneStripeTest {
  static final long SEED = TestSeed.of(OnePassSlabsTest.class, 0x51AB_5EEDL);
  static final FixedLengthFormat GENSORT = RecordFormat.gensort();

  /** 8 MiB, 64 KiB input transfers (several windows per slab), slabs of about {@code slab}. */
  SortConfig.Builder config(FixedLengthFormat f, int slab, AtomicInteger slabs) {
    SortConfig.Builder b =
        SortConfig.builder()
            .format(f)
            .memoryBudget(DataSize.ofMiB(8))
            .threads(2)
            .tempDirs(stripes)
            .transferSize(FileKind.INPUT, DataSize.ofKiB(64))
            .transferSize(FileKind.OUTPUT, DataSize.ofKiB(64));
    TestHooks.onePassSlabBytes(b, slab);
    return TestHooks.beforeOnePassSlab(b, s -> slabs.incrementAndGet());
  }

  void sortAndCheck(FixedLengthFormat f, long n, int slab, int expectedSlabs) throws IOException {
    AtomicInteger slabs = new AtomicInteger();
    SortConfig c = config(f, slab, slabs).build();
    byte[] data = PipelineTestSupport.records(SEED + n, n, f, 0);
    Path in = dir.resolve("in");
    Path out = dir.resolve("out");
    Files.write(in, data);
    assertTrue(ExternalSorter.plan(in, out, c).onePass(), "n=" + n);
    SortReport r = ExternalSorter.sort(in, out, c);
    String ctx = "seed " + SEED + " n=" + n + " record " + f.recordSize();
    assertArrayEquals(PipelineTestSupport.reference(data, f), Files.readAllBytes(out), ctx);
    assertEquals(expectedSlabs, slabs.get(), ctx + ": slabs allocated");
    assertEquals(n, r.records());
    assertEquals(r.input().checksum(), r.output().checksum(), ctx);
    assertTrue(
        r.peakMemoryBytes() <= c.memoryBudget().bytes(),
        ctx + ": peak " + r.peakMemoryBytes() + " over the budget");
  }

  @Test
  void gensortRecordsSpanningManySlabs() throws IOException {
    // Slabs are whole records and pages: lcm(100, 4096) = 102400 bytes (1024 records).
    sortAndCheck(GENSORT, 5 * 1024, 4096, 5);
    sortAndCheck(GENSORT, 5 * 1024 + 1, 4096, 6);
    sortAndCheck(GENSORT, 17 * 1024 - 3, 2 * 102400, 9);
    sortAndCheck(GENSORT, 1, 4096, 1);
  }

  @Test
  void oddRecordSizeWithATieBreaker() throws IOException {
    // 7-byte records, 4-byte key at 3: slabs of lcm(7, 4096) = 28672 bytes; equal keys keep order.
    FixedLengthFormat f = RecordFormat.fixed(7, KeySpec.bytes(3, 4));
    sortAndCheck(f, 4096 * 7 + 5, 4096, 8);
  }

  @Test
  void atTheOnePassCapacityThePeakStaysWithinTheBudget() throws IOException {
    // Small slabs cost slack, which the plan must count: the largest one-pass input still fits.
    AtomicInteger slabs = new AtomicInteger();
    SortConfig c = config(GENSORT, 4096, slabs).build();
    long cap = SortPlan.of(0, c).onePassCapacity();
    sortAndCheck(GENSORT, cap, 4096, (int) ((cap + 1023) / 1024));
    assertFalse(ExternalSorter.plan(write(cap + 1), dir.resolve("out"), c).onePass());
  }

  @Test
  void aRefusedSlabMidFillFailsCleanly() throws Exception {
    AtomicInteger slabs = new AtomicInteger();
    SortConfig.Builder b = config(GENSORT, 4096, slabs);
    TestHooks.beforeOnePassSlab(
        b,
        s -> {
          if (s == 3) {
            throw new OutOfMemoryError("Cannot reserve 102400 bytes of direct buffer memory");
          }
        });
    Path in = write(8 * 1024);
    Path out = dir.resolve("out");
    Files.write(out, new byte[] {'o', 'l', 'd'});
    CleanFailureContract.Snapshot before = CleanFailureContract.before(out, stripes);
    OutOfMemoryError e =
        assertThrows(OutOfMemoryError.class, () -> ExternalSorter.sort(in, out, b.build()));
    assertNotNull(e.getMessage());
    assertArrayEquals(new byte[] {'o', 'l', 'd'}, Files.readAllBytes(out));
    before.assertNoTempsOrLeaks("refused slab 3", e);
  }

  @Test
  void aReadErrorMidFillFailsCleanly() throws Exception {
    // 64 KiB reads into 100 KiB slabs: the 6th read is in the third slab.
    FaultFileSystemProvider faults = FaultFileSystemProvider.create(SEED);
    faults.failAt(FaultOp.READ, 6);
    Path in = write(8 * 1024);
    Path out = dir.resolve("out");
    CleanFailureContract.Snapshot before = CleanFailureContract.before(out, stripes);
    AtomicInteger slabs = new AtomicInteger();
    SortConfig c = config(GENSORT, 4096, slabs).build();
    IOException e =
        assertThrows(
            IOException.class, () -> ExternalSorter.sort(faults.wrap(in), faults.wrap(out), c));
    before.assertCleanFailure(e, "Input/output error", false, "read error in slab 3");
    assertTrue(slabs.get() >= 3, "the read failed before slab 3 was handed to the reader");
    faults.assertNoOpenHandles();
  }

  private Path write(long n) throws IOException {
    Path in = dir.resolve("in");
    Files.write(in, PipelineTestSupport.records(SEED, n, GENSORT, 0));
    return in;
  }
}

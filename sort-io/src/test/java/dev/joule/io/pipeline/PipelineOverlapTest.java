package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.report.SortReport;
import dev.joule.io.testing.FaultFileSystemProvider;
import dev.joule.io.testing.FaultOp;
import dev.joule.io.testing.GateEvent;
import dev.joule.io.testing.PipelineTestSupport;
import dev.joule.io.testing.TestHooks;
import dev.joule.testing.TestSeed;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transfers the pipeline overlaps do overlap, shown without timing: the fault layer's gate
 * ({@link FaultFileSystemProvider#gate}) holds a transfer until the transfer it must overlap has
 * started. Done one after the other, the held transfer waits in vain (for {@link
 * GateEvent#LIMIT_SECONDS}) and the test fails; overlapped, nobody waits longer than a hand-off.
 *
 * <ul>
 *   <li>Run formation (design.md, two passes): while chunk i is sorted, chunk i+1 is read and run
 *       i−1 written. The first read of chunk 1 waits until run 0's first write has started (so that
 *       read was in flight for the whole sort of chunk 0), and run 0's first write waits until the
 *       read of chunk 2 has started.
 *   <li>Striping (docs/decisions/D25): a run striped over two temp dirs is written to both at once,
 *       each stripe's segment having its own write-behind. The first write to each stripe's segment
 *       of the first run waits until the other stripe's first write has started.
 * </ul>
 *
 * Outputs are compared with an in-memory reference sort.
 */
class PipelineOverlapTest {
  static final long SEED = TestSeed.of(PipelineOverlapTest.class, 0x0E7E_A1L);
  static final FixedLengthFormat GENSORT = RecordFormat.gensort();

  /**
   * Records per run: 4096 records of 100 bytes are 100 whole pages (a multiple of the quantum), in
   * six 64 KiB blocks after the header, three on each stripe.
   */
  static final int RUN = 4096;

  static final long CHUNK_BYTES = (long) RUN * 100;

  @TempDir Path dir;
  List<Path> stripes;
  String name;

  @BeforeEach
  void setUp(TestInfo info) throws IOException {
    name = info.getDisplayName();
    stripes = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      stripes.add(Files.createDirectories(dir.resolve("stripe" + i)));
    }
  }

  @AfterEach
  void leaks() throws Exception {
    PipelineTestSupport.assertNoLeaks(name, stripes);
  }

  /** The gate: holds the first read of chunk 1 and the first write of a run, as described above. */
  static final class Overlap implements FaultFileSystemProvider.TransferGate {
    final Path input;
    final List<Path> stripes;
    final GateEvent runWriteStarted = new GateEvent("the first write of run 0");
    final GateEvent chunk2ReadStarted = new GateEvent("a read of chunk 2 while run 0 was written");
    final AtomicBoolean readHeld = new AtomicBoolean();
    final AtomicBoolean writeHeld = new AtomicBoolean();

    Overlap(Path input, List<Path> stripes) {
      this.input = input;
      this.stripes = stripes;
    }

    @Override
    public void before(FaultOp op, Path path, long position) {
      if (op == FaultOp.READ && path.equals(input)) {
        if (position >= 2 * CHUNK_BYTES && writeHeld.get()) {
          chunk2ReadStarted.happen();
        } else if (position >= CHUNK_BYTES
            && position < 2 * CHUNK_BYTES
            && readHeld.compareAndSet(false, true)) {
          runWriteStarted.await(); // chunk 1 is read while chunk 0 is sorted, up to run 0's write
        }
      } else if (op == FaultOp.WRITE
          && stripes.stream().anyMatch(path::startsWith)
          && path.getFileName().toString().startsWith("run-")
          && writeHeld.compareAndSet(false, true)) {
        runWriteStarted.happen();
        chunk2ReadStarted.await(); // run 0 is written while chunk 2 is read
      }
    }
  }

  @Test
  void chunksAreReadWhileTheOneBeforeIsSortedAndTheRunBeforeThatIsWritten() throws IOException {
    String ctx = "seed " + SEED;
    Overlap gate = new Overlap(dir.resolve("in"), stripes);
    SortReport r = gatedSort(SEED, 6L * RUN + 77, gate, ctx);
    assertTrue(r.runs() >= 6, ctx + ": " + r.runs() + " runs");
    assertTrue(gate.readHeld.get() && gate.writeHeld.get(), ctx + ": the gate saw no transfers");
    assertNull(gate.runWriteStarted.missed(), ctx + ": chunk 1 was not read while chunk 0 sorted");
    assertNull(gate.chunk2ReadStarted.missed(), ctx + ": run 0 was not written while chunk 2 read");
  }

  /**
   * Sorts {@code n} seeded records read from {@code dir/in}, in runs of {@link #RUN} records on the
   * two stripes, with the input and the stripes behind the fault layer's {@code gate}; checks the
   * output against the reference and that no file handle is left open.
   */
  SortReport gatedSort(long seed, long n, FaultFileSystemProvider.TransferGate gate, String ctx)
      throws IOException {
    byte[] data = PipelineTestSupport.records(seed, n, GENSORT, 0);
    Path in = dir.resolve("in");
    Path out = dir.resolve("out");
    Files.write(in, data);
    FaultFileSystemProvider fs = FaultFileSystemProvider.create(seed);
    fs.gate(gate);
    SortConfig.Builder b =
        SortConfig.builder()
            .format(GENSORT)
            .memoryBudget(DataSize.ofMiB(16))
            .threads(2)
            .tempDirs(stripes.stream().map(fs::wrap).toList())
            .transferSize(FileKind.INPUT, DataSize.ofKiB(64))
            .transferSize(FileKind.TEMP, DataSize.ofKiB(64));
    SortReport r = ExternalSorter.sort(fs.wrap(in), out, TestHooks.runRecordsLimit(b, RUN).build());
    assertArrayEquals(PipelineTestSupport.reference(data, GENSORT), Files.readAllBytes(out), ctx);
    fs.assertNoOpenHandles();
    return r;
  }

  /** Holds the first write to each stripe of the first run file until the other's has started. */
  static final class BothStripes implements FaultFileSystemProvider.TransferGate {
    final List<Path> stripes;
    final AtomicReference<Path> firstRun = new AtomicReference<>();
    final GateEvent[] started = {
      new GateEvent("a write to stripe 0 of the first run"),
      new GateEvent("a write to stripe 1 of the first run")
    };
    final AtomicBoolean[] held = {new AtomicBoolean(), new AtomicBoolean()};

    BothStripes(List<Path> stripes) {
      this.stripes = stripes;
    }

    @Override
    public void before(FaultOp op, Path path, long position) {
      if (op != FaultOp.WRITE || !path.getFileName().toString().startsWith("run-")) {
        return;
      }
      firstRun.compareAndSet(null, path.getFileName());
      if (!path.getFileName().equals(firstRun.get())) {
        return;
      }
      for (int s = 0; s < 2; s++) {
        if (path.startsWith(stripes.get(s)) && held[s].compareAndSet(false, true)) {
          started[s].happen();
          started[1 - s].await();
        }
      }
    }
  }

  @Test
  void theSegmentsOfAStripedRunAreWrittenConcurrently() throws IOException {
    String ctx = "seed " + (SEED + 1);
    BothStripes gate = new BothStripes(stripes);
    SortReport r = gatedSort(SEED + 1, 3L * RUN + 5, gate, ctx);
    assertTrue(r.runs() >= 3, ctx + ": " + r.runs() + " runs");
    assertNotNull(gate.firstRun.get(), ctx + ": no run file was written");
    assertTrue(gate.held[0].get() && gate.held[1].get(), ctx + ": a stripe got no write");
    assertNull(gate.started[0].missed(), ctx + ": stripe 1 was written, stripe 0 never at once");
    assertNull(gate.started[1].missed(), ctx + ": stripe 0 was written, stripe 1 never at once");
  }
}

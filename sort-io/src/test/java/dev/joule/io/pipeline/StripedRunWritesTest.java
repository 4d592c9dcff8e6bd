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
 * A run striped over two temp dirs is written to both at once: each stripe's segment has its own
 * write-behind, so that consecutive blocks, which go to different devices, are written at the same
 * time (design.md, striping). The proof holds the first write to each stripe's segment of the first
 * run in the fault layer's gate until the other stripe's first write has started too. With one
 * write thread for all stripes, the first held write would wait in vain (for {@link
 * GateEvent#LIMIT_SECONDS}) and the test fails; with one per stripe, both meet at once. The output
 * is compared with an in-memory reference sort.
 */
class StripedRunWritesTest {
  static final long SEED = TestSeed.of(StripedRunWritesTest.class, 0x5781_9ED1L);
  static final FixedLengthFormat GENSORT = RecordFormat.gensort();

  /** Records per run: 400 KB, six 64 KiB blocks after the header, three on each stripe. */
  static final int RUN = 4096;

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
    String ctx = "seed " + SEED;
    byte[] data = PipelineTestSupport.records(SEED, 3L * RUN + 5, GENSORT, 0);
    Path in = dir.resolve("in");
    Path out = dir.resolve("out");
    Files.write(in, data);
    FaultFileSystemProvider fs = FaultFileSystemProvider.create(SEED);
    BothStripes gate = new BothStripes(stripes);
    fs.gate(gate);
    SortConfig.Builder b =
        SortConfig.builder()
            .format(GENSORT)
            .memoryBudget(DataSize.ofMiB(16))
            .threads(2)
            .tempDirs(stripes.stream().map(fs::wrap).toList())
            .transferSize(FileKind.TEMP, DataSize.ofKiB(64));
    SortReport r = ExternalSorter.sort(in, out, TestHooks.runRecordsLimit(b, RUN).build());
    assertTrue(r.runs() >= 3, ctx + ": " + r.runs() + " runs");
    assertNotNull(gate.firstRun.get(), ctx + ": no run file was written");
    assertTrue(gate.held[0].get() && gate.held[1].get(), ctx + ": a stripe got no write");
    assertNull(gate.started[0].missed(), ctx + ": stripe 1 was written, stripe 0 never at once");
    assertNull(gate.started[1].missed(), ctx + ": stripe 0 was written, stripe 1 never at once");
    assertArrayEquals(PipelineTestSupport.reference(data, GENSORT), Files.readAllBytes(out), ctx);
    fs.assertNoOpenHandles();
  }
}

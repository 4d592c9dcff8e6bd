package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.radix.RadixRunSorter;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.config.SortConfig;
import dev.joule.io.input.ChunkSource;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.input.InputFile;
import dev.joule.io.memory.MemoryMeter;
import dev.joule.io.memory.Resources;
import dev.joule.io.plan.SortPlan;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.testing.PipelineTestSupport;
import dev.joule.testing.TestSeed;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Run formation reads its first chunk while the other arenas are allocated: before the first chunk
 * starts only its arena holds memory, the others only their reservation; every later chunk starts
 * in a fully allocated arena, and the runs hold every record.
 */
class ArenaAllocationTest {
  private static final long SEED = TestSeed.of(ArenaAllocationTest.class, 0xA7E4_A11CL);

  @TempDir Path dir;

  @Test
  void theFirstChunkIsReadWhileTheOtherArenasAreAllocated() throws IOException {
    FixedLengthFormat gensort = RecordFormat.gensort();
    Path temp = Files.createDirectories(dir.resolve("temp"));
    SortConfig c =
        SortConfig.builder()
            .format(gensort)
            .memoryBudget(DataSize.ofMiB(8))
            .threads(2)
            .tempDirs(List.of(temp))
            .build();
    long n = 100_000; // 10 MB: a few runs at 8 MiB
    Path in = dir.resolve("in");
    Files.write(in, PipelineTestSupport.records(SEED, n, gensort, 0));
    EntrySpec spec = EntrySpec.of(c);
    MemoryMeter meter = new MemoryMeter();
    List<String> starts = new ArrayList<>();
    try (InputFile input = InputFile.open(in, c.directIo(), NoticeSink.IGNORE);
        Resources res = new Resources(meter)) {
      SortPlan plan = SortPlan.of(input.size(), c);
      RunStore store =
          res.add(new RunStore(c, spec, plan, meter, SortThreads.JOULE, NoticeSink.IGNORE));
      RadixRunSorter sorter = store.sorter();
      assertFalse(plan.onePass(), "the test needs a two-pass plan");
      RecordArena[] arenas = RunFormationPhase.allocateArenas(plan, res);
      ChunkSource real =
          RunFormationPhase.inPlace(input, plan, spec, arenas, sorter, SortThreads.JOULE);
      ChunkSource watched = new WatchedSource(real, arenas, starts);
      RunFormationPhase.Result r =
          RunFormationPhase.run(
              watched,
              plan,
              c,
              store,
              sorter,
              arenas,
              RunFormationPhase.indexes(plan, watched, res),
              meter,
              input.size(),
              new UniqueDrops(spec),
              null);
      assertEquals(n, store.inputRecords(), "records in the runs, seed " + SEED);
      long inRuns = 0;
      for (RunDescriptor d : r.runs()) {
        inRuns += d.recordCount();
      }
      assertEquals(n, inRuns, "seed " + SEED);
      assertTrue(starts.size() >= 3, "chunks started: " + starts);
      int slabs = arenas[0].slabCount();
      assertEquals(slabs + "/0/0", starts.get(0), "allocated slabs when the first chunk started");
      for (int i = 1; i < starts.size(); i++) {
        assertEquals(slabs + "/" + slabs + "/" + slabs, starts.get(i), "chunk " + i);
      }
    }
  }

  /** A chunk source that notes, as each chunk starts, how many slabs every arena has. */
  private static final class WatchedSource implements ChunkSource {
    private final ChunkSource real;
    private final RecordArena[] arenas;
    private final List<String> starts;

    WatchedSource(ChunkSource real, RecordArena[] arenas, List<String> starts) {
      this.real = real;
      this.arenas = arenas;
      this.starts = starts;
    }

    @Override
    public void start(RecordArena arena, RecordIndex index) throws IOException {
      starts.add(
          arenas[0].allocatedSlabs()
              + "/"
              + arenas[1].allocatedSlabs()
              + "/"
              + arenas[2].allocatedSlabs());
      real.start(arena, index);
    }

    @Override
    public void await() throws IOException {
      real.await();
    }

    @Override
    public Chunk index() throws IOException {
      return real.index();
    }

    @Override
    public boolean exhausted() {
      return real.exhausted();
    }

    @Override
    public int indexesInFlight() {
      return real.indexesInFlight();
    }

    @Override
    public long bytesRead() {
      return real.bytesRead();
    }

    @Override
    public void finish() throws IOException {
      real.finish();
    }

    @Override
    public void close() throws IOException {
      real.close();
    }
  }
}

package dev.joule.io.pipeline;

import dev.joule.core.gather.RecordGatherer;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.radix.RadixRunSorter;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.block.WorkerThread;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.fs.Failures;
import dev.joule.io.input.ChunkSource;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.input.InPlaceChunks;
import dev.joule.io.input.InputFile;
import dev.joule.io.input.InputStage;
import dev.joule.io.memory.MemoryMeter;
import dev.joule.io.memory.Resources;
import dev.joule.io.plan.SortPlan;
import dev.joule.io.run.RunDescriptor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Stages 1–4 of a two-pass sort: cuts the input into chunks of one arena each ({@link
 * ChunkSource}), sorts each in memory and spills it as the next run of the sort's {@link RunStore}.
 *
 * <p><b>Overlap</b> (the EcoSort / Nsort pipeline) with {@link SortPlan#RUN_FORMATION_ARENAS}
 * arenas: while this thread sorts chunk i (on the {@code joule-radix-N} ForkJoin workers), the
 * chunk source reads chunk i+1 into the next arena (fixed records on the {@code joule-read-N}
 * thread; parsed records on {@code joule-parse-N}), and the {@code joule-runwrite-N} thread gathers
 * run i−1 from its arena into the run's blocks, which {@code joule-write-N} writes behind. Before
 * chunk i+1 is read into the arena of run i−2, that run's write is awaited. The queues are bounded:
 * at most one chunk is read ahead, the writer holds {@link SortPlan#runWriteBuffers()} blocks, and
 * at most two run writes are pending. With a single arena (a one-pass sort whose input outgrew its
 * arena) the steps run one after the other.
 *
 * <p>The input's record count and valsort checksum are taken per chunk, before sorting (so they
 * describe the input, not the sorter's output), and counted in the store. The input is checked
 * unchanged once fully read. EcoSort's smaller first run (which starts sorting sooner) was not
 * tried: with reads overlapped, the only gain is the first chunk's read time.
 *
 * <p>Memory: {@link SortPlan#sortMemory()}: the arenas and indexes are the caller's ({@link
 * #allocateArenas}), the write pool this phase's own, closed before it returns on every path.
 */
final class RunFormationPhase {
  private RunFormationPhase() {}

  /**
   * The runs formed and what was read; or, when the whole input was one chunk and the caller took
   * it ({@link WholeInput}), no runs and the output it wrote ({@code onePass}, else null).
   */
  record Result(
      List<RunDescriptor> runs,
      long bytesRead,
      long bytesWritten,
      InMemorySortPhase.Result onePass) {
    Result(List<RunDescriptor> runs, long bytesRead, long bytesWritten) {
      this(runs, bytesRead, bytesWritten, null);
    }
  }

  /**
   * Where the first chunk goes when it turns out to be the whole input: sorted and written as the
   * output from memory, instead of as a run to be merged back. A two-pass plan meets such an input
   * when its repeats were counted as it was read (10^7 lines of 1000 values are 1000 entries,
   * {@code EntryFiller#filterRepeatsAsRead}) or its sample overestimated it.
   */
  interface WholeInput {
    /** Sorts the chunk in {@code index} and writes it as the output. */
    InMemorySortPhase.Result write(RecordIndex index, ChunkSource.Chunk chunk) throws IOException;
  }

  /**
   * The arenas of run formation; the caller owns them (the merge borrows them afterwards). Only the
   * first is allocated here, the others are reserved (and counted in full): {@link #run} allocates
   * them while the reader fills the first, since zeroing fresh direct memory costs about 35 ms per
   * 85 MB arena (three at {@code -S 256M}): the first input bytes arrived 120-140 ms after the
   * phase started with all three allocated first, 60-80 ms now (docs/design.md, two passes).
   */
  static RecordArena[] allocateArenas(SortPlan plan, Resources res) {
    long bytes = plan.arenaBytes();
    int slab = InputStage.slabBytes(bytes, plan.inPlace() ? plan.entryBytes() : 1);
    RecordArena[] arenas = new RecordArena[SortPlan.RUN_FORMATION_ARENAS];
    for (int i = 0; i < arenas.length; i++) {
      arenas[i] = i == 0 ? res.arena(bytes, slab) : res.reservedArena(bytes, slab);
    }
    return arenas;
  }

  /** Allocates the slabs of {@code arena} not allocated yet, on this thread. */
  private static void allocateRest(RecordArena arena) {
    for (int s = arena.allocatedSlabs(); s < arena.slabCount(); s++) {
      arena.allocateSlab(s);
    }
  }

  /** The chunk source of fixed records read in place, for {@code plan}'s run size. */
  static InPlaceChunks inPlace(
      InputFile in,
      SortPlan plan,
      EntrySpec spec,
      RecordArena[] arenas,
      RadixRunSorter sorter,
      SortThreads threads) {
    int rs = ((FixedLengthFormat) spec.format()).recordSize();
    return new InPlaceChunks(
        in,
        spec,
        plan.inputTransfer(),
        plan.recordsPerRun() * rs,
        arenas[0].slabBytes(),
        sorter.pool(),
        threads);
  }

  /** The indexes run formation needs with {@code source}: one per chunk in flight. */
  static RecordIndex[] indexes(SortPlan plan, ChunkSource source, Resources res) {
    RecordIndex[] indexes = new RecordIndex[source.indexesInFlight()];
    for (int i = 0; i < indexes.length; i++) {
      indexes[i] = res.index(plan.indexEntries());
    }
    return indexes;
  }

  /**
   * Forms the runs from {@code source} in the caller's {@code arenas} and {@code indexes} (as many
   * as {@link ChunkSource#indexesInFlight()}, or one of each for sequential work). Arenas that are
   * only reserved are allocated here, the first before its chunk is started, the others while it is
   * read; all are allocated when this returns normally. The source is closed before this returns,
   * on every path.
   */
  static Result run(
      ChunkSource source,
      SortPlan plan,
      SortConfig c,
      RunStore store,
      RadixRunSorter sorter,
      RecordArena[] arenas,
      RecordIndex[] indexes,
      MemoryMeter meter,
      long inputSize,
      UniqueDrops drops,
      WholeInput whole)
      throws IOException {
    Resources res = new Resources(meter);
    res.add(source);
    try {
      Result r =
          form(source, plan, c, store, sorter, arenas, indexes, res, inputSize, drops, whole);
      res.close();
      return r;
    } catch (Throwable e) {
      res.closeAfterFailure(e);
      throw Failures.translate(e);
    }
  }

  private static Result form(
      ChunkSource source,
      SortPlan plan,
      SortConfig c,
      RunStore store,
      RadixRunSorter sorter,
      RecordArena[] arenas,
      RecordIndex[] indexes,
      Resources res,
      long inputSize,
      UniqueDrops drops,
      WholeInput whole)
      throws IOException {
    int k = arenas.length;
    int ki = indexes.length;
    boolean pipelined = k > 1;
    BlockPool writePool = null; // allocated for the first run: a whole input in one chunk has none
    WorkerThread writer = null;
    List<Future<RunDescriptor>> writes = new ArrayList<>();
    RecordGatherer gatherer = new RecordGatherer(null); // the writer thread's copy; the cores sort
    List<RunDescriptor> runs = new ArrayList<>();
    long written = 0;
    allocateRest(arenas[0]);
    source.start(arenas[0], indexes[0]);
    for (int i = 1; i < arenas.length; i++) {
      allocateRest(arenas[i]); // while the first chunk is read; before anything else uses them
    }
    for (int i = 0; ; i++) {
      RecordIndex index = pipelined ? indexes[i % ki] : indexes[0];
      source.await();
      if (pipelined && i >= 2) {
        written += await(writes.get(i - 2), runs); // frees arena (i+1) % 3 and its index
      }
      boolean last = source.exhausted();
      if (!last && pipelined) {
        source.start(arenas[(i + 1) % k], indexes[(i + 1) % ki]); // read while this one sorts
      }
      if (last) {
        source.finish();
      }
      Failures.checkCancelled();
      ChunkSource.Chunk chunk = source.index();
      store.addInput(chunk.records(), chunk.checksum());
      if (i == 0 && last && whole != null) {
        return new Result(List.of(), source.bytesRead(), 0, whole.write(index, chunk));
      }
      if (writer == null) {
        writePool = res.pool(plan.runWriteBuffers(), plan.tempTransfer());
        // Closed before the arenas: a write in progress reads one. Writes not started are
        // cancelled, one in progress finishes (not interrupted), so that its run closes cleanly.
        writer = res.add(new WorkerThread(store.threads(), "runwrite"));
      }
      BlockPool pool = writePool;
      sorter.sort(index);
      Failures.checkCancelled();
      writes.add(writer.submit(() -> writeRun(store, pool, index, chunk, gatherer, drops)));
      c.progress().update("run formation", source.bytesRead(), inputSize);
      if (!pipelined) {
        written += await(writes.get(i), runs);
        if (!last) {
          source.start(arenas[0], indexes[0]);
        }
      }
      if (last) {
        break;
      }
    }
    if (pipelined) {
      for (int i = Math.max(0, writes.size() - 2); i < writes.size(); i++) {
        written += await(writes.get(i), runs);
      }
    }
    return new Result(runs, source.bytesRead(), written);
  }

  /**
   * Writes the sorted {@code chunk} in {@code index} as the store's next run: in unique mode only
   * the first record of each key ({@link UniqueDrops}); each entry as often as the chunk counted it
   * ({@link ChunkSource.Chunk#repeats()}). The run's checksum is the chunk's, taken before sorting
   * (the same records: saves a CRC pass), less the records left out.
   */
  static RunDescriptor writeRun(
      RunStore store,
      BlockPool pool,
      RecordIndex index,
      ChunkSource.Chunk chunk,
      RecordGatherer gatherer,
      UniqueDrops drops)
      throws IOException {
    int n = chunk.entries();
    UniqueDrops.Kept kept = drops.keepFirst(index, chunk);
    long bytes =
        kept.entries() == n
            ? chunk.recordBytes()
            : (long) Math.ceil((double) chunk.recordBytes() * kept.entries() / n);
    return store.spillSorted(
        index, 0, kept.entries(), chunk.repeats(), bytes, pool, gatherer, kept.checksum());
  }

  /** Waits for one run write (in submission order) and records its descriptor. */
  private static long await(Future<RunDescriptor> f, List<RunDescriptor> runs) throws IOException {
    try {
      RunDescriptor d = f.get();
      runs.add(d);
      return d.fileSize();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SortCancelledException("sort cancelled while writing a run");
    } catch (ExecutionException e) {
      throw Failures.translate(e.getCause());
    }
  }
}

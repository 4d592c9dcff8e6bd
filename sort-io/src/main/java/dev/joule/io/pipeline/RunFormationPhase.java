package dev.joule.io.pipeline;

import dev.joule.core.gather.RecordGatherer;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.radix.RadixRunSorter;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.block.BlockPool;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.fs.Failures;
import dev.joule.io.input.ArenaIndexer;
import dev.joule.io.input.InputFile;
import dev.joule.io.input.InputStage;
import dev.joule.io.memory.MemoryMeter;
import dev.joule.io.memory.Resources;
import dev.joule.io.plan.SortPlan;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.run.RunSpill;
import dev.joule.io.stripe.TempSpace;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stages 1–4 of a two-pass sort: cuts the input into runs of {@link SortPlan#recordsPerRun()}
 * records, sorts each in memory and writes it as a run file on the next stripe.
 *
 * <p><b>Overlap</b> (the EcoSort / Nsort pipeline) with {@link SortPlan#RUN_FORMATION_ARENAS}
 * arenas and two indexes: while this thread checksums, indexes and radix-sorts chunk i (on the
 * {@code joule-radix-N} ForkJoin workers), the {@link InputStage}'s {@code joule-read-N} thread
 * reads chunk i+1 into the next arena, and the {@code joule-runwrite-N} thread gathers run i−1 from
 * its arena into the {@link RunSpill}'s blocks, which {@code joule-write-N} writes behind. Before
 * chunk i+1 is read into the arena of run i−2, that run's write is awaited. The queues are bounded:
 * the reader holds at most one arena's windows, the writer {@link SortPlan#RUN_WRITE_BUFFERS}
 * blocks, and at most two run writes are pending.
 *
 * <p>The input's record count and valsort checksum are taken here, per chunk in parallel and in the
 * same pass that builds the chunk's index ({@link ArenaIndexer#checksumAndIndex}), before sorting
 * (so they describe the input, not the sorter's output). The input is checked unchanged once fully
 * read. EcoSort's smaller first run (which starts sorting sooner) was not tried: with reads
 * overlapped, the only gain is the first chunk's read time.
 *
 * <p>Memory: {@link SortPlan#sortMemory()}: the arenas are the caller's ({@link #allocateArenas}),
 * the write pool and reader this phase's own, closed before it returns on every path.
 */
final class RunFormationPhase {
  private static final AtomicInteger WRITERS = new AtomicInteger();

  private RunFormationPhase() {}

  record Result(
      List<RunDescriptor> runs,
      long records,
      RecordChecksum inputChecksum,
      long bytesRead,
      long bytesWritten) {}

  /** The arenas of run formation; the caller owns them (the merge borrows them afterwards). */
  static RecordArena[] allocateArenas(SortPlan plan, SortConfig c, Resources res) {
    int rs = c.format().recordSize();
    long runBytes = plan.recordsPerRun() * rs;
    int slab = InputStage.slabBytes(runBytes, rs);
    RecordArena[] arenas = new RecordArena[SortPlan.RUN_FORMATION_ARENAS];
    for (int i = 0; i < arenas.length; i++) {
      arenas[i] = res.arena(runBytes, slab);
    }
    return arenas;
  }

  /** Forms the runs of {@code in} in the caller's {@code arenas} ({@link #allocateArenas}). */
  static Result run(
      InputFile in,
      SortPlan plan,
      SortConfig c,
      TempSpace temp,
      RadixRunSorter sorter,
      RecordArena[] arenas,
      MemoryMeter meter)
      throws IOException {
    Resources res = new Resources(meter);
    try {
      Result r = form(in, plan, c, temp, sorter, arenas, res);
      res.close();
      return r;
    } catch (Throwable e) {
      res.closeAfterFailure(e);
      throw Failures.translate(e);
    }
  }

  private static Result form(
      InputFile in,
      SortPlan plan,
      SortConfig c,
      TempSpace temp,
      RadixRunSorter sorter,
      RecordArena[] arenas,
      Resources res)
      throws IOException {
    FixedLengthFormat format = c.format();
    int rs = format.recordSize();
    long runBytes = plan.recordsPerRun() * rs;
    long size = in.size();
    int k = arenas.length;
    RecordIndex[] indexes = {
      RecordIndex.forArena(arenas[0], format), RecordIndex.forArena(arenas[0], format)
    };
    BlockPool writePool = res.pool(SortPlan.RUN_WRITE_BUFFERS, plan.tempTransfer());
    InputStage input =
        res.add(new InputStage(in, plan.inputTransfer(), runBytes, arenas[0].slabBytes()));
    ExecutorService writer =
        Executors.newSingleThreadExecutor(
            r -> daemon(new Thread(r, "joule-runwrite-" + WRITERS.incrementAndGet())));
    List<Future<RunDescriptor>> writes = new ArrayList<>();
    res.add(() -> stop(writer, writes)); // closed before the arenas: a write in progress reads one
    RecordGatherer gatherer = new RecordGatherer(null); // the writer thread's copy; the cores sort
    RecordChecksum sum = new RecordChecksum();
    List<RunDescriptor> runs = new ArrayList<>();
    int chunks = plan.runs();
    long written = 0;
    long records = 0;
    input.start(arenas[0], Math.min(runBytes, size));
    for (int i = 0; i < chunks; i++) {
      RecordArena arena = arenas[i % k];
      RecordIndex index = indexes[i & 1];
      input.await();
      if (i >= 2) {
        written += await(writes.get(i - 2), runs); // frees arena (i+1) % 3 and index i % 2
      }
      if (i + 1 < chunks) {
        long next = Math.min(runBytes, size - (long) (i + 1) * runBytes);
        input.start(arenas[(i + 1) % k], next); // read chunk i+1 while chunk i is sorted
      } else {
        input.finish();
      }
      Failures.checkCancelled();
      RecordChecksum chunkSum =
          ArenaIndexer.checksumAndIndex(arena.view(), index, format, sorter.pool());
      sum.add(chunkSum);
      int n = index.size();
      records += n;
      sorter.sort(index);
      Failures.checkCancelled();
      writes.add(
          writer.submit(
              () ->
                  RunSpill.writeSorted(
                      temp,
                      plan.tempTransfer(),
                      writePool,
                      c.directIo(),
                      index,
                      n,
                      (long) n * rs,
                      gatherer,
                      chunkSum))); // the chunk's checksum: same records, saves a CRC pass
      c.progress().update("run formation", input.bytesRead(), size);
    }
    for (int i = Math.max(0, chunks - 2); i < chunks; i++) {
      written += await(writes.get(i), runs);
    }
    return new Result(runs, records, sum, input.bytesRead(), written);
  }

  private static Thread daemon(Thread t) {
    t.setDaemon(true);
    return t;
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

  /**
   * Stops the run writer thread: writes not started are cancelled, a write in progress (it reads an
   * arena) is left to finish, not interrupted, so that its run closes cleanly, and is awaited.
   */
  private static void stop(ExecutorService writer, List<Future<RunDescriptor>> writes) {
    for (Future<RunDescriptor> f : writes) {
      f.cancel(false);
    }
    writer.shutdown();
    boolean interrupted = false;
    while (true) {
      try {
        if (writer.awaitTermination(1, TimeUnit.MINUTES)) {
          break;
        }
      } catch (InterruptedException e) {
        interrupted = true; // keep waiting: the arenas must not be closed under a running write
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}

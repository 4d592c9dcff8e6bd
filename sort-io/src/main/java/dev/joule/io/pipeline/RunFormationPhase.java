package dev.joule.io.pipeline;

import dev.joule.core.gather.RecordGatherer;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.radix.RadixRunSorter;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.RecordIndex;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.block.BlockFile;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.BlockReader;
import dev.joule.io.input.InputFile;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.run.RunWriter;
import dev.joule.io.stripe.TempSpace;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Stages 1–4 of a two-pass sort: cuts the input into runs of {@link SortPlan#recordsPerRun()}
 * records, sorts each in memory and writes it as a run file on the next stripe.
 *
 * <p><b>Overlap</b> (the EcoSort / Nsort pipeline) with two arenas: before chunk i is sorted, all
 * windows of chunk i+1 are submitted to the {@link BlockReader}, whose {@code joule-read-N} thread
 * fills the other arena while this thread checksums, indexes, radix-sorts (on the {@code
 * joule-radix-N} ForkJoin workers) and gathers chunk i into the {@link RunWriter}'s blocks, which
 * its {@code joule-write-N} thread writes behind. The queues are bounded: the reader holds at most
 * one arena's windows, the writer {@link SortPlan#RUN_WRITE_BUFFERS} blocks.
 *
 * <p>The input's record count and valsort checksum are taken here, per chunk in parallel, before
 * sorting (so they describe the input, not the sorter's output). The input is checked unchanged
 * once fully read. EcoSort's smaller first run (which starts sorting sooner) was not tried: with
 * reads overlapped, the only gain is the first chunk's read time.
 *
 * <p>Memory: {@link SortPlan#sortMemory()}, registered with the caller's {@link Resources}.
 */
final class RunFormationPhase {
  private RunFormationPhase() {}

  record Result(List<RunDescriptor> runs, long records, RecordChecksum inputChecksum, long bytesRead, long bytesWritten) {}

  /** The two arenas of run formation; the caller owns them (the merge borrows them afterwards). */
  static RecordArena[] allocateArenas(SortPlan plan, SortConfig c, Resources res) {
    int rs = c.format().recordSize();
    long runBytes = plan.recordsPerRun() * rs;
    int slab = ArenaFiller.slabBytes(runBytes, rs);
    return new RecordArena[] {res.arena(runBytes, slab), res.arena(runBytes, slab)};
  }

  /**
   * Forms the runs in the caller's two {@code arenas} ({@link #allocateArenas}). The write pool and
   * reader are this phase's own and are closed before it returns, on every path.
   */
  static Result run(InputFile in, SortPlan plan, SortConfig c, TempSpace temp, RadixRunSorter sorter,
      RecordArena[] arenas, MemoryMeter meter) throws IOException {
    Resources res = new Resources(meter);
    try {
      Result r = form(in, plan, c, temp, sorter, arenas, res);
      res.close();
      return r;
    } catch (Throwable e) {
      res.closeAfterFailure(e);
      throw ExternalSorter.translate(e);
    }
  }

  private static Result form(InputFile in, SortPlan plan, SortConfig c, TempSpace temp, RadixRunSorter sorter,
      RecordArena[] arenas, Resources res) throws IOException {
    FixedLengthFormat format = c.format();
    int rs = format.recordSize();
    long runBytes = plan.recordsPerRun() * rs;
    long size = in.size();
    RecordIndex index = RecordIndex.forArena(arenas[0], format);
    BlockPool writePool = res.pool(SortPlan.RUN_WRITE_BUFFERS, plan.tempTransfer());
    int maxWindows = ArenaFiller.windows(arenas[0], runBytes, plan.inputTransfer()).size();
    BlockReader reader = res.add(in.reader(plan.inputTransfer(), maxWindows));
    RecordGatherer gatherer = new RecordGatherer(sorter.pool());
    RecordChecksum sum = new RecordChecksum();
    List<RunDescriptor> runs = new ArrayList<>();
    int chunks = plan.runs();
    long read = 0;
    long written = 0;
    long records = 0;
    List<ArenaFiller.Window> pending = ArenaFiller.windows(arenas[0], Math.min(runBytes, size), plan.inputTransfer());
    ArenaFiller.submit(reader, pending);
    for (int i = 0; i < chunks; i++) {
      RecordArena arena = arenas[i & 1];
      read += ArenaFiller.take(reader, arena, pending);
      if (i + 1 < chunks) {
        RecordArena other = arenas[(i + 1) & 1];
        other.clear();
        long next = Math.min(runBytes, size - (long) (i + 1) * runBytes);
        pending = ArenaFiller.windows(other, next, plan.inputTransfer());
        ArenaFiller.submit(reader, pending); // read chunk i+1 while chunk i is sorted and written
      } else {
        in.checkUnchanged(read);
      }
      ExternalSorter.checkCancelled();
      RecordChecksum chunkSum = ArenaFiller.checksum(arena.view(), rs, sorter.pool());
      sum.add(chunkSum);
      int n = index.build(arena.view(), format);
      records += n;
      sorter.sort(index);
      ExternalSorter.checkCancelled();
      RunDescriptor d = writeRun(index, n, format, plan, c, temp, writePool, gatherer, chunkSum);
      runs.add(d);
      written += d.fileSize();
      c.progress().update("run formation", read, size);
    }
    return new Result(runs, records, sum, read, written);
  }

  private static RunDescriptor writeRun(RecordIndex index, int n, FixedLengthFormat format, SortPlan plan,
      SortConfig c, TempSpace temp, BlockPool pool, RecordGatherer gatherer, RecordChecksum chunkSum)
      throws IOException {
    long expected = (long) n * format.recordSize() + 2L * plan.tempTransfer();
    BlockFile f = temp.createFile("run", expected, c.directIo());
    try (f) {
      RunWriter w = new RunWriter(f, format, plan.tempTransfer(), pool, 1);
      try {
        w.add(index, 0, n, gatherer, chunkSum); // the chunk's checksum: same records, saves a CRC pass
        return w.finish();
      } catch (IOException | RuntimeException e) {
        try {
          w.close();
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
        throw e;
      }
    }
  }
}

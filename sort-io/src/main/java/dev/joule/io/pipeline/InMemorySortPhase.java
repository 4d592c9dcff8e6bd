package dev.joule.io.pipeline;

import dev.joule.core.gather.RecordGatherer;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.radix.RadixRunSorter;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.RecordIndex;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.BlockReader;
import dev.joule.io.input.InputFile;
import dev.joule.io.output.AtomicOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The one-pass sort (input fits the budget): read the whole input straight into one {@link
 * RecordArena} (its windows are the reader's buffers), checksum it in parallel, index and
 * radix-sort it, and gather it straight into the output's write-behind buffers ({@link
 * BatchWriter}), validating the output as it is written.
 *
 * <p>Memory: {@link SortPlan#sortMemory()}. Everything is registered with the caller's {@link
 * Resources}, which closes it on every path.
 */
final class InMemorySortPhase {
  private InMemorySortPhase() {}

  record Result(long records, RecordChecksum inputChecksum, OutputValidator output) {}

  static Result run(
      InputFile in,
      AtomicOutput out,
      SortPlan plan,
      SortConfig c,
      RadixRunSorter sorter,
      Resources res)
      throws IOException {
    FixedLengthFormat format = c.format();
    int rs = format.recordSize();
    long bytes = in.size();
    OutputValidator validator = new OutputValidator(format);
    if (bytes == 0) {
      in.checkUnchanged(0);
      return new Result(0, new RecordChecksum(), validator);
    }
    RecordArena arena = res.arena(bytes, ArenaFiller.slabBytes(bytes, rs));
    List<ArenaFiller.Window> windows = ArenaFiller.windows(arena, bytes, plan.inputTransfer());
    long read;
    BlockReader reader = res.add(in.reader(plan.inputTransfer(), windows.size()));
    ArenaFiller.submit(reader, windows);
    read = ArenaFiller.take(reader, arena, windows);
    in.checkUnchanged(read);
    c.progress().update("in-memory sort", read, in.size());
    ExternalSorter.checkCancelled();
    RecordIndex index = RecordIndex.forArena(arena, format);
    RecordChecksum sum = ArenaFiller.checksumAndIndex(arena.view(), index, format, sorter.pool());
    int n = index.size();
    sorter.sort(index);
    ExternalSorter.checkCancelled();
    BatchWriter w = new BatchWriter(out.writer(), validator, rs, plan.outputTransfer());
    RecordGatherer gatherer = new RecordGatherer(sorter.pool());
    for (int from = 0; from < n; ) {
      int m = Math.min(w.batchRecords(), n - from);
      ByteBuffer b = w.batch(m);
      gatherer.gather(index, from, from + m, b);
      w.commit(b);
      from += m;
      if ((from & 0xFFFF) < m) {
        ExternalSorter.checkCancelled();
      }
    }
    return new Result(n, sum, validator);
  }

  /** The output pool an in-memory sort needs: {@code OUTPUT_BUFFERS - 1} transfer buffers. */
  static BlockPool outputPool(SortPlan plan, Resources res) {
    return res.pool(SortPlan.OUTPUT_BUFFERS - 1, plan.outputTransfer());
  }
}

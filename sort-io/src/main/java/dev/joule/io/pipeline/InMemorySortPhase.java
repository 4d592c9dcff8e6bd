package dev.joule.io.pipeline;

import dev.joule.core.gather.RecordGatherer;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.index.RepeatCounts;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.radix.RadixRunSorter;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.BlockWriter;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.SortConfig;
import dev.joule.io.fs.Failures;
import dev.joule.io.hooks.OutputFault;
import dev.joule.io.hooks.SortHooks;
import dev.joule.io.input.ArenaIndexer;
import dev.joule.io.input.ChunkSource;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.input.InputFile;
import dev.joule.io.input.InputStage;
import dev.joule.io.memory.Resources;
import dev.joule.io.output.AtomicOutput;
import dev.joule.io.output.BatchWriter;
import dev.joule.io.output.OutputValidator;
import dev.joule.io.output.RecordOutput;
import dev.joule.io.plan.SortPlan;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The one-pass sort (the input fits the budget). Fixed records ({@link #run}): read the whole input
 * straight into one {@link RecordArena} ({@link InputStage}), checksum and index it in one parallel
 * pass ({@link ArenaIndexer}), radix-sort the index, and gather the records straight into the
 * output's write-behind buffers ({@link BatchWriter}), validating the output as it is written.
 * Parsed records ({@link #sortAndWrite}, the arena filled by the caller's {@link ChunkSource}) and
 * unique output go record by record ({@link RecordOutput}).
 *
 * <p>Memory: {@link SortPlan#sortMemory()}. Everything is registered with the caller's {@link
 * Resources}, which closes it on every path.
 */
final class InMemorySortPhase {
  /**
   * Gathered batches between cancellation checks: 16 batches of 4 MiB, a few ms of work, so that an
   * interrupt ends the sort well within its 500 ms bound without a check per batch.
   */
  private static final int BATCHES_PER_CANCEL_CHECK = 16;

  private InMemorySortPhase() {}

  record Result(long records, RecordChecksum inputChecksum, OutputValidator output) {}

  /**
   * Entries written between cancellation checks on the per-entry path: 64 Ki records take about a
   * millisecond.
   */
  private static final int ENTRIES_PER_CANCEL_CHECK = 1 << 16;

  /** Sorts fixed records read in place (the input is whole records of {@code spec}'s format). */
  static Result run(
      InputFile in,
      AtomicOutput out,
      SortPlan plan,
      EntrySpec spec,
      SortConfig c,
      SortThreads threads,
      RadixRunSorter sorter,
      Resources res)
      throws IOException {
    FixedLengthFormat format = (FixedLengthFormat) spec.format();
    int rs = format.recordSize();
    long bytes = in.size();
    OutputValidator validator =
        spec.unique() ? OutputValidator.of(spec) : OutputValidator.forBatches(spec);
    if (bytes == 0) {
      in.checkUnchanged(0);
      return new Result(0, new RecordChecksum(), validator);
    }
    SortHooks hooks = SortHooks.of(c);
    int slab = plan.onePassSlabBytes(bytes, rs);
    // Reserved, not allocated: each slab's fresh pages are faulted in and zeroed by its allocation
    // (about 1.3 s for 1 GB on these VMs, docs/decisions/D21), so this thread allocates slab s
    // while the reader thread fills slab s - 1, and only the first slab's faults delay the read.
    RecordArena arena = res.reservedArena(bytes, slab);
    InputStage input = res.add(new InputStage(in, plan.inputTransfer(), bytes, slab, threads));
    input.begin(arena, bytes);
    for (int s = 0; s < arena.slabCount(); s++) {
      hooks.beforeOnePassSlab().accept(s);
      arena.allocateSlab(s);
      input.submitSlab(s);
      Failures.checkCancelled();
    }
    // The index's heap pages are zeroed on this thread too (0.3-0.6 s for 10^7 entries), beside
    // the reader's last slabs rather than after the read.
    RecordIndex index = res.index((int) (bytes / rs));
    long read = input.await();
    input.finish();
    c.progress().update("in-memory sort", read, in.size());
    Failures.checkCancelled();
    RecordChecksum sum =
        ArenaIndexer.checksumAndIndex(
            arena.view(), index, spec.layout(), spec.tie(), sorter.pool());
    int n = index.size();
    sorter.sort(index);
    Failures.checkCancelled();
    OutputFault fault = hooks.outputFault();
    if (spec.unique()) {
      return new Result(
          n, sum, writeEntries(index, n, RepeatCounts.NONE, out.writer(), spec, validator, fault));
    }
    BatchWriter w = new BatchWriter(out.writer(), validator, rs, plan.outputTransfer(), fault);
    RecordGatherer gatherer = new RecordGatherer(sorter.pool());
    int batches = 0;
    for (int from = 0; from < n; ) {
      int m = Math.min(w.batchRecords(), n - from);
      ByteBuffer b = w.batch(m);
      gatherer.gather(index, from, from + m, b);
      w.commit(b);
      from += m;
      if (++batches % BATCHES_PER_CANCEL_CHECK == 0) {
        Failures.checkCancelled();
      }
    }
    return new Result(n, sum, validator);
  }

  /**
   * Sorts the entries a {@link ChunkSource} filled (the whole input) and writes their records to
   * {@code out}, validated ({@code fault}: the test hook's, or {@link OutputFault#NONE}).
   */
  static Result sortAndWrite(
      RecordIndex index,
      ChunkSource.Chunk chunk,
      AtomicOutput out,
      EntrySpec spec,
      RadixRunSorter sorter,
      OutputFault fault)
      throws IOException {
    sorter.sort(index);
    Failures.checkCancelled();
    OutputValidator v =
        writeEntries(
            index,
            chunk.entries(),
            chunk.repeats(),
            out.writer(),
            spec,
            OutputValidator.of(spec),
            fault);
    v.addDroppedEarlier(chunk.dropped(), chunk.droppedChecksum()); // repeats left out as read
    return new Result(chunk.records(), chunk.checksum(), v);
  }

  /**
   * Writes the records of the sorted {@code index}'s first {@code n} entries, one by one, each as
   * often as {@code repeats} counted it.
   */
  private static OutputValidator writeEntries(
      RecordIndex index,
      int n,
      RepeatCounts repeats,
      BlockWriter w,
      EntrySpec spec,
      OutputValidator v,
      OutputFault fault)
      throws IOException {
    RecordOutput o = new RecordOutput(w, spec, v, fault);
    long[] refs = index.refs();
    int touched = 0;
    for (int i = 0; i < n; i++) {
      if (i == touched) {
        touched = touchAhead(index, refs, i, Math.min(n, i + TOUCH_AHEAD));
      }
      long ref = refs[i];
      o.write(
          index.slabBuffer(RecordIndex.slabOf(ref)), RecordIndex.offsetOf(ref), repeats.extra(ref));
      if ((i & (ENTRIES_PER_CANCEL_CHECK - 1)) == ENTRIES_PER_CANCEL_CHECK - 1) {
        Failures.checkCancelled();
      }
    }
    return v;
  }

  /**
   * Entries whose first byte is read ahead of writing them: the sorted entries of an arena of a
   * gigabyte sit at random places, each costing a cache and TLB miss, one after the other when the
   * writer meets them; reads of a batch in a loop with nothing else in it wait for several misses
   * at once (the run writer does the same, {@code RunWriter}; so does a session's cursor over its
   * sorted chunk, {@code SessionEngine.ArenaEntries}).
   */
  static final int TOUCH_AHEAD = 32;

  /** Where a touch's sum goes, in the rare case it is 42: the reads are then not dead code. */
  private static final java.util.concurrent.atomic.AtomicLong TOUCHED =
      new java.util.concurrent.atomic.AtomicLong();

  /**
   * Reads the first byte of entries {@code [from, to)} of {@code index} (a byte: the entry of a
   * fixed record of one byte is that byte, at the end of its slab) and a byte of the cache line
   * after it ({@link RecordIndex#secondLine}); returns {@code to}.
   */
  static int touchAhead(RecordIndex index, long[] refs, int from, int to) {
    long sum = 0;
    for (int i = from; i < to; i++) {
      long ref = refs[i];
      sum += index.slabBuffer(RecordIndex.slabOf(ref)).get(RecordIndex.offsetOf(ref));
      sum += index.secondLine(ref);
    }
    if (sum == 42) {
      TOUCHED.lazySet(sum);
    }
    return to;
  }

  /** The output pool an in-memory sort needs: {@link SortPlan#OUTPUT_POOL_BUFFERS} transfers. */
  static BlockPool outputPool(SortPlan plan, Resources res) {
    return res.pool(SortPlan.OUTPUT_POOL_BUFFERS, plan.outputTransfer());
  }
}

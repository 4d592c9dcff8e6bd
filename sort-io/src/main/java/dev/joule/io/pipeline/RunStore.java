package dev.joule.io.pipeline;

import dev.joule.core.gather.RecordGatherer;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.index.RepeatCounts;
import dev.joule.core.memory.Alignment;
import dev.joule.core.memory.DirectRegion;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.radix.RadixRunSorter;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.Compression;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.config.SortConfig;
import dev.joule.io.hooks.SortHooks;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.memory.ArenaMemory;
import dev.joule.io.memory.MemoryMeter;
import dev.joule.io.memory.Resources;
import dev.joule.io.merge.Merges;
import dev.joule.io.output.AtomicOutput;
import dev.joule.io.plan.MergePlan;
import dev.joule.io.plan.SortPlan;
import dev.joule.io.prefetch.MergeSource;
import dev.joule.io.report.CompressionReport;
import dev.joule.io.report.PhaseReport;
import dev.joule.io.run.RunCompression;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.run.RunSpill;
import dev.joule.io.stripe.RoundRobinStripes;
import dev.joule.io.stripe.TempSpace;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The runs of one sort and what makes, merges and reads them: the one engine behind both doors of
 * {@link ExternalSorter}. It owns the radix sorter, the temp space (opened by the first spill), the
 * runs in input order and the checksum of every record that went into them, and it offers:
 *
 * <ol>
 *   <li>{@link #spillSorted}: write the sorted entries of a chunk as the next run;
 *   <li>{@link #spillOutsized}: write one entry too large for any chunk as a run of its own;
 *   <li>{@link #mergeDown}: run the merge plan's passes before the final one (several merges at
 *       once, each input deleted when its merge is done) and return the final merge's inputs;
 *   <li>{@link #mergeInto}: the final merge into an output file, in parallel parts;
 *   <li>{@link #stream}: the final merge as a stream of entries, for a cursor.
 * </ol>
 *
 * The file sort ({@link FileSortJob}) reads plan → one pass or run formation → merge down → merge
 * into output → publish; the session ({@link SessionEngine}) add → spill when full → merge down →
 * stream. Both spill through here and nowhere else.
 *
 * <p>Thread-safety: runs are spilled by one thread at a time (run formation's or the session's run
 * writer), in input order, and the run list is read only after those writes were awaited; the input
 * totals are guarded by this store. Everything it opened is closed by {@link #close()} or {@link
 * #closeAfterFailure}, the temp files deleted.
 */
final class RunStore implements AutoCloseable {
  private final SortConfig config;
  private final EntrySpec spec;
  private SortPlan plan;
  private final MemoryMeter meter;
  private final SortThreads threads;
  private final NoticeSink notices;
  private final Resources res;
  private RadixRunSorter sorter; // made on first use: a session that never sorts starts no pool
  private final List<RunDescriptor> runs = new ArrayList<>();
  private TempSpace temp;
  private RunCompression compression; // made with the temp space, whose devices it measures
  private Consumer<TempSpace> onOpen = t -> {};
  private Merges merge;
  private final RecordChecksum inputSum; // valsort's kind, or a session's CRC-32C sum
  private long inputRecords;

  /**
   * A store for a sort under {@code config} whose merges follow {@code plan}, counting what it
   * allocates in {@code meter}; its sorter runs on the compute pool ({@link Sorters#sorter}).
   */
  RunStore(
      SortConfig config,
      EntrySpec spec,
      SortPlan plan,
      MemoryMeter meter,
      SortThreads threads,
      NoticeSink notices) {
    this(config, spec, plan, meter, threads, notices, new RecordChecksum());
  }

  /**
   * As above, with the input's checksum summed in {@code emptySum}'s kind (a session checks itself
   * with CRC-32C sums: {@link RecordChecksum#castagnoli()}).
   */
  RunStore(
      SortConfig config,
      EntrySpec spec,
      SortPlan plan,
      MemoryMeter meter,
      SortThreads threads,
      NoticeSink notices,
      RecordChecksum emptySum) {
    this.inputSum = emptySum;
    this.config = config;
    this.spec = spec;
    this.plan = plan;
    this.meter = meter;
    this.threads = threads;
    this.notices = notices;
    this.res = new Resources(meter);
  }

  /**
   * Charges the meter for every scratch buffer run compression may make ({@link
   * SortPlan#codecScratchBuffers} blocks of the plan's temp transfer), which the plan reserved in
   * the budget, when the temp space opens: the buffers are made later, on the threads that write
   * and read runs, and those must never wait for the meter, since a session's grant may hold it
   * while it waits for them (a re-entrant spill: SessionGrantTest hung that way when each buffer
   * was charged as it was made). So a session opens its temp space on its own thread before its
   * first run is handed to the writer ({@code SessionEngine.ensureWriter}); a session that never
   * spills holds nothing for them.
   */
  private void chargeCodecScratch(int buffers) {
    if (config.compression().mode() == Compression.Mode.OFF) {
      return;
    }
    long bytes = buffers * DirectRegion.bytesFor(1, plan.tempTransfer());
    meter.allocated(bytes);
    res.add((AutoCloseable) () -> meter.freed(bytes));
  }

  /** The radix sorter of every chunk of this sort (on the compute pool, {@link Sorters}). */
  synchronized RadixRunSorter sorter() {
    if (sorter == null) {
      sorter = res.add(Sorters.sorter(config));
    }
    return sorter;
  }

  /** Where the sort's dedicated threads come from. */
  SortThreads threads() {
    return threads;
  }

  /** The plan whose merge arithmetic the merges follow. */
  SortPlan plan() {
    return plan;
  }

  /**
   * Follows {@code next} from now on: the file sort's one-pass plan of parsed records becomes a
   * two-pass plan when its input outgrows the arena (its first run spilled under the first plan).
   */
  void replan(SortPlan next) {
    this.plan = next;
  }

  /** Calls {@code onOpen} with the temp space when it is opened (the file sort's timeline). */
  void onTempOpen(Consumer<TempSpace> onOpen) {
    this.onOpen = onOpen;
  }

  /** The temp space, opened now if no run was spilled yet. */
  synchronized TempSpace temp() throws IOException {
    if (temp == null) {
      temp = TempSpace.open(config.tempDirs(), new RoundRobinStripes(), notices);
      TempSpace t = temp;
      int scratch = SortPlan.codecScratchBuffers(config.threads());
      chargeCodecScratch(scratch);
      compression =
          res.add(
              new RunCompression(
                  config.compression(),
                  () -> deviceRate(t),
                  threads,
                  scratch,
                  SortHooks.of(config).probeMinBytes()));
      onOpen.accept(temp);
    }
    return temp;
  }

  /**
   * The temp devices' sustained write rate in bytes per second ({@code
   * DeviceMeter.sustainedWriteRate}), summed over the stripes (they are written in parallel), or 0
   * while a stripe has not been measured over a few writes.
   */
  private static double deviceRate(TempSpace t) {
    double sum = 0;
    for (int i = 0; i < t.stripes().size(); i++) {
      dev.joule.io.block.DeviceMeter m = t.meter(i);
      if (m.writes() < RunCompression.DEVICE_MEASURED_AFTER) {
        return 0;
      }
      sum += m.sustainedWriteRate();
    }
    return sum;
  }

  /** What compressing this sort's runs did ({@link CompressionReport#NONE} without temp space). */
  synchronized CompressionReport compressionReport() {
    return compression == null ? CompressionReport.NONE : compression.report();
  }

  /** The run compression of this sort (null until the temp space is opened). */
  synchronized RunCompression compression() {
    return compression;
  }

  /** Whether the temp space was opened (a run was spilled, or a caller asked for it). */
  synchronized boolean tempOpened() {
    return temp != null;
  }

  // ---- what went in ----

  /** Counts {@code records} records with checksum {@code sum} as input of this sort. */
  synchronized void addInput(long records, RecordChecksum sum) {
    inputRecords += records;
    if (sum != null) {
      inputSum.add(sum);
    }
  }

  /** Records counted as input so far. */
  synchronized long inputRecords() {
    return inputRecords;
  }

  /** The checksum of every record counted as input so far (a copy). */
  synchronized RecordChecksum inputChecksum() {
    return inputSum.copy();
  }

  // ---- spilling ----

  /**
   * Writes entries {@code [from, to)} of the sorted {@code index} as the next run, each with the
   * copies {@code repeats} counts on it, about {@code bytes} of records, with the run writer's
   * buffers from {@code pool}.
   *
   * @param known the valsort checksum of exactly these records if already known (saves a CRC pass),
   *     or null
   */
  RunDescriptor spillSorted(
      RecordIndex index,
      int from,
      int to,
      RepeatCounts repeats,
      long bytes,
      BlockPool pool,
      RecordGatherer gatherer,
      RecordChecksum known)
      throws IOException {
    RunDescriptor d;
    if (from == 0) {
      d =
          RunSpill.writeSorted(
              temp(),
              plan.tempTransfer(),
              pool,
              config.directIo(),
              threads,
              compression,
              index,
              to,
              repeats,
              bytes,
              gatherer,
              known);
    } else {
      try (RunSpill spill =
          RunSpill.create(
              temp(),
              "run",
              index.layout(),
              compression.expectedStored(bytes),
              plan.tempTransfer(),
              pool,
              config.directIo(),
              threads,
              compression)) {
        spill.add(index, from, to, gatherer, known);
        d = spill.finish();
      }
    }
    added(d);
    return d;
  }

  /**
   * Writes the one entry of the record {@code [start, start + length)} of {@code src} with the key
   * {@code [keyStart, keyStart + keyLength)} of {@code key} (or the key {@code encoded} holds, when
   * {@code key} is null) as a run of its own, from an overflow arena of its size that is counted
   * while it is written and freed at once: the one thing a sort holds beyond its budget (a record
   * larger than the budget; docs/design.md, "What counts against the budget").
   */
  RunDescriptor spillOutsized(
      ByteBuffer src,
      int start,
      int length,
      ByteBuffer key,
      int keyStart,
      int keyLength,
      dev.joule.io.input.EntryAppender encoded,
      BlockPool pool)
      throws IOException {
    long entry =
        key == null ? encoded.entryLength(length) : spec.layout().entryLength(length, keyLength);
    try (Resources local = new Resources(meter)) {
      RecordArena big = local.arena(Math.max(entry, Alignment.BYTES), slabFor(entry));
      RecordIndex one = local.index(1);
      dev.joule.io.input.EntryAppender a = new dev.joule.io.input.EntryAppender(spec);
      a.reset(big, one);
      boolean ok =
          key == null
              ? a.append(src, start, length, encoded.key(), 0, encoded.keyLength())
              : a.append(src, start, length, key, keyStart, keyLength);
      if (!ok) {
        throw new IllegalStateException("an empty overflow arena of " + entry + " bytes is full");
      }
      return spillSorted(
          one, 0, 1, RepeatCounts.NONE, length, pool, new RecordGatherer(null), null);
    }
  }

  private static int slabFor(long entry) {
    long aligned = Alignment.roundUp(Math.max(entry, Alignment.BYTES));
    return (int) Math.min(RecordArena.MAX_SLAB_BYTES, aligned);
  }

  private void added(RunDescriptor d) {
    synchronized (this) {
      runs.add(d);
    }
    RunCompression c = compression();
    if (c != null) {
      c.probeAfter(d, config.directIo());
    }
  }

  /**
   * Puts run {@code d} right before run {@code later} in input order: a session's chunk written in
   * two parts, its later entries first ({@link SessionEngine}), so that the merge's ties still go
   * to the entries added first.
   */
  synchronized void moveBefore(RunDescriptor d, RunDescriptor later) {
    if (!runs.remove(d) || !runs.contains(later)) {
      throw new IllegalStateException("runs " + d + " and " + later + " are not both spilled");
    }
    runs.add(runs.indexOf(later), d);
  }

  /** The runs spilled so far, in input order (a copy). */
  synchronized List<RunDescriptor> runs() {
    return List.copyOf(runs);
  }

  /** How many runs were spilled. */
  synchronized int runCount() {
    return runs.size();
  }

  // ---- merging ----

  /**
   * Starts merging: later merges carve their buffers from {@code lent} (idle arenas; may be null)
   * before they allocate fresh ones. Call once, after the last spill.
   */
  Merges startMerge(ArenaMemory lent) {
    merge = new Merges(config, spec, plan, meter, lent, threads);
    return merge;
  }

  /**
   * Runs every pass of the merge plan before the final one over the runs, and returns the final
   * merge's inputs; {@code reports} gets one phase report per pass.
   */
  List<RunDescriptor> mergeDown(Consumer<PhaseReport> reports) throws IOException {
    List<RunDescriptor> all = runs();
    long[] sizes = new long[all.size()];
    for (int i = 0; i < sizes.length; i++) {
      sizes[i] = all.get(i).dataBytes();
    }
    return merge.mergeDown(MergePlan.of(sizes, fanIn()), all, temp(), reports);
  }

  /** The merge plan of the runs spilled ({@link #mergeDown} follows it). */
  MergePlan mergePlan() {
    List<RunDescriptor> all = runs();
    long[] sizes = new long[all.size()];
    for (int i = 0; i < sizes.length; i++) {
      sizes[i] = all.get(i).dataBytes();
    }
    return MergePlan.of(sizes, fanIn());
  }

  private int fanIn() {
    return plan.fanIn() > 0 ? plan.fanIn() : plan.mergeFanIn();
  }

  /** The final merge of {@code inputs} into {@code out} in {@code parts} parallel parts. */
  Merges.Output mergeInto(List<RunDescriptor> inputs, AtomicOutput out, int parts)
      throws IOException {
    return merge.mergeInto(inputs, out, parts);
  }

  /**
   * The final merge of {@code inputs} as a stream of entries in merge order, its read pool ({@code
   * k + 1} to {@code 2k} temp buffers) carved from the lent arenas first, registered in {@code
   * owner}.
   */
  MergeSource stream(List<RunDescriptor> inputs, Resources owner) throws IOException {
    return merge.stream(inputs, owner);
  }

  /** Deletes {@code run}'s files now (a stream that no longer needs them). */
  void delete(RunDescriptor run) throws IOException {
    temp().delete(run.parts());
  }

  // ---- closing ----

  /**
   * Closes the temp space, deleting every temp file (before a file sort publishes: a cleanup error
   * then fails the sort while the previous output is still in place).
   */
  void closeTemp() throws IOException {
    TempSpace t;
    synchronized (this) {
      t = temp;
    }
    if (t != null) {
      t.close(); // if it fails, closeAfterFailure tries the deletions again
      synchronized (this) {
        temp = null;
      }
    }
  }

  /** The temp space if open, for its device meters (the file sort's report); else null. */
  synchronized TempSpace openTemp() {
    return temp;
  }

  /** Closes the sorter and the temp space (deleting every temp file). */
  @Override
  public void close() throws IOException {
    try {
      res.close();
    } finally {
      closeTemp();
    }
  }

  /** Closes everything, adding errors to {@code primary}; deletes every temp file. */
  void closeAfterFailure(Throwable primary) {
    res.closeAfterFailure(primary);
    TempSpace t;
    synchronized (this) {
      t = temp;
      temp = null;
    }
    if (t != null) {
      t.closeAfterFailure(primary);
    }
  }
}

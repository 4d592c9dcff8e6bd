package dev.joule.io.plan;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.Alignment;
import dev.joule.core.memory.DirectRegion;
import dev.joule.core.memory.RecordArena;
import dev.joule.io.config.Compression;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.config.TransferSizes;
import dev.joule.io.error.SortIOException;
import dev.joule.io.hooks.SortHooks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How a sort will run, decided before any data is read: one pass or two, run size, fan-in, the
 * {@link MergePlan}, memory per phase and temp space per stripe. Made by {@code
 * ExternalSorter.plan}; {@link #describe()} is what {@code --explain} prints. The arithmetic is
 * {@link MemoryModel}'s, the transfer sizes {@link TransferPlan}'s, the temp space {@link
 * TempSpaceNeeds}' and the text {@link PlanDescription}'s; this class makes the decisions.
 *
 * <p><b>Memory model</b> (budget B, record size r, index {@value RecordIndex#BYTES_PER_ENTRY} bytes
 * per record). Every pool of buffers is counted as the memory meter charges it, {@link
 * DirectRegion#bytesFor} (a page of alignment per buffer), and every arena as {@link
 * RecordArena#directBytes(long, int)}. One pass holds every record once plus its index entry plus
 * the output's write-behind ({@link #OUTPUT_POOL_BUFFERS} transfer buffers): it is chosen when
 * {@code n (r + 32) + pool(2, T_out) + slack <= B}. Otherwise run formation holds <em>three</em>
 * arenas (chunk i+1 is read while chunk i is sorted and run i−1 written) and two indexes, so a run
 * has {@code (B - io) / (3r + 64)} records at most, fewer when the input is only a few budgets long
 * ({@link MemoryModel#fewestPagesPerRun}), rounded down so that every run starts at a 4096-aligned
 * input offset (DIRECT reads). The merge gives every input two temp-block buffers ({@link
 * MergePlanLimits}); the fan-in is the smaller of that, of what lets a merge's least buffers fit
 * the budget ({@code MemoryModel.leastMergeFanIn}) and of what the open-file limit leaves (one
 * descriptor per merge file, two with direct I/O, after what is open, a reserve and one lock per
 * stripe), or {@code config.fanIn()} clamped to it.
 *
 * <p>Transfer sizes are capped at {@code B / }{@value #TRANSFERS_PER_BUDGET} so that a small budget
 * (8 MiB) still merges with a fan-in above 2. Immutable.
 */
public final class SortPlan {
  /** Output write-behind: one pool buffer being filled, one being written. */
  public static final int OUTPUT_POOL_BUFFERS = 2;

  /**
   * The buffer of a merged sort's output file's own writer, which stays unused (the final merge's
   * parts write through region writers of their own pools): one page.
   */
  public static final int MERGED_OUTPUT_WRITER_BUFFER = Alignment.BYTES;

  /**
   * Temp run write-behind with {@code stripes} temp dirs: one block filling and one being written
   * per stripe, so that a run's blocks go to every device at once (runs are block-striped).
   */
  public static int runWriteBuffers(int stripes) {
    return Math.max(1, stripes) + 1;
  }

  /** Input buffers of parsed records: one being split, two being read ahead. */
  public static final int READ_BUFFERS = 3;

  /**
   * Most parse threads per chunk of lines (see {@link #parseThreads()}): one reader thread feeds
   * them, and each holds an input buffer, a repeat filter and a key scratch.
   */
  public static final int MAX_PARSE_THREADS = 8;

  /**
   * How much more than estimated a one-pass sort of parsed records plans for: the estimate comes
   * from a sample, and an input that outgrows its one-pass arena is sorted in two passes after all,
   * only slower.
   */
  public static final double ESTIMATE_MARGIN = 1.25;

  /** Index entries per estimated record of a parsed arena: a chunk ends when either fills. */
  public static final double INDEX_HEADROOM = 1.25;

  /** At most B/32 per transfer: at 8 MiB that is 256 KiB, leaving room for a fan-in of 15. */
  public static final int TRANSFERS_PER_BUDGET = 32;

  /**
   * Smallest temp transfer the planner picks by itself to merge in one pass: 256 KiB. Direct reads
   * one at a time ran at 1.1 GB/s with 256 KiB against 1.4 with 1 MiB here (dd, 2026-11-25,
   * sort-bench/results/io.md), 80 % of the speed, while a second merge pass reads and writes every
   * run once more: 61 MB of numbers with duplicates at -S 64M (33 runs, 31 at most per pass with 1
   * MiB) went from two passes to one (sort-bench/results/gnu-text.md, run E).
   */
  public static final int MIN_MERGE_TRANSFER = 256 << 10;

  /**
   * Alignment slack of an arena of one slab (up to 1 GiB): its page of alignment plus rounding; see
   * {@link #arenaSlack} for any size.
   */
  public static final long ARENA_SLACK = 2L * Alignment.BYTES;

  /**
   * The slab size the one-pass sort of fixed records aims at. The arena is allocated slab by slab
   * while the reader fills the slabs before ({@code InMemorySortPhase}), so what is left serial is
   * one slab's allocation: 64 MiB is 25-90 ms of page faults on these VMs (docs/decisions/D21), and
   * its 4 KiB of alignment slack is 1/16384 of it.
   */
  public static final int ONE_PASS_SLAB_BYTES = 64 << 20;

  /**
   * Arenas of run formation: one being read, one being sorted, one being written (the EcoSort /
   * Nsort overlap; see {@code RunFormationPhase}).
   */
  public static final int RUN_FORMATION_ARENAS = 3;

  /**
   * Scratch buffers of a temp block that run compression holds at most for {@code threads} sort
   * threads ({@code RunCompression}): one per thread and one more. A buffer is held only while a
   * block is compressed or decompressed and copied, which takes a core, so no more than the cores
   * can use one at once; the one more lets a prefetch thread's or a split search's decompression
   * start while both sort threads compress. Reserved in the budget before anything else when the
   * sort may compress. ({@code auto}'s device probe borrows one while one is idle, {@code
   * RunCompression.probeAfter}.)
   */
  public static int codecScratchBuffers(int threads) {
    return threads + 1;
  }

  /**
   * Descriptors the codecs of {@code c} may still open ({@link MergePlanLimits#CODEC_DESCRIPTORS}).
   */
  static int codecDescriptors(Compression c) {
    return c.mode() == Compression.Mode.OFF ? 0 : MergePlanLimits.CODEC_DESCRIPTORS;
  }

  private final long inputBytes;
  private final long records;
  private final int recordSize;
  private final long budget;
  private final long codecScratchBytes;
  private final int inTransfer;
  private final int outTransfer;
  private final int tempTransfer;
  private final boolean onePass;
  private final long onePassCapacity;
  private final int onePassSlabTarget;
  private final boolean onePassAllowed; // false: the rest of an input that outgrew one pass
  private final boolean linesInAnyOrder; // a one-pass sort may parse on several threads
  private final boolean parseBound; // a key collated in a locale: the parse is the sort's CPU
  private final boolean inPlace;
  private final long recordsPerRun;
  private final int runs;
  private final int fanIn;
  private final long filesFanIn; // merge inputs the descriptors allow one merge (with its output)
  private final int mergeFanIn;
  private final MergePlan mergePlan;
  private final int threads;
  private final List<Path> stripes;
  private final Compression compression;
  private final List<String> notes;
  private final MemoryModel model;

  private SortPlan(
      long inputBytes,
      SortConfig c,
      RecordEstimate estimate,
      long openFileLimit,
      boolean onePassAllowed)
      throws SortIOException {
    SortHooks hooks = SortHooks.of(c);
    this.onePassAllowed = onePassAllowed;
    this.linesInAnyOrder = estimate.linesInAnyOrder();
    this.parseBound = c.key() != null && c.key().collated();
    this.inputBytes = inputBytes;
    this.inPlace = estimate.inPlace();
    // For parsed records the "record size" of the memory model is the average entry, rounded up;
    // the record count an estimate (runs end when an arena or index is full, whatever it said).
    this.recordSize = (int) Math.ceil(estimate.entryBytesPerRecord());
    this.records =
        inPlace
            ? inputBytes / recordSize
            : (long) Math.ceil(inputBytes / estimate.inputBytesPerRecord());
    this.budget = c.memoryBudget().bytes();
    this.threads = c.threads();
    this.stripes = c.tempDirs();
    this.compression = c.compression();
    this.notes = new ArrayList<>();
    int cappedTemp =
        Math.max(
            TransferPlan.cap(
                c.transferSize(FileKind.TEMP), FileKind.TEMP, budget, new ArrayList<>()),
            inPlace ? TransferPlan.blockFor(recordSize) : Alignment.BYTES);
    // Temp blocks only shrink from the capped size below, so scratch of that size always fits.
    this.codecScratchBytes =
        compression.mode() == Compression.Mode.OFF
            ? 0
            : DirectRegion.bytesFor(codecScratchBuffers(threads), cappedTemp);
    long work = budget - codecScratchBytes; // what the arenas, indexes and pools divide
    this.inTransfer =
        TransferPlan.fitToInput(
            TransferPlan.cap(c.transferSize(FileKind.INPUT), FileKind.INPUT, budget, notes),
            FileKind.INPUT,
            c,
            inputBytes);
    this.outTransfer =
        TransferPlan.fitToInput(
            TransferPlan.cap(c.transferSize(FileKind.OUTPUT), FileKind.OUTPUT, budget, notes),
            FileKind.OUTPUT,
            c,
            inputBytes);
    this.onePassSlabTarget =
        hooks.onePassSlabBytes() > 0 ? hooks.onePassSlabBytes() : ONE_PASS_SLAB_BYTES;
    this.model =
        new MemoryModel(
            work,
            recordSize,
            inPlace,
            inTransfer,
            outTransfer,
            stripes.size(),
            threads,
            onePassSlabTarget,
            readBuffers(true),
            readBuffers(false));
    int temp =
        Math.max(
            TransferPlan.fitToInput(
                TransferPlan.cap(c.transferSize(FileKind.TEMP), FileKind.TEMP, budget, notes),
                FileKind.TEMP,
                c,
                inputBytes),
            inPlace ? TransferPlan.blockFor(recordSize) : Alignment.BYTES);
    if (c.transferSize(FileKind.TEMP) == TransferSizes.DEFAULT_TRANSFER) {
      temp =
          TransferPlan.oneMergePassTransfer(
              temp,
              model,
              records,
              work,
              stripes.size(),
              openFileLimit,
              codecDescriptors(compression),
              c.directIo());
    }
    this.tempTransfer = temp;
    this.onePassCapacity = model.onePassCapacity(tempTransfer);
    // The runRecordsLimit test hook also applies here, so tests reach run formation and merges with
    // a few KiB of input instead of more than the budget's one-pass capacity. Parsed runs need no
    // page quantum (their runs start wherever a record does): the quantum of their average entry
    // size, up to 4096 records, would keep small parsed inputs in one pass whatever the limit.
    this.onePass =
        onePassAllowed
            && (inPlace ? records : (long) Math.ceil(records * ESTIMATE_MARGIN)) <= onePassCapacity
            && (hooks.runRecordsLimit() == 0
                || records
                    <= Math.max(
                        inPlace ? Alignment.recordQuantum(recordSize) : 1,
                        hooks.runRecordsLimit()));
    int limit;
    // Every stripe's owner.lock stays open for the whole sort and is opened after this plan, so it
    // is not among the descriptors MergePlanLimits.reserve counts as open now.
    int reserve =
        MergePlanLimits.reserve(openFileLimit) + stripes.size() + codecDescriptors(compression);
    int perFile = MergePlanLimits.descriptorsPerFile(c.directIo()) * stripes.size();
    this.filesFanIn = MergePlanLimits.fanInByFiles(openFileLimit, reserve, perFile);
    try {
      if (filesFanIn < 2) {
        throw MergePlanLimits.tooFewDescriptors(openFileLimit, reserve, perFile, stripes.get(0));
      }
      limit = model.memoryFanIn(tempTransfer, openFileLimit, reserve, perFile);
    } catch (SortIOException | IllegalArgumentException e) {
      if (!onePass) {
        throw e;
      }
      limit = 2; // a one-pass sort merges nothing: a tight open-file limit does not concern it
    }
    int f = limit;
    if (c.fanIn() > 0) {
      f = Math.min(c.fanIn(), limit);
      if (f < c.fanIn() && !onePass) {
        notes.add(
            "fan-in "
                + c.fanIn()
                + " clamped to "
                + f
                + " (memory for two "
                + tempTransfer
                + "-byte buffers per run and the open-file limit)");
      }
    }
    this.mergeFanIn = f;
    if (onePass) {
      this.recordsPerRun = records;
      this.runs = records == 0 ? 0 : 1;
      this.fanIn = 0;
      this.mergePlan = MergePlan.of(new long[runs], 2);
      return;
    }
    long perRun = model.budgetRecordsPerRun(tempTransfer);
    long q = inPlace ? Alignment.recordQuantum(recordSize) : 1;
    perRun = Math.min(perRun, model.fewestPagesPerRun(records, perRun, f, q, tempTransfer));
    if (hooks.runRecordsLimit() > 0) {
      perRun = Math.min(perRun, Math.max(q, hooks.runRecordsLimit()));
    }
    perRun = perRun / q * q;
    if (perRun < q) {
      throw new IllegalArgumentException(
          "memory budget "
              + c.memoryBudget()
              + " cannot hold three runs of "
              + q
              + " records of "
              + recordSize
              + " bytes (needed for 4096-aligned runs)");
    }
    this.recordsPerRun = perRun;
    this.runs = (int) Math.min(Integer.MAX_VALUE, (records + perRun - 1) / perRun);
    this.fanIn = f;
    long[] sizes = new long[runs];
    for (int i = 0; i < runs; i++) {
      sizes[i] = Math.min(perRun, records - i * perRun) * recordSize;
    }
    this.mergePlan = MergePlan.of(sizes, fanIn);
  }

  /**
   * Parse threads per chunk of lines where the sort allows several ({@code
   * EntryFiller#parseInParallel}): for a one-pass sort of lines in any order ({@link
   * RecordEstimate#linesInAnyOrder()}) the sort's threads, at most {@link #MAX_PARSE_THREADS}; else
   * one. Run formation parses beside the sort of the previous chunk and the run writer, which on 2
   * cores keep them busy: two parse threads there cost the CSV sort of sort-bench's text race
   * ({@code -S 64M}) 0.6 more CPU-seconds and 9 % more wall time (7 alternating rounds), while the
   * one-pass sort of the same CSV ({@code -S 2G}) took 0.77 of the time with them. A key collated
   * in a locale makes the parse most of the sort's CPU (the C library's transform of every line):
   * then the sort's threads parse in run formation too, and where lines must keep their input order
   * they encode the keys of batches of lines ({@code EntryFiller#parseInParallel}).
   */
  public int parseThreads() {
    return onePass || parseBound ? onePassParseThreads() : 1;
  }

  /**
   * The parse threads of a one-pass sort: 1 unless its records are lines it may split among threads
   * or keys collated in a locale whose encoding it may share.
   */
  private int onePassParseThreads() {
    return linesInAnyOrder || parseBound ? Math.min(threads, MAX_PARSE_THREADS) : 1;
  }

  /** The threads that split lines in spans, each holding an input buffer: see readBuffers. */
  private int spanParseThreads() {
    return linesInAnyOrder ? Math.min(threads, MAX_PARSE_THREADS) : 1;
  }

  /** Input buffers of parsed records for this plan ({@link #readBuffers(boolean)}). */
  public int readBuffers() {
    return readBuffers(onePass);
  }

  /**
   * Input buffers of parsed records: {@link #READ_BUFFERS}, and where lines are parsed in spans on
   * several threads one more per thread beyond the first (each holds the buffer whose lines it
   * splits).
   */
  private int readBuffers(boolean onePassSort) {
    // After a one-pass sort's arena overflowed, its read pool, made for one pass, is still in use.
    boolean onePassPool = onePassSort || !onePassAllowed;
    return READ_BUFFERS + (onePassPool || parseBound ? spanParseThreads() - 1 : 0);
  }

  /**
   * Slab size of an arena of {@code capacity} bytes of {@code recordSize}-byte records (1 for
   * parsed entries): one slab when it fits 1 GiB, else the largest multiple of lcm(recordSize,
   * 4096) below 1 GiB, so that full slabs hold whole records and start aligned.
   *
   * @throws IllegalArgumentException if a record is too large for a multi-slab arena
   */
  public static int arenaSlabBytes(long capacity, int recordSize) {
    return MemoryModel.arenaSlabBytes(capacity, recordSize);
  }

  /**
   * The most an arena of up to {@code maxArena} bytes of {@code recordSize}-byte records reserves
   * beyond its capacity ({@link RecordArena#directBytes(long, int)}): a page of alignment per slab
   * and up to a page of rounding. {@link #ARENA_SLACK} when it has one slab.
   */
  public static long arenaSlack(long maxArena, int recordSize) {
    return MemoryModel.arenaSlack(maxArena, recordSize);
  }

  /**
   * The plan for {@code inputBytes} of input under {@code config} (no argument checks on files):
   * fixed records in place, or parsed records as {@link RecordEstimate#UNSEEN} assumes.
   *
   * @throws SortIOException when the input needs a merge and the open-file limit ({@code ulimit
   *     -n}) leaves fewer than 2 merge inputs ({@link MergePlanLimits#tooFewDescriptors})
   */
  public static SortPlan of(long inputBytes, SortConfig config) throws SortIOException {
    RecordEstimate e =
        config.format() instanceof dev.joule.core.record.FixedLengthFormat f && config.key() == null
            ? RecordEstimate.fixed(f.recordSize())
            : RecordEstimate.UNSEEN;
    return of(inputBytes, config, e);
  }

  /**
   * The plan for {@code inputBytes} of input of records as {@code estimate} describes them.
   *
   * @throws SortIOException when the input needs a merge and the open-file limit ({@code ulimit
   *     -n}) leaves fewer than 2 merge inputs ({@link MergePlanLimits#tooFewDescriptors})
   */
  public static SortPlan of(long inputBytes, SortConfig config, RecordEstimate estimate)
      throws SortIOException {
    return new SortPlan(inputBytes, config, estimate, MergePlanLimits.openFileLimit(), true);
  }

  /** {@link #of(long, SortConfig, RecordEstimate)} under the given open-file limit. */
  static SortPlan of(
      long inputBytes, SortConfig config, RecordEstimate estimate, long openFileLimit)
      throws SortIOException {
    return new SortPlan(inputBytes, config, estimate, openFileLimit, true);
  }

  /**
   * The two-pass plan for {@code inputBytes} of records as {@code estimate} describes them, even if
   * they would fit one pass: for the rest of an input that outgrew its one-pass arena.
   *
   * @throws SortIOException when the input needs a merge and the open-file limit ({@code ulimit
   *     -n}) leaves fewer than 2 merge inputs ({@link MergePlanLimits#tooFewDescriptors})
   */
  public static SortPlan twoPass(long inputBytes, SortConfig config, RecordEstimate estimate)
      throws SortIOException {
    return new SortPlan(inputBytes, config, estimate, MergePlanLimits.openFileLimit(), false);
  }

  /**
   * Bytes of an entry in the memory model: the record size in place, else the average, rounded up.
   */
  public int entryBytes() {
    return recordSize;
  }

  /** Whether the records are read in place into arenas (fixed records, byte-range key). */
  public boolean inPlace() {
    return inPlace;
  }

  /** Arena bytes of one run (run formation) or of the whole input (one pass). */
  public long arenaBytes() {
    return onePass && !inPlace
        ? (long) Math.ceil(records * ESTIMATE_MARGIN) * recordSize
        : recordsPerRun * recordSize;
  }

  /** Index entries of one arena: its records, with headroom when their number is estimated. */
  public int indexEntries() {
    return model.indexEntriesFor(
        onePass
            ? (inPlace ? records : (long) Math.ceil(records * ESTIMATE_MARGIN))
            : recordsPerRun);
  }

  /** Whether the input fits the budget and is sorted in memory in one pass. */
  public boolean onePass() {
    return onePass;
  }

  /** Records in the input. */
  public long records() {
    return records;
  }

  /** Bytes of input. */
  public long inputBytes() {
    return inputBytes;
  }

  /** Sorted runs run formation writes (1 for a one-pass sort with records, 0 for empty input). */
  public int runs() {
    return runs;
  }

  /** Largest run, in records (all runs but the last have exactly this many). */
  public long recordsPerRun() {
    return recordsPerRun;
  }

  /** The merge fan-in (0 for a one-pass sort). */
  public int fanIn() {
    return fanIn;
  }

  /**
   * How many merges of up to {@code k} inputs the open-file limit lets run at once (each holds its
   * inputs and its output open); at least 1.
   */
  public int concurrentMergesByFiles(int k) {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, (filesFanIn + 1) / (k + 1L)));
  }

  /** The fan-in merges would use (also for a one-pass plan: a session that spills needs it). */
  public int mergeFanIn() {
    return mergeFanIn;
  }

  /** Records a one-pass sort can hold under this budget. */
  public long onePassCapacity() {
    return onePassCapacity;
  }

  /** The merge passes over the runs (none for a one-pass sort). */
  public MergePlan mergePlan() {
    return mergePlan;
  }

  /** Merge passes, the final one included (0 for one pass). */
  public int mergePasses() {
    return onePass ? 0 : mergePlan.passes().size();
  }

  /** Bytes per read of the input. */
  public int inputTransfer() {
    return inTransfer;
  }

  /** Bytes per write of the output. */
  public int outputTransfer() {
    return outTransfer;
  }

  /** Bytes per temp run block (the temp transfer size). */
  public int tempTransfer() {
    return tempTransfer;
  }

  /**
   * The slab size of the one-pass arena of {@code capacity} bytes of {@code recordSize}-byte
   * records ({@link #onePassSlabBytes(long, int, int)} with this plan's target).
   */
  public int onePassSlabBytes(long capacity, int recordSize) {
    return MemoryModel.onePassSlabBytes(capacity, recordSize, onePassSlabTarget);
  }

  /**
   * The slab size of a one-pass arena of {@code capacity} bytes: a multiple of lcm(recordSize,
   * 4096) (full slabs hold whole records and start on a page) near {@code target}, larger when
   * {@code target} would need more than {@link RecordArena#MAX_SLABS} slabs, at most 1 GiB; one
   * slab of the whole capacity when that is no larger.
   */
  public static int onePassSlabBytes(long capacity, int recordSize, int target) {
    return MemoryModel.onePassSlabBytes(capacity, recordSize, target);
  }

  /**
   * Memory the one-pass sort, or run formation, is charged: arenas, indexes and pools, each as the
   * memory meter counts it.
   */
  public long sortMemory() {
    if (onePass) {
      return model.onePassBytes(
          inPlace ? records : (long) Math.ceil(records * ESTIMATE_MARGIN), tempTransfer);
    }
    return model.runFormationBytes(recordsPerRun, tempTransfer);
  }

  /** The run writer's buffers for this plan's stripes ({@link #runWriteBuffers(int)}). */
  public int runWriteBuffers() {
    return runWriteBuffers(stripes.size());
  }

  /**
   * Buffer memory of the widest final merge in one part when all its pools are fresh, as the meter
   * charges them: the output's pool, its file's unused writer page, and two temp blocks per input,
   * fewer (at least k + 1) when the budget holds no more. A merge that borrows run formation's
   * arenas carves its pools from them instead and takes at most this much fresh.
   */
  public long mergeMemory() {
    if (onePass) {
      return 0;
    }
    return model.mergeMemory(Math.min(fanIn, runs), tempTransfer);
  }

  /**
   * Temp bytes the sort needs at its peak on each stripe (runs round-robin, plus one pass's
   * output).
   */
  public long tempBytesPerStripe() {
    if (onePass) {
      return 0;
    }
    return TempSpaceNeeds.perStripe(inputBytes, runs, tempTransfer, mergePlan, stripes.size());
  }

  /** Usable bytes on each stripe's file system now (-1 where it cannot be read). */
  public long[] usableBytesPerStripe() {
    return TempSpaceNeeds.usable(stripes);
  }

  /** Notices of adjustments the plan made (clamped fan-in, capped transfer sizes). */
  public List<String> notes() {
    return List.copyOf(notes);
  }

  /** The memory budget the plan divides. */
  public long budget() {
    return budget;
  }

  /**
   * What the budget reserves for run compression's scratch buffers ({@link #codecScratchBuffers} of
   * the largest temp block); 0 when the sort does not compress.
   */
  public long codecScratchBytes() {
    return codecScratchBytes;
  }

  /** The budget less {@link #codecScratchBytes()}: what arenas, indexes and pools divide. */
  public long workBudget() {
    return budget - codecScratchBytes;
  }

  /** The worker threads the plan counts on. */
  public int threads() {
    return threads;
  }

  /** How the plan's temp runs are compressed (the config's policy). */
  public Compression compression() {
    return compression;
  }

  /** A multi-line account of the plan, as {@code joule sort --explain} prints it. */
  public String describe() {
    return PlanDescription.of(this, stripes);
  }

  @Override
  public String toString() {
    return describe();
  }
}

package dev.joule.io.plan;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.Alignment;
import dev.joule.core.memory.DirectRegion;
import dev.joule.core.memory.RecordArena;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.config.TransferSizes;
import dev.joule.io.error.SortIOException;
import dev.joule.io.hooks.SortHooks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How a sort will run, decided before any data is read: one pass or two, run size, fan-in, the
 * {@link MergePlan}, memory per phase and temp space per stripe. Made by {@code
 * ExternalSorter.plan}; {@link #describe()} is what {@code --explain} prints.
 *
 * <p><b>Memory model</b> (budget B, record size r, index {@value RecordIndex#BYTES_PER_ENTRY} bytes
 * per record). Every pool of buffers is counted as the memory meter charges it, {@link
 * DirectRegion#bytesFor} (a page of alignment per buffer), and every arena as {@link
 * RecordArena#directBytes(long, int)}. One pass holds every record once plus its index entry plus
 * the output's write-behind ({@link #OUTPUT_POOL_BUFFERS} transfer buffers): it is chosen when
 * {@code n (r + 32) + pool(2, T_out) + slack <= B}. Otherwise run formation holds <em>three</em>
 * arenas (chunk i+1 is read while chunk i is sorted and run i−1 written) and two indexes, so a run
 * has {@code (B - io) / (3r + 64)} records at most, fewer when the input is only a few budgets long
 * ({@link #fewestPagesPerRun}), rounded down so that every run starts at a 4096-aligned input
 * offset (DIRECT reads). The merge gives every input two temp-block buffers ({@link
 * MergePlanLimits}); the fan-in is the smaller of that, of what lets a merge's least buffers fit
 * the budget ({@link #leastMergeFanIn}) and of what the open-file limit leaves (one descriptor per
 * merge file, two with direct I/O, after what is open, a reserve and one lock per stripe), or
 * {@code config.fanIn()} clamped to it.
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
   * one slab's allocation: 64 MiB is 25-90 ms of page faults on these VMs (docs/design.md D21), and
   * its 4 KiB of alignment slack is 1/16384 of it.
   */
  public static final int ONE_PASS_SLAB_BYTES = 64 << 20;

  /**
   * Arenas of run formation: one being read, one being sorted, one being written (the EcoSort /
   * Nsort overlap; see {@code RunFormationPhase}).
   */
  public static final int RUN_FORMATION_ARENAS = 3;

  private final long inputBytes;
  private final long records;
  private final int recordSize;
  private final long budget;
  private final int inTransfer;
  private final int outTransfer;
  private final int tempTransfer;
  private final boolean onePass;
  private final long onePassCapacity;
  private final int onePassSlabTarget;
  private final long onePassSlack;
  private final boolean onePassAllowed; // false: the rest of an input that outgrew one pass
  private final boolean linesInAnyOrder; // a one-pass sort may parse on several threads
  private final boolean inPlace;
  private final double entryBytes; // average entry size (the record size when in place)
  private final long recordsPerRun;
  private final int runs;
  private final int fanIn;
  private final long filesFanIn; // merge inputs the descriptors allow one merge (with its output)
  private final int mergeFanIn;
  private final MergePlan mergePlan;
  private final int threads;
  private final List<Path> stripes;
  private final List<String> notes;

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
    this.inputBytes = inputBytes;
    this.inPlace = estimate.inPlace();
    this.entryBytes = estimate.entryBytesPerRecord();
    // For parsed records the "record size" of the memory model is the average entry, rounded up;
    // the record count an estimate (runs end when an arena or index is full, whatever it said).
    this.recordSize = (int) Math.ceil(entryBytes);
    this.records =
        inPlace
            ? inputBytes / recordSize
            : (long) Math.ceil(inputBytes / estimate.inputBytesPerRecord());
    this.budget = c.memoryBudget().bytes();
    this.threads = c.threads();
    this.stripes = c.tempDirs();
    this.notes = new ArrayList<>();
    this.inTransfer =
        fitToInput(cap(c.transferSize(FileKind.INPUT), FileKind.INPUT), FileKind.INPUT, c);
    this.outTransfer =
        fitToInput(cap(c.transferSize(FileKind.OUTPUT), FileKind.OUTPUT), FileKind.OUTPUT, c);
    long rs = recordSize;
    int temp =
        Math.max(
            fitToInput(cap(c.transferSize(FileKind.TEMP), FileKind.TEMP), FileKind.TEMP, c),
            inPlace ? blockFor(recordSize) : Alignment.BYTES);
    if (c.transferSize(FileKind.TEMP) == TransferSizes.DEFAULT_TRANSFER) {
      temp = oneMergePassTransfer(temp, openFileLimit, c.directIo());
    }
    this.tempTransfer = temp;
    this.onePassSlabTarget =
        hooks.onePassSlabBytes() > 0 ? hooks.onePassSlabBytes() : ONE_PASS_SLAB_BYTES;
    // No arena exceeds the budget, so its slab count is bounded before the capacity is known.
    this.onePassSlack = onePassArenaSlack(budget, recordSize, onePassSlabTarget);
    long capacity =
        Math.max(
            0,
            (budget - onePassBuffers() - onePassSlack - readPoolBytes(true))
                / (rs + indexBytesPerEntry()));
    // The headroom of a parsed index rounds its entries up: step down past that rounding.
    while (capacity > 0 && onePassBytes(capacity) > budget) {
      capacity--;
    }
    this.onePassCapacity = capacity;
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
    int reserve = MergePlanLimits.reserve(openFileLimit) + stripes.size();
    int perFile = MergePlanLimits.descriptorsPerFile(c.directIo()) * stripes.size();
    this.filesFanIn = MergePlanLimits.fanInByFiles(openFileLimit, reserve, perFile);
    try {
      if (filesFanIn < 2) {
        throw MergePlanLimits.tooFewDescriptors(openFileLimit, reserve, perFile, stripes.get(0));
      }
      limit = memoryFanIn(tempTransfer, openFileLimit, reserve, perFile);
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
    long perRun = budgetRecordsPerRun(tempTransfer);
    long q = inPlace ? Alignment.recordQuantum(recordSize) : 1;
    perRun = Math.min(perRun, fewestPagesPerRun(perRun, f, q));
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
      sizes[i] = Math.min(perRun, records - i * perRun) * rs;
    }
    this.mergePlan = MergePlan.of(sizes, fanIn);
  }

  /**
   * Records per run with the smallest arenas that still let the final merge run in one pass, split
   * into {@code threads} parts each with two temp blocks per run (the merge borrows the three
   * arenas for its buffers, {@code ArenaMemory}): the largest run count k up to the fan-in with
   * {@code 3 ceil(n/k) r >= threads (2k T_temp + 2 T_out) + 3 max(T_temp, T_out)}. Never larger
   * than the budget allows ({@code budgetPerRun}). Why: every freshly touched page costs 3–7 µs of
   * kernel time here (docs/design.md, D5), and arenas and indexes sized to the whole budget touch
   * it all even when the input is only a few budgets long. 4 GB at 1 GiB (2 threads, 4 MiB
   * transfers), sort-bench/results/pipeline.md: 14 runs of 286 MB arenas took a median 9.29 CPU-s
   * (2.1–2.8 s of it kernel), 26 runs of 154 MB took 8.44 CPU-s (0.95–1.19 s kernel) and 3.3–3.7 s
   * of run formation, the merge's deeper tree costing ≈ 0.5 CPU-s of that gain; this rule, with the
   * carving margin, makes 25 runs there. Never larger than the whole input either: a two-pass plan
   * for an input of a few MB (the rest of one that outgrew its one-pass arena) whose arenas cannot
   * lend even a 2-way merge its buffers used to get arenas and indexes of the whole budget (6 GB
   * resident for 12.5 MB of lines under the default budget).
   */
  private long fewestPagesPerRun(long budgetPerRun, int fanIn, long q) {
    if (records == 0 || budgetPerRun <= 0) {
      return budgetPerRun;
    }
    long best = Math.min(budgetPerRun, (records + q - 1) / q * q);
    for (long k = (records + budgetPerRun - 1) / budgetPerRun + 1; k <= fanIn; k++) {
      long per = ((records + k - 1) / k + q - 1) / q * q;
      long lent = RUN_FORMATION_ARENAS * per * recordSize;
      // Plus what carving the arenas into blocks can lose: up to one block per arena. Short of that
      // the merge would allocate fresh pools after all.
      long need =
          (long) threads * (2L * k * tempTransfer + (long) OUTPUT_POOL_BUFFERS * outTransfer)
              + (long) RUN_FORMATION_ARENAS * Math.max(tempTransfer, outTransfer);
      if (lent < need) {
        break;
      }
      best = Math.min(best, per);
    }
    return best;
  }

  /**
   * The default temp transfer {@code t}, halved while the runs this budget forms would need more
   * than one merge pass and a smaller transfer gives a wide enough fan-in, down to {@link
   * #MIN_MERGE_TRANSFER}; {@code t} when one pass is out of reach. Why: an extra merge pass reads
   * and writes every run once more (0.6 to 1 CPU-s and a second of I/O per 100 to 400 MB of entries
   * here: 61 MB of numbers with duplicates at -S 64M went from two passes to one and from 10.9 to
   * 9.8 CPU-s, sort-bench/results/gnu-text.md), while 1 MiB transfers still read and write temp
   * files at 1.1 to 3.2 GB/s (sort-bench/results/io.md). An estimate: the run count uses the plan's
   * formula. (Halving further so that the final merge fits a part per thread was tried on 1 GB of
   * lines at -S 256M: two parts instead of one, no faster, as that merge waits on the disk.)
   */
  private int oneMergePassTransfer(int t, long openFileLimit, DirectIoPolicy directIo) {
    int reserve = MergePlanLimits.reserve(openFileLimit) + stripes.size();
    int perFile = MergePlanLimits.descriptorsPerFile(directIo) * stripes.size();
    for (int candidate = t; candidate >= MIN_MERGE_TRANSFER; candidate /= 2) {
      long perRun = budgetRecordsPerRun(candidate);
      if (perRun <= 0 || budget / (2L * candidate) - 1 < 2) {
        break;
      }
      long runs = (records + perRun - 1) / perRun;
      int fan;
      try {
        fan = memoryFanIn(candidate, openFileLimit, reserve, perFile);
      } catch (IllegalArgumentException e) {
        break; // the plan reports a too tight budget or open-file limit itself
      }
      if (runs <= fan) {
        return candidate;
      }
      if (candidate % (2 * Alignment.BYTES) != 0) {
        break;
      }
    }
    return t; // one pass is out of reach: keep the transfer that reads and writes fastest
  }

  /**
   * Records per run that the budget holds with temp transfers of {@code temp} bytes: three arenas
   * and two indexes after the run writer's buffers, the arenas' slack and the read pool, as {@link
   * #runFormationBytes} counts them.
   */
  private long budgetRecordsPerRun(int temp) {
    long io =
        DirectRegion.bytesFor(runWriteBuffers(), temp)
            + RUN_FORMATION_ARENAS * arenaSlack(budget / RUN_FORMATION_ARENAS, slabRecordSize())
            + readPoolBytes(false);
    long perRun =
        (budget - io)
            / (RUN_FORMATION_ARENAS * ((long) recordSize + indexBytesPerEntry())
                - indexBytesSaved());
    // The headroom of parsed indexes rounds their entries up: step down past that rounding.
    while (perRun > 0 && runFormationBytes(perRun, temp) > budget) {
      perRun--;
    }
    return perRun;
  }

  /**
   * The fan-in that memory and the open files allow with {@code temp}-byte temp buffers: {@link
   * MergePlanLimits#maxFanIn} (two buffers per input, and the descriptors), no wider than {@link
   * #leastMergeFanIn}.
   *
   * @throws IllegalArgumentException if that is below 2
   */
  private int memoryFanIn(int temp, long openFileLimit, int reserve, int perFile) {
    int f = MergePlanLimits.maxFanIn(budget, temp, openFileLimit, reserve, perFile);
    long least = leastMergeFanIn(temp);
    if (least < 2) {
      throw new IllegalArgumentException(
          "memory budget of "
              + budget
              + " bytes cannot hold a merge of 2 inputs with "
              + temp
              + "-byte temp buffers");
    }
    return (int) Math.min(f, least);
  }

  /**
   * The widest merge whose least pools, counted as fresh ones, fit the budget beside what lending
   * the arenas can lose ({@link #lendingLoss}): for the final merge k + 1 temp buffers, the
   * output's pool and its file's unused writer; for an intermediate one k + 1 temp buffers and the
   * run writer's. The merge then never needs more than the budget, whatever of it the arenas hold.
   * Why a bound of its own: with small transfers (4 KiB) the two-buffers-per-input rule alone lets
   * k + 1 buffers and their alignment pages fill the whole budget.
   */
  private long leastMergeFanIn(int temp) {
    long perBuffer = DirectRegion.bytesFor(1, temp);
    long finalRoom =
        budget
            - DirectRegion.bytesFor(OUTPUT_POOL_BUFFERS, outTransfer)
            - DirectRegion.bytesFor(1, MERGED_OUTPUT_WRITER_BUFFER)
            - lendingLoss(Math.max(temp, outTransfer));
    long intermediateRoom = budget - lendingLoss(temp);
    return Math.min(
        finalRoom / perBuffer - 1, intermediateRoom / perBuffer - 1 - runWriteBuffers());
  }

  /**
   * The most that carving run formation's arenas into buffers of at most {@code largest} bytes can
   * cost beyond fresh pools of the same buffers: per slab its page of alignment and the tail too
   * short for one more buffer. A merge that carves what it can and allocates the rest fresh holds
   * at most its fresh pools' bytes plus this.
   */
  private long lendingLoss(int largest) {
    long slabs = slabs(budget / RUN_FORMATION_ARENAS, slabRecordSize());
    return RUN_FORMATION_ARENAS * slabs * (long) largest;
  }

  /** The record size that sets run formation's slab size: 1 for parsed entries. */
  private int slabRecordSize() {
    return inPlace ? recordSize : 1;
  }

  /**
   * Slabs of an arena of {@code capacity} bytes ({@link #arenaSlabBytes}); for records too large
   * for a multi-slab arena (refused when one is made) as if slabs were 1 GiB.
   */
  private static long slabs(long capacity, int recordSize) {
    long aligned = Math.max(Alignment.BYTES, Alignment.roundUp(capacity));
    long slab;
    try {
      slab = arenaSlabBytes(aligned, recordSize);
    } catch (IllegalArgumentException e) {
      slab = RecordArena.MAX_SLAB_BYTES;
    }
    return (aligned + slab - 1) / slab;
  }

  /**
   * Bytes run formation is charged with {@code perRun} records per arena and {@code temp}-byte temp
   * transfers: three arenas, their indexes (two in place, three for parsed records), the run
   * writer's pool and the input's read pool (parsed records).
   */
  private long runFormationBytes(long perRun, int temp) {
    long arena = Math.max(1, perRun * recordSize);
    int indexes = inPlace ? 2 : RUN_FORMATION_ARENAS;
    return RUN_FORMATION_ARENAS
            * RecordArena.directBytes(arena, arenaSlabBytes(arena, slabRecordSize()))
        + indexes * (long) indexEntriesFor(perRun) * RecordIndex.BYTES_PER_ENTRY
        + DirectRegion.bytesFor(runWriteBuffers(), temp)
        + readPoolBytes(false);
  }

  /**
   * Bytes the one-pass sort is charged with an arena of {@code n} records: the arena, its index,
   * {@link #onePassBuffers} and the input's read pool (parsed records).
   */
  private long onePassBytes(long n) {
    long arena = Math.max(Alignment.BYTES, n * recordSize);
    int slab =
        inPlace ? onePassSlabBytes(arena, recordSize, onePassSlabTarget) : arenaSlabBytes(arena, 1);
    return RecordArena.directBytes(arena, slab)
        + (long) indexEntriesFor(n) * RecordIndex.BYTES_PER_ENTRY
        + onePassBuffers()
        + readPoolBytes(true);
  }

  /**
   * The one-pass sort's buffers beside its arena: the output's pool; for parsed records the larger
   * of that and the run writer's pool, which writes the arena as a first run when the input turns
   * out larger than its sample said.
   */
  private long onePassBuffers() {
    long out = DirectRegion.bytesFor(OUTPUT_POOL_BUFFERS, outTransfer);
    return inPlace ? out : Math.max(out, DirectRegion.bytesFor(runWriteBuffers(), tempTransfer));
  }

  /**
   * The input's read pool of a one-pass sort ({@code onePassSort}) or of run formation: {@link
   * #readBuffers(boolean)} input transfers for parsed records, else none.
   */
  private long readPoolBytes(boolean onePassSort) {
    return inPlace ? 0 : DirectRegion.bytesFor(readBuffers(onePassSort), inTransfer);
  }

  /**
   * Parse threads per chunk of lines where the sort allows several ({@code
   * EntryFiller#parseInParallel}): for a one-pass sort of lines in any order ({@link
   * RecordEstimate#linesInAnyOrder()}) the sort's threads, at most {@link #MAX_PARSE_THREADS}; else
   * one. Run formation parses beside the sort of the previous chunk and the run writer, which on 2
   * cores keep them busy: two parse threads there cost the CSV sort of sort-bench's text race
   * ({@code -S 64M}) 0.6 more CPU-seconds and 9 % more wall time (7 alternating rounds), while the
   * one-pass sort of the same CSV ({@code -S 2G}) took 0.77 of the time with them.
   */
  public int parseThreads() {
    return onePass ? onePassParseThreads() : 1;
  }

  /** The parse threads of a one-pass sort: 1 unless its records are lines it may parse so. */
  private int onePassParseThreads() {
    return linesInAnyOrder ? Math.min(threads, MAX_PARSE_THREADS) : 1;
  }

  /** Input buffers of parsed records for this plan ({@link #readBuffers(boolean)}). */
  public int readBuffers() {
    return readBuffers(onePass);
  }

  /**
   * Input buffers of parsed records: {@link #READ_BUFFERS}, and for a one-pass sort one more per
   * parse thread beyond the first (each holds the buffer whose lines it splits).
   */
  private int readBuffers(boolean onePassSort) {
    // After a one-pass sort's arena overflowed, its read pool, made for one pass, is still in use.
    boolean onePassPool = onePassSort || !onePassAllowed;
    return READ_BUFFERS + (onePassPool ? onePassParseThreads() - 1 : 0);
  }

  /**
   * Index entries for an arena of {@code n} records: with headroom when their count is estimated.
   */
  private int indexEntriesFor(long n) {
    if (!inPlace) {
      n = (long) Math.ceil(n * INDEX_HEADROOM);
    }
    return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(1, n));
  }

  /**
   * Slab size of an arena of {@code capacity} bytes of {@code recordSize}-byte records (1 for
   * parsed entries): one slab when it fits 1 GiB, else the largest multiple of lcm(recordSize,
   * 4096) below 1 GiB, so that full slabs hold whole records and start aligned.
   *
   * @throws IllegalArgumentException if a record is too large for a multi-slab arena
   */
  public static int arenaSlabBytes(long capacity, int recordSize) {
    long aligned = Math.max(Alignment.BYTES, Alignment.roundUp(capacity));
    if (aligned <= RecordArena.MAX_SLAB_BYTES) {
      return (int) aligned;
    }
    long lcm = recordSize * Alignment.recordQuantum(recordSize);
    if (lcm > RecordArena.MAX_SLAB_BYTES) {
      throw new IllegalArgumentException(
          "record size " + recordSize + " too large for a multi-slab arena");
    }
    return (int) (RecordArena.MAX_SLAB_BYTES / lcm * lcm);
  }

  /**
   * The most an arena of up to {@code maxArena} bytes of {@code recordSize}-byte records reserves
   * beyond its capacity ({@link RecordArena#directBytes(long, int)}): a page of alignment per slab
   * and up to a page of rounding. {@link #ARENA_SLACK} when it has one slab.
   */
  public static long arenaSlack(long maxArena, int recordSize) {
    return (slabs(maxArena, Math.max(1, recordSize)) + 1) * Alignment.BYTES;
  }

  private int cap(int transfer, FileKind kind) {
    long max =
        Math.max(
            Alignment.BYTES, budget / TRANSFERS_PER_BUDGET / Alignment.BYTES * Alignment.BYTES);
    if (transfer > max) {
      if (transfer == TransferSizes.DEFAULT_TRANSFER) {
        return (int) max; // the default adapting to a small budget is no news (--explain shows it)
      }
      notes.add(
          kind.name().toLowerCase(Locale.ROOT)
              + " transfer size "
              + transfer
              + " capped to "
              + max
              + " (budget / "
              + TRANSFERS_PER_BUDGET
              + ")");
      return (int) max;
    }
    return transfer;
  }

  /**
   * A default transfer ({@code kind}) no larger than a known input (rounded up to a page): the
   * pools hold a few transfers each, and a sort of 1 KB allocated, zeroed and faulted in 21 MB of 4
   * MiB buffers before it (fresh pages cost 3-7 us each here, docs/design.md D5). The output is as
   * large as the input, but for the delimiter a last line may lack; runs (a spill when the input
   * holds more records than its sample said) may be larger, in more blocks. An input of unknown
   * size (0: a {@link dev.joule.io.pipeline.SortSession} of pushed records) keeps the default.
   */
  private int fitToInput(int transfer, FileKind kind, SortConfig c) {
    if (inputBytes <= 0 || c.transferSize(kind) != TransferSizes.DEFAULT_TRANSFER) {
      return transfer; // unknown size, or the user's own transfer
    }
    long fit = (inputBytes + 1 + Alignment.BYTES - 1) / Alignment.BYTES * Alignment.BYTES;
    return (int) Math.min(transfer, fit);
  }

  /** Smallest 4096-multiple run block holding one record and the 12-byte block trailer. */
  private static int blockFor(int recordSize) {
    return (recordSize + 12 + Alignment.BYTES - 1) / Alignment.BYTES * Alignment.BYTES;
  }

  /**
   * Index bytes planned per entry: {@link RecordIndex#BYTES_PER_ENTRY}, times {@link
   * #INDEX_HEADROOM} for parsed records, whose count per arena is only estimated.
   */
  private long indexBytesPerEntry() {
    return inPlace
        ? RecordIndex.BYTES_PER_ENTRY
        : (long) Math.ceil(RecordIndex.BYTES_PER_ENTRY * INDEX_HEADROOM);
  }

  /**
   * Run formation in place keeps two indexes for three arenas (a chunk is indexed only once the
   * write of the run two before it has finished); parsed chunks are indexed while they are read, so
   * they need three.
   */
  private long indexBytesSaved() {
    return inPlace ? RecordIndex.BYTES_PER_ENTRY : 0;
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
    return indexEntriesFor(
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
    return onePassSlabBytes(capacity, recordSize, onePassSlabTarget);
  }

  /**
   * The slab size of a one-pass arena of {@code capacity} bytes: a multiple of lcm(recordSize,
   * 4096) (full slabs hold whole records and start on a page) near {@code target}, larger when
   * {@code target} would need more than {@link RecordArena#MAX_SLABS} slabs, at most 1 GiB; one
   * slab of the whole capacity when that is no larger.
   */
  public static int onePassSlabBytes(long capacity, int recordSize, int target) {
    long aligned = Math.max(Alignment.BYTES, Alignment.roundUp(capacity));
    long lcm = recordSize * Alignment.recordQuantum(recordSize);
    long largest = RecordArena.MAX_SLAB_BYTES / lcm * lcm;
    if (largest == 0) {
      return (int) Math.min(aligned, RecordArena.MAX_SLAB_BYTES); // one slab, or refused later
    }
    long fewest = (aligned + RecordArena.MAX_SLABS - 1) / RecordArena.MAX_SLABS;
    long slab = Math.max(smallestSlab(recordSize, target), (fewest + lcm - 1) / lcm * lcm);
    slab = Math.min(slab, largest);
    return (int) Math.min(slab, aligned);
  }

  /** The smallest full slab {@link #onePassSlabBytes(long, int, int)} gives. */
  private static long smallestSlab(int recordSize, int target) {
    long lcm = recordSize * Alignment.recordQuantum(recordSize);
    long largest = RecordArena.MAX_SLAB_BYTES / lcm * lcm;
    return Math.max(lcm, Math.min(largest, target / lcm * lcm));
  }

  /**
   * Bytes a one-pass arena of at most {@code maxArena} bytes reserves beyond its records: 4096 of
   * alignment per slab and up to 4096 of rounding. Covers the parsed one-pass arena too, whose
   * slabs are no smaller.
   */
  static long onePassArenaSlack(long maxArena, int recordSize, int target) {
    long smallest = Math.max(Alignment.BYTES, smallestSlab(Math.max(1, recordSize), target));
    long slabs = Math.min(RecordArena.MAX_SLABS, (maxArena + smallest - 1) / smallest);
    return (Math.max(1, slabs) + 1) * Alignment.BYTES;
  }

  /**
   * Memory the one-pass sort, or run formation, is charged: arenas, indexes and pools, each as the
   * memory meter counts it.
   */
  public long sortMemory() {
    if (onePass) {
      return onePassBytes(inPlace ? records : (long) Math.ceil(records * ESTIMATE_MARGIN));
    }
    return runFormationBytes(recordsPerRun, tempTransfer);
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
    int k = Math.min(fanIn, runs);
    long out =
        DirectRegion.bytesFor(OUTPUT_POOL_BUFFERS, outTransfer)
            + DirectRegion.bytesFor(1, MERGED_OUTPUT_WRITER_BUFFER);
    long reads =
        Math.max(k + 1L, Math.min(2L * k, (budget - out) / DirectRegion.bytesFor(1, tempTransfer)));
    return out + DirectRegion.bytesFor((int) reads, tempTransfer);
  }

  /**
   * Temp bytes the sort needs at its peak on each stripe (runs round-robin, plus one pass's
   * output).
   */
  public long tempBytesPerStripe() {
    if (onePass) {
      return 0;
    }
    long total = inputBytes + (long) runs * 2 * tempTransfer + intermediatePeak();
    return (total + stripes.size() - 1) / stripes.size();
  }

  private long intermediatePeak() {
    long peak = 0;
    for (MergePlan.Pass p : mergePlan.passes()) {
      if (!p.isFinal()) {
        peak = Math.max(peak, p.volumeWritten());
      }
    }
    return peak;
  }

  /** Usable bytes on each stripe's file system now (-1 where it cannot be read). */
  public long[] usableBytesPerStripe() {
    long[] u = new long[stripes.size()];
    for (int i = 0; i < u.length; i++) {
      try {
        u[i] = Files.getFileStore(stripes.get(i)).getUsableSpace();
      } catch (IOException e) {
        u[i] = -1;
      }
    }
    return u;
  }

  /** Notices of adjustments the plan made (clamped fan-in, capped transfer sizes). */
  public List<String> notes() {
    return List.copyOf(notes);
  }

  /** A multi-line account of the plan, as {@code joule sort --explain} prints it. */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "input: %d records of %d bytes (%d bytes)%n",
            records,
            recordSize,
            inputBytes));
    sb.append(
        String.format(
            Locale.ROOT,
            "memory budget: %d bytes; one-pass capacity %d records%n",
            budget,
            onePassCapacity));
    if (onePass) {
      sb.append(
          String.format(
              Locale.ROOT,
              "plan: one pass (in-memory sort), memory %d bytes, threads %d%n",
              sortMemory(),
              threads));
    } else {
      sb.append(
          String.format(
              Locale.ROOT,
              "plan: two-pass external sort: %d runs of up to %d records, %d merge pass(es), fan-in"
                  + " %d, threads %d%n",
              runs,
              recordsPerRun,
              mergePasses(),
              fanIn,
              threads));
      sb.append(
          String.format(
              Locale.ROOT,
              "memory: run formation %d bytes (three arenas + two indexes + write-behind), merge %d"
                  + " bytes%n",
              sortMemory(),
              mergeMemory()));
      long[] usable = usableBytesPerStripe();
      for (int i = 0; i < stripes.size(); i++) {
        sb.append(
            String.format(
                Locale.ROOT,
                "temp stripe %d %s: needs about %d bytes, %s usable%n",
                i,
                stripes.get(i),
                tempBytesPerStripe(),
                usable[i] < 0 ? "unknown" : Long.toString(usable[i])));
      }
      sb.append(mergePlan.describe());
    }
    sb.append(
        String.format(
            Locale.ROOT,
            "transfers: input %d, output %d, temp %d bytes%n",
            inTransfer,
            outTransfer,
            tempTransfer));
    for (String n : notes) {
      sb.append("note: ").append(n).append(System.lineSeparator());
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return describe();
  }
}

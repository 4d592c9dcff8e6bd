package dev.joule.io.plan;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.Alignment;
import dev.joule.core.memory.DirectRegion;
import dev.joule.core.memory.RecordArena;

/**
 * The memory arithmetic of a plan (budget B, record size r, index {@value
 * RecordIndex#BYTES_PER_ENTRY} bytes per record): what each phase is charged, counted exactly as
 * the memory meter charges it. Every pool of buffers is {@link DirectRegion#bytesFor} (a page of
 * alignment per buffer), and every arena {@link RecordArena#directBytes(long, int)}.
 *
 * <p>One pass holds every record once plus its index entry plus the output's write-behind ({@link
 * SortPlan#OUTPUT_POOL_BUFFERS} transfer buffers). Run formation holds <em>three</em> arenas (chunk
 * i+1 is read while chunk i is sorted and run i−1 written) and two indexes (three for parsed
 * records). A merge gives every input two temp-block buffers and needs at least k + 1. Parsed
 * records also hold the input's read pool. A {@link SortPlan} decides with these sums; a session's
 * {@link SessionPlan} charges its chunks by the same rules.
 *
 * <p>Immutable.
 */
final class MemoryModel {
  private final long budget;
  private final int recordSize; // the average entry, rounded up, for parsed records
  private final boolean inPlace;
  private final int inTransfer;
  private final int outTransfer;
  private final int stripes;
  private final int threads;
  private final int onePassSlabTarget;
  private final int onePassReadBuffers;
  private final int runFormationReadBuffers;

  MemoryModel(
      long budget,
      int recordSize,
      boolean inPlace,
      int inTransfer,
      int outTransfer,
      int stripes,
      int threads,
      int onePassSlabTarget,
      int onePassReadBuffers,
      int runFormationReadBuffers) {
    this.budget = budget;
    this.recordSize = recordSize;
    this.inPlace = inPlace;
    this.inTransfer = inTransfer;
    this.outTransfer = outTransfer;
    this.stripes = stripes;
    this.threads = threads;
    this.onePassSlabTarget = onePassSlabTarget;
    this.onePassReadBuffers = onePassReadBuffers;
    this.runFormationReadBuffers = runFormationReadBuffers;
  }

  /** The run writer's buffers for this model's stripes ({@link SortPlan#runWriteBuffers(int)}). */
  int runWriteBuffers() {
    return SortPlan.runWriteBuffers(stripes);
  }

  // ---- one pass ----

  /**
   * Records a one-pass sort can hold: the largest n whose arena, index, output pool, read pool and
   * slack fit the budget.
   */
  long onePassCapacity(int tempTransfer) {
    long capacity =
        Math.max(
            0,
            (budget - onePassBuffers(tempTransfer) - onePassSlack() - readPoolBytes(true))
                / ((long) recordSize + indexBytesPerEntry()));
    // The headroom of a parsed index rounds its entries up: step down past that rounding.
    while (capacity > 0 && onePassBytes(capacity, tempTransfer) > budget) {
      capacity--;
    }
    return capacity;
  }

  /** Bytes a one-pass arena's slabs reserve beyond its records, bounded before n is known. */
  long onePassSlack() {
    // No arena exceeds the budget, so its slab count is bounded before the capacity is known.
    return onePassArenaSlack(budget, recordSize, onePassSlabTarget);
  }

  /**
   * Bytes the one-pass sort is charged with an arena of {@code n} records: the arena, its index,
   * {@link #onePassBuffers} and the input's read pool (parsed records).
   */
  long onePassBytes(long n, int tempTransfer) {
    long arena = Math.max(Alignment.BYTES, n * recordSize);
    int slab =
        inPlace ? onePassSlabBytes(arena, recordSize, onePassSlabTarget) : arenaSlabBytes(arena, 1);
    return RecordArena.directBytes(arena, slab)
        + (long) indexEntriesFor(n) * RecordIndex.BYTES_PER_ENTRY
        + onePassBuffers(tempTransfer)
        + readPoolBytes(true);
  }

  /**
   * The one-pass sort's buffers beside its arena: the output's pool; for parsed records the larger
   * of that and the run writer's pool, which writes the arena as a first run when the input turns
   * out larger than its sample said.
   */
  private long onePassBuffers(int tempTransfer) {
    long out = DirectRegion.bytesFor(SortPlan.OUTPUT_POOL_BUFFERS, outTransfer);
    return inPlace ? out : Math.max(out, DirectRegion.bytesFor(runWriteBuffers(), tempTransfer));
  }

  // ---- run formation ----

  /**
   * Records per run that the budget holds with temp transfers of {@code temp} bytes: three arenas
   * and two indexes after the run writer's buffers, the arenas' slack and the read pool, as {@link
   * #runFormationBytes} counts them.
   */
  long budgetRecordsPerRun(int temp) {
    long io =
        DirectRegion.bytesFor(runWriteBuffers(), temp)
            + SortPlan.RUN_FORMATION_ARENAS
                * arenaSlack(budget / SortPlan.RUN_FORMATION_ARENAS, slabRecordSize())
            + readPoolBytes(false);
    long perRun =
        (budget - io)
            / (SortPlan.RUN_FORMATION_ARENAS * ((long) recordSize + indexBytesPerEntry())
                - indexBytesSaved());
    // The headroom of parsed indexes rounds their entries up: step down past that rounding.
    while (perRun > 0 && runFormationBytes(perRun, temp) > budget) {
      perRun--;
    }
    return perRun;
  }

  /**
   * Bytes run formation is charged with {@code perRun} records per arena and {@code temp}-byte temp
   * transfers: three arenas, their indexes (two in place, three for parsed records), the run
   * writer's pool and the input's read pool (parsed records).
   */
  long runFormationBytes(long perRun, int temp) {
    long arena = Math.max(1, perRun * recordSize);
    int indexes = inPlace ? 2 : SortPlan.RUN_FORMATION_ARENAS;
    return SortPlan.RUN_FORMATION_ARENAS
            * RecordArena.directBytes(arena, arenaSlabBytes(arena, slabRecordSize()))
        + indexes * (long) indexEntriesFor(perRun) * RecordIndex.BYTES_PER_ENTRY
        + DirectRegion.bytesFor(runWriteBuffers(), temp)
        + readPoolBytes(false);
  }

  /**
   * Records per run with the smallest arenas that still let the final merge of {@code records}
   * records run in one pass, split into threads parts each with two temp blocks per run (the merge
   * borrows the three arenas for its buffers, {@code ArenaMemory}): the largest run count k up to
   * the fan-in with {@code 3 ceil(n/k) r >= threads (2k T_temp + 2 T_out) + 3 max(T_temp, T_out)}.
   * Never larger than the budget allows ({@code budgetPerRun}). Why: every freshly touched page
   * costs 3–7 µs of kernel time here (docs/decisions/D5), and arenas and indexes sized to the whole
   * budget touch it all even when the input is only a few budgets long. 4 GB at 1 GiB (2 threads, 4
   * MiB transfers), sort-bench/results/pipeline.md: 14 runs of 286 MB arenas took a median 9.29
   * CPU-s (2.1–2.8 s of it kernel), 26 runs of 154 MB took 8.44 CPU-s (0.95–1.19 s kernel) and
   * 3.3–3.7 s of run formation, the merge's deeper tree costing ≈ 0.5 CPU-s of that gain; this
   * rule, with the carving margin, makes 25 runs there. Never larger than the whole input either: a
   * two-pass plan for an input of a few MB (the rest of one that outgrew its one-pass arena) whose
   * arenas cannot lend even a 2-way merge its buffers used to get arenas and indexes of the whole
   * budget (6 GB resident for 12.5 MB of lines under the default budget).
   */
  long fewestPagesPerRun(long records, long budgetPerRun, int fanIn, long q, int tempTransfer) {
    if (records == 0 || budgetPerRun <= 0) {
      return budgetPerRun;
    }
    long best = Math.min(budgetPerRun, (records + q - 1) / q * q);
    for (long k = (records + budgetPerRun - 1) / budgetPerRun + 1; k <= fanIn; k++) {
      long per = ((records + k - 1) / k + q - 1) / q * q;
      long lent = SortPlan.RUN_FORMATION_ARENAS * per * recordSize;
      // Plus what carving the arenas into blocks can lose: up to one block per arena. Short of that
      // the merge would allocate fresh pools after all.
      long need =
          (long) threads
                  * (2L * k * tempTransfer + (long) SortPlan.OUTPUT_POOL_BUFFERS * outTransfer)
              + (long) SortPlan.RUN_FORMATION_ARENAS * Math.max(tempTransfer, outTransfer);
      if (lent < need) {
        break;
      }
      best = Math.min(best, per);
    }
    return best;
  }

  // ---- merge ----

  /**
   * The fan-in that memory and the open files allow with {@code temp}-byte temp buffers: {@link
   * MergePlanLimits#maxFanIn} (two buffers per input, and the descriptors), no wider than {@link
   * #leastMergeFanIn}.
   *
   * @throws IllegalArgumentException if that is below 2
   */
  int memoryFanIn(int temp, long openFileLimit, int reserve, int perFile) {
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
            - DirectRegion.bytesFor(SortPlan.OUTPUT_POOL_BUFFERS, outTransfer)
            - DirectRegion.bytesFor(1, SortPlan.MERGED_OUTPUT_WRITER_BUFFER)
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
    long slabs = slabs(budget / SortPlan.RUN_FORMATION_ARENAS, slabRecordSize());
    return SortPlan.RUN_FORMATION_ARENAS * slabs * (long) largest;
  }

  /**
   * Buffer memory of the widest final merge of {@code k} runs in one part when all its pools are
   * fresh, as the meter charges them: the output's pool, its file's unused writer page, and two
   * temp blocks per input, fewer (at least k + 1) when the budget holds no more.
   */
  long mergeMemory(int k, int tempTransfer) {
    long out =
        DirectRegion.bytesFor(SortPlan.OUTPUT_POOL_BUFFERS, outTransfer)
            + DirectRegion.bytesFor(1, SortPlan.MERGED_OUTPUT_WRITER_BUFFER);
    long reads =
        Math.max(k + 1L, Math.min(2L * k, (budget - out) / DirectRegion.bytesFor(1, tempTransfer)));
    return out + DirectRegion.bytesFor((int) reads, tempTransfer);
  }

  // ---- the parts ----

  /** The record size that sets run formation's slab size: 1 for parsed entries. */
  private int slabRecordSize() {
    return inPlace ? recordSize : 1;
  }

  /**
   * The input's read pool of a one-pass sort ({@code onePassSort}) or of run formation: its input
   * transfers for parsed records, else none.
   */
  private long readPoolBytes(boolean onePassSort) {
    return inPlace
        ? 0
        : DirectRegion.bytesFor(
            onePassSort ? onePassReadBuffers : runFormationReadBuffers, inTransfer);
  }

  /**
   * Index entries for an arena of {@code n} records: with headroom when their count is estimated.
   */
  int indexEntriesFor(long n) {
    if (!inPlace) {
      n = (long) Math.ceil(n * SortPlan.INDEX_HEADROOM);
    }
    return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(1, n));
  }

  /**
   * Index bytes planned per entry: {@link RecordIndex#BYTES_PER_ENTRY}, times {@link
   * SortPlan#INDEX_HEADROOM} for parsed records, whose count per arena is only estimated.
   */
  private long indexBytesPerEntry() {
    return inPlace
        ? RecordIndex.BYTES_PER_ENTRY
        : (long) Math.ceil(RecordIndex.BYTES_PER_ENTRY * SortPlan.INDEX_HEADROOM);
  }

  /**
   * Run formation in place keeps two indexes for three arenas (a chunk is indexed only once the
   * write of the run two before it has finished); parsed chunks are indexed while they are read, so
   * they need three.
   */
  private long indexBytesSaved() {
    return inPlace ? RecordIndex.BYTES_PER_ENTRY : 0;
  }

  // ---- arenas and slabs ----

  /**
   * The most an arena of up to {@code maxArena} bytes of {@code recordSize}-byte records reserves
   * beyond its capacity ({@link RecordArena#directBytes(long, int)}): a page of alignment per slab
   * and up to a page of rounding. {@link SortPlan#ARENA_SLACK} when it has one slab.
   */
  static long arenaSlack(long maxArena, int recordSize) {
    return (slabs(maxArena, Math.max(1, recordSize)) + 1) * Alignment.BYTES;
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
   * Slab size of an arena of {@code capacity} bytes of {@code recordSize}-byte records (1 for
   * parsed entries): one slab when it fits 1 GiB, else the largest multiple of lcm(recordSize,
   * 4096) below 1 GiB, so that full slabs hold whole records and start aligned.
   *
   * @throws IllegalArgumentException if a record is too large for a multi-slab arena
   */
  static int arenaSlabBytes(long capacity, int recordSize) {
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
   * The slab size of a one-pass arena of {@code capacity} bytes: a multiple of lcm(recordSize,
   * 4096) (full slabs hold whole records and start on a page) near {@code target}, larger when
   * {@code target} would need more than {@link RecordArena#MAX_SLABS} slabs, at most 1 GiB; one
   * slab of the whole capacity when that is no larger.
   */
  static int onePassSlabBytes(long capacity, int recordSize, int target) {
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
}

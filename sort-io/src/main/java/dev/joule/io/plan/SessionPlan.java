package dev.joule.io.plan;

import dev.joule.core.memory.Alignment;
import dev.joule.core.memory.DirectRegion;
import dev.joule.core.memory.RecordArena;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.config.TransferSizes;
import dev.joule.io.error.SortIOException;
import java.util.Locale;

/**
 * How a sort session uses its budget, decided at open, before any record is known: the session's
 * input has no size, so it grows toward these limits as records arrive (docs/design.md, "The
 * session").
 *
 * <p><b>Model</b> (budget B, s temp stripes, temp transfer T). A session fills one <em>chunk</em>
 * (an arena and its index) while the previous one is sorted and written as a run, so it holds at
 * most two, each at most {@link #chunkBytes()} = (B − C − pool(s + 1, T)) / 2, the run writer's
 * pool being {@code pool(s + 1, T)} as in the file sort's run formation ({@link
 * SortPlan#runWriteBuffers(int)}) and C run compression's scratch buffers ({@link
 * SortPlan#codecScratchBytes()}, 0 when it does not compress). Until its first run there is nothing
 * to write behind, so the first chunk may take both halves, {@link #firstChunkBytes()} = B − C −
 * pool(s + 1, T): an input that fits that is sorted in memory (GNU sort too holds about all of its
 * {@code -S}). The price is that such a chunk's write, if it comes, is not overlapped with filling;
 * its arena is then given back (its index stays, counted, for the chunk's next fills: dropped, it
 * was heap garbage the collector kept) and every chunk keeps to {@link #chunkBytes()}. A chunk's
 * arena is made of slabs that double from {@link #FIRST_SLAB_BYTES} to {@link #largestSlabBytes()},
 * each counted (with its page of alignment) when it is allocated, and its index grows by doubling
 * (from {@link #PROJECTED_INDEX_FROM} entries on, to the entries the chunk holds at their mean
 * size), counted in full (both arrays) while it is copied; so a session of one record holds one
 * small slab and a small index. Merges use the file sort's {@link SortPlan} for the same budget and
 * transfer ({@link #mergePlan()}): fan-in, pools, passes.
 *
 * <p><b>Temp transfer.</b> A session cannot choose its transfer from its input's size as the file
 * sort does ({@code SortPlan.oneMergePassTransfer}), so unless the caller set one it takes B / 128
 * (at least {@link SortPlan#MIN_MERGE_TRANSFER}, at most the default 4 MiB): runs of half the
 * budget then merge in one pass up to about 32 budgets of input (two buffers per run). At 128 MiB
 * that is 1 MiB, which reads and writes temp files at the disk's speed here (docs/decisions/D4).
 *
 * <p>Immutable.
 */
public final class SessionPlan {
  /**
   * The first slab of a chunk: 64 KiB. A one-pair session holds that and a 256-entry index (8 KiB),
   * instead of an arena of the whole budget (50 ms and 176 MiB of RSS at 128 MiB before: issue 27).
   */
  public static final int FIRST_SLAB_BYTES = 64 << 10;

  /** Index entries of a fresh chunk; it doubles as entries arrive. */
  public static final int FIRST_INDEX_ENTRIES = 256;

  /**
   * Index entries from which a chunk's index grows to the entries its limit holds at their mean
   * size so far instead of doubling: each doubling leaves the old arrays to the collector, and a
   * chain of them up to a chunk of the whole budget was about 8 MB of old-generation garbage in the
   * embedding race of issue 27 (sort-bench/README.md, "The embedding session"). By 16,384 entries
   * the mean is known well enough, and a small session never gets there.
   */
  public static final int PROJECTED_INDEX_FROM = 1 << 14;

  /**
   * How many times its capacity a chunk's index may grow to in one projected step, beyond {@link
   * #INDEX_PROJECTION_FREE}. The projection is to the chunk's limit, which a default budget puts
   * far above a small input: 300,000 lines of a 10 MB stream grew the index (and the sorter's
   * scratch bank beside it) to 90 million entries of a 6 GiB budget, 2.8 GB of heap zeroed, 2.6 s
   * against 0.35 s at {@code -S 64M} (2026-12-07, {@code joule sort < 10 MB}). Eightfold steps
   * leave the collector an eighth of the final index per step instead of doubling's half.
   */
  public static final int MAX_INDEX_GROWTH = 8;

  /**
   * Index entries a projection may reach in one step whatever the capacity before (32 MiB with the
   * sorter's scratch bank): the chunks of issue 27's race (a 128 MiB budget, pairs of 284 bytes)
   * project to about 400,000 entries from 16,384 at once, as before {@link #MAX_INDEX_GROWTH}; an
   * eightfold step between cost that race 10-25 MiB of peak RSS (235-247 against 220-226 MiB, 3
   * alternating rounds).
   */
  public static final int INDEX_PROJECTION_FREE = 1 << 20;

  /** Budget per temp transfer of a session that did not set its own: see the class comment. */
  static final int BUDGET_PER_TRANSFER = 128;

  /** Slabs a full chunk's arena has at least (past the small ones): its largest is 1/8 of it. */
  static final int SLABS_PER_CHUNK = 8;

  private final long budget;
  private final int tempTransfer;
  private final int writeBuffers;
  private final long writePoolBytes;
  private final long chunkBytes;
  private final long firstChunkBytes;
  private final int largestSlab;
  private final SortPlan merge;

  private SessionPlan(SortConfig c) throws SortIOException {
    this.budget = c.memoryBudget().bytes();
    int t = c.transferSize(FileKind.TEMP);
    if (t == TransferSizes.DEFAULT_TRANSFER) {
      long own = budget / BUDGET_PER_TRANSFER / Alignment.BYTES * Alignment.BYTES;
      t = (int) Math.min(t, Math.max(SortPlan.MIN_MERGE_TRANSFER, own));
    }
    // The file sort's plan of an empty input under the same budget and transfer: its merge
    // arithmetic (fan-in, least pools, the B/32 cap on transfers) is the session's too.
    this.merge = SortPlan.of(0, c.toBuilder().transferSize(FileKind.TEMP, dataSize(t)).build());
    this.tempTransfer = merge.tempTransfer();
    this.writeBuffers = merge.runWriteBuffers();
    this.writePoolBytes = DirectRegion.bytesFor(writeBuffers, tempTransfer);
    long work = merge.workBudget() - writePoolBytes; // run compression's scratch reserved first
    this.chunkBytes = Math.max(2L * FIRST_SLAB_BYTES, work / 2);
    this.firstChunkBytes = Math.max(chunkBytes, work);
    long slab = chunkBytes / SLABS_PER_CHUNK / Alignment.BYTES * Alignment.BYTES;
    this.largestSlab = (int) Math.max(FIRST_SLAB_BYTES, Math.min(RecordArena.MAX_SLAB_BYTES, slab));
  }

  /** The plan of a session under {@code config}. */
  public static SessionPlan of(SortConfig config) throws SortIOException {
    return new SessionPlan(config);
  }

  private static dev.joule.io.config.DataSize dataSize(int bytes) {
    return dev.joule.io.config.DataSize.ofBytes(bytes);
  }

  /** The budget: everything the session holds at once. */
  public long budget() {
    return budget;
  }

  /** Bytes per temp run block (and per read and write of temp files). */
  public int tempTransfer() {
    return tempTransfer;
  }

  /** Buffers of the run writer's pool (one filling and one being written per stripe). */
  public int writeBuffers() {
    return writeBuffers;
  }

  /** What the run writer's pool is charged. */
  public long writePoolBytes() {
    return writePoolBytes;
  }

  /** The most one chunk (arena slabs with their alignment, and index) is charged. */
  public long chunkBytes() {
    return chunkBytes;
  }

  /**
   * The most the first chunk is charged while no run was written: both chunks' share, since the
   * other chunk has nothing to hold yet (see the class comment).
   */
  public long firstChunkBytes() {
    return firstChunkBytes;
  }

  /** The largest slab of a chunk's arena: the largest entry a chunk holds. */
  public int largestSlabBytes() {
    return largestSlab;
  }

  /** The file sort's plan whose merge arithmetic the session's merges use. */
  public SortPlan mergePlan() {
    return merge;
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "session plan: budget %d, two chunks of up to %d bytes (the first up to %d until it"
            + " spills; slabs of %d to %d bytes), run writer %d x %d bytes, fan-in %d",
        budget,
        chunkBytes,
        firstChunkBytes,
        FIRST_SLAB_BYTES,
        largestSlab,
        writeBuffers,
        tempTransfer,
        merge.mergeFanIn());
  }
}

package dev.joule.io.pipeline;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.Alignment;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.radix.RadixRunSorter;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.input.ArenaIndexer;
import dev.joule.io.input.EntryAppender;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.plan.SessionPlan;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * One chunk of a sort session: an arena that grows slab by slab and an index that grows by doubling
 * (then to the entries the chunk's limit holds, {@code nextIndexCapacity}), which {@code add}
 * fills, then sorted and spilled as one run (or, if it is the whole input, read in order from
 * memory). A session has two, filling one while the other is written ({@link SessionEngine}).
 *
 * <p><b>Growth.</b> A chunk never grows by itself: {@link #growthFor} says what the next step costs
 * (a slab of the arena with its page of alignment, or a larger index, both arrays of the old and
 * the new one counted while the entries are copied), the session asks its ledger for it, and {@link
 * #grow} takes the step; {@link #charged()} is what the chunk holds in the ledger. Fixed records
 * read in place are indexed only when the chunk is sorted, so each slab is charged with the index
 * entries of the records it holds when it is allocated.
 *
 * <p><b>Checksum.</b> With validation, every entry's CRC-32C is taken as it is added, from its copy
 * in the arena (the record; for key/value pairs key and value together, which lie next to each
 * other), once: the run is written with this checksum as known ({@code RunWriter}) and the cursor
 * compares the output against the session's total. Fixed records in place are checksummed while
 * they are indexed ({@link ArenaIndexer#checksumAndIndex}).
 *
 * <p>Not thread-safe: the session's adding thread fills it; its writer thread sorts and writes it
 * only between {@link SessionEngine}'s hand-off and the end of that write, when no one else uses
 * it.
 */
final class SessionChunk implements AutoCloseable {
  private final EntrySpec spec;
  private final EntryLayout layout;
  private final SessionPlan plan;
  private final int fixedSize; // fixed records read in place: their size; else 0
  private final boolean pairs;
  private final boolean checksums;
  private RecordArena arena; // null until the first growth, and after release
  private RecordIndex index;
  private EntryAppender appender;
  private long charged;
  private long limit; // the most it may be charged: the first chunk's share until the first spill
  private final long[] slabCharged = new long[RecordArena.MAX_SLABS]; // what each slab was charged
  private final ByteBuffer[] crcViews = new ByteBuffer[RecordArena.MAX_SLABS]; // moved per entry
  private final RecordChecksum[] slabSums = new RecordChecksum[RecordArena.MAX_SLABS]; // per slab
  private int inPlaceRecords; // records the allocated slabs hold (in place)
  private int slab; // in place: the slab being filled
  private RecordChecksum sum;
  private long recordBytes;
  private long records;
  private int sorted = -1; // entries sorted, or -1 while filling
  private boolean split; // its tail slabs were written first and given back

  SessionChunk(EntrySpec spec, SessionPlan plan, int fixedSize, boolean pairs, boolean checksums) {
    this.spec = spec;
    this.layout = spec.layout();
    this.plan = plan;
    this.fixedSize = fixedSize;
    this.pairs = pairs;
    this.checksums = checksums;
    this.sum = emptySum();
    this.limit = plan.firstChunkBytes();
  }

  /**
   * From now on the chunk grows only to {@link SessionPlan#chunkBytes()}: the session writes runs,
   * and two chunks must fit. A chunk already larger keeps its memory until it is released.
   */
  void keepToChunkBytes() {
    limit = plan.chunkBytes();
  }

  /**
   * Whether the chunk holds more than a chunk of a spilling session may, or did until its tail was
   * taken out ({@link #detachTail}): either way its arena goes back once it is written.
   */
  boolean oversized() {
    return split || charged > plan.chunkBytes();
  }

  /**
   * An empty checksum of the kind the session checks with: CRC-32C sums (a third of CRC-32's cost
   * here, {@link RecordChecksum#castagnoli()}), for fixed records in place too (the parallel index
   * pass takes their sum in this kind, {@link ArenaIndexer}): for 1 GB of gensort records the
   * cursor's CRCs took 0.31 CPU-s of the caller's thread as CRC-32 and 0.22 as CRC-32C, the index
   * pass's 0.25 and 0.21 (async-profiler, 1 ms samples, session-vs-file.sh's session; at 100 bytes
   * a call costs about as much as its bytes).
   */
  static RecordChecksum emptySum() {
    return RecordChecksum.castagnoli();
  }

  /** Whether the chunk holds no entry. */
  boolean isEmpty() {
    return recordBytes == 0 && records == 0;
  }

  /**
   * Records added since the chunk was last emptied (fixed records in place: known once sorted; a
   * part of a record may arrive before the rest of it).
   */
  long records() {
    return records;
  }

  /** Bytes of the records added (values of pairs). */
  long recordBytes() {
    return recordBytes;
  }

  /** What the chunk holds in the session's ledger. */
  long charged() {
    return charged;
  }

  /** The checksum of the entries added (as the session's check defines it). */
  RecordChecksum checksum() {
    return sum;
  }

  /** The index, valid once {@link #sort} returned. */
  RecordIndex index() {
    return index;
  }

  /** The arena (null when the chunk holds no memory). */
  RecordArena arena() {
    return arena;
  }

  // ---- growth ----

  /**
   * The bytes the next growth step costs so that an entry of {@code entryLength} bytes (0 for fixed
   * records in place) may fit, or 0 if the chunk cannot grow: at its plan's size, or the entry
   * larger than its largest slab (an outsized entry).
   */
  long growthFor(int entryLength) {
    if (entryLength > plan.largestSlabBytes()) {
      return 0;
    }
    long step;
    if (arena == null) {
      step =
          slabCharge(SessionPlan.FIRST_SLAB_BYTES)
              + (index != null ? 0 : indexCharge(firstIndex()));
    } else if (fixedSize == 0 && !index.hasRoom()) {
      step = indexCharge(nextIndexCapacity()); // both arrays live while the entries are copied
    } else if (arena.allocatedSlabs() < arena.slabCount()) {
      int next = arena.allocatedSlabs();
      step = slabCharge(arena.slabCapacity(next));
    } else {
      return 0;
    }
    return charged + step <= limit ? step : 0;
  }

  /**
   * Takes the growth step {@link #growthFor} priced at {@code step} bytes, which the session has
   * taken from its ledger; returns the bytes to give back once it is done (the old index's, when
   * the index doubled).
   */
  long grow(long step) {
    charged += step;
    if (arena == null) {
      if (index == null) {
        newArena(step - indexCharge(firstIndex()));
        index = RecordIndex.allocate(fixedSize > 0 ? 1 : firstIndex());
      } else {
        newArena(step); // the index kept by releaseArena
      }
      if (fixedSize > 0) {
        inPlaceRecords = arena.slabCapacity(0) / fixedSize;
        slab = 0;
      } else {
        if (appender == null) {
          appender = new EntryAppender(spec);
        }
        appender.reset(arena, index);
      }
      return 0;
    }
    if (fixedSize == 0 && !index.hasRoom()) {
      long old = indexCharge(index.capacity());
      index.growTo((int) (step / RecordIndex.BYTES_PER_ENTRY)); // the capacity growthFor priced
      charged -= old;
      return old;
    }
    int next = arena.allocatedSlabs();
    arena.allocateSlab(next);
    boundSlab(next, step);
    return 0;
  }

  /** Counts slab {@code next}, just allocated or adopted, charged {@code step}. */
  private void boundSlab(int next, long step) {
    slabCharged[next] = step;
    if (fixedSize > 0) {
      inPlaceRecords += arena.slabCapacity(next) / fixedSize;
    } else {
      index.bindSlab(next);
    }
  }

  private void newArena(long firstSlabCharge) {
    arena =
        RecordArena.reserveGrowing(
            plan.firstChunkBytes(), SessionPlan.FIRST_SLAB_BYTES, plan.largestSlabBytes());
    arena.allocateSlab(0);
    slabCharged[0] = firstSlabCharge;
  }

  /**
   * The bytes one more slab costs (without index entries: for a merge that borrows the arena as
   * buffer memory), or 0 if the chunk is at its plan's size.
   */
  long mergeSlabStep() {
    long step;
    if (arena == null) {
      step = (long) SessionPlan.FIRST_SLAB_BYTES + Alignment.BYTES;
    } else if (arena.allocatedSlabs() < arena.slabCount()) {
      step = (long) arena.slabCapacity(arena.allocatedSlabs()) + Alignment.BYTES;
    } else {
      return 0;
    }
    return charged + step <= limit ? step : 0;
  }

  /** Takes the step {@link #mergeSlabStep} priced at {@code step}: one more slab, no index. */
  void growMergeSlab(long step) {
    charged += step;
    if (arena == null) {
      newArena(step);
      return;
    }
    int next = arena.allocatedSlabs();
    arena.allocateSlab(next);
    slabCharged[next] = step;
  }

  /**
   * The capacity a full index grows to: twice its own, or from {@link
   * SessionPlan#PROJECTED_INDEX_FROM} entries on the entries the chunk holds at its limit if they
   * keep their mean size (arena and index bytes together), at most {@link
   * SessionPlan#MAX_INDEX_GROWTH} times its own or {@link SessionPlan#INDEX_PROJECTION_FREE}, when
   * that is more and fits beside what the chunk holds. An estimate too low costs a doubling more at
   * the end (or a run written a little early, if that does not fit); too high, a little of the
   * chunk's arena.
   */
  private int nextIndexCapacity() {
    int cap = index.capacity();
    int doubled = 2 * cap;
    if (cap < SessionPlan.PROJECTED_INDEX_FROM || index.size() == 0) {
      return doubled;
    }
    long perEntry = arena.filledBytes() / index.size() + RecordIndex.BYTES_PER_ENTRY;
    long projected =
        Math.min(
            limit / perEntry,
            Math.max(SessionPlan.INDEX_PROJECTION_FREE, (long) cap * SessionPlan.MAX_INDEX_GROWTH));
    if (projected <= doubled
        || projected > Integer.MAX_VALUE - 8
        || charged + indexCharge((int) projected) > limit) {
      return doubled;
    }
    return (int) projected;
  }

  private int firstIndex() {
    return fixedSize > 0 ? 0 : SessionPlan.FIRST_INDEX_ENTRIES;
  }

  /** A slab and, in place, the index entries of the records it holds. */
  private long slabCharge(int capacity) {
    long bytes = (long) capacity + Alignment.BYTES;
    return fixedSize > 0
        ? bytes + (long) (capacity / fixedSize) * RecordIndex.BYTES_PER_ENTRY
        : bytes;
  }

  private static long indexCharge(int entries) {
    return (long) entries * RecordIndex.BYTES_PER_ENTRY;
  }

  // ---- adding ----

  /**
   * Appends one entry of the record (or value) {@code [start, start + length)} of {@code src} and
   * the key {@code [keyStart, keyStart + keyLength)} of {@code key}, or the key {@code appender}
   * encoded when {@code key} is null; false if the chunk has no room for it as it is.
   */
  boolean append(
      ByteBuffer src, int start, int length, ByteBuffer key, int keyStart, int keyLength) {
    if (arena == null) {
      return false;
    }
    boolean ok =
        key == null
            ? appender.append(src, start, length)
            : appender.append(src, start, length, key, keyStart, keyLength);
    if (!ok) {
      return false;
    }
    if (checksums) {
      int s = appender.lastSlab();
      int at = appender.lastOffset();
      ByteBuffer slab = arena.view().slab(s);
      ByteBuffer v = crcViews[s];
      if (v == null) {
        v = slab.duplicate();
        crcViews[s] = v;
      }
      int rp = layout.recordStart(slab, at);
      int from = pairs ? layout.keyStart(at) : rp;
      v.limit(v.capacity()).position(from).limit(rp + length);
      slabSum(s).addCrc(sum.addRecord(v));
    }
    recordBytes += length;
    records++;
    return true;
  }

  private RecordChecksum slabSum(int s) {
    RecordChecksum c = slabSums[s];
    if (c == null) {
      c = emptySum();
      slabSums[s] = c;
    }
    return c;
  }

  /**
   * The checksum of the entries added to slabs {@code [from, to)} (entries go in slab by slab, so
   * the runs of a chunk written in two have the sums of their slabs and need no CRC pass: 0.85 s of
   * the run writers' time in SQL query (b), async-profiler; fixed records in place have theirs from
   * the index pass, {@link #prepare}), or an empty sum without validation as {@link #checksum()} is
   * then.
   */
  RecordChecksum sumOfSlabs(int from, int to) {
    RecordChecksum c = emptySum();
    for (int s = Math.max(0, from); s < Math.min(to, slabSums.length); s++) {
      if (slabSums[s] != null) {
        c.add(slabSums[s]);
      }
    }
    return c;
  }

  /** The encoder of derived keys: {@link EntryAppender#encodeKey} before {@link #append}. */
  EntryAppender appender() {
    return appender;
  }

  /** An appender for key encoding before the chunk has memory. */
  EntryAppender appenderForKeys() {
    if (appender == null) {
      appender = new EntryAppender(spec);
    }
    return appender;
  }

  /**
   * Copies whole fixed records from {@code b} (position advances) into the chunk's slabs; stops
   * when they are full. Returns the bytes copied.
   */
  int appendInPlace(ByteBuffer b) {
    if (arena == null) {
      return 0;
    }
    int copied = 0;
    while (b.hasRemaining() && slab < arena.allocatedSlabs()) {
      int usable = arena.slabCapacity(slab) / fixedSize * fixedSize;
      int at = arena.filled(slab);
      int room = usable - at;
      if (room == 0) {
        slab++;
        continue;
      }
      int n = Math.min(room, b.remaining());
      arena.writableWindow(slab, 0, usable).put(at, b, b.position(), n);
      b.position(b.position() + n);
      arena.setFilled(slab, at + n);
      copied += n;
    }
    recordBytes += copied;
    return copied;
  }

  /** The largest entry an empty chunk of this plan holds: its largest slab. */
  int largestEntry() {
    return plan.largestSlabBytes();
  }

  // ---- sorting and reuse ----

  /**
   * Sorts the chunk (fixed records in place: indexes and checksums them first); returns the
   * entries. Called once per fill, by whichever thread writes or reads the chunk.
   */
  int sort(RadixRunSorter sorter) {
    prepare(sorter);
    sorter.sort(index);
    sorted = index.size();
    return sorted;
  }

  /**
   * Makes the entries ready to sort (fixed records in place: indexes and checksums them), in the
   * order they were added; returns them. {@link #sortRange} then sorts parts of them.
   */
  int prepare(RadixRunSorter sorter) {
    if (fixedSize > 0) {
      if (index.capacity() < inPlaceRecords) {
        index.growTo(inPlaceRecords); // charged with the slabs
      }
      RecordChecksum[] sums =
          ArenaIndexer.checksumAndIndexBySlab(
              arena.view(), index, layout, spec.tie(), checksums ? sum : null, sorter.pool());
      if (sums != null) {
        sum = emptySum();
        for (int s = 0; s < sums.length; s++) {
          slabSums[s] = sums[s];
          sum.add(sums[s]);
        }
      }
      records = index.size();
    }
    return index.size();
  }

  /** Sorts the prepared entries {@code [from, to)} among themselves. */
  void sortRange(RadixRunSorter sorter, int from, int to) {
    sorter.sort(index, from, to);
    sorted = index.size();
  }

  // ---- a write in two parts ----

  /**
   * Where the write of an oversized chunk splits: the first slab of its tail, the slabs that hold
   * about the later half of its charge, or 0 when it is not oversized. The tail is sorted and
   * written first and its slabs taken out ({@link #detachTail}), so that the session goes on
   * filling while the rest is written, instead of waiting for a whole budget's run.
   */
  int splitSlab() {
    if (arena == null || charged <= plan.chunkBytes()) {
      return 0;
    }
    int n = arena.allocatedSlabs();
    long total = 0;
    for (int s = 0; s < n; s++) {
      total += slabCharged[s];
    }
    long before = 0;
    for (int s = 0; s < n; s++) {
      if (before >= total / 2) {
        return s;
      }
      before += slabCharged[s];
    }
    return 0;
  }

  /**
   * The first prepared entry in slab {@code slab} or after it (entries are added slab by slab, so
   * before sorting those of the tail are the last ones), or the number of entries.
   */
  int firstEntryIn(int slab) {
    int lo = 0;
    int hi = index.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (index.slab(mid) < slab) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Bytes filled in slabs {@code [from, to)}: at least the records they hold. */
  long filledBytes(int from, int to) {
    long b = 0;
    for (int s = from; s < Math.min(to, arena.allocatedSlabs()); s++) {
      b += arena.filled(s);
    }
    return b;
  }

  /**
   * Takes out slabs {@code from} on, whose entries were written, into {@code into} (last first):
   * the chunk no longer holds their memory, which the other chunk may adopt ({@link #grow(long,
   * RecordArena.Slab)}). Returns the bytes they were charged, their {@link
   * RecordArena.Slab#reservedBytes()} (fixed records in place: without their index entries, which
   * the index array still holds until the chunk is released). Called by the thread that writes the
   * chunk.
   */
  long detachTail(int from, List<RecordArena.Slab> into) {
    long freed = 0;
    for (int s = arena.allocatedSlabs() - 1; s >= from; s--) {
      long slabBytes = (long) arena.slabCapacity(s) + Alignment.BYTES;
      slabCharged[s] -= slabBytes; // pairs: all of it; in place, the index share stays
      freed += slabBytes;
      RecordArena.Slab slab = arena.detachLastSlab();
      if (slab == null) {
        throw new IllegalStateException("slab " + s + " of " + arena + " is not allocated");
      }
      into.add(slab);
      crcViews[s] = null;
    }
    charged -= freed;
    split = true;
    return freed;
  }

  /**
   * The capacity of the slab the next growth step allocates, or -1 when that step is not a slab of
   * an arena the chunk has (the first slab, an index growth, or none).
   */
  int nextSlabCapacity() {
    if (arena == null
        || (fixedSize == 0 && !index.hasRoom())
        || arena.allocatedSlabs() >= arena.slabCount()) {
      return -1;
    }
    return arena.slabCapacity(arena.allocatedSlabs());
  }

  /**
   * Takes the growth step {@link #growthFor} priced at {@code step}, a slab of {@link
   * #nextSlabCapacity()} bytes, with the memory of {@code slab} instead of fresh memory: the
   * session has {@code slab}'s bytes charged already and took the rest of the step (in place, the
   * slab's index entries) from its ledger.
   */
  void grow(long step, RecordArena.Slab slab) {
    int next = arena.allocatedSlabs();
    arena.adoptSlab(next, slab);
    charged += step;
    boundSlab(next, step);
  }

  /** Entries sorted by the last {@link #sort}. */
  int sortedEntries() {
    return sorted;
  }

  /** Forgets the entries (after they were written as a run) and keeps the memory for the next. */
  void clear() {
    sum = emptySum();
    java.util.Arrays.fill(slabSums, null);
    recordBytes = 0;
    records = 0;
    sorted = -1;
    if (arena == null) {
      return;
    }
    if (fixedSize > 0) {
      arena.clear();
      slab = 0;
    } else {
      appender.reset(arena, index);
    }
  }

  /**
   * Gives back all of the chunk's memory; returns the bytes it was charged (the caller gives them
   * back to its ledger). The chunk must hold no entry still to be read or written.
   */
  long release() {
    long was = charged;
    dropArena();
    index = null;
    charged = 0;
    clear();
    return was;
  }

  /** Closes the arena and forgets its slabs' charges and views (not the ledger's total). */
  private void dropArena() {
    if (arena != null) {
      arena.close();
    }
    java.util.Arrays.fill(slabCharged, 0);
    java.util.Arrays.fill(crcViews, null);
    arena = null;
    inPlaceRecords = 0;
    split = false;
  }

  /**
   * Gives back the arena of an oversized chunk once its run is written, and keeps its index,
   * charged, for the chunk's next fills; returns the bytes freed. The index of a chunk that grew
   * into the whole budget is twice what a chunk of a spilling session needs, but dropping it leaves
   * its arrays (a quarter of the chunk's bytes for pairs of a few hundred bytes) to the collector's
   * old generation, which keeps that room in the process: the embedding race of issue 27 held 29 MB
   * of dead index arrays in a 48 MB old generation. Kept, the chunk's next arenas are smaller by
   * the difference, and nothing is left behind. Fixed records in place (whose index is charged with
   * the slabs) and an index that would leave the chunk less than half of its bytes for records give
   * everything back ({@link #release}).
   */
  long releaseArena() {
    if (fixedSize > 0
        || arena == null
        || index == null
        || indexCharge(index.capacity()) > plan.chunkBytes() / 2) {
      return release();
    }
    long kept = indexCharge(index.capacity());
    long was = charged - kept;
    index.unbind();
    dropArena();
    charged = kept;
    clear();
    return was;
  }

  /**
   * Once the run of an oversized chunk is written (its tail given back or not): keeps its first
   * slabs, as many as fit in a chunk of a spilling session ({@link SessionPlan#chunkBytes()})
   * beside its index, and gives back the rest; returns the bytes freed. Fresh memory costs 3-7 µs a
   * 4 KiB page on these VMs (docs/decisions/D21), and the chunk would grow again at once what it
   * gave back: a chunk of the SQL race's query (a) spent 1.5 s of its adds zeroing fresh slabs.
   * Fixed records in place keep slabs with their index shares and build a new index for them when
   * next sorted; pairs keep their index as {@link #releaseArena} does, and give everything back
   * where it does.
   */
  long keepHead() {
    if (arena == null
        || (fixedSize == 0
            && (index == null || indexCharge(index.capacity()) > plan.chunkBytes() / 2))) {
      return releaseArena();
    }
    long kept = fixedSize > 0 ? 0 : indexCharge(index.capacity());
    int keep = 0;
    while (keep < arena.allocatedSlabs() && kept + slabCharged[keep] <= plan.chunkBytes()) {
      kept += slabCharged[keep];
      keep++;
    }
    if (keep == 0) {
      return releaseArena();
    }
    long freed = 0;
    for (int s = keep; s < slabCharged.length; s++) {
      freed += slabCharged[s]; // in place, a given-back tail slab's index share is still charged
      slabCharged[s] = 0;
    }
    arena.releaseSlabsFrom(keep);
    java.util.Arrays.fill(crcViews, keep, crcViews.length, null);
    if (fixedSize > 0) {
      index = RecordIndex.allocate(1); // the old one indexed every slab; prepare grows this one
      inPlaceRecords = 0;
      for (int s = 0; s < keep; s++) {
        inPlaceRecords += arena.slabCapacity(s) / fixedSize;
      }
    }
    charged -= freed;
    split = false;
    clear();
    return freed;
  }

  /**
   * Gives back the slabs from {@code from} on, which hold nothing in use any more (what a merge
   * borrowing the arena did not carve); returns the bytes they were charged. The index must be
   * released first ({@link #releaseIndex}).
   */
  long releaseSlabsFrom(int from) {
    if (arena == null) {
      return 0;
    }
    long freed = 0;
    for (int s = Math.max(0, from); s < arena.allocatedSlabs(); s++) {
      freed += slabCharged[s];
      slabCharged[s] = 0;
    }
    arena.releaseSlabsFrom(from);
    java.util.Arrays.fill(crcViews, Math.max(0, from), crcViews.length, null);
    charged -= freed;
    return freed;
  }

  /**
   * Gives back the index and every slab but {@code keep} (the slab of the entry a reader still
   * views; -1 for none), once the entries were written or read: a spill while the cursor reads the
   * chunk. Returns the bytes; {@link #release} gives back the rest once the reader moves on.
   */
  long releaseAllBut(int keep) {
    if (arena == null) {
      return 0;
    }
    long freed = 0;
    if (index != null && fixedSize == 0) {
      freed += indexCharge(index.capacity());
    }
    index = null; // in place its entries were charged with the slabs, freed with them below
    for (int s = 0; s < arena.allocatedSlabs(); s++) {
      if (s != keep && slabCharged[s] > 0) {
        freed += slabCharged[s];
        slabCharged[s] = 0;
        arena.releaseSlab(s);
        crcViews[s] = null;
      }
    }
    charged -= freed;
    return freed;
  }

  /**
   * Drops the index (a merge that borrows the arena does not need it); returns the bytes it was
   * charged. For records in place the index entries stay charged with the slabs.
   */
  long releaseIndex() {
    if (index == null || fixedSize > 0) {
      return 0;
    }
    long was = indexCharge(index.capacity());
    index = null;
    charged -= was;
    return was;
  }

  @Override
  public void close() {
    if (arena != null) {
      arena.close();
      arena = null;
    }
    index = null;
  }
}

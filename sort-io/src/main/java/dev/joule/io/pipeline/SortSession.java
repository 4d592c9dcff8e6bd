package dev.joule.io.pipeline;

import dev.joule.core.gather.RecordGatherer;
import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.Alignment;
import dev.joule.core.memory.DirectRegion;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.merge.RunCursor;
import dev.joule.core.radix.RadixRunSorter;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortValidationException;
import dev.joule.io.input.ArenaIndexer;
import dev.joule.io.input.EntryAppender;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.input.InputStage;
import dev.joule.io.memory.ArenaMemory;
import dev.joule.io.memory.MemoryMeter;
import dev.joule.io.memory.Resources;
import dev.joule.io.output.OutputValidator;
import dev.joule.io.plan.MergePlan;
import dev.joule.io.plan.SortPlan;
import dev.joule.io.prefetch.MergeInputs;
import dev.joule.io.prefetch.MergeSource;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.run.RunSpill;
import dev.joule.io.stripe.RoundRobinStripes;
import dev.joule.io.stripe.TempSpace;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A push/pull sort for embedding, the shape of a data platform's sort operator: {@link #add}
 * records of the configured format (or, in a session from {@link ExternalSorter#openPairs}, {@link
 * #add(ByteBuffer, ByteBuffer) key/value pairs} ordered by the unsigned bytes of the key), then
 * {@link #finish()} returns a {@link RecordCursor} over them in order. Equal keys keep the order
 * they were added in (or the configured last resort orders them).
 *
 * <p><b>Memory.</b> Entries are copied into one off-heap arena sized so that the arena, its index
 * and the buffers of a spill fit the budget ({@link #memoryBytes()} says what the session holds).
 * When the arena or its index is full, it is sorted and written as a run file ({@link RunSpill}).
 * {@link #finish()} sorts in memory if nothing was written; otherwise it writes the rest, merges
 * the runs down to the plan's fan-in ({@link MergePasses}) in buffers carved from the idle arena
 * ({@link ArenaMemory}), and streams the final merge ({@link MergeSource}).
 *
 * <p><b>Cooperative spill.</b> {@link #spill()} may be called from another thread (a platform's
 * memory manager under pressure): while records are being added it sorts and writes what the arena
 * holds and frees the arena (allocated again by the next {@code add}); while the cursor iterates
 * the sorted arena it writes only the records not yet read, and the cursor goes on from that file;
 * during a merge it frees nothing. Every method takes the session's lock, so a spill runs between
 * two adds or two {@code next()} calls, never inside one.
 *
 * <p><b>Validation.</b> The cursor checks count, checksum (of records, and of keys of pairs) and
 * order against what was added; a mismatch throws {@link SortValidationException} at the end.
 *
 * <p><b>Threads.</b> Spills and merges write and prefetch on dedicated threads, and the arena is
 * sorted on the compute pool: the caller's, if {@link SortConfig#threadFactory()} and {@link
 * SortConfig#computePool()} say so. Each dedicated thread is joined before the step that started it
 * returns. A refused thread or a shut-down pool fails that step with a {@link
 * java.util.concurrent.RejectedExecutionException}; {@link #close()} then deletes what was written.
 *
 * <p>Thread-safety: one thread adds, finishes and iterates; {@link #spill()} and {@link
 * #memoryBytes()} from any thread. {@link #close()} releases everything (arena, sorter threads,
 * prefetch threads, temp files); the cursor must not be used after it.
 */
public final class SortSession implements AutoCloseable {
  /**
   * Bytes of an entry the session assumes to size its index when entries vary in size (records with
   * derived keys, lines, pairs): a guess, not a limit. Smaller entries fill the index first and
   * spill earlier; larger ones fill the arena first.
   */
  static final int ASSUMED_ENTRY_BYTES = 96;

  private enum State {
    ADDING,
    MERGING,
    ITERATING,
    CLOSED
  }

  private final SortConfig config;
  private final EntrySpec spec;
  private final EntryLayout layout;
  private final boolean pairs;
  private final int fixedSize; // fixed records: their size; else 0
  private final SortPlan plan;
  private final long arenaBytes;
  private final int indexEntries;
  private final MemoryMeter meter = new MemoryMeter();
  private final Resources res = new Resources(meter);
  private final ReentrantLock lock = new ReentrantLock();
  private final RecordChecksum inputChecksum = new RecordChecksum();
  private final List<RunDescriptor> runs = new ArrayList<>();
  private final NoticeSink notices;
  private final SortThreads threads;
  private RadixRunSorter sorter;
  private Resources memory; // the arena, freed by a spill
  private Resources indexMemory; // the index, freed with the arena and before the final merge
  private RecordArena arena;
  private RecordIndex index;
  private EntryAppender appender; // entries that are not records read in place
  private ByteBuffer[] slabs; // records in place: the arena's writable slabs
  private int[] usable; // records in place: whole records' bytes per slab
  private int slab;
  private TempSpace temp;
  private long records;
  private volatile State state = State.ADDING;
  private ArenaEntries iterating; // the sorted arena the cursor reads, for a spill during iteration

  SortSession(SortConfig config, boolean pairs) throws IOException {
    this.config = config;
    this.pairs = pairs;
    this.spec = pairs ? EntrySpec.pairs(config.unique()) : EntrySpec.of(config);
    this.layout = spec.layout();
    this.fixedSize = config.format() instanceof FixedLengthFormat f && !pairs ? f.recordSize() : 0;
    this.plan = SortPlan.of(0, config);
    this.notices = NoticeSink.distinct(config.notices());
    this.threads = SortThreads.of(config.threadFactory());
    FileSortJob.checkComputePool(config);
    long avail =
        config.memoryBudget().bytes()
            - DirectRegion.bytesFor(plan.runWriteBuffers(), plan.tempTransfer())
            - SortPlan.arenaSlack(config.memoryBudget().bytes(), Math.max(1, fixedSize));
    int entry = spec.inPlace() ? fixedSize : ASSUMED_ENTRY_BYTES;
    long entries = Math.max(1, avail / (entry + RecordIndex.BYTES_PER_ENTRY));
    this.indexEntries = (int) Math.min(Integer.MAX_VALUE - 8, entries);
    this.arenaBytes =
        spec.inPlace()
            ? (long) indexEntries * fixedSize
            : Math.max(Alignment.BYTES, avail - (long) indexEntries * RecordIndex.BYTES_PER_ENTRY);
  }

  // ---- adding ----

  /**
   * Adds records: for fixed-size records, the whole records from {@code records}' position to its
   * limit; for lines and length-prefixed rows, exactly one record (its bytes, without delimiter or
   * length). Copied; {@code records} is not retained and its position is unchanged.
   *
   * @throws IllegalArgumentException if the bytes are not whole records, a record exceeds the
   *     format's limit or the arena, or the record lacks a fixed-position key field
   * @throws IllegalStateException in a key/value session, or after {@link #finish()}
   * @throws IOException when a spill fails
   */
  public void add(ByteBuffer records) throws IOException {
    if (pairs) {
      throw new IllegalStateException("a key/value session takes add(key, value)");
    }
    if (fixedSize > 0 && records.remaining() % fixedSize != 0) {
      throw new IllegalArgumentException(
          records.remaining() + " bytes are not a whole number of " + fixedSize + "-byte records");
    }
    lock.lock();
    try {
      checkAdding();
      if (spec.inPlace()) {
        addInPlace(records.duplicate());
      } else if (fixedSize > 0) {
        for (int p = records.position(); p < records.limit(); p += fixedSize) {
          addEntry(records, p, fixedSize, null, 0, 0);
        }
      } else {
        int max = config.format().maxRecordLength();
        if (records.remaining() > max) {
          throw new IllegalArgumentException(
              "a record of "
                  + records.remaining()
                  + " bytes is longer than "
                  + config.format()
                  + " allows ("
                  + max
                  + ")");
        }
        addEntry(records, records.position(), records.remaining(), null, 0, 0);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Adds one key/value pair (copied; neither buffer is retained, positions unchanged): pairs are
   * ordered by the unsigned bytes of their keys ({@link dev.joule.core.key.KeyEncoder} builds keys
   * that order typed fields so), equal keys in the order they were added.
   *
   * @throws IllegalStateException in a session of records, or after {@link #finish()}
   * @throws IllegalArgumentException if the pair does not fit the arena
   * @throws IOException when a spill fails
   */
  public void add(ByteBuffer key, ByteBuffer value) throws IOException {
    if (!pairs) {
      throw new IllegalStateException(
          "add(key, value) needs a key/value session (ExternalSorter.openPairs)");
    }
    lock.lock();
    try {
      checkAdding();
      addEntry(value, value.position(), value.remaining(), key, key.position(), key.remaining());
    } finally {
      lock.unlock();
    }
  }

  /**
   * Adds the readable bytes of a Netty buffer, as {@link #add(ByteBuffer)} (not retained, indices
   * unchanged). Named apart from {@link #add(ByteBuffer)} on purpose: an overload would make javac
   * load {@code ByteBuf} for every {@code add} call, so callers without Netty could not compile.
   *
   * @throws IOException when a spill fails
   */
  @SuppressWarnings("exports") // Netty is optional: callers of this method have it
  public void addByteBuf(io.netty.buffer.ByteBuf records) throws IOException {
    if (fixedSize > 0 && records.readableBytes() % fixedSize != 0) {
      throw new IllegalArgumentException(
          records.readableBytes()
              + " bytes are not a whole number of "
              + fixedSize
              + "-byte records");
    }
    NettyRecords.add(this, records);
  }

  /** Whether {@link NettyRecords} may hand over a composite buffer part by part. */
  boolean takesParts() {
    return spec.inPlace();
  }

  /**
   * One part of a Netty buffer of fixed records read in place ({@link NettyRecords}): a part may
   * end inside a record, which the next part completes.
   */
  void addPart(ByteBuffer b) throws IOException {
    lock.lock();
    try {
      checkAdding();
      addInPlace(b.duplicate());
    } finally {
      lock.unlock();
    }
  }

  private void checkAdding() {
    if (state != State.ADDING) {
      throw new IllegalStateException(
          state == State.CLOSED ? "session is closed" : "finish() was already called");
    }
  }

  private void ensureMemory() {
    if (arena != null) {
      return;
    }
    memory = new Resources(meter);
    indexMemory = new Resources(meter);
    arena = memory.arena(arenaBytes, InputStage.slabBytes(arenaBytes, Math.max(1, fixedSize)));
    if (spec.inPlace()) {
      slabs = new ByteBuffer[arena.slabCount()];
      usable = new int[arena.slabCount()];
      long fits = 0;
      for (int s = 0; s < slabs.length; s++) {
        slabs[s] = arena.writableWindow(s, 0, arena.slabCapacity(s));
        usable[s] = arena.slabCapacity(s) / fixedSize * fixedSize;
        fits += usable[s] / fixedSize;
      }
      index =
          indexMemory.index(
              (int) Math.min(Integer.MAX_VALUE - 8, fits)); // the arena's 4096 rounding
      slab = 0;
    } else {
      index = indexMemory.index(indexEntries);
      if (appender == null) {
        appender = new EntryAppender(spec);
      }
      appender.reset(arena, index);
    }
    if (sorter == null) {
      sorter = res.add(FileSortJob.sorter(config));
    }
  }

  /** Copies fixed records straight into the arena's slabs (indexed when sorted). */
  private void addInPlace(ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      ensureMemory();
      int room = usable[slab] - arena.filled(slab);
      if (room == 0) {
        if (slab + 1 < usable.length) {
          slab++;
          continue;
        }
        spillLocked(false);
        continue;
      }
      int n = Math.min(room, b.remaining());
      int at = arena.filled(slab);
      slabs[slab].put(at, b, b.position(), n);
      b.position(b.position() + n);
      arena.setFilled(slab, at + n);
    }
  }

  /** Appends one entry (spilling first if the arena is full); checksums its record (and key). */
  private void addEntry(
      ByteBuffer src, int start, int length, ByteBuffer key, int keyStart, int keyLength)
      throws IOException {
    ensureMemory();
    if (key == null) {
      try {
        appender.encodeKey(src, start, length);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("record " + records + " has no key: " + e.getMessage());
      }
    }
    if (!append(src, start, length, key, keyStart, keyLength)) {
      if (appender.size() > 0) {
        spillLocked(false);
        ensureMemory();
      }
      if (!append(src, start, length, key, keyStart, keyLength)) {
        spillOutsized(src, start, length, key, keyStart, keyLength);
      }
    }
    inputChecksum.addRecord(src, start, length);
    if (key != null) {
      inputChecksum.addRecord(key, keyStart, keyLength);
    }
    records++;
  }

  private boolean append(
      ByteBuffer src, int start, int length, ByteBuffer key, int keyStart, int keyLength) {
    return key == null
        ? appender.append(src, start, length)
        : appender.append(src, start, length, key, keyStart, keyLength);
  }

  // ---- sorting and spilling ----

  /** Sorts the arena's entries; returns their number. Fixed records are indexed first. */
  private int sortArena() {
    FileSortJob.checkComputePool(config); // a pool shut down since open: say which setting failed
    if (spec.inPlace()) {
      RecordChecksum sum =
          ArenaIndexer.checksumAndIndex(arena.view(), index, layout, spec.tie(), sorter.pool());
      inputChecksum.add(sum);
      records += index.size();
    }
    sorter.sort(index);
    return index.size();
  }

  private boolean arenaEmpty() {
    return arena == null || arena.filledBytes() == 0;
  }

  /**
   * Writes one entry too large for the session's empty arena as a run of its own, from an overflow
   * arena of its size freed at once: like the file sort's ({@code EntryFiller}), above the budget
   * by that entry while it is written. The arena is empty (spilled) and stays bound to the
   * appender.
   */
  private void spillOutsized(
      ByteBuffer src, int start, int length, ByteBuffer key, int keyStart, int keyLength)
      throws IOException {
    if (spec.inPlace()) { // fixed records always fit: the arena holds at least one
      throw new IllegalStateException("a fixed record does not fit the session's empty arena");
    }
    long entry = key == null ? appender.entryLength(length) : layout.entryLength(length, keyLength);
    try (RecordArena big = RecordArena.allocate(Math.max(entry, Alignment.BYTES))) {
      appender.reset(big, index);
      if (!append(src, start, length, key, keyStart, keyLength)) {
        throw new IllegalStateException("an empty overflow arena of " + entry + " bytes is full");
      }
      sorter.sort(index);
      writeRun(big, 0, 1);
    } finally {
      appender.reset(arena, index);
    }
  }

  /** Writes the sorted entries {@code [from, n)} of the arena as a run. */
  private void writeRun(int from, int n) throws IOException {
    writeRun(arena, from, n);
  }

  /** Writes the sorted entries {@code [from, n)} of {@code source}, the index's arena, as a run. */
  private void writeRun(RecordArena source, int from, int n) throws IOException {
    if (temp == null) {
      temp = res.add(TempSpace.open(config.tempDirs(), new RoundRobinStripes(), notices));
    }
    try (Resources local = new Resources(meter)) {
      RunSpill spill =
          local.add(
              RunSpill.create(
                  temp,
                  "run",
                  layout,
                  source.filledBytes(),
                  plan.tempTransfer(),
                  local.pool(plan.runWriteBuffers(), plan.tempTransfer()),
                  config.directIo(),
                  threads));
      spill.add(index, from, n, new RecordGatherer(sorter.pool()));
      RunDescriptor d = spill.finish();
      runs.add(d);
    }
  }

  /** Sorts and writes what the arena holds; frees it if {@code free}. Holds the lock. */
  private long spillLocked(boolean free) throws IOException {
    if (arenaEmpty()) {
      return 0;
    }
    int n = sortArena();
    writeRun(0, n);
    long held = meter.current();
    if (free) {
      freeMemory();
    } else if (spec.inPlace()) {
      arena.clear();
      slab = 0;
    } else {
      appender.reset(arena, index);
    }
    return free ? held - meter.current() : 0;
  }

  private void freeMemory() throws IOException {
    Resources m = memory;
    memory = null;
    arena = null;
    slabs = null;
    freeIndex();
    if (m != null) {
      m.close();
    }
  }

  private void freeIndex() throws IOException {
    Resources m = indexMemory;
    indexMemory = null;
    index = null;
    if (m != null) {
      m.close();
    }
  }

  /**
   * Frees the session's record memory by writing it out, from any thread: while records are being
   * added, the arena is sorted, written as a run and freed; while the cursor reads the sorted
   * arena, only the records it has not read yet are written, and the arena is freed when the cursor
   * moves past its current record. During merges, or with nothing held, does nothing.
   *
   * @return the bytes of memory freed (or about to be freed by the cursor's next move)
   * @throws IOException when writing the run fails (the session is then unusable: close it)
   */
  public long spill() throws IOException {
    State s = state;
    if (s == State.MERGING || s == State.CLOSED) {
      return 0; // a merge's buffers are in use; do not wait for it
    }
    lock.lock();
    try {
      if (state == State.ADDING) {
        return spillLocked(true);
      }
      if (state == State.ITERATING && iterating != null) {
        return iterating.spillRest();
      }
      return 0;
    } finally {
      lock.unlock();
    }
  }

  /** Memory the session holds now (arena, index, buffers), in bytes; from any thread. */
  public long memoryBytes() {
    return meter.current();
  }

  /** The most memory the session has held at once, in bytes. */
  public long peakMemoryBytes() {
    return meter.peak();
  }

  /** Runs written so far (by spills and when the arena filled). */
  public int spilledRuns() {
    lock.lock();
    try {
      return runs.size();
    } finally {
      lock.unlock();
    }
  }

  // ---- finishing and reading ----

  /**
   * Ends the input and returns the records in sorted order. Call once.
   *
   * @throws IOException when a spill or an intermediate merge fails
   */
  public RecordCursor finish() throws IOException {
    lock.lock();
    try {
      checkAdding();
      if (runs.isEmpty()) {
        state = State.ITERATING;
        if (arenaEmpty()) {
          freeMemory();
          return validating(Entries.EMPTY);
        }
        int n = sortArena();
        iterating = new ArenaEntries(n);
        return validating(iterating);
      }
      state = State.MERGING;
      spillLocked(false);
      // The merge borrows the arena, not the index: its budget share goes to the merge's buffers.
      freeIndex();
      ArenaMemory lent = arena == null ? null : new ArenaMemory(arena);
      MergePhase merge = new MergePhase(config, spec, plan, meter, lent);
      long[] sizes = new long[runs.size()];
      for (int i = 0; i < sizes.length; i++) {
        sizes[i] = runs.get(i).dataBytes();
      }
      MergePlan mp = MergePlan.of(sizes, plan.mergeFanIn());
      List<RunDescriptor> last = MergePasses.beforeFinal(mp, runs, merge, temp, report -> {});
      if (lent != null) {
        lent.reset();
      }
      Entries merged = new MergedEntries(last, merge);
      state = State.ITERATING;
      return validating(merged);
    } finally {
      lock.unlock();
    }
  }

  /** Sorted entries, one at a time: the arena's, or a merge's. */
  private interface Entries {
    Entries EMPTY =
        new Entries() {
          @Override
          public boolean next() {
            return false;
          }

          @Override
          public ByteBuffer buffer() {
            return null;
          }

          @Override
          public int position() {
            return 0;
          }
        };

    boolean next() throws IOException;

    ByteBuffer buffer();

    int position();
  }

  /** The sorted arena's entries in index order; a spill turns the rest into a run file. */
  private final class ArenaEntries implements Entries {
    private final int n;
    private int i = -1;
    private ByteBuffer buffer;
    private int position;
    private MergedEntries rest; // after a spill: the unread entries, from their run file
    private boolean freeOnNext;

    ArenaEntries(int n) {
      this.n = n;
    }

    @Override
    public boolean next() throws IOException {
      if (freeOnNext) {
        freeOnNext = false;
        freeMemory(); // the caller has moved past the last view into the arena
      }
      if (rest != null) {
        if (!rest.next()) {
          return false;
        }
        buffer = rest.buffer();
        position = rest.position();
        return true;
      }
      if (i + 1 >= n) {
        i = n;
        return false;
      }
      i++;
      long ref = index.ref(i);
      buffer = index.slabBuffer(RecordIndex.slabOf(ref));
      position = RecordIndex.offsetOf(ref);
      return true;
    }

    /** Writes entries after the current one as a run, to be read from there. */
    long spillRest() throws IOException {
      if (rest != null || arena == null) {
        return 0;
      }
      int from = Math.min(n, i + 1);
      if (from < n) {
        writeRun(from, n);
      }
      long held =
          memory == null ? 0 : arenaBytes + (long) indexEntries * RecordIndex.BYTES_PER_ENTRY;
      rest = new MergedEntries(from < n ? List.of(runs.get(runs.size() - 1)) : List.of(), null);
      freeOnNext = true;
      return held;
    }

    @Override
    public ByteBuffer buffer() {
      return buffer;
    }

    @Override
    public int position() {
      return position;
    }
  }

  /**
   * A streaming merge of run files, its read pool from {@code merge} (the lent arena first, within
   * the budget), or fresh without one (the one run a spill under memory pressure leaves).
   */
  private final class MergedEntries implements Entries {
    private final MergeSource source;
    private RunCursor current;

    MergedEntries(List<RunDescriptor> runs, MergePhase merge) throws IOException {
      if (runs.isEmpty()) {
        source = null;
        return;
      }
      MergeInputs in = res.add(new MergeInputs(runs, layout, config.directIo(), config.notices()));
      BlockPool pool =
          merge != null
              ? merge.streamingPool(res, runs.size())
              : res.pool(2 * runs.size(), plan.tempTransfer());
      source = res.add(MergeSource.whole(in, pool, spec.tie(), threads));
    }

    @Override
    public boolean next() throws IOException {
      if (source == null || !source.next()) {
        current = null;
        return false;
      }
      current = source.current();
      return true;
    }

    @Override
    public ByteBuffer buffer() {
      return current.buffer();
    }

    @Override
    public int position() {
      return current.position();
    }
  }

  private RecordCursor validating(Entries entries) {
    OutputValidator v = OutputValidator.of(spec);
    if (pairs) {
      v.withKeysInChecksum();
    }
    return new RecordCursor() {
      private boolean checked;
      private ByteBuffer record;
      private ByteBuffer key;

      @Override
      public boolean next() throws IOException {
        lock.lock();
        try {
          if (state == State.CLOSED) {
            throw new IllegalStateException("session is closed");
          }
          while (entries.next()) {
            ByteBuffer b = entries.buffer();
            int at = entries.position();
            if (spec.unique() && v.sameKeyAsPrevious(b, at)) {
              v.dropEntry(b, at);
              continue;
            }
            v.acceptEntry(b, at);
            record = b.slice(layout.recordStart(b, at), layout.recordLength(b, at));
            key = b.slice(layout.keyStart(at), layout.keyLength(b, at));
            return true;
          }
          record = null;
          key = null;
          if (!checked) {
            checked = true;
            v.checkAgainstInput(records, inputChecksum, "the session's output");
          }
          return false;
        } finally {
          lock.unlock();
        }
      }

      @Override
      public ByteBuffer record() {
        return record;
      }

      @Override
      public ByteBuffer key() {
        return key;
      }

      @Override
      public void close() {}
    };
  }

  /** Releases the arena, threads and temp files; idempotent. */
  @Override
  public void close() {
    lock.lock();
    try {
      if (state == State.CLOSED) {
        return;
      }
      state = State.CLOSED;
      RuntimeException primary = new RuntimeException("closing the sort session failed");
      // The merge's readers and pools first: their buffers may be carved from the arena.
      res.closeAfterFailure(primary);
      if (indexMemory != null) {
        indexMemory.closeAfterFailure(primary);
        indexMemory = null;
        index = null;
      }
      if (memory != null) {
        memory.closeAfterFailure(primary);
        memory = null;
        arena = null;
      }
      if (primary.getSuppressed().length > 0) {
        throw primary;
      }
    } finally {
      lock.unlock();
    }
  }
}

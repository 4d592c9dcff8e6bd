package dev.joule.io.pipeline;

import dev.joule.core.gather.RecordGatherer;
import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.index.RepeatCounts;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.block.WorkerThread;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.fs.Failures;
import dev.joule.io.hooks.SortHooks;
import dev.joule.io.input.EntryAppender;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.memory.ArenaMemory;
import dev.joule.io.memory.MemoryMeter;
import dev.joule.io.memory.Resources;
import dev.joule.io.plan.SessionPlan;
import dev.joule.io.prefetch.MergeSource;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.stripe.Stripe;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What a {@link SortSession} does behind its door: add → spill when full → merge down → stream, on
 * the shared {@link RunStore}.
 *
 * <p><b>Adding.</b> Entries go into the filling {@link SessionChunk}, which grows as its {@link
 * SessionPlan} and the memory grant allow. When it cannot grow, it is handed to the run writer
 * thread ({@code joule-runwrite}), which sorts it (on the compute pool) and spills it through the
 * store, while {@code add} goes on filling the other chunk: {@code add} waits only when that one is
 * full too before the write is done (the writer is slower than the caller). At most one write is
 * pending, so the session holds two chunks and the run writer's pool. Until the first spill the
 * filling chunk may grow into the other's half too ({@link SessionPlan#firstChunkBytes()}): a
 * session that never spills holds its whole budget in one chunk. If it does spill, that chunk is
 * written in two runs: the entries of its later slabs (about half of it) are sorted and written
 * first and those slabs taken out, so filling goes on after half a write instead of a whole one
 * (the runs keep input order in the store, {@link RunStore#moveBefore}); the other chunk grows into
 * them (spares, still charged: fresh memory costs 3-7 µs a page on these VMs), and once both runs
 * are written the first chunk keeps the first slabs a chunk may hold and gives back the rest
 * ({@link SessionChunk#keepHead}).
 *
 * <p><b>Finishing.</b> Without runs, the filling chunk is sorted and read from memory. Otherwise it
 * is spilled too; the indexes and the write pool are given back, the merge passes run ({@link
 * RunStore#mergeDown}) with buffers carved from the idle arenas, the final merge streams with its
 * read pool carved likewise, and the arenas' slabs that no buffer uses are given back at once. The
 * final merge runs ahead of the cursor on a thread of its own if the configuration asks for it, the
 * session may use more than one thread and the budget has room for its blocks ({@link MergeAhead}).
 *
 * <p><b>Spill</b> ({@link #spill}, from any thread, or from inside the memory grant on the adding
 * thread): while adding, the pending write is awaited, the filling chunk written, and both chunks
 * and the write pool given back; while the cursor reads an unspilled chunk, the unread rest is
 * written and the chunk freed at the cursor's next move; during a merge nothing more can go (what
 * the merge does not use was given back when it started). A spill bumps the session's epoch, which
 * tells a growth step interrupted by a re-entrant spill to start over.
 *
 * <p>Thread-safety: every entry point takes the session's lock (re-entrant); the run writer thread
 * touches only the chunk handed to it, between the hand-off and the end of its write.
 */
final class SessionEngine implements AutoCloseable {
  private enum State {
    ADDING,
    MERGING,
    ITERATING,
    CLOSED
  }

  final SortConfig config;
  final EntrySpec spec;
  final EntryLayout layout;
  final boolean pairs;
  final int fixedSize; // fixed records (any key): their size; else 0
  private final boolean inPlace;
  private final boolean validate;
  private final SessionPlan plan;
  private final MemoryMeter meter;
  private final ReentrantLock lock = new ReentrantLock();
  private final SortThreads threads;
  private final RunStore store;
  private final SessionChunk[] chunks = new SessionChunk[2];
  private final Resources res;
  private SessionChunk filling;
  private SessionChunk other;
  private Future<RunDescriptor> pending; // the write of `other`, or null
  // An oversized chunk's write: its tail's slabs once written (none if it failed first)
  private CompletableFuture<List<RecordArena.Slab>> tailFreed;
  // Those slabs, charged, for the filling chunk to adopt instead of growing fresh memory
  private final List<RecordArena.Slab> spares = new ArrayList<>();
  private int adoptedSlabs; // for tests: growth steps that took a spare instead of fresh memory
  private WorkerThread writer;
  private Resources writeRes; // the run writer's pool, given back by spills and before merging
  private BlockPool writePool;
  private final RecordGatherer gatherer = new RecordGatherer(null); // the writer thread's
  private long epoch;
  private int spillDepth; // spills running on the thread that holds the lock
  private long added; // records added, for error messages and the overlap test's hook
  private Throwable failed; // a run write's failure: the session takes nothing more
  private long stallNanos; // add's time beyond copying: growing, handing off, waiting
  private final AtomicLong sortNanos = new AtomicLong(); // chunks sorted (writer or adding thread)
  private int mergePasses;
  private long mergedBytes;
  private volatile State state = State.ADDING;
  private Resources streamRes; // the final merge's inputs, pool and prefetch threads
  private SessionCursor cursor;

  SessionEngine(SortConfig config, boolean pairs) throws IOException {
    this(config, pairs, true);
  }

  /**
   * A session; {@code checkTempDirs} false leaves the temp dirs to the first spill, which checks
   * them then with the same error (a sort of streams: GNU sort needs {@code -T} only when it
   * spills).
   */
  SessionEngine(SortConfig config, boolean pairs, boolean checkTempDirs) throws IOException {
    this.config = config;
    this.pairs = pairs;
    this.spec =
        pairs ? EntrySpec.pairs(config.unique(), config.lastResort()) : EntrySpec.of(config);
    this.layout = spec.layout();
    this.fixedSize = config.format() instanceof FixedLengthFormat f && !pairs ? f.recordSize() : 0;
    this.inPlace = spec.inPlace();
    this.validate = config.validate();
    Sorters.checkComputePool(config);
    for (Path d : checkTempDirs ? config.tempDirs() : List.<Path>of()) {
      Stripe.validate(d); // at open, not at the first spill gigabytes later
    }
    this.plan = SessionPlan.of(config);
    this.meter = new MemoryMeter(config.memoryGrant(), config.memoryBudget().bytes());
    this.threads = SortThreads.of(config.threadFactory());
    this.res = new Resources(meter);
    this.store =
        res.add(
            new RunStore(
                config,
                spec,
                plan.mergePlan(),
                meter,
                threads,
                NoticeSink.distinct(config.notices()),
                SessionChunk.emptySum()));
    for (int i = 0; i < 2; i++) {
      chunks[i] = new SessionChunk(spec, plan, inPlace ? fixedSize : 0, pairs, validate);
    }
    filling = chunks[0];
    other = chunks[1];
  }

  ReentrantLock lock() {
    return lock;
  }

  // ---- adding ----

  /** Adds whole fixed records from {@code b}'s position to its limit (position advances). */
  void addInPlace(ByteBuffer b) throws IOException {
    lock.lock();
    try {
      checkAdding();
      while (b.hasRemaining()) {
        int n = filling.appendInPlace(b);
        if (n > 0) {
          added += n / fixedSize;
          continue;
        }
        long t0 = System.nanoTime();
        try {
          if (!grow(fixedSize) && !awaitTail() && (!filling.isEmpty() || !swapToIdle())) {
            handOff(false);
          }
        } finally {
          stallNanos += System.nanoTime() - t0;
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Adds one entry: the record (value) {@code [start, start + length)} of {@code src} with the key
   * {@code [keyStart, keyStart + keyLength)} of {@code key}, or the key derived from the record
   * when {@code key} is null.
   */
  void addEntry(ByteBuffer src, int start, int length, ByteBuffer key, int keyStart, int keyLength)
      throws IOException {
    lock.lock();
    try {
      checkAdding();
      EntryAppender keys = null;
      if (key == null) {
        keys = filling.appenderForKeys();
        try {
          keys.encodeKey(src, start, length);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("record " + added + " has no key: " + e.getMessage());
        }
      }
      int entry = key == null ? keys.entryLength(length) : layout.entryLength(length, keyLength);
      if (!filling.append(src, start, length, key, keyStart, keyLength)) {
        long t0 = System.nanoTime(); // the clock only off the fast path: it costs 20-40 ns here
        try {
          addSlowly(src, start, length, key, keyStart, keyLength, keys, entry);
        } finally {
          stallNanos += System.nanoTime() - t0;
        }
      }
      added++;
    } finally {
      lock.unlock();
    }
  }

  /**
   * {@link #addEntry} once the filling chunk had no room: grows it, or hands it off and goes on in
   * the other, or writes an entry too large for any chunk as a run of its own.
   */
  private void addSlowly(
      ByteBuffer src,
      int start,
      int length,
      ByteBuffer key,
      int keyStart,
      int keyLength,
      EntryAppender keys,
      int entry)
      throws IOException {
    SessionChunk encoded = filling; // a derived key: the chunk whose appender holds it
    do {
      // grown, or the first chunk's tail came back to grow into; else write or hand off
      if (!grow(entry) && !awaitTail()) {
        if (entry > filling.largestEntry() || (filling.isEmpty() && !swapToIdle())) {
          spillOutsized(src, start, length, key, keyStart, keyLength, keys);
          return;
        }
        if (!filling.isEmpty()) {
          handOff(false);
        }
      }
      if (key == null && filling != encoded) {
        // Another chunk fills now (a hand-off, a swap, or a spill inside the grant, which hands
        // off and releases both): the next append reads its appender, so encode the key there.
        keys = filling.appenderForKeys();
        keys.encodeKey(src, start, length);
        encoded = filling;
      }
    } while (!filling.append(src, start, length, key, keyStart, keyLength));
  }

  /** See {@link SortSession#addStallNanos()}. */
  long stallNanos() {
    return stallNanos;
  }

  /**
   * One growth step of the filling chunk for an entry of {@code entry} bytes, if the plan, the
   * budget and the grant allow it. A spill from inside the grant (re-entrant) changes the chunks:
   * then nothing is taken and the caller tries again from the start (true).
   */
  private boolean grow(int entry) {
    long step = filling.growthFor(entry);
    if (step == 0) {
      return false;
    }
    RecordArena.Slab spare = spareFor(filling);
    long ask = spare == null ? step : step - spare.reservedBytes(); // in place: its index share
    long e = epoch;
    boolean ok = meter.tryAllocate(ask);
    while (!ok && e == epoch && spares.size() > (spare == null ? 0 : 1)) {
      // A spare's bytes make room for what none covers: the chunk's early slabs, smaller than any
      // spare, or in place the index entries of an adopted one
      dropSpare(spares.get(spares.size() - 1) == spare ? 0 : spares.size() - 1);
      ok = meter.tryAllocate(ask);
    }
    if (e != epoch) {
      if (ok) {
        meter.freed(ask);
      }
      return true; // a spill ran inside the grant: the chunks are new, look again
    }
    if (!ok) {
      return false;
    }
    if (spare != null) {
      spares.remove(spare);
      filling.grow(step, spare);
      adoptedSlabs++;
      return true;
    }
    try {
      long back = filling.grow(step);
      meter.freed(back);
    } catch (OutOfMemoryError err) {
      meter.freed(step);
      throw err;
    }
    return true;
  }

  /**
   * The filling chunk is empty and cannot grow: if the other chunk has memory and no write pending
   * (or its write can be awaited), swaps to it. False when neither chunk has memory to offer.
   */
  private boolean swapToIdle() throws IOException {
    if (other.arena() == null && pending == null) {
      return false;
    }
    awaitPending();
    if (other.arena() == null) {
      return true; // its write gave the memory back (an oversized first chunk): grow again
    }
    SessionChunk c = filling;
    filling = other;
    other = c;
    return filling.arena() != null;
  }

  /**
   * Hands the filling chunk to the run writer and goes on with the other one (after its pending
   * write, if any, is done). With {@code wait}, also waits for this write (a spill).
   */
  private void handOff(boolean wait) throws IOException {
    long e = epoch;
    ensureWriter();
    if (e != epoch) {
      return; // a spill inside the grant wrote the filling chunk already
    }
    awaitPending();
    SessionChunk full = filling;
    filling = other;
    other = full;
    // The first chunk's tail was for the chunk that filled while its head was written; the other
    // one kept what a chunk may hold (SessionChunk.keepHead).
    dropSpares();
    for (SessionChunk c : chunks) {
      c.keepToChunkBytes(); // runs from now on: two chunks must fit
    }
    BlockPool pool = writePool;
    SortHooks hooks = SortHooks.of(config);
    long handedAt = added;
    int split = full.splitSlab();
    CompletableFuture<List<RecordArena.Slab>> tail = split > 0 ? new CompletableFuture<>() : null;
    tailFreed = tail;
    pending = writer.submit(() -> writeChunk(full, split, tail, pool, hooks, handedAt));
    if (wait) {
      awaitPending();
    }
  }

  /**
   * On the run writer thread: sorts the chunk, counts it as input, spills it, empties it. With
   * {@code split} &gt; 0 (an oversized chunk) the entries in slabs {@code split} on go first as a
   * run of their own, and {@code tail} gets their slabs' bytes as soon as they are given back.
   */
  private RunDescriptor writeChunk(
      SessionChunk chunk,
      int split,
      CompletableFuture<List<RecordArena.Slab>> tail,
      BlockPool pool,
      SortHooks hooks,
      long handedAt)
      throws IOException {
    try {
      hooks.beforeSessionRunWrite().accept(handedAt);
      Sorters.checkComputePool(config); // a pool shut down since open: say which setting failed
      if (split > 0) {
        return writeInTwo(
            chunk, split, tail, pool, () -> hooks.beforeSessionRunWrite().accept(handedAt));
      }
      int n = sort(chunk);
      store.addInput(chunk.records(), chunk.checksum());
      RunDescriptor d =
          store.spillSorted(
              chunk.index(),
              0,
              n,
              RepeatCounts.NONE,
              chunk.recordBytes(),
              pool,
              gatherer,
              chunk.checksum());
      chunk.clear();
      return d;
    } finally {
      if (tail != null) {
        tail.complete(List.of()); // failed before the tail was taken out: it goes with the chunk
      }
    }
  }

  /**
   * {@link #writeChunk} of an oversized chunk: its tail from slab {@code split} on, then the rest.
   */
  private RunDescriptor writeInTwo(
      SessionChunk chunk,
      int split,
      CompletableFuture<List<RecordArena.Slab>> tail,
      BlockPool pool,
      Runnable beforeSecondRun)
      throws IOException {
    long t0 = System.nanoTime();
    int n = chunk.prepare(store.sorter());
    int m = chunk.firstEntryIn(split);
    // Every entry in the tail (none before it): nothing to give back early, one run as an unsplit
    // chunk's.
    boolean early = m > 0;
    if (!early) {
      m = n;
    }
    RunDescriptor later = null;
    if (m < n) {
      chunk.sortRange(store.sorter(), m, n);
      sortNanos.addAndGet(System.nanoTime() - t0);
      later =
          store.spillSorted(
              chunk.index(),
              m,
              n,
              RepeatCounts.NONE,
              chunk.filledBytes(split, Integer.MAX_VALUE),
              pool,
              gatherer,
              chunk.sumOfSlabs(split, Integer.MAX_VALUE));
      t0 = System.nanoTime();
    }
    store.addInput(chunk.records(), chunk.checksum());
    if (early) {
      List<RecordArena.Slab> slabs = new ArrayList<>();
      chunk.detachTail(split, slabs);
      tail.complete(slabs); // with no entry in them, at once
    }
    if (later != null) {
      beforeSecondRun.run();
    }
    chunk.sortRange(store.sorter(), 0, m);
    sortNanos.addAndGet(System.nanoTime() - t0);
    RunDescriptor d =
        store.spillSorted(
            chunk.index(),
            0,
            m,
            RepeatCounts.NONE,
            later == null
                ? chunk.recordBytes()
                : Math.min(chunk.recordBytes(), chunk.filledBytes(0, split)),
            pool,
            gatherer,
            later == null ? chunk.checksum() : chunk.sumOfSlabs(0, split));
    if (later != null) {
      store.moveBefore(d, later);
    }
    chunk.clear();
    return d;
  }

  /** Starts the run writer thread and takes its pool, if not done yet. */
  private void ensureWriter() throws IOException {
    if (writer == null) {
      writer = res.add(new WorkerThread(threads, "runwrite"));
    }
    // Opened here, not by the writer: opening charges the meter for run compression's buffers,
    // which this thread may hold (a spill from inside the grant) while it waits for the writer.
    store.temp();
    if (writePool == null) {
      // The least a spill needs: taken even if the grant refuses (spilling is how memory comes
      // back).
      Resources r = new Resources(meter);
      writePool = r.pool(plan.writeBuffers(), plan.tempTransfer());
      writeRes = r;
    }
  }

  private void releaseWritePool() throws IOException {
    if (writeRes != null) {
      Resources r = writeRes;
      writeRes = null;
      writePool = null;
      r.close();
    }
  }

  private void awaitPending() throws IOException {
    Future<RunDescriptor> f = pending;
    if (f == null) {
      return;
    }
    pending = null;
    try {
      f.get();
      awaitTail(); // done by now: its bytes go back before the chunk's arena
      if (other.oversized()) {
        // The first chunk grew into both halves before it had to spill: now that it is written,
        // it keeps what a chunk may hold and gives back the rest, so that two chunks fit again.
        meter.freed(other.keepHead());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      SortCancelledException c =
          new SortCancelledException("session cancelled while a run was written");
      failed = c;
      throw c;
    } catch (ExecutionException e) {
      failed = e.getCause();
      awaitTail(); // the write ended: a tail given back before it failed is counted back now
      throw Failures.translate(e.getCause());
    }
  }

  /**
   * Waits until the tail of the oversized chunk being written is taken out, and keeps its slabs,
   * still charged, as spares for the filling chunk to grow into ({@link #grow}); false if no write
   * is split or its tail was not taken out (it failed).
   */
  private boolean awaitTail() throws IOException {
    CompletableFuture<List<RecordArena.Slab>> t = tailFreed;
    if (t == null) {
      return false;
    }
    List<RecordArena.Slab> slabs;
    try {
      slabs = t.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SortCancelledException("session cancelled while a run was written");
    } catch (ExecutionException e) {
      throw new IllegalStateException("a tail's bytes are never an exception", e);
    }
    tailFreed = null;
    spares.addAll(slabs);
    return !slabs.isEmpty();
  }

  /** The spare slab the filling chunk's next growth step can adopt, or null. */
  private RecordArena.Slab spareFor(SessionChunk c) {
    int capacity = spares.isEmpty() ? -1 : c.nextSlabCapacity();
    for (RecordArena.Slab s : spares) {
      if (s.capacity() == capacity) {
        return s;
      }
    }
    return null;
  }

  /** Growth steps so far that adopted a spare slab instead of allocating fresh memory. */
  int adoptedSlabs() {
    return adoptedSlabs;
  }

  /** Gives back the spare slabs no chunk adopted. */
  private void dropSpares() {
    while (!spares.isEmpty()) {
      dropSpare(spares.size() - 1);
    }
  }

  private void dropSpare(int i) {
    RecordArena.Slab s = spares.remove(i);
    s.close();
    meter.freed(s.reservedBytes());
  }

  /**
   * Writes one entry too large for an empty chunk (or for any memory the grant gives) as a run of
   * its own, after the entries added before it.
   */
  private void spillOutsized(
      ByteBuffer src,
      int start,
      int length,
      ByteBuffer key,
      int keyStart,
      int keyLength,
      EntryAppender keys)
      throws IOException {
    if (!filling.isEmpty()) {
      handOff(false);
    }
    awaitPending();
    ensureWriter();
    store.spillOutsized(src, start, length, key, keyStart, keyLength, keys, writePool);
    store.addInput(1, outsizedChecksum(src, start, length, key, keyStart, keyLength));
  }

  /** The checksum of the outsized entry, as the session's check defines it (0 without one). */
  private dev.joule.core.valsort.RecordChecksum outsizedChecksum(
      ByteBuffer src, int start, int length, ByteBuffer key, int keyStart, int keyLength) {
    dev.joule.core.valsort.RecordChecksum c = SessionChunk.emptySum();
    if (!validate) {
      return c;
    }
    if (pairs) {
      ByteBuffer both = ByteBuffer.allocate(keyLength + length);
      both.put(0, key, keyStart, keyLength).put(keyLength, src, start, length);
      c.addRecord(both, 0, both.capacity());
    } else {
      c.addRecord(src, start, length);
    }
    return c;
  }

  void checkAdding() {
    if (state != State.ADDING) {
      throw new IllegalStateException(
          state == State.CLOSED ? "session is closed" : "finish() was already called");
    }
    if (failed != null) {
      // The failed write's chunk may still view memory the other chunk has taken since (its
      // tail's slabs): adding on would write into another run's entries.
      throw new IllegalStateException(
          "a run write of this session failed (" + failed + "); close it", failed);
    }
  }

  // ---- spilling ----

  /** See {@link SortSession#spill()}. */
  long spill() throws IOException {
    State s = state;
    if (s == State.MERGING || s == State.CLOSED) {
      return 0; // a merge's buffers are in use; do not wait for it
    }
    lock.lock();
    try {
      if (spillDepth++ > 0) {
        // Re-entered from the grant while this spill asks for its write buffers (a manager that
        // spills every consumer, the asking one included, as Spark's does): nothing more now.
        return 0;
      }
      if (state == State.ADDING && failed == null) {
        long before = meter.current();
        if (!filling.isEmpty()) {
          handOff(true);
        } else {
          awaitPending();
        }
        meter.freed(filling.release() + other.release());
        dropSpares();
        releaseWritePool();
        epoch++;
        return Math.max(0, before - meter.current());
      }
      if (state == State.ITERATING && cursor != null) {
        return cursor.spillRest();
      }
      return 0;
    } finally {
      spillDepth--;
      lock.unlock();
    }
  }

  /** Memory held now. */
  long memoryBytes() {
    return meter.current();
  }

  /** The most memory held at once. */
  long peakMemoryBytes() {
    return meter.peak();
  }

  /** Sorts {@code chunk} on the compute pool, timing it; returns its entries. */
  private int sort(SessionChunk chunk) {
    long t0 = System.nanoTime();
    int n = chunk.sort(store.sorter());
    sortNanos.addAndGet(System.nanoTime() - t0);
    return n;
  }

  /** See {@link SortSession#stats()}. */
  SessionStats stats() {
    lock.lock();
    try {
      long spilled = 0;
      List<RunDescriptor> runs = store.runs();
      for (RunDescriptor d : runs) {
        spilled += d.dataBytes();
      }
      return new SessionStats(
          sortNanos.get(), runs.size(), spilled, mergePasses, mergedBytes, meter.peak());
    } finally {
      lock.unlock();
    }
  }

  /** Runs spilled so far. */
  int spilledRuns() {
    lock.lock();
    try {
      return store.runCount();
    } finally {
      lock.unlock();
    }
  }

  // ---- finishing ----

  /** See {@link SortSession#finish()}. */
  RecordCursor finish() throws IOException {
    lock.lock();
    try {
      checkAdding();
      if (store.runCount() == 0 && pending == null) {
        state = State.ITERATING;
        meter.freed(other.release());
        if (filling.isEmpty()) {
          meter.freed(filling.release());
          cursor = new SessionCursor(this, SessionCursor.Entries.EMPTY, validate);
          return cursor;
        }
        Sorters.checkComputePool(config);
        int n = sort(filling);
        store.addInput(filling.records(), filling.checksum());
        cursor = new SessionCursor(this, new ArenaEntries(filling, n), validate);
        return cursor;
      }
      state = State.MERGING;
      if (!filling.isEmpty()) {
        handOff(true);
      }
      awaitPending();
      dropSpares();
      releaseWritePool();
      // The merge borrows the arenas, not the indexes or the write pool: they go back now.
      long freed = 0;
      List<RecordArena> arenas = new ArrayList<>();
      for (SessionChunk c : chunks) {
        freed += c.releaseIndex();
      }
      meter.freed(freed);
      growForMerge();
      for (SessionChunk c : chunks) {
        if (c.arena() != null) {
          arenas.add(c.arena());
        }
      }
      ArenaMemory lent = new ArenaMemory(arenas.toArray(new RecordArena[0]));
      store.startMerge(lent);
      List<RunDescriptor> last =
          store.mergeDown(
              report -> {
                mergePasses++;
                mergedBytes += report.bytesWritten();
              });
      lent.reset();
      streamRes = new Resources(meter);
      MergeSource source = store.stream(last, streamRes);
      giveBackUncarved(lent, arenas);
      // One thread (a Spark task's session: one task per core) merges on the caller's thread.
      MergeAhead ahead =
          config.mergeAhead() && config.threads() > 1
              ? MergeAhead.open(source, layout, meter, threads, plan.budget())
              : null;
      SessionCursor.Entries entries =
          ahead == null ? new MergedEntries(source) : streamRes.add(ahead); // closed before source
      cursor = new SessionCursor(this, entries, validate);
      state = State.ITERATING;
      return cursor;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Grows the chunks' arenas (as the plan, the budget and the grant allow) until they hold the
   * buffers the merges could use: per thread two temp blocks per input of the widest merge and a
   * run writer's blocks. A session that spilled under memory pressure gave its memory back and
   * holds little when it finishes; its merges borrow the arenas as the file sort's do, so this is
   * where the session asks for the memory it merges in.
   */
  private void growForMerge() {
    int t = plan.tempTransfer();
    long windows = 0;
    for (SessionChunk c : chunks) {
      if (c.arena() != null) {
        for (int s = 0; s < c.arena().allocatedSlabs(); s++) {
          windows += c.arena().slabCapacity(s) / t;
        }
      }
    }
    int k = Math.min(store.runCount(), plan.mergePlan().mergeFanIn());
    long wanted = (long) config.threads() * (2L * k + plan.writeBuffers());
    for (int i = 0; windows < wanted; i = 1 - i) {
      SessionChunk c = chunks[i];
      long step = c.mergeSlabStep();
      if (step == 0) {
        step = chunks[1 - i].mergeSlabStep();
        if (step == 0) {
          return;
        }
        c = chunks[1 - i];
      }
      if (!meter.tryAllocate(step)) {
        return;
      }
      c.growMergeSlab(step);
      RecordArena a = c.arena();
      windows += a.slabCapacity(a.allocatedSlabs() - 1) / t;
    }
  }

  /** Gives back the slabs of the lent arenas that the stream's pool did not carve. */
  private void giveBackUncarved(ArenaMemory lent, List<RecordArena> arenas) {
    long freed = 0;
    for (SessionChunk c : chunks) {
      int i = arenas.indexOf(c.arena());
      if (i >= 0) {
        freed += c.releaseSlabsFrom(lent.slabsInUse(i));
      }
    }
    meter.freed(freed);
  }

  /** The input's totals, for the cursor's final check. */
  RunStore store() {
    return store;
  }

  /** After the cursor read the last record, or closed: the merge's files and buffers go. */
  void endOfStream() throws IOException {
    if (streamRes != null) {
      Resources r = streamRes;
      streamRes = null;
      r.close();
    }
    meter.freed(chunks[0].release() + chunks[1].release());
    store.closeTemp();
  }

  /** Spills entries {@code [from, n)} of a sorted chunk (the unread rest) as a run. */
  RunDescriptor writeRest(SessionChunk chunk, int from, int n) throws IOException {
    try (Resources local = new Resources(meter)) {
      BlockPool pool = local.pool(plan.writeBuffers(), plan.tempTransfer());
      long bytes = chunk.recordBytes(); // an upper bound of the rest
      return store.spillSorted(
          chunk.index(), from, n, RepeatCounts.NONE, bytes, pool, new RecordGatherer(null), null);
    }
  }

  /** The stream of one run (a spilled rest), its pool fresh: k + 1 = 2 buffers. */
  MergeSource streamOne(RunDescriptor run) throws IOException {
    streamRes = new Resources(meter);
    store.startMerge(null);
    return store.stream(List.of(run), streamRes);
  }

  /** Frees a chunk whose entries were spilled or read (the cursor moved past its last view). */
  void release(SessionChunk chunk) {
    meter.freed(chunk.release());
  }

  boolean isClosed() {
    return state == State.CLOSED;
  }

  /** See {@link SortSession#close()}. */
  @Override
  public void close() {
    lock.lock();
    try {
      if (state == State.CLOSED) {
        return;
      }
      state = State.CLOSED;
      RuntimeException primary = new RuntimeException("closing the sort session failed");
      if (streamRes != null) {
        streamRes.closeAfterFailure(primary); // the merge's readers first: buffers in the arenas
        streamRes = null;
      }
      res.closeAfterFailure(primary); // the writer (joined: a write in progress ends) and store
      if (tailFreed != null) {
        spares.addAll(tailFreed.getNow(List.of())); // taken out by a write no one awaited
        tailFreed = null;
      }
      dropSpares();
      if (writeRes != null) {
        writeRes.closeAfterFailure(primary);
        writeRes = null;
        writePool = null;
      }
      for (SessionChunk c : chunks) {
        meter.freed(c.release());
      }
      if (primary.getSuppressed().length > 0) {
        throw primary;
      }
    } finally {
      lock.unlock();
    }
  }

  // ---- sorted entries ----

  /** The sorted chunk's entries in index order; a spill turns the rest into a run file. */
  final class ArenaEntries implements SessionCursor.Entries {
    private final SessionChunk chunk;
    private final RecordIndex index;
    private final int n;
    private int i = -1;
    private int touched; // entries before this one were read ahead
    private ByteBuffer buffer;
    private int position;
    private int slab;
    private MergedEntries rest; // after a spill: the unread entries, from their run file
    private boolean freeOnNext;

    ArenaEntries(SessionChunk chunk, int n) {
      this.chunk = chunk;
      this.index = chunk.index();
      this.n = n;
    }

    @Override
    public boolean next() throws IOException {
      if (freeOnNext) {
        freeOnNext = false;
        release(chunk); // the caller has moved past the last view into the arena
      }
      if (rest != null) {
        if (!rest.next()) {
          return false;
        }
        buffer = rest.buffer();
        position = rest.position();
        slab = RecordArena.MAX_SLABS + rest.run();
        return true;
      }
      if (i + 1 >= n) {
        i = n;
        return false;
      }
      i++;
      if (i == touched) { // the sorted entries lie anywhere in the arena: wait for misses in groups
        touched =
            InMemorySortPhase.touchAhead(
                index, index.refs(), i, Math.min(n, i + InMemorySortPhase.TOUCH_AHEAD));
      }
      long ref = index.ref(i);
      slab = RecordIndex.slabOf(ref);
      buffer = index.slabBuffer(slab);
      position = RecordIndex.offsetOf(ref);
      return true;
    }

    /** Writes the entries after the current one as a run, to be read from there. */
    @Override
    public long spillRest() throws IOException {
      if (rest != null || chunk.arena() == null) {
        return 0;
      }
      int from = Math.min(n, i + 1);
      RunDescriptor run = from < n ? writeRest(chunk, from, n) : null;
      rest = new MergedEntries(run == null ? null : streamOne(run));
      freeOnNext = true;
      // All but the current entry's slab goes back now, as the grant is told (a platform's memory
      // manager counts what a spill released while it ran): that one when the caller moves on.
      long freed = chunk.releaseAllBut(i >= 0 && i < n ? slab : -1);
      meter.freed(freed);
      return freed;
    }

    @Override
    public ByteBuffer buffer() {
      return buffer;
    }

    @Override
    public int position() {
      return position;
    }

    @Override
    public int run() {
      return slab;
    }
  }

  /** A streaming merge of run files. */
  static final class MergedEntries implements SessionCursor.Entries {
    private final MergeSource source;
    private ByteBuffer buffer;
    private int position;
    private int run;

    MergedEntries(MergeSource source) {
      this.source = source;
    }

    @Override
    public boolean next() throws IOException {
      if (source == null || !source.next()) {
        buffer = null;
        return false;
      }
      dev.joule.core.merge.RunCursor c = source.current();
      buffer = c.buffer();
      position = c.position();
      run = source.currentRun();
      return true;
    }

    @Override
    public ByteBuffer buffer() {
      return buffer;
    }

    @Override
    public int position() {
      return position;
    }

    @Override
    public int run() {
      return run;
    }
  }
}

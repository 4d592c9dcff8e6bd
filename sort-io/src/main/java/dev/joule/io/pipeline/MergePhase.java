package dev.joule.io.pipeline;

import dev.joule.core.memory.Alignment;
import dev.joule.core.memory.DirectRegion;
import dev.joule.core.merge.MergeSplitter;
import dev.joule.core.merge.RunCursor;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.BlockWriter;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.error.SortValidationException;
import dev.joule.io.fs.Failures;
import dev.joule.io.hooks.SortHooks;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.memory.ArenaMemory;
import dev.joule.io.memory.MemoryMeter;
import dev.joule.io.memory.Resources;
import dev.joule.io.output.AtomicOutput;
import dev.joule.io.output.BatchWriter;
import dev.joule.io.output.OutputValidator;
import dev.joule.io.output.RecordOutput;
import dev.joule.io.plan.SortPlan;
import dev.joule.io.prefetch.MergeInputs;
import dev.joule.io.prefetch.MergeSource;
import dev.joule.io.prefetch.RunFileView;
import dev.joule.io.prefetch.SplitSearches;
import dev.joule.io.report.PrefetchReport;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.run.RunSpill;
import dev.joule.io.stripe.TempSpace;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Stages 5–6: merges run files, pulled in merge order from a {@link MergeSource} (prefetched
 * blocks, loser tree), into new run files (the intermediate merges of one pass of the plan, several
 * at once, {@link #mergeToRuns}) or into the output ({@link #mergeToOutput}).
 *
 * <p><b>Parallel final merge.</b> With {@code parts > 1} the final merge is cut by {@link
 * MergeSplitter} (over {@link RunFileView}s) into key ranges at ranks rounded down to whole
 * 4096-byte pages of output (fixed records; any rank for parsed ones); part j merges its range on a
 * merge thread ({@code joule-merge-N} or the caller's, {@link SortThreads}) into its own region of
 * the output temporary ({@link AtomicOutput#regionWriter}), starting at the output bytes of the
 * records before its cut ({@code rank_j * r} for fixed records; for others the runs' record bytes
 * before their cuts, {@link RunFileView#recordBytesBefore}, plus their framing). The stable merge
 * order makes the concatenation byte-identical to one merge. Each part validates its records; the
 * parts' validators are combined at the boundaries. Unique output merges in one part.
 *
 * <p><b>Memory</b> per part: {@code k + spare} temp-block buffers (spare ≤ k, from the part's share
 * of {@link #spareBuffers}) plus {@link SortPlan#OUTPUT_POOL_BUFFERS} output buffers, all made once
 * per merge on the calling thread, the output's first, and closed with it. Each pool is carved from
 * run formation's idle arenas as far as they are lent and hold it ({@link ArenaMemory}), the rest
 * allocated fresh. The arenas stay counted, so only fresh buffers add to what the sort holds: the
 * spares are fresh only when nothing is lent, within what the budget has left, and the least (k + 1
 * temp buffers and the output's pool) fits beside the arenas by the plan's fan-in once run
 * formation's indexes and read pool are gone ({@link SortPlan#mergeFanIn}).
 */
final class MergePhase {
  /**
   * Least output pages per part of a parallel final merge: below 16 × 4096-byte stretches of
   * records, a part's setup (its pool, prefetch thread and splitter search) costs more than the
   * merge work it takes over, so small final merges run as fewer parts.
   */
  static final int MIN_PAGES_PER_PART = 16;

  /**
   * Entries merged one by one between progress updates and cancellation checks: 16 Ki entries are
   * well under a millisecond of merge work.
   */
  private static final int ENTRIES_PER_CHECK = 1 << 14;

  private final SortConfig c;
  private final SortPlan plan;
  private final MemoryMeter meter;
  private final ArenaMemory lent; // may be null: allocate fresh pools
  private PrefetchReport prefetch = PrefetchReport.NONE; // guarded by this
  private final EntrySpec entries;
  private final SortThreads threads;

  // Set when one merge of a concurrent pass failed or the caller was interrupted: the pass's other
  // merges stop at their next check (mergeEntries) instead of being interrupted (joinStopping).
  private volatile boolean stopMerges;

  // Progress of the current pass, summed over its merges and parts (ProgressListener).
  private final AtomicLong progressDone = new AtomicLong();
  private volatile String progressName = "merge";
  private volatile long progressTotal;

  MergePhase(SortConfig c, SortPlan plan, MemoryMeter meter, ArenaMemory lent) {
    this(c, EntrySpec.of(c), plan, meter, lent);
  }

  MergePhase(SortConfig c, EntrySpec entries, SortPlan plan, MemoryMeter meter, ArenaMemory lent) {
    this.c = c;
    this.plan = plan;
    this.meter = meter;
    this.lent = lent;
    this.entries = entries;
    this.threads = SortThreads.of(c.threadFactory());
  }

  /**
   * Adds {@code bytes} to the pass's progress and reports the sum. Synchronized: the parts and the
   * concurrent merges of a pass report from their own threads, and a listener must never see the
   * sum go back (one thread adding after another but reporting before it).
   */
  private synchronized void reportProgress(long bytes) {
    c.progress().update(progressName, progressDone.addAndGet(bytes), progressTotal);
  }

  /** Names the pass the following merges belong to, for progress reports out of {@code bytes}. */
  void startPass(String name, long bytes) {
    progressName = name;
    progressTotal = bytes;
    progressDone.set(0);
  }

  /**
   * A pool of {@code count} buffers of {@code size} bytes, registered in {@code res}: as many as
   * the lent arenas still hold carved from them (their memory is counted already), the rest
   * allocated fresh and counted.
   */
  private BlockPool newPool(Resources res, int count, int size) {
    List<ByteBuffer> carved = lent == null ? List.of() : lent.carve(count, size);
    if (carved.size() == count) {
      return res.add(BlockPool.over(carved, size));
    }
    BlockPool fresh = res.pool(count - carved.size(), size);
    if (carved.isEmpty()) {
      return fresh;
    }
    List<ByteBuffer> taken = new ArrayList<>(fresh.capacity());
    for (int i = 0; i < fresh.capacity(); i++) {
      taken.add(fresh.tryAcquire());
    }
    // Closed in reverse order: the joint pool (all its buffers back), then the fresh ones go home
    // before their own pool closes.
    res.add((AutoCloseable) () -> taken.forEach(fresh::release));
    List<ByteBuffer> all = new ArrayList<>(carved);
    all.addAll(taken);
    return res.add(BlockPool.over(all, size));
  }

  /**
   * The read pool of a streaming final merge of {@code k} runs (a session's cursor), registered in
   * {@code res}: its least, k + 1 buffers, and up to 2k as the spare buffers allow ({@link
   * #spareBuffers}), carved from the lent arenas first like every merge's.
   */
  BlockPool streamingPool(Resources res, int k) {
    int size = plan.tempTransfer();
    int count = (int) Math.max(k + 1L, Math.min(2L * k, spareBuffers(size)));
    return newPool(res, count, size);
  }

  /** What the budget has left beside what the sort holds now (lent arenas included). */
  private long room() {
    return c.memoryBudget().bytes() - meter.current();
  }

  /**
   * Buffers of {@code size} bytes that merges may share out beyond their least: with lent arenas
   * the windows left in them, else as many fresh ones as the room left holds. Why not fresh ones
   * beside the arenas: their pages are new to the process, while the heap the indexes left stays
   * resident, so the process would outgrow its budget in resident memory (MemoryBoundTest); a merge
   * takes fresh memory only for what its least needs beyond the arenas.
   */
  private long spareBuffers(int size) {
    if (lent != null) {
      return lent.windowsLeft(size);
    }
    return Math.max(0, room()) / DirectRegion.bytesFor(1, size);
  }

  private void resetLent() {
    if (lent != null) {
      lent.reset();
    }
  }

  /** Opens and verifies the run files of one merge. */
  private MergeInputs open(List<RunDescriptor> runs) throws IOException {
    return new MergeInputs(runs, entries.layout(), c.directIo(), c.notices());
  }

  /**
   * How many intermediate merges of one pass run at once: at most {@code threads}, the pass's
   * {@code merges}, and as many as the buffers left ({@link #spareBuffers}) give the least each
   * needs ({@code k + 1} read buffers for its widest {@code k} inputs, so that its prefetcher can
   * make progress, plus the run writer's {@link SortPlan#runWriteBuffers()}), and as many as the
   * open-file limit holds at once ({@link SortPlan#concurrentMergesByFiles}); at least 1, even when
   * the budget holds less than one such merge (it then gets its least all the same).
   */
  int passWidth(int k, int merges) {
    long byMemory = spareBuffers(plan.tempTransfer()) / (k + 1L + plan.runWriteBuffers());
    // Each merge holds its inputs and output open: the fan-in was planned for one at a time.
    long byFiles = plan.concurrentMergesByFiles(k);
    return (int) Math.max(1, Math.min(c.threads(), Math.min(merges, Math.min(byMemory, byFiles))));
  }

  /** What a pass does once an intermediate merge has written its run. */
  @FunctionalInterface
  interface MergeDone {
    /** Merge {@code i} of the pass wrote {@code run}; called on the thread that ran it. */
    void accept(int i, RunDescriptor run) throws IOException;
  }

  /**
   * Merges each of {@code merges} (each adjacent runs in run order; none reads another's output)
   * into a new run file, {@code width} at a time ({@link #passWidth}): with {@code width > 1} on as
   * many merge threads of {@link SortThreads}, each taking the next merge of the list when it is
   * done with one, so that merges of unequal size keep every thread busy; with 1 on the caller's
   * thread, where interrupts reach the cursors directly.
   *
   * <p>Memory: each thread holds one set of buffers for the whole pass, its share of {@link
   * #spareBuffers} (at most {@code 2k} plus the run writer's for the pass's widest merge), made
   * once and split per merge into the read pool and the run writer's buffers; all threads' sets
   * together stay within the budget. They are carved once per pass, not per merge, because carving
   * from the shared arenas can only start over ({@link ArenaMemory#reset}) when no merge holds a
   * pool.
   *
   * <p>Failures: the first failure (in time) is thrown with the later ones suppressed; it makes the
   * other threads stop within {@link #ENTRIES_PER_CHECK} entries and take no further merge. Every
   * thread has ended when this returns. Interrupting the caller stops them the same way and throws
   * {@link SortCancelledException}.
   */
  void mergeToRuns(List<List<RunDescriptor>> merges, TempSpace temp, int width, MergeDone done)
      throws IOException {
    int k = 2;
    for (List<RunDescriptor> m : merges) {
      k = Math.max(k, m.size());
    }
    long least = k + 1L + plan.runWriteBuffers();
    int buffers =
        (int)
            Math.max(
                least,
                Math.min(
                    2L * k + plan.runWriteBuffers(), spareBuffers(plan.tempTransfer()) / width));
    AtomicInteger next = new AtomicInteger();
    FirstFailure failure = new FirstFailure();
    List<Thread> running = new ArrayList<>();
    stopMerges = false;
    try (Resources res = new Resources(meter)) {
      Runnable[] bodies = new Runnable[width];
      for (int j = 0; j < width; j++) {
        BlockPool own = newPool(res, buffers, plan.tempTransfer());
        bodies[j] =
            () -> {
              try {
                for (int i = next.getAndIncrement();
                    i < merges.size() && !stopMerges;
                    i = next.getAndIncrement()) {
                  Failures.checkCancelled();
                  done.accept(i, mergeToRun(merges.get(i), temp, own));
                }
              } catch (Throwable t) {
                failure.add(t);
                stopMerges = true; // the others stop at their next check
              }
            };
      }
      if (width == 1) {
        bodies[0].run(); // on the caller's thread: interrupts reach the cursors directly
      } else {
        // All made before any starts: a factory failing on thread j leaves none running.
        for (int j = 0; j < width; j++) {
          running.add(threads.newThread("merge", bodies[j]));
        }
        SortThreads.startAll(running, () -> stopMerges = true);
        joinStopping(running);
      }
      failure.rethrow();
    } finally {
      stopMerges = false;
      resetLent(); // every thread has ended and closed its merges' pools
    }
  }

  /**
   * Joins the merge threads of a pass; an interrupt of the caller stops them ({@link #stopMerges})
   * and, once all have ended, cancels the sort. They are stopped by the flag, not interrupted: an
   * interrupt can reach a merge thread inside a write-behind hand-off, whose writer then waits for
   * a write that was never queued when it closes, and the pass would never end.
   */
  private void joinStopping(List<Thread> running) throws SortCancelledException {
    boolean cancelled = false;
    for (Thread t : running) {
      while (t.isAlive()) {
        try {
          t.join();
        } catch (InterruptedException e) {
          cancelled = true;
          stopMerges = true;
        }
      }
    }
    if (cancelled) {
      Thread.currentThread().interrupt();
      throw new SortCancelledException("sort cancelled during an intermediate merge pass");
    }
  }

  /** The first of several threads' failures, with the later ones suppressed. Thread-safe. */
  private static final class FirstFailure {
    private Throwable first;

    synchronized void add(Throwable t) {
      if (first == null) {
        first = t;
      } else if (t != first) {
        first.addSuppressed(t);
      }
    }

    synchronized void rethrow() throws IOException {
      if (first != null) {
        throw Failures.translate(first);
      }
    }
  }

  /**
   * Merges {@code runs} (adjacent, in run order) into a new run file striped over the temp dirs,
   * with buffers of {@code own} (all of them free): up to {@code 2k} for reading, whatever is left
   * beyond the least {@code k + 1}, and the run writer's.
   */
  private RunDescriptor mergeToRun(List<RunDescriptor> runs, TempSpace temp, BlockPool own)
      throws IOException {
    List<Path> files = new ArrayList<>(runs.size());
    for (RunDescriptor d : runs) {
      files.add(d.path());
    }
    SortHooks.of(c).beforeIntermediateMerge().accept(files);
    int k = runs.size();
    int read = (int) Math.max(k + 1, Math.min(2L * k, own.capacity() - plan.runWriteBuffers()));
    List<ByteBuffer> taken = new ArrayList<>();
    try {
      for (int i = 0; i < read + plan.runWriteBuffers(); i++) {
        ByteBuffer b = own.tryAcquire();
        if (b == null) {
          throw new IllegalStateException(
              "merge of " + k + " runs needs more than the " + own.capacity() + " buffers it has");
        }
        taken.add(b);
      }
      try (Resources res = new Resources(meter)) {
        BlockPool pool = res.add(BlockPool.over(taken.subList(0, read), plan.tempTransfer()));
        BlockPool writePool =
            res.add(BlockPool.over(taken.subList(read, taken.size()), plan.tempTransfer()));
        MergeInputs in = res.add(open(runs));
        RunSpill out =
            res.add(
                RunSpill.create(
                    temp,
                    "merge",
                    entries.layout(),
                    MergePasses.fileBytes(runs),
                    plan.tempTransfer(),
                    writePool,
                    c.directIo(),
                    threads));
        long[] from = new long[in.size()];
        long[] to = new long[in.size()];
        for (int i = 0; i < to.length; i++) {
          to[i] = in.descriptor(i).recordCount();
        }
        mergeEntries(
            in,
            from,
            to,
            pool,
            cur -> out.addEntry(cur.buffer(), cur.position(), cur.entryLength()));
        return out.finish();
      }
    } finally {
      taken.forEach(own::release); // the sub-pools are closed: nothing uses these any more
    }
  }

  /**
   * How many parts the final merge of {@code k} runs can use within the threads and the budget
   * (each part's least pools, made as {@link #mergeToOutput} makes them, fit what is left); one in
   * unique mode (a part could not see that its first key equals the previous part's last).
   */
  int parts(int k, long records) {
    if (entries.unique()) {
      return 1;
    }
    long byRecords = Math.max(1, records / (recordsPerPage() * MIN_PAGES_PER_PART));
    int parts = (int) Math.max(1, Math.min(c.threads(), byRecords));
    while (parts > 1 && !leastPoolsFit(parts, k)) {
      parts--;
    }
    return parts;
  }

  /**
   * Whether {@code parts} parts of a final merge of {@code k} runs get their least pools (the
   * output's, then {@code k + 1} temp buffers each, in the order {@link #mergeToOutput} makes them)
   * from the lent arenas alone, or without them from what the budget has left: more parts are worth
   * no fresh memory beside the arenas (see {@link #spareBuffers}).
   */
  private boolean leastPoolsFit(int parts, int k) {
    int[] counts = new int[2 * parts];
    int[] sizes = new int[2 * parts];
    for (int j = 0; j < parts; j++) {
      counts[j] = SortPlan.OUTPUT_POOL_BUFFERS;
      sizes[j] = plan.outputTransfer();
      counts[parts + j] = k + 1;
      sizes[parts + j] = plan.tempTransfer();
    }
    int[] carved = lent == null ? new int[counts.length] : lent.wouldCarve(counts, sizes);
    long fresh = 0;
    for (int i = 0; i < counts.length; i++) {
      fresh += DirectRegion.bytesFor(counts[i] - carved[i], sizes[i]);
    }
    return lent == null ? fresh <= room() : fresh == 0;
  }

  /**
   * Records per 4096-byte page of output: the quantum of a part's start for fixed records (so that
   * every part writes aligned), an average for parsed ones.
   */
  private long recordsPerPage() {
    if (entries.inPlace()) {
      return Alignment.recordQuantum(plan.entryBytes());
    }
    return Math.max(1, Alignment.BYTES / plan.entryBytes());
  }

  /** Whether the final merge gathers fixed records in batches (else entry by entry). */
  private boolean batched() {
    return entries.inPlace() && !entries.unique();
  }

  /** What a final merge wrote: the validator of its records and the output's length. */
  record Output(OutputValidator validator, long bytes) {}

  /**
   * Merges {@code runs} into {@code out} with {@code parts} threads.
   *
   * @throws SortValidationException if a part wrote more or less than the room its cut gave it
   */
  Output mergeToOutput(List<RunDescriptor> runs, AtomicOutput out, int parts) throws IOException {
    int k = runs.size();
    try (MergeInputs in = open(runs);
        Resources pools = new Resources(meter)) {
      Cuts cuts = cuts(in, in.records(), parts);
      resetLent(); // the splitter's pages are closed: the parts' pools start from the arenas' start
      // The output pools first: their size is fixed, while the read pools take what is left.
      BlockPool[] outPools = new BlockPool[parts];
      for (int j = 0; j < parts; j++) {
        outPools[j] = newPool(pools, SortPlan.OUTPUT_POOL_BUFFERS, plan.outputTransfer());
      }
      int count =
          (int) Math.max(k + 1, Math.min(2L * k, spareBuffers(plan.tempTransfer()) / parts));
      BlockPool[] readPools = new BlockPool[parts];
      for (int j = 0; j < parts; j++) {
        readPools[j] = newPool(pools, count, plan.tempTransfer());
      }
      OutputValidator[] validators = new OutputValidator[parts];
      Throwable[] failures = new Throwable[parts];
      long[] written = new long[parts];
      Runnable[] bodies = new Runnable[parts];
      for (int j = 0; j < parts; j++) {
        int part = j;
        validators[j] =
            batched() ? OutputValidator.forBatches(entries) : OutputValidator.of(entries);
        Runnable body =
            () -> {
              try (Resources res = new Resources(meter)) {
                BlockPool pool = readPools[part];
                BlockWriter w =
                    res.add(out.regionWriter(cuts.outputStart[part], outPools[part], 1));
                long[] from = cuts.ranks[part];
                long[] to = cuts.ranks[part + 1];
                if (batched()) {
                  mergeBatches(in, from, to, pool, w, validators[part]);
                } else {
                  RecordOutput o =
                      new RecordOutput(w, entries, validators[part], SortHooks.of(c).outputFault());
                  mergeEntries(in, from, to, pool, cur -> o.write(cur.buffer(), cur.position()));
                }
                written[part] = w.finishRegion();
              } catch (Throwable t) {
                failures[part] = t;
              }
            };
        bodies[j] = body;
      }
      if (parts == 1) {
        bodies[0].run(); // on the caller's thread: interrupts reach the cursors directly
      } else {
        // All made before any starts: a factory failing on part j leaves no part running.
        List<Thread> running = new ArrayList<>();
        for (int j = 0; j < parts; j++) {
          running.add(threads.newThread("merge", bodies[j]));
        }
        SortThreads.startAll(running, () -> running.forEach(Thread::interrupt));
        joinAll(running);
      }
      rethrowFirst(failures);
      OutputValidator v = validators[0];
      for (int j = 1; j < parts; j++) {
        v.append(validators[j]);
      }
      for (int j = 0; j + 1 < parts; j++) {
        long room = cuts.outputStart[j + 1] - cuts.outputStart[j];
        if (written[j] != room) {
          throw new SortValidationException(
              "part "
                  + j
                  + " of the final merge wrote "
                  + written[j]
                  + " bytes into a region of "
                  + room
                  + "; nothing was published");
        }
      }
      return new Output(v, cuts.outputStart[parts - 1] + written[parts - 1]);
    } finally {
      resetLent(); // the parts have joined and closed their pools
    }
  }

  /** Throws the first of the parts' failures, with the others suppressed; nothing if none. */
  private static void rethrowFirst(Throwable[] failures) throws IOException {
    Throwable first = null;
    for (Throwable t : failures) {
      if (t == null) {
        continue;
      }
      if (first == null) {
        first = t;
      } else if (t != first) {
        first.addSuppressed(t);
      }
    }
    if (first != null) {
      throw Failures.translate(first);
    }
  }

  private static void joinAll(List<Thread> threads) throws IOException {
    boolean cancelled = false;
    for (Thread t : threads) {
      while (t.isAlive()) {
        try {
          t.join();
        } catch (InterruptedException e) {
          cancelled = true;
          for (Thread x : threads) {
            x.interrupt(); // parts check their interrupt flag between blocks
          }
        }
      }
    }
    if (cancelled) {
      Thread.currentThread().interrupt();
      throw new SortCancelledException("sort cancelled during the merge");
    }
  }

  /**
   * Where the parts of a final merge start: {@code ranks[j][i]} is part j's first entry of run i
   * ({@code ranks[parts]} the runs' ends), {@code outputStart[j]} its first output byte.
   */
  private static final class Cuts {
    final long[][] ranks;
    final long[] outputStart;

    Cuts(long[][] ranks, long[] outputStart) {
      this.ranks = ranks;
      this.outputStart = outputStart;
    }
  }

  private Cuts cuts(MergeInputs in, long total, int parts) throws IOException {
    int k = in.size();
    long[][] cuts = new long[parts + 1][];
    long[] starts = new long[parts];
    cuts[0] = new long[k];
    cuts[parts] = new long[k];
    for (int i = 0; i < k; i++) {
      cuts[parts][i] = in.descriptor(i).recordCount();
    }
    if (parts == 1) {
      return new Cuts(cuts, starts);
    }
    // Fixed records: parts start at whole pages of output, so that every part writes aligned.
    long q = entries.inPlace() ? Alignment.recordQuantum(plan.entryBytes()) : 1;
    try (Resources res = new Resources(meter);
        SplitSearches searches = new SplitSearches(threads, k)) {
      BlockPool pages = newPool(res, k, Alignment.BYTES);
      RunFileView[] views = new RunFileView[k];
      RunFileView.LastEntry last = new RunFileView.LastEntry();
      List<ByteBuffer> borrowed = new ArrayList<>();
      try {
        for (int i = 0; i < k; i++) {
          ByteBuffer page = pages.acquire();
          borrowed.add(page);
          views[i] = new RunFileView(in.file(i), in.descriptor(i), page, entries.tie(), last);
        }
        for (int j = 1; j < parts; j++) {
          long rank = (total / parts) * j + (total % parts) * j / parts;
          cuts[j] = MergeSplitter.cutsAtRank(views, rank / q * q, searches);
          long start = 0;
          for (int i = 0; i < k; i++) {
            start += views[i].recordBytesBefore(cuts[j][i]) + (long) entries.framing() * cuts[j][i];
          }
          starts[j] = start;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SortCancelledException("sort cancelled while splitting the merge");
      } catch (IllegalStateException e) { // the splitter's: runs out of order
        throw new SortValidationException(
            "splitting the final merge: " + e.getMessage() + "; nothing was published");
      } catch (RuntimeException e) {
        throw Failures.translate(e); // a view's read error comes as UncheckedIOException
      } finally {
        borrowed.forEach(pages::release);
      }
    }
    return new Cuts(cuts, starts);
  }

  /** What the merge does with each entry, in merge order. */
  @FunctionalInterface
  private interface EntrySink {
    void accept(RunCursor entry) throws IOException;
  }

  /**
   * Merges entries {@code [from[i], to[i])} of every input into {@code sink}, one by one, on this
   * thread.
   */
  private void mergeEntries(MergeInputs in, long[] from, long[] to, BlockPool pool, EntrySink sink)
      throws IOException {
    try (MergeSource source = new MergeSource(in, from, to, pool, entries.tie(), threads)) {
      long left = source.records();
      long done = 0;
      while (left > 0) {
        if (!source.next()) {
          throw new SortValidationException("merge ran out of records: " + left + " expected");
        }
        RunCursor cur = source.current();
        sink.accept(cur);
        done += cur.recordLength();
        left--;
        if ((left & (ENTRIES_PER_CHECK - 1)) == 0) {
          reportProgress(done);
          done = 0;
          Failures.checkCancelled();
          if (stopMerges) {
            throw new SortCancelledException(
                "merge stopped: its pass was cancelled or another of its merges failed");
          }
        }
      }
      progressDone.addAndGet(done);
      countPrefetch(source);
    }
  }

  /**
   * Merges fixed records {@code [from[i], to[i])} of every input into {@code w} in batches gathered
   * in place in the writer's buffers ({@link BatchWriter}), validated by {@code v}.
   */
  private void mergeBatches(
      MergeInputs in, long[] from, long[] to, BlockPool pool, BlockWriter w, OutputValidator v)
      throws IOException {
    int rs = plan.entryBytes();
    BatchWriter bw =
        new BatchWriter(w, v, rs, plan.outputTransfer(), SortHooks.of(c).outputFault());
    try (MergeSource source = new MergeSource(in, from, to, pool, entries.tie(), threads)) {
      long left = source.records();
      while (left > 0) {
        int n = (int) Math.min(bw.batchRecords(), left);
        ByteBuffer b = bw.batch(n);
        for (int at = 0, end = n * rs; at < end; at += rs) {
          if (!source.next()) {
            throw new SortValidationException("merge ran out of records: " + left + " expected");
          }
          RunCursor cur = source.current();
          b.put(at, cur.buffer(), cur.position(), rs);
        }
        bw.commit(b);
        left -= n;
        reportProgress((long) n * rs);
        Failures.checkCancelled();
      }
      countPrefetch(source);
    }
  }

  /** Adds a finished merge's prefetch figures to the phase's (merges and parts run at once). */
  private synchronized void countPrefetch(MergeSource source) {
    long[] t = source.prefetchStats();
    prefetch = prefetch.plus(new PrefetchReport(t[0], t[1], t[2], t[3]));
  }

  /** How the prefetch of every merge finished so far kept ahead of it. */
  synchronized PrefetchReport prefetchReport() {
    return prefetch;
  }
}

package dev.joule.io.pipeline;

import dev.joule.core.memory.Alignment;
import dev.joule.core.merge.MergeSplitter;
import dev.joule.core.merge.RunCursor;
import dev.joule.core.merge.SortedRunView;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.BlockWriter;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.error.SortValidationException;
import dev.joule.io.fs.Failures;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.memory.ArenaMemory;
import dev.joule.io.memory.MemoryMeter;
import dev.joule.io.memory.Resources;
import dev.joule.io.output.AtomicOutput;
import dev.joule.io.output.BatchWriter;
import dev.joule.io.output.OutputValidator;
import dev.joule.io.plan.SortPlan;
import dev.joule.io.prefetch.MergeInputs;
import dev.joule.io.prefetch.MergeSource;
import dev.joule.io.prefetch.RunFileView;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.run.RunSpill;
import dev.joule.io.stripe.TempSpace;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Stages 5–6: merges run files, pulled in merge order from a {@link MergeSource} (prefetched
 * blocks, loser tree), into a new run file (an intermediate merge of the plan, {@link #mergeToRun})
 * or into the output ({@link #mergeToOutput}).
 *
 * <p><b>Parallel final merge.</b> With {@code parts > 1} the final merge is cut by {@link
 * MergeSplitter} (over {@link RunFileView}s) into key ranges at ranks rounded down to whole
 * 4096-byte pages of output; part j merges its range on thread {@code joule-merge-N} into its own
 * region of the output temporary ({@link AtomicOutput#regionWriter}), starting at byte {@code
 * rank_j * r}. The stable merge order makes the concatenation byte-identical to one merge. Each
 * part validates its records; the parts' validators are combined at the boundaries.
 *
 * <p><b>Memory</b> per part: {@code k + spare} temp-block buffers (spare ≤ k, from the part's share
 * of the budget) plus {@link SortPlan#OUTPUT_BUFFERS} − 1 output buffers, all allocated once per
 * merge and closed with it; carved from run formation's idle arenas when they are lent ({@link
 * ArenaMemory}).
 */
final class MergePhase {
  /**
   * Least output pages per part of a parallel final merge: below 16 × 4096-byte stretches of
   * records, a part's setup (its pool, prefetch thread and splitter search) costs more than the
   * merge work it takes over, so small final merges run as fewer parts.
   */
  static final int MIN_PAGES_PER_PART = 16;

  private static final AtomicInteger THREADS = new AtomicInteger();

  private final SortConfig c;
  private final SortPlan plan;
  private final MemoryMeter meter;
  private final ArenaMemory lent; // may be null: allocate fresh pools
  private final EntrySpec entries;

  // Progress of the current pass, summed over its merges and parts (ProgressListener).
  private final AtomicLong progressDone = new AtomicLong();
  private volatile String progressName = "merge";
  private volatile long progressTotal;

  MergePhase(SortConfig c, SortPlan plan, MemoryMeter meter, ArenaMemory lent) {
    this.c = c;
    this.plan = plan;
    this.meter = meter;
    this.lent = lent;
    this.entries = EntrySpec.of(c);
  }

  /** Names the pass the following merges belong to, for progress reports out of {@code bytes}. */
  void startPass(String name, long bytes) {
    progressName = name;
    progressTotal = bytes;
    progressDone.set(0);
  }

  /** A pool from the lent arena memory when it has room, else freshly allocated. */
  private BlockPool newPool(Resources res, int count, int size) {
    BlockPool p = lent == null ? null : lent.pool(count, size);
    return p != null ? res.add(p) : res.pool(count, size);
  }

  /**
   * Memory the merge may use: the budget, or when it borrows run formation's arenas (which stay
   * allocated) only what they hold, so that borrowing never adds fresh memory on top of them.
   */
  private long mergeBudget() {
    long b = c.memoryBudget().bytes();
    return lent == null ? b : Math.min(b, lent.capacity());
  }

  private void resetLent() {
    if (lent != null) {
      lent.reset();
    }
  }

  /** Where merged records go: a batch at a time. */
  private interface Sink {
    ByteBuffer batch(int n) throws IOException;

    void commit(ByteBuffer batch) throws IOException;

    int batchRecords();
  }

  /** Opens and verifies the run files of one merge. */
  private MergeInputs open(List<RunDescriptor> runs) throws IOException {
    return new MergeInputs(runs, entries.layout(), c.directIo(), c.notices());
  }

  /** Merges {@code runs} (adjacent, in run order) into a new run file on the next stripe. */
  RunDescriptor mergeToRun(List<RunDescriptor> runs, TempSpace temp) throws IOException {
    int rs = c.format().recordSize();
    try (Resources res = new Resources(meter);
        MergeInputs in = open(runs)) {
      BlockPool writePool = newPool(res, SortPlan.RUN_WRITE_BUFFERS, plan.tempTransfer());
      RunSpill out =
          res.add(
              RunSpill.create(
                  temp,
                  "merge",
                  entries.layout(),
                  MergePasses.fileBytes(runs),
                  plan.tempTransfer(),
                  writePool,
                  c.directIo()));
      ByteBuffer staging = ByteBuffer.allocate(Math.max(1, plan.tempTransfer() / rs) * rs);
      Sink sink =
          new Sink() {
            @Override
            public ByteBuffer batch(int n) {
              return staging.clear().limit(n * rs);
            }

            @Override
            public void commit(ByteBuffer batch) throws IOException {
              batch.position(0);
              out.add(batch);
            }

            @Override
            public int batchRecords() {
              return staging.capacity() / rs;
            }
          };
      long[] from = new long[in.size()];
      long[] to = new long[in.size()];
      for (int i = 0; i < to.length; i++) {
        to[i] = in.descriptor(i).recordCount();
      }
      long memory = Math.min(plan.mergeMemory(), mergeBudget());
      merge(in, from, to, pool(res, in.size(), memory), sink);
      return out.finish();
    } finally {
      resetLent(); // every pool of this merge is closed by now
    }
  }

  private BlockPool pool(Resources res, int k, long memory) {
    long buffers =
        (memory - (long) SortPlan.OUTPUT_BUFFERS * plan.outputTransfer()) / plan.tempTransfer();
    int count = (int) Math.max(k + 1, Math.min(2L * k, buffers));
    return newPool(res, count, plan.tempTransfer());
  }

  /** How many parts the final merge of {@code k} runs can use within the budget and threads. */
  int parts(int k, long records) {
    long budget = mergeBudget();
    long perPart =
        (long) (k + 1) * plan.tempTransfer()
            + (long) SortPlan.OUTPUT_BUFFERS * plan.outputTransfer();
    long byMemory = Math.max(1, budget / perPart);
    long byRecords =
        Math.max(
            1, records / (Alignment.recordQuantum(c.format().recordSize()) * MIN_PAGES_PER_PART));
    return (int) Math.max(1, Math.min(c.threads(), Math.min(byMemory, byRecords)));
  }

  /** Merges {@code runs} into {@code out} with {@code parts} threads; returns the validator. */
  OutputValidator mergeToOutput(List<RunDescriptor> runs, AtomicOutput out, int parts)
      throws IOException {
    int rs = c.format().recordSize();
    int k = runs.size();
    try (MergeInputs in = open(runs)) {
      long[][] cuts = cuts(in, in.records(), parts);
      OutputValidator[] validators = new OutputValidator[parts];
      Throwable[] failures = new Throwable[parts];
      Runnable[] bodies = new Runnable[parts];
      long budget = mergeBudget() / parts;
      for (int j = 0; j < parts; j++) {
        int part = j;
        validators[j] = new OutputValidator(c.format());
        Runnable body =
            () -> {
              try (Resources res = new Resources(meter)) {
                BlockPool pool = pool(res, k, budget);
                BlockPool outPool =
                    newPool(res, SortPlan.OUTPUT_BUFFERS - 1, plan.outputTransfer());
                long startRecord = 0;
                for (int i = 0; i < k; i++) {
                  startRecord += cuts[part][i];
                }
                BlockWriter w = res.add(out.regionWriter(startRecord * rs, outPool, 1));
                BatchWriter bw = new BatchWriter(w, validators[part], rs, plan.outputTransfer());
                merge(
                    in,
                    cuts[part],
                    cuts[part + 1],
                    pool,
                    new Sink() {
                      @Override
                      public ByteBuffer batch(int n) throws IOException {
                        return bw.batch(n);
                      }

                      @Override
                      public void commit(ByteBuffer batch) throws IOException {
                        bw.commit(batch);
                      }

                      @Override
                      public int batchRecords() {
                        return bw.batchRecords();
                      }
                    });
                w.finishRegion();
              } catch (Throwable t) {
                failures[part] = t;
              }
            };
        bodies[j] = body;
      }
      if (parts == 1) {
        bodies[0].run(); // on the caller's thread: interrupts reach the cursors directly
      } else {
        Thread[] threads = new Thread[parts];
        for (int j = 0; j < parts; j++) {
          threads[j] = new Thread(bodies[j], "joule-merge-" + THREADS.incrementAndGet());
          threads[j].start();
        }
        joinAll(threads);
      }
      rethrowFirst(failures);
      OutputValidator v = validators[0];
      for (int j = 1; j < parts; j++) {
        v.append(validators[j]);
      }
      return v;
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

  private static void joinAll(Thread[] threads) throws IOException {
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

  private long[][] cuts(MergeInputs in, long total, int parts) throws IOException {
    int k = in.size();
    long[][] cuts = new long[parts + 1][];
    cuts[0] = new long[k];
    cuts[parts] = new long[k];
    for (int i = 0; i < k; i++) {
      cuts[parts][i] = in.descriptor(i).recordCount();
    }
    if (parts == 1) {
      return cuts;
    }
    long q = Alignment.recordQuantum(c.format().recordSize());
    try (Resources res = new Resources(meter)) {
      BlockPool pages = newPool(res, k, Alignment.BYTES);
      SortedRunView[] views = new SortedRunView[k];
      List<ByteBuffer> borrowed = new ArrayList<>();
      try {
        for (int i = 0; i < k; i++) {
          ByteBuffer page = pages.acquire();
          borrowed.add(page);
          views[i] = new RunFileView(in.file(i), in.descriptor(i), page, entries.tie());
        }
        for (int j = 1; j < parts; j++) {
          long rank = (total / parts) * j + (total % parts) * j / parts;
          cuts[j] = MergeSplitter.cutsAtRank(views, rank / q * q);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SortCancelledException("sort cancelled while splitting the merge");
      } catch (RuntimeException e) {
        throw Failures.translate(e); // a view's read error comes as UncheckedIOException
      } finally {
        borrowed.forEach(pages::release);
      }
    }
    return cuts;
  }

  /** Merges records {@code [from[i], to[i])} of every input into {@code sink}, on this thread. */
  private void merge(MergeInputs in, long[] from, long[] to, BlockPool pool, Sink sink)
      throws IOException {
    try (MergeSource source = new MergeSource(in, from, to, pool, entries.tie())) {
      int rs = c.format().recordSize();
      long left = source.records();
      while (left > 0) {
        int n = (int) Math.min(sink.batchRecords(), left);
        ByteBuffer b = sink.batch(n);
        for (int at = 0, end = n * rs; at < end; at += rs) {
          if (!source.next()) {
            throw new SortValidationException("merge ran out of records: " + left + " expected");
          }
          RunCursor cur = source.current();
          b.put(at, cur.buffer(), cur.position(), rs);
        }
        sink.commit(b);
        left -= n;
        c.progress().update(progressName, progressDone.addAndGet((long) n * rs), progressTotal);
        Failures.checkCancelled();
      }
    }
  }
}

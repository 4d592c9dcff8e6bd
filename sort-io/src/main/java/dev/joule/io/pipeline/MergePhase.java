package dev.joule.io.pipeline;

import dev.joule.core.merge.MergeSplitter;
import dev.joule.core.merge.RunCursor;
import dev.joule.core.merge.SortedRunView;
import dev.joule.core.merge.TournamentTree;
import dev.joule.io.block.BlockFile;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.BlockWriter;
import dev.joule.io.output.AtomicOutput;
import dev.joule.io.prefetch.BlockPrefetcher;
import dev.joule.io.prefetch.FileRunCursor;
import dev.joule.io.prefetch.PrefetchSchedule;
import dev.joule.io.prefetch.RunFileView;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.run.RunWriter;
import dev.joule.io.stripe.TempSpace;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Stages 5–6: merges run files with a {@link TournamentTree} over {@link FileRunCursor}s fed by a
 * {@link BlockPrefetcher} (blocks read in {@link PrefetchSchedule} order), into a new run file (an
 * intermediate merge of the {@link MergePlan}) or into the output.
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
 * merge and closed with it.
 */
final class MergePhase {
  private static final AtomicInteger THREADS = new AtomicInteger();

  /** Prefetch threads per part: one device per stripe is kept busy by one or two readers. */
  static final int PREFETCH_THREADS = 1;

  private final SortConfig c;
  private final SortPlan plan;
  private final MemoryMeter meter;
  private final ArenaMemory lent; // may be null: allocate fresh pools

  MergePhase(SortConfig c, SortPlan plan, MemoryMeter meter, ArenaMemory lent) {
    this.c = c;
    this.plan = plan;
    this.meter = meter;
    this.lent = lent;
  }

  /** A pool from the lent arena memory when it has room, else freshly allocated. */
  // Progress of the current pass, summed over its merges and parts (ProgressListener).
  private final AtomicLong progressDone = new AtomicLong();

  private volatile String progressName = "merge";
  private volatile long progressTotal;

  /** Names the pass the following merges belong to, for progress reports out of {@code bytes}. */
  void startPass(String name, long bytes) {
    progressName = name;
    progressTotal = bytes;
    progressDone.set(0);
  }

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

  /** Merges {@code runs} (adjacent, in run order) into a new run file on the next stripe. */
  RunDescriptor mergeToRun(List<RunDescriptor> runs, TempSpace temp) throws IOException {
    int rs = c.format().recordSize();
    long records = 0;
    for (RunDescriptor d : runs) {
      records += d.recordCount();
    }
    try (Resources res = new Resources(meter);
        MergeInputs in = new MergeInputs(runs, c)) {
      BlockPool writePool = newPool(res, SortPlan.RUN_WRITE_BUFFERS, plan.tempTransfer());
      BlockFile f =
          res.add(temp.createFile("merge", records * rs + 2L * plan.tempTransfer(), c.directIo()));
      RunWriter w = res.add(new RunWriter(f, c.format(), plan.tempTransfer(), writePool, 1));
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
              w.add(batch);
            }

            @Override
            public int batchRecords() {
              return staging.capacity() / rs;
            }
          };
      long[] from = new long[runs.size()];
      long[] to = new long[runs.size()];
      for (int i = 0; i < to.length; i++) {
        to[i] = in.descriptors[i].recordCount();
      }
      mergeRange(
          in, from, to, pool(res, runs.size(), Math.min(plan.mergeMemory(), mergeBudget())), sink);
      return w.finish();
    } catch (IOException | RuntimeException | Error e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    } finally {
      resetLent(); // every pool of this merge is closed by now
    }
  }

  private BlockPool pool(Resources res, int k, long memory) {
    long buffers =
        (memory - (long) (SortPlan.OUTPUT_BUFFERS) * plan.outputTransfer()) / plan.tempTransfer();
    int count = (int) Math.max(k + 1, Math.min(2L * k, buffers));
    return newPool(res, count, plan.tempTransfer());
  }

  /**
   * How many parts the final merge of {@code k} runs can use within the budget and thread count.
   */
  int parts(int k, long records) {
    long budget = mergeBudget();
    long perPart =
        (long) (k + 1) * plan.tempTransfer()
            + (long) SortPlan.OUTPUT_BUFFERS * plan.outputTransfer();
    long byMemory = Math.max(1, budget / perPart);
    long byRecords = Math.max(1, records / (SortPlan.alignQuantum(c.format().recordSize()) * 16));
    return (int) Math.max(1, Math.min(c.threads(), Math.min(byMemory, byRecords)));
  }

  /**
   * Merges {@code runs} into {@code out} with {@code parts} threads; returns the combined
   * validator.
   */
  OutputValidator mergeToOutput(List<RunDescriptor> runs, AtomicOutput out, int parts)
      throws IOException {
    int rs = c.format().recordSize();
    int k = runs.size();
    try (MergeInputs in = new MergeInputs(runs, c)) {
      long total = 0;
      for (RunDescriptor d : in.descriptors) {
        total += d.recordCount();
      }
      long[][] cuts = cuts(in, total, parts);
      OutputValidator[] validators = new OutputValidator[parts];
      Throwable[] failures = new Throwable[parts];
      Thread[] threads = new Thread[parts];
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
                mergeRange(
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
        threads[j] = new Thread(body, "joule-merge-" + THREADS.incrementAndGet());
      }
      if (parts == 1) {
        threads[0].run(); // on the caller's thread: interrupts reach the cursors directly
      } else {
        for (Thread t : threads) {
          t.start();
        }
        joinAll(threads);
      }
      for (Throwable t : failures) {
        if (t != null) {
          for (Throwable other : failures) {
            if (other != null && other != t) {
              t.addSuppressed(other);
            }
          }
          throw rethrow(t);
        }
      }
      OutputValidator v = validators[0];
      for (int j = 1; j < parts; j++) {
        v.append(validators[j]);
      }
      return v;
    } finally {
      resetLent(); // the parts have joined and closed their pools
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
    int k = in.descriptors.length;
    long[][] cuts = new long[parts + 1][];
    cuts[0] = new long[k];
    cuts[parts] = new long[k];
    for (int i = 0; i < k; i++) {
      cuts[parts][i] = in.descriptors[i].recordCount();
    }
    if (parts == 1) {
      return cuts;
    }
    long q = SortPlan.alignQuantum(c.format().recordSize());
    try (Resources res = new Resources(meter)) {
      BlockPool pages = newPool(res, k, BlockFile.ALIGNMENT);
      SortedRunView[] views = new SortedRunView[k];
      List<ByteBuffer> borrowed = new ArrayList<>();
      for (int i = 0; i < k; i++) {
        ByteBuffer page = pages.acquire();
        borrowed.add(page);
        views[i] = new RunFileView(in.files[i], in.descriptors[i], page);
      }
      try {
        for (int j = 1; j < parts; j++) {
          long rank = (total / parts) * j + (total % parts) * j / parts;
          cuts[j] = MergeSplitter.cutsAtRank(views, rank / q * q);
        }
      } finally {
        borrowed.forEach(pages::release);
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SortCancelledException("sort cancelled while splitting the merge");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return cuts;
  }

  private static IOException rethrow(Throwable t) {
    if (t instanceof UncheckedIOException) {
      return ((UncheckedIOException) t).getCause();
    }
    if (t instanceof IOException) {
      return (IOException) t;
    }
    if (t instanceof RuntimeException) {
      throw (RuntimeException) t;
    }
    if (t instanceof Error) {
      throw (Error) t;
    }
    throw new IllegalStateException(t);
  }

  /** Merges records {@code [from[i], to[i])} of every input into {@code sink}, on this thread. */
  private void mergeRange(MergeInputs in, long[] from, long[] to, BlockPool pool, Sink sink)
      throws IOException {
    int k = in.descriptors.length;
    int[] fromBlock = new int[k];
    int[] toBlock = new int[k];
    long records = 0;
    for (int i = 0; i < k; i++) {
      int[] r = FileRunCursor.blockRange(in.descriptors[i], from[i], to[i]);
      fromBlock[i] = r[0];
      toBlock[i] = r[1];
      records += to[i] - from[i];
    }
    if (records == 0) {
      return;
    }
    PrefetchSchedule schedule = PrefetchSchedule.of(in.descriptors, fromBlock, toBlock);
    FileRunCursor[] cursors = new FileRunCursor[k];
    try (BlockPrefetcher prefetcher =
        new BlockPrefetcher(in.readers, fromBlock, toBlock, schedule, pool, PREFETCH_THREADS)) {
      try {
        for (int i = 0; i < k; i++) {
          cursors[i] = new FileRunCursor(in.descriptors[i], prefetcher, i, from[i], to[i]);
        }
        TournamentTree tree = new TournamentTree(cursors);
        int rs = c.format().recordSize();
        long left = records;
        while (left > 0) {
          int n = (int) Math.min(sink.batchRecords(), left);
          ByteBuffer b = sink.batch(n);
          for (int at = 0, end = n * rs; at < end; at += rs) {
            if (!tree.next()) {
              throw new SortValidationException("merge ran out of records: " + left + " expected");
            }
            RunCursor cur = tree.current();
            b.put(at, cur.buffer(), cur.position(), rs);
          }
          sink.commit(b);
          left -= n;
          c.progress().update(progressName, progressDone.addAndGet((long) n * rs), progressTotal);
          if (Thread.currentThread().isInterrupted()) {
            throw new SortCancelledException("sort cancelled during the merge");
          }
        }
      } finally {
        for (FileRunCursor cur : cursors) {
          if (cur != null) {
            cur.close();
          }
        }
      }
    } catch (UncheckedIOException e) {
      IOException cause = e.getCause();
      if (cause instanceof InterruptedIOException && !(cause instanceof SortCancelledException)) {
        throw new SortCancelledException("sort cancelled during the merge");
      }
      throw cause;
    }
  }
}

package dev.joule.io.merge;

import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.SortConfig;
import dev.joule.io.fs.Failures;
import dev.joule.io.hooks.SortHooks;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.memory.Resources;
import dev.joule.io.plan.SortPlan;
import dev.joule.io.prefetch.MergeInputs;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.run.RunSpill;
import dev.joule.io.stripe.TempSpace;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The merges of one intermediate pass, each of adjacent runs into a new run file, several at once
 * (docs/decisions/D24): {@link #width} says how many, {@link #mergeToRuns} runs them.
 *
 * <p><b>Memory</b>: each thread holds one set of buffers for the whole pass, its share of the spare
 * buffers ({@link MergeBuffers#spareBuffers}; at most {@code 2k} plus the run writer's for the
 * pass's widest merge, at least {@code k + 1} plus them), made once and split per merge into the
 * read pool and the run writer's buffers; all threads' sets together stay within the budget. They
 * are carved once per pass, not per merge, because carving from the shared arenas can only start
 * over when no merge holds a pool.
 *
 * <p><b>Stopping</b>: the first failure (in time) is thrown with the later ones suppressed; it
 * makes the other threads stop within {@link MergeLoop#ENTRIES_PER_CHECK} entries and take no
 * further merge. An interrupt of the caller stops them the same way, by a flag, not an interrupt:
 * an interrupt can reach a merge thread inside a write-behind hand-off, whose writer then waits for
 * a write that was never queued when it closes, and the pass would never end.
 */
final class IntermediateMerges {
  private final SortConfig c;
  private final EntrySpec entries;
  private final SortPlan plan;
  private final MergeBuffers buffers;
  private final MergeLoop loop;
  private final SortThreads threads;
  private volatile boolean
      stop; // set when one merge of a pass failed or the caller was interrupted

  IntermediateMerges(
      SortConfig c,
      EntrySpec entries,
      SortPlan plan,
      MergeBuffers buffers,
      MergeLoop loop,
      SortThreads threads) {
    this.c = c;
    this.entries = entries;
    this.plan = plan;
    this.buffers = buffers;
    this.loop = loop;
    this.threads = threads;
  }

  /**
   * How many merges of one pass run at once: at most {@code threads}, the pass's {@code merges},
   * and as many as the spare buffers give the least each needs ({@code k + 1} read buffers for its
   * widest {@code k} inputs, so that its prefetcher can make progress, plus the run writer's), and
   * as many as the open-file limit holds at once ({@link SortPlan#concurrentMergesByFiles}); at
   * least 1, even when the budget holds less than one such merge (it then gets its least all the
   * same).
   */
  int width(int k, int merges) {
    long byMemory = buffers.spareBuffers(plan.tempTransfer()) / (k + 1L + plan.runWriteBuffers());
    // Each merge holds its inputs and output open: the fan-in was planned for one at a time.
    long byFiles = plan.concurrentMergesByFiles(k);
    return (int) Math.max(1, Math.min(c.threads(), Math.min(merges, Math.min(byMemory, byFiles))));
  }

  /** What a pass does once one of its merges has written its run. */
  @FunctionalInterface
  interface MergeDone {
    /** Merge {@code i} of the pass wrote {@code run}; called on the thread that ran it. */
    void accept(int i, RunDescriptor run) throws IOException;
  }

  /**
   * Merges each of {@code merges} (each adjacent runs in run order; none reads another's output)
   * into a new run file, {@code width} at a time: with {@code width > 1} on as many merge threads,
   * each taking the next merge of the list when it is done with one, so that merges of unequal size
   * keep every thread busy; with 1 on the caller's thread.
   */
  void mergeToRuns(List<List<RunDescriptor>> merges, TempSpace temp, int width, MergeDone done)
      throws IOException {
    int k = 2;
    for (List<RunDescriptor> m : merges) {
      k = Math.max(k, m.size());
    }
    long least = k + 1L + plan.runWriteBuffers();
    int count =
        (int)
            Math.max(
                least,
                Math.min(
                    2L * k + plan.runWriteBuffers(),
                    buffers.spareBuffers(plan.tempTransfer()) / width));
    AtomicInteger next = new AtomicInteger();
    MergeThreads.FirstFailure failure = new MergeThreads.FirstFailure();
    stop = false;
    try (Resources res = new Resources(buffers.meter())) {
      Runnable[] bodies = new Runnable[width];
      for (int j = 0; j < width; j++) {
        BlockPool own = buffers.newPool(res, count, plan.tempTransfer());
        bodies[j] =
            () -> {
              try {
                for (int i = next.getAndIncrement();
                    i < merges.size() && !stop;
                    i = next.getAndIncrement()) {
                  Failures.checkCancelled();
                  done.accept(i, mergeToRun(merges.get(i), temp, own));
                }
              } catch (Throwable t) {
                failure.add(t);
                stop = true; // the others stop at their next check
              }
            };
      }
      MergeThreads.run(threads, bodies, running -> stop = true, "an intermediate merge pass");
      failure.rethrow();
    } finally {
      stop = false;
      buffers.resetLent(); // every thread has ended and closed its merges' pools
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
      try (Resources res = new Resources(buffers.meter())) {
        BlockPool pool = res.add(BlockPool.over(taken.subList(0, read), plan.tempTransfer()));
        BlockPool writePool =
            res.add(BlockPool.over(taken.subList(read, taken.size()), plan.tempTransfer()));
        MergeInputs in =
            res.add(new MergeInputs(runs, entries.layout(), c.directIo(), c.notices()));
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
                    threads,
                    runs.get(0).compression()));
        long[] from = new long[in.size()];
        long[] to = new long[in.size()];
        for (int i = 0; i < to.length; i++) {
          to[i] = in.descriptor(i).recordCount();
        }
        loop.entries(
            in,
            from,
            to,
            pool,
            cur -> out.addEntry(cur.buffer(), cur.position(), cur.entryLength()),
            () -> stop);
        return out.finish();
      }
    } finally {
      taken.forEach(own::release); // the sub-pools are closed: nothing uses these any more
    }
  }
}

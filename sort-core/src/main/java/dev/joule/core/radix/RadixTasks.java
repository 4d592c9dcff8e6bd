package dev.joule.core.radix;

import java.util.concurrent.RecursiveAction;

/**
 * The ForkJoin tasks of {@link RadixRunSorter}. A task borrows a {@link RadixScratch} for its own
 * work and returns it <em>before</em> joining the tasks it spawned, so a worker that runs a stolen
 * task while joining never finds its scratch in use.
 */
final class RadixTasks {
  private RadixTasks() {}

  /** A task with a list of spawned children, joined when its own work is done. */
  abstract static class Task extends RecursiveAction {
    private Task next;
    private Task pending;

    final void spawn(Task t) {
      t.next = pending;
      pending = t;
      t.fork();
    }

    final void joinPending() {
      for (Task t = pending; t != null; t = t.next) {
        t.join();
      }
      pending = null;
    }
  }

  /**
   * A range {@code [from, to)} of bank (k, r), with (ok, or) the other bank, whose words start at
   * key byte {@code base} and whose entries agree on the key bytes before {@code base + b}; the
   * subclasses differ only in what they run on it.
   */
  abstract static class Range extends Task {
    final RadixJob job;
    final long[] k;
    final long[] r;
    final long[] ok;
    final long[] or;
    final int from;
    final int to;
    final int b;
    final int base;

    Range(
        RadixJob job, long[] k, long[] r, long[] ok, long[] or, int from, int to, int b, int base) {
      this.job = job;
      this.k = k;
      this.r = r;
      this.ok = ok;
      this.or = or;
      this.from = from;
      this.to = to;
      this.b = b;
      this.base = base;
    }

    @Override
    protected final void compute() {
      RadixScratch s = job.sorter.acquire();
      try {
        run(s);
      } finally {
        job.sorter.release(s); // before joining: see the class comment
      }
      joinPending();
    }

    abstract void run(RadixScratch s);
  }

  /** One bucket whose entries agree on the bytes before word byte {@code b}: sorted from b on. */
  static final class Bucket extends Range {
    Bucket(
        RadixJob job, long[] k, long[] r, long[] ok, long[] or, int from, int to, int b, int base) {
      super(job, k, r, ok, or, from, to, b, base);
    }

    @Override
    void run(RadixScratch s) {
      job.process(s, this, k, r, ok, or, from, to, b, base, 0);
    }
  }

  /**
   * Neighbouring small buckets, already partitioned on word byte {@code b}; inline, forks nothing.
   */
  static final class Group extends Range {
    Group(
        RadixJob job, long[] k, long[] r, long[] ok, long[] or, int from, int to, int b, int base) {
      super(job, k, r, ok, or, from, to, b, base);
    }

    @Override
    void run(RadixScratch s) {
      job.processPartitioned(s, k, r, ok, or, from, to, b, base, 0);
    }
  }

  /**
   * A range whose entries agree on all the key bytes their words hold (from key byte {@code base}):
   * its words are reloaded with the next key bytes and it is sorted on them; once the tasks it
   * forks are done, the words of the key's first bytes are put back if this is the first reload on
   * the way down ({@code base == 0}; deeper ones are inside its range).
   */
  static final class Reload extends Task {
    private final RadixJob job;
    private final long[] k;
    private final long[] r;
    private final long[] ok;
    private final long[] or;
    private final int from;
    private final int to;
    private final int base;

    Reload(RadixJob job, long[] k, long[] r, long[] ok, long[] or, int from, int to, int base) {
      this.job = job;
      this.k = k;
      this.r = r;
      this.ok = ok;
      this.or = or;
      this.from = from;
      this.to = to;
      this.base = base;
    }

    @Override
    protected void compute() {
      long key0 = k[from];
      long tie0 = r[from] & job.index.tieMask();
      RadixScratch s = job.sorter.acquire();
      try {
        int at = job.loadWords(k, r, from, to, base + job.indexBytes());
        job.process(s, this, k, r, ok, or, from, to, 0, at, 0);
      } finally {
        job.sorter.release(s); // before joining: see the class comment
      }
      joinPending();
      if (base == 0) {
        job.restoreWords(from, to, key0, tie0);
      }
    }
  }

  /**
   * The whole run: its first varying byte is histogrammed and scattered by all workers over
   * disjoint chunks; chunk c's entries of digit d land after those of chunks before c (stable).
   */
  static final class Root extends Task {
    private final RadixJob job;
    private final int from;
    private final int to;
    private final int[][] counts; // counts.length - 1 chunks, last row = bucket ends

    Root(RadixJob job, int from, int to, int[][] counts) {
      this.job = job;
      this.from = from;
      this.to = to;
      this.counts = counts;
    }

    @Override
    protected void compute() {
      if (job.variable) {
        computeVariable();
        return;
      }
      int chunks = counts.length - 1;
      int[] ends = counts[chunks];
      int n = to - from;
      int b = 0;
      while (true) {
        if (b >= job.keyLength()) {
          return; // all keys equal: already in input order, in the primary bank
        }
        if (b >= job.indexBytes()) {
          reloadAll();
          return;
        }
        runChunks(b, false);
        int total = 0;
        int d0 = job.digits.digit(job.keys[from], job.refs[from], b);
        for (int c = 0; c < chunks; c++) {
          total += counts[c][d0];
        }
        if (total != n) {
          break;
        }
        b++;
      }
      int pos = from;
      for (int d = 0; d < 256; d++) {
        for (int c = 0; c < chunks; c++) {
          int cnt = counts[c][d];
          counts[c][d] = pos;
          pos += cnt;
        }
        ends[d] = pos;
      }
      runChunks(b, true);
      RadixScratch s = job.sorter.acquire();
      try {
        job.children(s, this, job.altKeys, job.altRefs, job.keys, job.refs, from, ends, 0, b, 0, 0);
      } finally {
        job.sorter.release(s);
      }
      joinPending();
    }

    /**
     * {@link #compute} for variable-length keys: the end bucket (keys that end at the byte) comes
     * first, and its entries are equal.
     */
    private void computeVariable() {
      int chunks = counts.length - 1;
      int[] ends = counts[chunks];
      int n = to - from;
      int b = 0;
      while (true) {
        if (b >= job.indexBytes()) {
          reloadAll();
          return;
        }
        runChunks(b, false);
        int ended = 0;
        int total = 0;
        int d0 = job.digits.digitOrEnd(job.keys[from], job.refs[from], b, 0);
        for (int c = 0; c < chunks; c++) {
          ended += counts[c][0];
          total += counts[c][d0];
        }
        if (ended == n) {
          job.finishEqual(job.keys, job.refs, from, to);
          return;
        }
        if (total != n) {
          break;
        }
        b++;
      }
      int pos = from;
      for (int d = 0; d < RadixJob.BUCKETS_WITH_END; d++) {
        for (int c = 0; c < chunks; c++) {
          int cnt = counts[c][d];
          counts[c][d] = pos;
          pos += cnt;
        }
        ends[d] = pos;
      }
      runChunks(b, true);
      if (ends[0] > from) {
        job.finishEqual(job.altKeys, job.altRefs, from, ends[0]);
      }
      RadixScratch s = job.sorter.acquire();
      try {
        job.children(
            s, this, job.altKeys, job.altRefs, job.keys, job.refs, ends[0], ends, 1, b, 0, 0);
      } finally {
        job.sorter.release(s);
      }
      joinPending();
    }

    /** All entries agree on the key bytes the words hold: a reload of the whole range. */
    private void reloadAll() {
      spawn(new Reload(job, job.keys, job.refs, job.altKeys, job.altRefs, from, to, 0));
      joinPending();
    }

    private void runChunks(int b, boolean scatter) {
      int chunks = counts.length - 1;
      Chunk[] tasks = new Chunk[chunks];
      long n = (long) to - from;
      for (int c = 0; c < chunks; c++) {
        int lo = from + (int) (n * c / chunks);
        int hi = from + (int) (n * (c + 1) / chunks);
        tasks[c] = new Chunk(job, counts[c], lo, hi, b, scatter);
      }
      invokeAll(tasks);
    }
  }

  /** Histogram or scatter of one chunk of the root's range, primary bank to alternate bank. */
  static final class Chunk extends RecursiveAction {
    private final RadixJob job;
    private final int[] h;
    private final int from;
    private final int to;
    private final int b;
    private final boolean scatter;

    Chunk(RadixJob job, int[] h, int from, int to, int b, boolean scatter) {
      this.job = job;
      this.h = h;
      this.from = from;
      this.to = to;
      this.b = b;
      this.scatter = scatter;
    }

    @Override
    protected void compute() {
      KeyDigits d = job.digits;
      if (scatter && job.variable) {
        d.scatterOrEnd(job.keys, job.refs, job.altKeys, job.altRefs, from, to, b, 0, h);
      } else if (scatter) {
        d.scatter(job.keys, job.refs, job.altKeys, job.altRefs, from, to, b, h);
      } else {
        java.util.Arrays.fill(h, 0);
        if (job.variable) {
          d.countOrEnd(job.keys, job.refs, from, to, b, 0, h);
        } else {
          d.count(job.keys, job.refs, from, to, b, h);
        }
      }
    }
  }
}

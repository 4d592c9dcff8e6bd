package dev.joule.io.prefetch;

import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.error.SortIOException;
import dev.joule.io.run.RunReader;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads the blocks of a merge's runs ahead of the merge, in {@link PrefetchSchedule} order, on
 * threads of {@link SortThreads} ({@code joule-prefetch-N} or the caller's), into the buffers of a
 * fixed {@link BlockPool} (allocated once by the caller; nothing is allocated per block).
 *
 * <p><b>Progress without deadlock.</b> The pool holds {@code k + spare} buffers for {@code k} runs.
 * Prefetched blocks not yet taken by their cursor ("speculative") never exceed {@code spare}; each
 * cursor holds at most one block and gives it back before asking for the next. So when a cursor
 * asks for a block the prefetcher has not claimed yet, a buffer is free and the cursor reads the
 * block itself ({@link #take}); the prefetcher later skips it. A cursor waits only for a block the
 * prefetcher has claimed, which already has its buffer and only needs its read to finish. A wrong
 * schedule therefore costs overlap, never progress.
 *
 * <p><b>Errors</b> of a prefetch thread are rethrown by the next {@link #take}. <b>Threads</b>: one
 * merge thread calls {@code take}/{@code release}; {@link #close()} (idempotent) stops and joins
 * the prefetch threads and returns every buffer not handed out to the pool.
 */
public final class BlockPrefetcher implements AutoCloseable {
  private static final byte NONE = 0;
  private static final byte CLAIMED = 1;
  private static final byte READY = 2;
  private static final byte TAKEN = 3;

  private final RunReader[] readers;
  private final int[] fromBlock;
  private final int[] toBlock;
  private final int[] base;
  private final PrefetchSchedule schedule;
  private final BlockPool pool;
  private final int spare;
  private final byte[] state;
  private final ByteBuffer[] ready;
  private final List<Thread> running = new ArrayList<>();
  private final AtomicInteger next = new AtomicInteger();
  private int speculative; // guarded by this
  private IOException failure; // guarded by this
  private boolean stopped; // guarded by this

  /**
   * Starts prefetching.
   *
   * @param readers the runs, in run order (borrowed)
   * @param fromBlock first block of each run's range
   * @param toBlock end block (exclusive) of each run's range
   * @param pool buffers of at least the runs' block size; at least {@code k + 1} of them (borrowed)
   * @param threadCount prefetch threads (1 or 2 are plenty for one device)
   * @param threads where they come from
   * @throws java.util.concurrent.RejectedExecutionException if {@code threads} has none to give
   *     (then none was started)
   */
  public BlockPrefetcher(
      RunReader[] readers,
      int[] fromBlock,
      int[] toBlock,
      PrefetchSchedule schedule,
      BlockPool pool,
      int threadCount,
      SortThreads threads) {
    int k = readers.length;
    if (pool.capacity() < k + 1) {
      throw new IllegalArgumentException(
          "a prefetch pool for "
              + k
              + " runs needs at least "
              + (k + 1)
              + " buffers, has "
              + pool.capacity());
    }
    this.readers = readers.clone();
    this.fromBlock = fromBlock.clone();
    this.toBlock = toBlock.clone();
    this.base = new int[k];
    int total = 0;
    for (int r = 0; r < k; r++) {
      base[r] = total;
      total += Math.max(0, toBlock[r] - fromBlock[r]);
    }
    this.schedule = schedule;
    this.pool = pool;
    this.spare = pool.capacity() - k;
    this.state = new byte[total];
    this.ready = new ByteBuffer[total];
    // All made before any starts: a factory failing on the second leaves none running.
    for (int t = 0; t < threadCount && total > 0; t++) {
      running.add(threads.newThread("prefetch", this::run));
    }
    SortThreads.startAll(running, this::stop);
  }

  private synchronized void stop() {
    stopped = true;
    notifyAll();
  }

  private void run() {
    try {
      for (int i = next.getAndIncrement(); i < schedule.size(); i = next.getAndIncrement()) {
        int r = schedule.run(i);
        int b = schedule.block(i);
        int slot = base[r] + b - fromBlock[r];
        synchronized (this) {
          while (!stopped && state[slot] == NONE && speculative >= spare) {
            wait();
          }
          if (stopped) {
            return;
          }
          if (state[slot] != NONE) {
            continue; // the cursor read it itself
          }
          state[slot] = CLAIMED;
          speculative++;
        }
        ByteBuffer buf = pool.acquire(); // free by the accounting above: never waits for long
        try {
          readers[r].readBlock(b, buf);
        } catch (IOException | RuntimeException e) {
          pool.release(buf);
          throw e;
        }
        synchronized (this) {
          ready[slot] = buf;
          state[slot] = READY;
          notifyAll();
        }
      }
    } catch (InterruptedException e) {
      fail(new InterruptedIOException("prefetch interrupted"));
    } catch (IOException e) {
      fail(e);
    } catch (RuntimeException | Error e) {
      fail(new SortIOException("read", null, "prefetch thread failed: " + e, e));
    }
  }

  private synchronized void fail(IOException e) {
    if (failure == null) {
      failure = e;
    }
    notifyAll();
  }

  /**
   * Block {@code b} of run {@code r}, read and verified; the caller owns the buffer (records from
   * its position to its limit) until {@link #release}. Waits for a prefetch in progress, or reads
   * the block on the caller's thread if the prefetcher has not reached it.
   */
  public ByteBuffer take(int r, int b) throws IOException {
    if (b < fromBlock[r] || b >= toBlock[r]) {
      // Its slot would be another run's (or none): waiting there could never end.
      throw new IndexOutOfBoundsException(
          "block "
              + b
              + " of run "
              + r
              + " is outside the merge's blocks ["
              + fromBlock[r]
              + ", "
              + toBlock[r]
              + ")");
    }
    int slot = base[r] + b - fromBlock[r];
    synchronized (this) {
      while (true) {
        if (failure != null) {
          throw failure;
        }
        if (state[slot] == READY) {
          ByteBuffer buf = ready[slot];
          ready[slot] = null;
          state[slot] = TAKEN;
          speculative--;
          notifyAll();
          return buf;
        }
        if (state[slot] == NONE) {
          state[slot] = TAKEN;
          break;
        }
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException(
              "interrupted while waiting for block " + b + " of run " + r);
        }
      }
    }
    ByteBuffer buf;
    try {
      buf = pool.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for a buffer");
    }
    try {
      return readers[r].readBlock(b, buf);
    } catch (IOException | RuntimeException e) {
      pool.release(buf);
      throw e;
    }
  }

  /** Gives back a buffer returned by {@link #take}. */
  public void release(ByteBuffer buf) {
    pool.release(buf);
  }

  /** Stops and joins the threads and returns every prefetched, untaken buffer. Idempotent. */
  @Override
  public void close() throws InterruptedIOException {
    stop();
    SortThreads.joinUninterruptibly(running); // they stop within one block read
    synchronized (this) {
      for (int i = 0; i < ready.length; i++) {
        if (ready[i] != null) {
          pool.release(ready[i]);
          ready[i] = null;
        }
      }
    }
  }
}

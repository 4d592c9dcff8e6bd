package dev.joule.io.prefetch;

import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.error.SortIOException;
import dev.joule.io.run.RunReader;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the blocks of a merge's runs ahead of the merge, in {@link PrefetchSchedule} order, into
 * the buffers of a fixed {@link BlockPool} (allocated once by the caller; nothing is allocated per
 * block). Each temp stripe (device) has its own queue, the scheduled blocks that live on it in
 * schedule order, and its own thread(s) ({@code joule-prefetch-N}, or the caller's from {@link
 * SortThreads}): with runs block-striped over the devices every device has a read in flight, and a
 * slow device delays only its own blocks.
 *
 * <p><b>Memory bound.</b> The pool holds {@code k + spare} buffers for {@code k} runs. Prefetched
 * blocks not yet taken by their cursor ("speculative") never exceed {@code spare}, and each device
 * may hold at most its share of them (in proportion to its blocks in the schedule), so a device
 * that runs ahead cannot take the buffers the others need next.
 *
 * <p><b>Progress without deadlock.</b> Each cursor holds at most one block and gives it back before
 * asking for the next. So when a cursor asks for a block the prefetcher has not claimed yet, a
 * buffer is free and the cursor reads the block itself ({@link #take}); the prefetcher later skips
 * it. A cursor waits only for a block the prefetcher has claimed, which already has its buffer and
 * only needs its read to finish. A wrong schedule therefore costs overlap, never progress.
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

  /** Reads and verifies one block: {@link RunReader#readBlock}, or a test's slower stand-in. */
  @FunctionalInterface
  interface BlockRead {
    ByteBuffer read(int run, int block, ByteBuffer dst) throws IOException;
  }

  private final BlockRead read;
  private final int[] fromBlock;
  private final int[] toBlock;
  private final int[] base;
  private final BlockPool pool;
  private final int spare;
  private final byte[] state;
  private final ByteBuffer[] ready;
  private final int[][] queues; // per device: schedule order of the slots on it
  private final int[] deviceOf; // per slot
  private final int[] runOf; // per slot
  private final int[] next; // per device: next queue position; guarded by this
  private final int[] held; // per device: speculative blocks; guarded by this
  private final int[] cap; // per device: its share of spare
  private final List<Thread> running = new ArrayList<>();
  private int speculative; // guarded by this
  private IOException failure; // guarded by this
  private boolean stopped; // guarded by this
  private long takes; // guarded by this
  private long waits; // guarded by this
  private long selfReads; // guarded by this
  private long waitNanos; // guarded by this

  /**
   * Starts prefetching.
   *
   * @param readers the runs, in run order (borrowed)
   * @param fromBlock first block of each run's range
   * @param toBlock end block (exclusive) of each run's range
   * @param pool buffers of at least the runs' block size; at least {@code k + 1} of them (borrowed)
   * @param threadsPerDevice prefetch threads per temp device (0: none, every block is read by the
   *     merge itself when needed)
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
      int threadsPerDevice,
      SortThreads threads) {
    this(
        readers,
        fromBlock,
        toBlock,
        schedule,
        pool,
        threadsPerDevice,
        threads,
        readerOf(readers),
        true);
  }

  private static BlockRead readerOf(RunReader[] readers) {
    RunReader[] rs = readers.clone();
    return (r, b, dst) -> rs[r].readBlock(b, dst);
  }

  /**
   * As the public constructor, reading through {@code read}; {@code byDevice} false puts every
   * block in one queue (one device), as if the runs were not striped.
   */
  BlockPrefetcher(
      RunReader[] readers,
      int[] fromBlock,
      int[] toBlock,
      PrefetchSchedule schedule,
      BlockPool pool,
      int threadsPerDevice,
      SortThreads threads,
      BlockRead read,
      boolean byDevice) {
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
    this.read = read;
    this.fromBlock = fromBlock.clone();
    this.toBlock = toBlock.clone();
    this.base = new int[k];
    int total = 0;
    for (int r = 0; r < k; r++) {
      base[r] = total;
      total += Math.max(0, toBlock[r] - fromBlock[r]);
    }
    this.pool = pool;
    this.spare = pool.capacity() - k;
    this.state = new byte[total];
    this.ready = new ByteBuffer[total];
    this.deviceOf = new int[total];
    this.runOf = new int[total];
    // Devices numbered in order of first use; each queue keeps the schedule's order.
    Map<Integer, Integer> devices = new HashMap<>();
    int[] order = new int[schedule.size()];
    for (int i = 0; i < schedule.size(); i++) {
      int r = schedule.run(i);
      int b = schedule.block(i);
      int slot = base[r] + b - fromBlock[r];
      int stripe = byDevice ? readers[r].stripeOf(b) : 0;
      deviceOf[slot] = devices.computeIfAbsent(stripe, x -> devices.size());
      runOf[slot] = r;
      order[i] = slot;
    }
    int d = devices.size();
    int[] count = new int[d];
    for (int slot : order) {
      count[deviceOf[slot]]++;
    }
    this.queues = new int[d][];
    this.cap = new int[d];
    for (int x = 0; x < d; x++) {
      queues[x] = new int[count[x]];
      cap[x] = (int) Math.max(1, Math.ceil((double) spare * count[x] / Math.max(1, total)));
    }
    int[] filled = new int[d];
    for (int slot : order) {
      int x = deviceOf[slot];
      queues[x][filled[x]++] = slot;
    }
    this.next = new int[d];
    this.held = new int[d];
    // All made before any starts: a factory failing on the second leaves none running.
    for (int x = 0; x < d; x++) {
      int device = x;
      for (int t = 0; t < threadsPerDevice; t++) {
        running.add(threads.newThread("prefetch", () -> run(device)));
      }
    }
    SortThreads.startAll(running, this::stop);
  }

  private synchronized void stop() {
    stopped = true;
    notifyAll();
  }

  /** The slot of block {@code b} of run {@code r}. */
  private int slot(int r, int b) {
    return base[r] + b - fromBlock[r];
  }

  private void run(int device) {
    int[] queue = queues[device];
    try {
      while (true) {
        int slot;
        synchronized (this) {
          while (true) {
            if (stopped || next[device] >= queue.length) {
              return;
            }
            slot = queue[next[device]];
            if (state[slot] != NONE) {
              next[device]++; // the cursor read it itself
              continue;
            }
            if (speculative < spare && held[device] < cap[device]) {
              break;
            }
            wait();
          }
          next[device]++;
          state[slot] = CLAIMED;
          speculative++;
          held[device]++;
        }
        int r = runOf[slot];
        int b = slot - base[r] + fromBlock[r];
        ByteBuffer buf = pool.acquire(); // free by the accounting above: never waits for long
        try {
          read.read(r, b, buf);
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
    int slot = slot(r, b);
    synchronized (this) {
      takes++;
      long waitedSince = 0;
      while (true) {
        if (failure != null) {
          throw failure;
        }
        if (state[slot] == READY) {
          ByteBuffer buf = ready[slot];
          ready[slot] = null;
          state[slot] = TAKEN;
          speculative--;
          held[deviceOf[slot]]--;
          if (waitedSince != 0) {
            waitNanos += System.nanoTime() - waitedSince;
          }
          notifyAll();
          return buf;
        }
        if (state[slot] == NONE) {
          state[slot] = TAKEN;
          selfReads++;
          break;
        }
        if (waitedSince == 0) {
          waits++;
          waitedSince = System.nanoTime();
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
      return read.read(r, b, buf);
    } catch (IOException | RuntimeException e) {
      pool.release(buf);
      throw e;
    }
  }

  /**
   * What the merge has asked of this prefetcher so far: {takes, takes that waited for a read in
   * flight, takes that read the block themselves, nanoseconds spent waiting}.
   */
  public synchronized long[] takeStats() {
    return new long[] {takes, waits, selfReads, waitNanos};
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

package dev.joule.io.pipeline;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.memory.DirectRegion;
import dev.joule.core.merge.RunCursor;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.fs.Failures;
import dev.joule.io.memory.MemoryMeter;
import dev.joule.io.prefetch.MergeSource;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;

/**
 * The final merge of a spilled session, run ahead of its cursor on a thread of its own ({@code
 * joule-ahead}): the merge's tournament and the session's {@link EntryCheck} (the output's CRC and
 * order check) run there while the caller does whatever it does with each record, and the cursor
 * only steps through blocks of merged entries. On a platform that writes what it reads, as the
 * session-against-file-sort race of issue 27 does, the caller's writes and the merge took turns on
 * one thread; the file sort has overlapped its merge with its output's writes from the start.
 *
 * <p><b>Cost.</b> The copy and the hand-off take CPU: on 1 GB of gensort records through a session
 * written to a file, 13-22 % more CPU in four A/B runs against the cursor reading the merge itself,
 * for 7 % less wall time in two of them and 7-10 % more in the other two (a 2-core VM shared with
 * other work). So it runs only when the configuration asks ({@code SortConfig.Builder.mergeAhead})
 * and the session may use more than one thread ({@code threads(1)}, as a Spark task's session is,
 * one task per core, keeps the caller's thread the only busy one).
 *
 * <p><b>Memory.</b> {@value #BLOCKS} blocks, together 1/{@value #BUDGET_SHARE} of the budget
 * ({@link #blockBytes}), counted in the session's ledger if it has room for them ({@link #open};
 * otherwise the cursor reads the merge itself, as before). Entries are copied into a block as the
 * merge yields them; the cursor's views point into the block, which goes back to the worker when
 * the cursor moves past its last entry. An entry larger than a block is handed over where the merge
 * holds it, and the merge waits until the cursor has moved past it.
 *
 * <p><b>Failure and close.</b> A failure of the merge or the check reaches the cursor after the
 * entries merged before it. {@link #close} (with the stream's resources, before the merge's inputs
 * are closed) stops the worker, interrupting it, and joins it, so that nothing reads the merge's
 * buffers after they are freed.
 */
final class MergeAhead implements SessionCursor.Entries, AutoCloseable {
  /**
   * Blocks: one the cursor reads, one the merge fills, two ready between them. With three blocks of
   * 1 MiB (session-vs-file.sh, 1 GB at 256 MiB) the cursor still waited 0.3 s for the merge and the
   * merge 0.5 s for a block: a caller blocked in a write lets the merge fill every block, then
   * drains them faster than the merge refills them.
   */
  static final int BLOCKS = 4;

  /** The blocks take 1/32 of the session's budget (8 MiB of 256 MiB), within these sizes. */
  static final int BUDGET_SHARE = 32;

  static final int MIN_BLOCK_BYTES = 64 << 10;
  static final int MAX_BLOCK_BYTES = 2 << 20;

  /** What the worker hands over: a block, an entry in place, the end, or a failure. */
  private record Batch(ByteBuffer buffer, int end, Semaphore moved, Throwable failure) {}

  private static final Batch END = new Batch(null, 0, null, null);

  private final MergeSource source;
  private final EntryLayout layout;
  private final MemoryMeter meter;
  private final SortThreads threads;
  private final long bytes;
  private final int blockBytes;
  private final BlockPool blocks;
  private final BlockingQueue<Batch> ready = new LinkedBlockingQueue<>();
  private EntryCheck check;
  private Thread worker;
  private ByteBuffer filling; // the worker's block (after the worker ends: close's)
  private volatile boolean stopping;
  // the cursor's side
  private ByteBuffer block;
  private int blockEnd;
  private int nextAt;
  private ByteBuffer buffer;
  private int position;
  private int run;
  private Semaphore moved; // an entry handed over in place: released when the cursor moves on
  private boolean ended;
  private boolean closed;

  private MergeAhead(
      MergeSource source,
      EntryLayout layout,
      MemoryMeter meter,
      SortThreads threads,
      int blockBytes,
      long bytes) {
    this.source = source;
    this.layout = layout;
    this.meter = meter;
    this.threads = threads;
    this.blockBytes = blockBytes;
    this.bytes = bytes;
    this.blocks = new BlockPool(BLOCKS, blockBytes);
  }

  /** The size of a block for a session of {@code budget} bytes. */
  static int blockBytes(long budget) {
    long b = budget / BUDGET_SHARE / BLOCKS / 4096 * 4096;
    return (int) Math.max(MIN_BLOCK_BYTES, Math.min(MAX_BLOCK_BYTES, b));
  }

  /**
   * A merge of {@code source} to run ahead of the cursor, its blocks counted in {@code meter}; null
   * if the ledger has no room for them (the cursor then reads {@code source} itself).
   */
  static MergeAhead open(
      MergeSource source, EntryLayout layout, MemoryMeter meter, SortThreads threads, long budget) {
    int block = blockBytes(budget);
    long bytes = DirectRegion.bytesFor(BLOCKS, block);
    if (!meter.tryAllocate(bytes)) {
      return null;
    }
    try {
      return new MergeAhead(source, layout, meter, threads, block, bytes);
    } catch (RuntimeException | Error e) {
      meter.freed(bytes);
      throw e;
    }
  }

  /** Starts the worker, which passes every entry through {@code c} before handing it over. */
  @Override
  public boolean checkAhead(EntryCheck c) {
    check = c;
    worker = threads.start("ahead", this::merge);
    return true;
  }

  // ---- the worker ----

  private void merge() {
    try {
      int at = 0;
      while (!stopping && source.next()) {
        RunCursor c = source.current();
        ByteBuffer src = c.buffer();
        int p = c.position();
        if (!check.admit(src, p, source.currentRun())) {
          continue;
        }
        int length = layout.entryLength(src, p);
        if (filling != null && at + length > blockBytes) {
          ready.add(new Batch(filling, at, null, null));
          filling = null;
        }
        if (length > blockBytes) {
          Semaphore s = new Semaphore(0);
          ready.add(new Batch(src, p, s, null));
          s.acquire(); // the merge's buffer holds it until the cursor has moved past it
          continue;
        }
        if (filling == null) {
          filling = blocks.acquire();
          at = 0;
        }
        filling.put(at, src, p, length);
        at += length;
      }
      if (filling != null) {
        ready.add(new Batch(filling, at, null, null));
        filling = null;
      }
      ready.add(END);
    } catch (InterruptedException e) {
      ready.add(
          new Batch(null, 0, null, new SortCancelledException("the session's merge stopped")));
    } catch (Throwable t) { // handed to the cursor, which throws it where the entries end
      ready.add(new Batch(null, 0, null, t));
    }
  }

  // ---- the cursor's side ----

  @Override
  public boolean next() throws IOException {
    if (moved != null) {
      moved.release();
      moved = null;
    }
    while (true) {
      if (block != null) {
        if (nextAt < blockEnd) {
          position = nextAt;
          nextAt += layout.entryLength(block, position);
          buffer = block;
          run = 0;
          return true;
        }
        blocks.release(block);
        block = null;
      }
      if (ended) {
        buffer = null;
        return false;
      }
      Batch x = take();
      if (isEnd(x)) {
        ended = true;
      } else if (x.failure() != null) {
        ended = true;
        throw Failures.translate(x.failure());
      } else if (x.moved() != null) {
        moved = x.moved();
        buffer = x.buffer();
        position = x.end();
        run = 1;
        return true;
      } else {
        block = x.buffer();
        blockEnd = x.end();
        nextAt = 0;
      }
    }
  }

  @SuppressWarnings("ReferenceEquality") // END is a sentinel: identity is the point
  private static boolean isEnd(Batch x) {
    return x == END;
  }

  private Batch take() throws IOException {
    try {
      return ready.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SortCancelledException("interrupted while waiting for the session's merge");
    }
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

  /** Stops and joins the worker, then gives its blocks back. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    stopping = true;
    if (worker != null) {
      worker.interrupt(); // out of a wait for a block or for the cursor; a merge step ends first
      SortThreads.joinUninterruptibly(java.util.List.of(worker));
    }
    // Every block back to the pool: the worker's, the cursor's and those handed over but not read.
    for (ByteBuffer b : new ByteBuffer[] {filling, block}) {
      if (b != null) {
        blocks.release(b);
      }
    }
    filling = null;
    block = null;
    for (Batch x; (x = ready.poll()) != null; ) {
      if (x.buffer() != null && x.moved() == null) {
        blocks.release(x.buffer());
      }
    }
    blocks.close();
    meter.freed(bytes);
  }
}

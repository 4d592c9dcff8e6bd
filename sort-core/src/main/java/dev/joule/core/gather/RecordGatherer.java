package dev.joule.core.gather;

import dev.joule.core.index.RecordIndex;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/**
 * Writes the records of a sorted {@link RecordIndex} into a destination buffer in index order.
 *
 * <p><b>Algorithm</b>: entry {@code i} of {@code [from, to)} goes to {@code dst.position() + (i -
 * from) * recordSize}, so disjoint entry ranges write disjoint destination ranges; ranges above
 * {@link #PARALLEL_GRAIN} records are split in halves as ForkJoin tasks. Each record is one
 * absolute bulk {@code ByteBuffer.put(int, ByteBuffer, int, int)} (JDK 16+): no per-record
 * allocation, and no shared mutable buffer state (absolute accessors only). <b>Resumable</b>: a
 * writer fills successive buffers by gathering successive ranges {@code [from, to)}; {@link
 * #recordsThatFit} says how many the next buffer takes. The output is identical for any pool.
 *
 * <p><b>Memory</b>: none; the index, arena and destination are borrowed. <b>Threads</b>: uses the
 * given pool (borrowed, e.g. {@code RadixRunSorter.pool()}), or the caller's thread when it is
 * null. One gather at a time per destination buffer.
 */
public final class RecordGatherer {
  /**
   * Ranges of at most this many records are copied by one task: 4096 records of 100 bytes is 400
   * KB, ~40 µs of copying, far above the ~1 µs cost of a fork.
   */
  public static final int PARALLEL_GRAIN = 4096;

  private final ForkJoinPool pool;

  /** A gatherer running its tasks on {@code pool} (borrowed), or sequential if {@code null}. */
  public RecordGatherer(ForkJoinPool pool) {
    this.pool = pool;
  }

  /** How many records of {@code [from, to)} fit in {@code dst}'s remaining space. */
  public static int recordsThatFit(RecordIndex index, int from, int to, ByteBuffer dst) {
    return (int) Math.min(to - from, (long) dst.remaining() / index.recordSize());
  }

  /**
   * Copies the records of entries {@code [from, to)} of {@code index} to {@code dst} at its
   * position, in entry order, and advances the position by their total size.
   *
   * @throws BufferOverflowException if they do not fit; nothing is written then
   */
  public void gather(RecordIndex index, int from, int to, ByteBuffer dst) {
    if (from < 0 || to > index.size() || from > to) {
      throw new IndexOutOfBoundsException("[" + from + ", " + to + ") of " + index.size());
    }
    long bytes = (long) (to - from) * index.recordSize();
    if (bytes > dst.remaining()) {
      throw new BufferOverflowException();
    }
    int base = dst.position();
    if (pool == null || to - from <= PARALLEL_GRAIN) {
      copy(index, from, to, dst, base);
    } else {
      pool.invoke(new GatherTask(index, from, to, dst, base));
    }
    dst.position(base + (int) bytes);
  }

  static void copy(RecordIndex index, int from, int to, ByteBuffer dst, int at) {
    int rs = index.recordSize();
    long[] refs = index.refs();
    for (int i = from; i < to; i++, at += rs) {
      long ref = refs[i];
      dst.put(at, index.slabBuffer(RecordIndex.slabOf(ref)), RecordIndex.offsetOf(ref), rs);
    }
  }

  private static final class GatherTask extends RecursiveAction {
    private final RecordIndex index;
    private final int from;
    private final int to;
    private final ByteBuffer dst;
    private final int at;

    GatherTask(RecordIndex index, int from, int to, ByteBuffer dst, int at) {
      this.index = index;
      this.from = from;
      this.to = to;
      this.dst = dst;
      this.at = at;
    }

    @Override
    protected void compute() {
      if (to - from <= PARALLEL_GRAIN) {
        copy(index, from, to, dst, at);
        return;
      }
      int mid = (from + to) >>> 1;
      invokeAll(
          new GatherTask(index, from, mid, dst, at),
          new GatherTask(index, mid, to, dst, at + (mid - from) * index.recordSize()));
    }
  }
}

package dev.joule.spark.sql;

import dev.joule.core.memory.SuppressForbidden;
import dev.joule.spark.executor.JouleEngine;
import dev.joule.spark.executor.TaskSorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.SortOrder;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.unsafe.Platform;
import scala.collection.AbstractIterator;
import scala.collection.Iterator;

/**
 * One partition of {@link JouleSortExec}: every input row goes into a joule key/value session as
 * its sort key ({@link SortKeyEncoder}) and its {@link UnsafeRow} bytes, read where the row lies
 * (no copy on the heap); after the last, the rows come back in order as one {@link UnsafeRow} that
 * points at each row's bytes in joule's off-heap memory in turn (no copy either), valid until the
 * next {@code next()}, as the rows of Spark's own sorter are. The last row is copied before the
 * session closes, as Spark's sorter does, so that nothing points at freed memory.
 *
 * <p>Metrics ({@link SortMetrics}): the whole operator's time (encoding and adding every row, the
 * runs and merges, taking the rows out; the rows timed on a sample, the session's slow adds by its
 * own clock), and what the session reports of itself ({@code stats()}): its in-memory sort time,
 * peak memory, the runs and bytes it spilled and its merge passes. Not thread-safe: one per task.
 */
final class RowSort {
  /** One in this many rows taken out is timed (a prime: merge refills are periodic). */
  private static final int OUTPUT_SAMPLE = 61;

  /**
   * One in this many rows put in is timed, beside the session's own clock of its slow adds ({@code
   * addStallNanos}): two clock reads per row took 0.55 s of the 5.1 s the join stage of the SQL
   * race's query (c) spent in the operator (async-profiler, SF1; 0.08 s sampled), and the rest of
   * an add is an encode and a copy of near-constant cost. 16, not {@link #OUTPUT_SAMPLE}: every
   * sampled row stands for this many, so a pause inside one (the scheduler on a shared machine, a
   * collection) counts that many times over; at 61, 1 of 9 runs of query (c) reported 7.2 s against
   * 4.5-5.2 s.
   */
  private static final int INPUT_SAMPLE = 16;

  /**
   * A sampled add counts for at most this plus 1 ns per row byte (a copy at 1 GB/s): an encode and
   * a copy of a row take 0.1-2 µs, so beyond that the thread was paused, and the pause, multiplied
   * by {@link #INPUT_SAMPLE}, would stand for work that was not done.
   */
  private static final long SAMPLE_CAP_NANOS = 200_000;

  private RowSort() {}

  /** Sorts {@code rows} (of {@code input}'s columns) by {@code orders}, as described above. */
  static Iterator<InternalRow> sort(
      Iterator<InternalRow> rows,
      List<SortOrder> orders,
      List<Attribute> input,
      boolean icuSortKeys,
      boolean validate,
      SortMetrics metrics) {
    SortKeyEncoder keys = SortKeyEncoder.bind(orders, input, icuSortKeys);
    UnsafeProjection toUnsafe = null;
    JouleEngine.PartitionSort sort;
    try {
      sort = TaskSorts.openRows(validate);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    long count = 0;
    long opNanos = 0;
    RowBytes bytes = new RowBytes();
    try {
      while (rows.hasNext()) {
        InternalRow r = rows.next();
        boolean timed = count % INPUT_SAMPLE == 0;
        long t0 = 0;
        long stalled = 0;
        if (timed) {
          t0 = System.nanoTime();
          stalled = sort.addStallNanos();
        }
        UnsafeRow u;
        if (r instanceof UnsafeRow ur) {
          u = ur;
        } else {
          if (toUnsafe == null) {
            toUnsafe =
                UnsafeProjection.create(
                    input.stream().map(Attribute::dataType).toArray(DataType[]::new));
          }
          u = toUnsafe.apply(r);
        }
        sort.add(keys.encode(u), bytes.of(u));
        count++;
        if (timed) { // the sample's own stall is counted once, below
          long took = System.nanoTime() - t0 - (sort.addStallNanos() - stalled);
          opNanos += Math.min(took, SAMPLE_CAP_NANOS + u.getSizeInBytes()) * INPUT_SAMPLE;
        }
      }
      opNanos += sort.addStallNanos();
      long t0 = System.nanoTime();
      sort.finish();
      opNanos += System.nanoTime() - t0;
    } catch (IOException e) {
      sort.close();
      throw new UncheckedIOException(e);
    } catch (RuntimeException | Error e) {
      sort.close();
      throw e;
    }
    metrics.addOperatorTime(opNanos);
    if (count == 0) {
      finishOutput(sort, metrics, 0);
      return scala.collection.Iterator$.MODULE$.empty();
    }
    return new Output(sort, count, input.size(), metrics);
  }

  /**
   * A row's bytes as a heap buffer: a view of its own array when it lies on the heap (Spark's usual
   * case), else copied into a scratch array. Not thread-safe.
   */
  private static final class RowBytes {
    private byte[] scratch = new byte[0];
    private byte[] array = scratch;
    private ByteBuffer view = ByteBuffer.wrap(array);

    ByteBuffer of(UnsafeRow u) {
      Object base = u.getBaseObject();
      int size = u.getSizeInBytes();
      int at = 0;
      if (base instanceof byte[] b) {
        at = (int) (u.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET);
        wrap(b);
      } else {
        if (scratch.length < size) {
          scratch = new byte[Math.max(size, 2 * scratch.length)];
        }
        u.writeToMemory(scratch, Platform.BYTE_ARRAY_OFFSET); // never into a row's own array
        wrap(scratch);
      }
      return view.limit(at + size).position(at);
    }

    private void wrap(byte[] b) {
      if (b != array) {
        array = b;
        view = ByteBuffer.wrap(b);
      }
    }
  }

  /**
   * Ends the session after the last row: runs its final check, records the metrics (the spills
   * Spark asked for while the rows went out included), closes it.
   */
  private static void finishOutput(
      JouleEngine.PartitionSort sort, SortMetrics metrics, long nanos) {
    try {
      if (sort.next()) {
        throw new IllegalStateException("joule's session returned more rows than were added");
      }
      metrics.addOperatorTime(nanos);
      metrics.addSession(sort.stats());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      sort.close();
    }
  }

  /** The sorted rows, one reused {@link UnsafeRow} pointing into joule's memory. */
  private static final class Output extends AbstractIterator<InternalRow> {
    private final JouleEngine.PartitionSort sort;
    private final long count;
    private final SortMetrics metrics;
    private final UnsafeRow row;
    private long returned;
    private long sampledNanos;

    Output(JouleEngine.PartitionSort sort, long count, int fields, SortMetrics metrics) {
      this.sort = sort;
      this.count = count;
      this.metrics = metrics;
      this.row = new UnsafeRow(fields);
    }

    @Override
    public boolean hasNext() {
      return returned < count;
    }

    @Override
    public InternalRow next() {
      if (returned >= count) {
        throw new NoSuchElementException();
      }
      boolean timed = returned % OUTPUT_SAMPLE == 0;
      long t0 = timed ? System.nanoTime() : 0;
      try {
        if (!sort.next()) {
          throw new IllegalStateException(
              "joule's session returned " + returned + " of the " + count + " rows added");
        }
      } catch (IOException e) {
        sort.close();
        throw new UncheckedIOException(e);
      }
      pointAt(row, sort.value());
      returned++;
      if (timed) {
        sampledNanos += (System.nanoTime() - t0) * OUTPUT_SAMPLE;
      }
      if (returned == count) {
        UnsafeRow last = row.copy(); // the session's memory is freed now
        finishOutput(sort, metrics, sampledNanos);
        return last;
      }
      return row;
    }
  }

  /**
   * Points {@code row} at the bytes of {@code v} from its position to its limit, in a direct buffer
   * of joule's, without a copy.
   */
  @SuppressForbidden("the row must point at joule's off-heap bytes: their address is needed")
  static void pointAt(UnsafeRow row, ByteBuffer v) {
    if (v.isDirect()) {
      long address = io.netty.util.internal.PlatformDependent.directBufferAddress(v);
      row.pointTo(null, address + v.position(), v.remaining());
    } else {
      byte[] copy = new byte[v.remaining()];
      v.get(v.position(), copy);
      row.pointTo(copy, Platform.BYTE_ARRAY_OFFSET, copy.length);
    }
  }
}

package dev.joule.spark.executor;

import dev.joule.spark.record.PairRecordLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import scala.Tuple2;

/**
 * A reduce task's sorted pairs, pulled lazily from the engine: each wrapped record is unwrapped
 * into a fresh key and value array (Spark's consumers may keep them). The sort is closed as soon as
 * the last pair has been taken, and otherwise by the task's completion listener. Not thread-safe.
 */
public final class SortedPairs implements Iterator<Tuple2<byte[], byte[]>> {
  private final JouleEngine.PartitionSort sort;
  private final PairRecordLayout layout;
  private Tuple2<byte[], byte[]> next;
  private boolean ended;

  /** Pairs of {@code sort}, on which {@link JouleEngine.PartitionSort#finish()} was called. */
  public SortedPairs(JouleEngine.PartitionSort sort, PairRecordLayout layout) {
    this.sort = sort;
    this.layout = layout;
  }

  @Override
  public boolean hasNext() {
    if (next == null && !ended) {
      try {
        if (sort.next()) {
          next = new Tuple2<>(layout.key(sort.record()), layout.value(sort.record()));
        } else {
          ended = true;
          sort.close();
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return next != null;
  }

  @Override
  public Tuple2<byte[], byte[]> next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Tuple2<byte[], byte[]> t = next;
    next = null;
    return t;
  }
}

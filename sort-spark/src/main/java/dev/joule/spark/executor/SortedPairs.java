package dev.joule.spark.executor;

import dev.joule.spark.record.PairKey;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.NoSuchElementException;
import scala.Tuple2;

/**
 * A reduce task's sorted pairs, pulled lazily from the engine and turned into fresh objects by a
 * {@link View} (Spark's consumers may keep what they get). The sort is closed as soon as the last
 * pair has been taken, and otherwise by the task's completion listener. Not thread-safe.
 *
 * @param <T> what each pair becomes
 */
public final class SortedPairs<T> implements Iterator<T> {
  /**
   * Makes the element of one pair from the engine's views, which are valid only during the call.
   * Serializable: the sort's closure carries it to the executors.
   */
  @FunctionalInterface
  public interface View<T> extends Serializable {
    T of(ByteBuffer engineKey, ByteBuffer value);
  }

  private final JouleEngine.PartitionSort sort;
  private final View<T> view;
  private T next;
  private boolean ended;

  /** Pairs of {@code sort}, on which {@link JouleEngine.PartitionSort#finish()} was called. */
  public SortedPairs(JouleEngine.PartitionSort sort, View<T> view) {
    this.sort = sort;
    this.view = view;
  }

  /** The pair itself: its key (decoded from the engine key) and a copy of its value. */
  public static Tuple2<byte[], byte[]> pair(ByteBuffer engineKey, ByteBuffer value) {
    return new Tuple2<>(PairKey.key(engineKey), value(engineKey, value));
  }

  /** A copy of the pair's value alone. */
  public static byte[] value(ByteBuffer engineKey, ByteBuffer value) {
    byte[] v = new byte[value.remaining()];
    value.get(value.position(), v);
    return v;
  }

  @Override
  public boolean hasNext() {
    if (next == null && !ended) {
      try {
        if (sort.next()) {
          next = view.of(sort.key(), sort.record());
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
  public T next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    T t = next;
    next = null;
    return t;
  }
}

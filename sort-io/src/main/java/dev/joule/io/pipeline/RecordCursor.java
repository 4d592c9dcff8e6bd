package dev.joule.io.pipeline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Function;

/**
 * Pull iteration over sorted records, returned by {@link SortSession#finish()}. The views it hands
 * out are read-only and zero-copy (they show the session's memory or its merge buffers) and valid
 * until the next call of {@link #next()}; copy what must outlive that. Single-threaded, except that
 * the session's {@link SortSession#spill()} may run concurrently from another thread.
 *
 * <p>The end of the records is also where the session's self-validation runs: a mismatch makes the
 * last {@link #next()} throw {@link dev.joule.io.error.SortValidationException}.
 */
public interface RecordCursor extends AutoCloseable {
  /** Moves to the next record; {@code false} after the last. */
  boolean next() throws IOException;

  /**
   * The current record (for key/value pairs, the value): read-only, position 0, limit = its length;
   * valid until {@link #next()}.
   */
  ByteBuffer record();

  /**
   * The current record's key as the sort ordered it: for key/value pairs the key that was added;
   * for records their normalized key (the key's byte range of a fixed record, the whole line, or
   * the bytes a {@code SortKey} was encoded into). Read-only, valid until {@link #next()}.
   */
  ByteBuffer key();

  /** The current value: the same as {@link #record()}, named for key/value pairs. */
  default ByteBuffer value() {
    return record();
  }

  /**
   * This cursor as an {@link Iterator} of {@code view} applied to each record (for example {@code c
   * -> copyOf(c.value())}); {@code hasNext()} moves the cursor, so an element that is a view (such
   * as {@link #record()} itself) is valid only until the following {@code hasNext()}. I/O and
   * validation errors come as {@link UncheckedIOException}.
   */
  default <T> Iterator<T> asIterator(Function<? super RecordCursor, ? extends T> view) {
    RecordCursor cursor = this;
    return new Iterator<>() {
      private boolean moved;
      private boolean more;

      @Override
      public boolean hasNext() {
        if (!moved) {
          try {
            more = cursor.next();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          moved = true;
        }
        return more;
      }

      @Override
      public T next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        moved = false;
        return view.apply(cursor);
      }
    };
  }

  /** Releases everything the cursor holds; idempotent. */
  @Override
  void close();
}

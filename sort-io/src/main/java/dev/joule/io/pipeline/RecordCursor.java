package dev.joule.io.pipeline;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Pull iteration over sorted records, returned by {@link SortSession#finish()}. Single-threaded.
 * The end of the records is also where the session's self-validation runs: a mismatch makes the
 * last {@link #next()} throw {@link dev.joule.io.error.SortValidationException}.
 */
public interface RecordCursor extends AutoCloseable {
  /** Moves to the next record; {@code false} after the last. */
  boolean next() throws IOException;

  /**
   * The current record: read-only, position 0, limit = record size; valid until {@link #next()}.
   */
  ByteBuffer record();

  /** Releases everything the cursor holds; idempotent. */
  @Override
  void close();
}

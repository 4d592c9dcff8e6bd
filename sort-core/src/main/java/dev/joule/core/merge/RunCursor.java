package dev.joule.core.merge;

import java.nio.ByteBuffer;

/**
 * Pull iteration over one sorted run of fixed-length records, without copying them.
 *
 * <p><b>Protocol.</b> A new cursor is positioned <em>before</em> its first record. {@link
 * #advance()} moves to the next record and returns {@code false} once the run is exhausted; after
 * that only {@link #advance()} may be called again (it keeps returning {@code false}). Between a
 * successful {@code advance()} and the next call to it, the current record is the {@link
 * #recordLength()} bytes at absolute index {@link #position()} of {@link #buffer()}, and its key is
 * the {@link #keyLength()} bytes at {@code position() + keyOffset()}.
 *
 * <p><b>Ownership.</b> The cursor owns (or borrows from a pool) the buffer it exposes; callers only
 * read it with absolute accessors and never change its position, limit, or byte order, and never
 * keep a reference past the next {@code advance()}: a file-backed cursor may hand its block back to
 * the pool and expose a different buffer after it. Copy the record out before advancing.
 *
 * <p><b>Ranges.</b> A cursor delivers the records of one contiguous range of its run; restricting a
 * merge to a key range (see {@link MergeSplitter}) is the cursor's job, done by building it over
 * {@code [fromRecord, toRecord)} (for example {@link ByteBufferRunCursor#ByteBufferRunCursor(
 * ByteBuffer, dev.joule.core.record.FixedLengthFormat, int, int)}), so that a file-backed cursor
 * can seek to the first block instead of skipping records, and the tree stays free of limit checks.
 *
 * <p>Implementations are single-threaded: one merge thread drives a cursor.
 */
public interface RunCursor {
  /**
   * Moves to the next record of the run.
   *
   * @return {@code true} if a record is now current, {@code false} if the run is exhausted
   */
  boolean advance();

  /**
   * The current record's normalized key prefix: its first 8 key bytes big-endian (zero-padded when
   * the key is shorter), comparable with {@link Long#compareUnsigned}; see {@link
   * dev.joule.core.index.KeyPrefix}.
   */
  long prefix();

  /**
   * The buffer holding the current record. Borrowed: valid until the next {@link #advance()}; do
   * not change its position, limit or order.
   */
  ByteBuffer buffer();

  /** Absolute index in {@link #buffer()} of the current record's first byte. */
  int position();

  /** Bytes per record; constant over the cursor's life. */
  int recordLength();

  /** Offset of the key inside a record; constant over the cursor's life. */
  int keyOffset();

  /** Key length in bytes (at least 1); constant over the cursor's life. */
  int keyLength();
}

package dev.joule.core.merge;

import java.nio.ByteBuffer;

/**
 * Pull iteration over one sorted run of entries (records with their normalized keys, {@code
 * core.index.EntryLayout}), without copying them.
 *
 * <p><b>Protocol.</b> A new cursor is positioned <em>before</em> its first entry. {@link
 * #advance()} moves to the next entry and returns {@code false} once the run is exhausted; after
 * that only {@link #advance()} may be called again (it keeps returning {@code false}). Between a
 * successful {@code advance()} and the next call to it, the current entry is the {@link
 * #entryLength()} bytes at absolute index {@link #position()} of {@link #buffer()}, its key the
 * {@link #keyLength()} bytes at {@link #keyPosition()} and its record the {@link #recordLength()}
 * bytes at {@link #recordPosition()}.
 *
 * <p><b>Ownership.</b> The cursor owns (or borrows from a pool) the buffer it exposes; callers only
 * read it with absolute accessors and never change its position, limit, or byte order, and never
 * keep a reference past the next {@code advance()}: a file-backed cursor may hand its block back to
 * the pool and expose a different buffer after it. Copy the entry out before advancing. One promise
 * holds across an advance: if {@link #buffer()} is the same object before and after it, the
 * previous entry's bytes in it are still there, unchanged (the merge's tree compares a record with
 * the one before it in its run that way); a cursor that puts new bytes in a buffer object it has
 * exposed must expose a new object for them.
 *
 * <p><b>Ranges.</b> A cursor delivers the entries of one contiguous range of its run; restricting a
 * merge to a key range (see {@link MergeSplitter}) is the cursor's job, done by building it over
 * {@code [fromEntry, toEntry)}, so that a file-backed cursor can seek to the first block instead of
 * skipping entries, and the tree stays free of limit checks.
 *
 * <p>Implementations are single-threaded: one merge thread drives a cursor.
 */
public interface RunCursor {
  /**
   * Moves to the next entry of the run.
   *
   * @return {@code true} if an entry is now current, {@code false} if the run is exhausted
   */
  boolean advance();

  /**
   * The current key's normalized prefix: its first 8 bytes big-endian (zero-padded when the key is
   * shorter), comparable with {@link Long#compareUnsigned}; see {@code
   * dev.joule.core.index.KeyPrefix}.
   */
  long prefix();

  /**
   * The buffer holding the current entry. Borrowed: valid until the next {@link #advance()}; do not
   * change its position, limit or order.
   */
  ByteBuffer buffer();

  /** Absolute index in {@link #buffer()} of the current entry's first byte. */
  int position();

  /** Bytes of the current entry. */
  int entryLength();

  /** Absolute index of the current key's first byte. */
  int keyPosition();

  /** Bytes of the current key (0 for an empty key). */
  int keyLength();

  /** Absolute index of the current record's first byte. */
  int recordPosition();

  /** Bytes of the current record. */
  int recordLength();
}

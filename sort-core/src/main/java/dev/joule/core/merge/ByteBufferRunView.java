package dev.joule.core.merge;

import dev.joule.core.record.FixedLengthFormat;
import java.nio.ByteBuffer;

/**
 * A {@link SortedRunView} over sorted fixed-length records in {@code [buffer.position(),
 * buffer.limit())}, the in-memory companion of {@link ByteBufferRunCursor}.
 *
 * <p>O(1) memory; borrows the buffer (absolute reads only). Not thread-safe.
 */
public final class ByteBufferRunView implements SortedRunView {
  private final ByteBuffer buffer;
  private final int base;
  private final int recordSize;
  private final int keyOffset;
  private final int keyLength;
  private final int size;

  /** A view of every record in {@code [buffer.position(), buffer.limit())}. */
  public ByteBufferRunView(ByteBuffer buffer, FixedLengthFormat format) {
    this.buffer = buffer;
    this.base = buffer.position();
    this.recordSize = format.recordSize();
    this.keyOffset = format.key().offset();
    this.keyLength = format.key().length();
    this.size = ByteBufferRunCursor.recordCount(buffer, format);
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public int keyLength() {
    return keyLength;
  }

  @Override
  public int compareKey(long index, byte[] key) {
    return MergeOrder.compareKey(buffer, keyIndex(index), key);
  }

  @Override
  public void copyKey(long index, byte[] dst) {
    buffer.get(keyIndex(index), dst, 0, keyLength);
  }

  private int keyIndex(long index) {
    return base + Math.toIntExact(index) * recordSize + keyOffset;
  }
}

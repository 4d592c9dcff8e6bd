package dev.joule.core.merge;

import dev.joule.core.index.KeyPrefix;
import dev.joule.core.record.FixedLengthFormat;
import java.nio.ByteBuffer;

/**
 * The record accessors every {@link RunCursor} over fixed-length records shares: the current buffer
 * and position, the record and key geometry, and the key prefix read on demand. Subclasses
 * implement {@link #advance()} and keep {@link #buffer} and {@link #position} current.
 *
 * <p>Memory: O(1). Not thread-safe, like every cursor.
 */
public abstract class AbstractRunCursor implements RunCursor {
  /** The buffer holding the current record (subclasses move it as they advance). */
  protected ByteBuffer buffer;

  /** The absolute index of the current record in {@link #buffer}. */
  protected int position;

  private final int recordLength;
  private final int keyOffset;
  private final int keyLength;

  protected AbstractRunCursor(FixedLengthFormat format) {
    this.recordLength = format.recordSize();
    this.keyOffset = format.key().offset();
    this.keyLength = format.key().length();
  }

  @Override
  public final long prefix() {
    return KeyPrefix.of(buffer, position + keyOffset, keyLength);
  }

  @Override
  public final ByteBuffer buffer() {
    return buffer;
  }

  @Override
  public final int position() {
    return position;
  }

  @Override
  public final int recordLength() {
    return recordLength;
  }

  @Override
  public final int keyOffset() {
    return keyOffset;
  }

  @Override
  public final int keyLength() {
    return keyLength;
  }
}

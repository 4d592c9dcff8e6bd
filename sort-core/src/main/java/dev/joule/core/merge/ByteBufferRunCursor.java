package dev.joule.core.merge;

import dev.joule.core.record.FixedLengthFormat;
import java.nio.ByteBuffer;

/**
 * A {@link RunCursor} over sorted fixed-length records held contiguously in one {@link ByteBuffer}:
 * the in-memory run for tests, benchmarks and the single-run case where no merge is needed.
 *
 * <p>Algorithm: walks record indices {@code [fromRecord, toRecord)}, where record {@code i} starts
 * at absolute index {@code buffer.position() + i * recordSize} (the buffer's position at
 * construction is the base). The prefix is read on demand with {@link KeyPrefix#of(ByteBuffer, int,
 * int)}. The cursor does not check that the records are sorted; the merge assumes it.
 *
 * <p>Memory: O(1); the cursor borrows the buffer and never changes its position, limit or order.
 * The buffer must outlive the cursor. Not thread-safe; any number of cursors may share one buffer.
 */
public final class ByteBufferRunCursor extends AbstractRunCursor {
  private final int recordLength;
  private final int end;

  /** A cursor over every record in {@code [buffer.position(), buffer.limit())}. */
  public ByteBufferRunCursor(ByteBuffer buffer, FixedLengthFormat format) {
    this(buffer, format, 0, recordCount(buffer, format));
  }

  /**
   * A cursor over records {@code [fromRecord, toRecord)} of the run starting at {@code
   * buffer.position()}: the bounded form used for a key range of a parallel merge.
   *
   * @throws IndexOutOfBoundsException if the range is not inside {@code [position, limit)}
   */
  public ByteBufferRunCursor(
      ByteBuffer buffer, FixedLengthFormat format, int fromRecord, int toRecord) {
    super(format);
    int size = format.recordSize();
    int count = recordCount(buffer, format);
    if (fromRecord < 0 || fromRecord > toRecord || toRecord > count) {
      throw new IndexOutOfBoundsException(
          "records [" + fromRecord + ", " + toRecord + ") outside a run of " + count);
    }
    this.buffer = buffer;
    this.recordLength = size;
    int base = buffer.position();
    this.end = base + toRecord * size;
    // One record before the first, so that advance() is a single add and compare.
    this.position = base + fromRecord * size - size;
  }

  /** Number of whole records in {@code [buffer.position(), buffer.limit())}. */
  public static int recordCount(ByteBuffer buffer, FixedLengthFormat format) {
    int bytes = buffer.remaining();
    if (bytes % format.recordSize() != 0) {
      throw new IllegalArgumentException(
          bytes + " bytes are not a whole number of " + format.recordSize() + "-byte records");
    }
    return bytes / format.recordSize();
  }

  @Override
  public boolean advance() {
    int next = position + recordLength;
    if (next >= end) {
      position = end; // stays exhausted however often advance() is called
      return false;
    }
    position = next;
    return true;
  }
}

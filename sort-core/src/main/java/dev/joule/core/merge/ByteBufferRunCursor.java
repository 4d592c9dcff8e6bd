package dev.joule.core.merge;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.record.FixedLengthFormat;
import java.nio.ByteBuffer;

/**
 * A {@link RunCursor} over sorted entries held contiguously in one {@link ByteBuffer}: the
 * in-memory run for tests, benchmarks and the single-run case where no merge is needed.
 *
 * <p>Algorithm: walks entries {@code [fromEntry, toEntry)} of the run that starts at the buffer's
 * position at construction; fixed-size entries by arithmetic, variable ones by their lengths (a
 * range of those is found by one scan from the start). The cursor does not check that the entries
 * are sorted; the merge assumes it.
 *
 * <p>Memory: O(1); the cursor borrows the buffer and never changes its position, limit or order.
 * Its bytes must not change while a merge reads them: the cursor exposes the one buffer object
 * throughout, which {@link RunCursor} takes as the promise that earlier entries are unchanged. The
 * buffer must outlive the cursor. Not thread-safe; any number of cursors may share one buffer.
 */
public final class ByteBufferRunCursor extends AbstractRunCursor {
  private final int end;
  private final int fixed; // entry size of fixed layouts, 0 for variable
  private int left; // entries still to deliver, for variable layouts
  private boolean started;

  /**
   * A cursor over every record of {@code format} in {@code [buffer.position(), buffer.limit())}.
   */
  public ByteBufferRunCursor(ByteBuffer buffer, FixedLengthFormat format) {
    this(buffer, EntryLayout.of(format));
  }

  /** A cursor over every entry in {@code [buffer.position(), buffer.limit())}. */
  public ByteBufferRunCursor(ByteBuffer buffer, EntryLayout layout) {
    this(buffer, layout, 0, entryCount(buffer, layout));
  }

  /**
   * A cursor over records {@code [fromRecord, toRecord)} of the run of {@code format} records
   * starting at {@code buffer.position()}: the bounded form used for a key range of a parallel
   * merge.
   */
  public ByteBufferRunCursor(
      ByteBuffer buffer, FixedLengthFormat format, int fromRecord, int toRecord) {
    this(buffer, EntryLayout.of(format), fromRecord, toRecord);
  }

  /**
   * A cursor over entries {@code [fromEntry, toEntry)} of the run starting at {@code
   * buffer.position()}.
   *
   * @throws IndexOutOfBoundsException if the range is not inside {@code [position, limit)}
   */
  public ByteBufferRunCursor(ByteBuffer buffer, EntryLayout layout, int fromEntry, int toEntry) {
    super(layout);
    int count = entryCount(buffer, layout);
    if (fromEntry < 0 || fromEntry > toEntry || toEntry > count) {
      throw new IndexOutOfBoundsException(
          "entries [" + fromEntry + ", " + toEntry + ") outside a run of " + count);
    }
    this.buffer = buffer;
    this.fixed = layout.fixedEntrySize();
    int base = buffer.position();
    if (fixed > 0) {
      this.end = base + toEntry * fixed;
      // One entry before the first, so that advance() is a single add and compare.
      this.position = base + fromEntry * fixed - fixed;
    } else {
      int at = base;
      for (int i = 0; i < fromEntry; i++) {
        at += layout.entryLength(buffer, at);
      }
      this.position = at;
      this.left = toEntry - fromEntry;
      this.end = buffer.limit();
    }
  }

  /** Number of whole records of {@code format} in {@code [buffer.position(), buffer.limit())}. */
  public static int recordCount(ByteBuffer buffer, FixedLengthFormat format) {
    return entryCount(buffer, EntryLayout.of(format));
  }

  /** Number of entries in {@code [buffer.position(), buffer.limit())}. */
  public static int entryCount(ByteBuffer buffer, EntryLayout layout) {
    int bytes = buffer.remaining();
    int fixed = layout.fixedEntrySize();
    if (fixed > 0) {
      if (bytes % fixed != 0) {
        throw new IllegalArgumentException(
            bytes + " bytes are not a whole number of " + fixed + "-byte entries");
      }
      return bytes / fixed;
    }
    int n = 0;
    for (int at = buffer.position(); at < buffer.limit(); n++) {
      at += layout.entryLength(buffer, at);
      if (at > buffer.limit()) {
        throw new IllegalArgumentException("the last entry runs past the buffer's limit");
      }
    }
    return n;
  }

  @Override
  public boolean advance() {
    if (fixed > 0) {
      int next = position + fixed;
      if (next >= end) {
        position = end; // stays exhausted however often advance() is called
        return false;
      }
      position = next;
      return true;
    }
    if (left == 0) {
      return false;
    }
    if (started) {
      position += layout.entryLength(buffer, position);
    }
    started = true;
    left--;
    return true;
  }
}

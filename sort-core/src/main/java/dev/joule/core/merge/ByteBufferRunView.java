package dev.joule.core.merge;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.TieBreaker;
import dev.joule.core.record.FixedLengthFormat;
import java.nio.ByteBuffer;

/**
 * A {@link SortedRunView} over sorted entries in {@code [buffer.position(), buffer.limit())}, the
 * in-memory companion of {@link ByteBufferRunCursor}.
 *
 * <p>Memory: O(1) for fixed-size entries; one {@code int} per entry (their offsets) for variable
 * ones. Borrows the buffer (absolute reads only). Not thread-safe.
 */
public final class ByteBufferRunView implements SortedRunView {
  private final ByteBuffer buffer;
  private final EntryLayout layout;
  private final TieBreaker tie;
  private final int base;
  private final int fixed;
  private final int[] offsets; // variable layouts only
  private final int size;

  /** A view of every record of {@code format} in {@code [buffer.position(), buffer.limit())}. */
  public ByteBufferRunView(ByteBuffer buffer, FixedLengthFormat format) {
    this(buffer, EntryLayout.of(format), null);
  }

  /**
   * A view of every entry of {@code layout} in {@code [buffer.position(), buffer.limit())}, ordered
   * with {@code tie} among equal keys (null: none).
   */
  public ByteBufferRunView(ByteBuffer buffer, EntryLayout layout, TieBreaker tie) {
    this.buffer = buffer;
    this.layout = layout;
    this.tie = tie;
    this.base = buffer.position();
    this.fixed = layout.fixedEntrySize();
    this.size = ByteBufferRunCursor.entryCount(buffer, layout);
    if (fixed > 0) {
      this.offsets = null;
    } else {
      this.offsets = new int[size];
      for (int i = 0, at = base; i < size; i++) {
        offsets[i] = at;
        at += layout.entryLength(buffer, at);
      }
    }
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public int compare(long index, Probe probe) {
    int at = entry(index);
    return MergeOrder.compareToProbe(buffer, at, layout, probe, tie);
  }

  @Override
  public Probe probe(long index) {
    return MergeOrder.probeOf(buffer, entry(index), layout, tie != null);
  }

  private int entry(long index) {
    int i = Math.toIntExact(index);
    return fixed > 0 ? base + i * fixed : offsets[i];
  }
}

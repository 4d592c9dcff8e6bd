package dev.joule.core.merge;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.KeyPrefix;
import dev.joule.core.record.FixedLengthFormat;
import java.nio.ByteBuffer;

/**
 * The entry accessors every {@link RunCursor} shares: the current buffer and position, and the key
 * and record geometry read from the entry through its {@link EntryLayout} (constants for fixed
 * layouts, header fields otherwise). Subclasses implement {@link #advance()} and keep {@link
 * #buffer} and {@link #position} current.
 *
 * <p>Memory: O(1). Not thread-safe, like every cursor.
 */
public abstract class AbstractRunCursor implements RunCursor {
  /** The buffer holding the current entry (subclasses move it as they advance). */
  protected ByteBuffer buffer;

  /** The absolute index of the current entry in {@link #buffer}. */
  protected int position;

  /** The layout of the entries. */
  protected final EntryLayout layout;

  /** A cursor over entries of {@code layout}. */
  protected AbstractRunCursor(EntryLayout layout) {
    this.layout = layout;
  }

  /** A cursor over records of {@code format} (entries of {@link EntryLayout#of}). */
  protected AbstractRunCursor(FixedLengthFormat format) {
    this(EntryLayout.of(format));
  }

  @Override
  public final long prefix() {
    return KeyPrefix.of(buffer, keyPosition(), keyLength());
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
  public final int entryLength() {
    return layout.entryLength(buffer, position);
  }

  @Override
  public final int keyPosition() {
    return layout.keyStart(position);
  }

  @Override
  public final int keyLength() {
    return layout.keyLength(buffer, position);
  }

  @Override
  public final int recordPosition() {
    return layout.recordStart(buffer, position);
  }

  @Override
  public final int recordLength() {
    return layout.recordLength(buffer, position);
  }
}

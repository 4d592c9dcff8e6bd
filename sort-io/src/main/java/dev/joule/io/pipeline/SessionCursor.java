package dev.joule.io.pipeline;

import dev.joule.core.index.EntryLayout;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.output.OutputValidator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The cursor of a sort session: sorted entries from the arena or the final merge, handed out as
 * views that allocate nothing per record, checked as they pass when the session validates.
 *
 * <p><b>Views.</b> {@link #record()} and {@link #key()} are read-only duplicates of the buffer an
 * entry lies in, whose position and limit are moved to each entry: made once per buffer and source
 * (an arena slab, or the current block of each run of the merge), so a merge of 1 MiB blocks of
 * 300-byte entries makes two small objects per 3500 records. A source's views are the same objects
 * from one entry to the next; what a caller holds is valid until {@link #next()}, as {@link
 * RecordCursor} says.
 *
 * <p><b>Check.</b> With validation each entry goes through an {@link OutputValidator} (one CRC-32C,
 * a copy and a compare of its key), and the last {@link #next()} compares count and checksum with
 * what was added. In unique mode an entry whose key equals the previous one is left out (and
 * accounted for).
 *
 * <p>Every method takes the session's lock, so a concurrent {@code spill()} runs between two moves.
 */
final class SessionCursor implements RecordCursor {
  /** Sorted entries, one at a time: the arena's, or a merge's. */
  interface Entries {
    Entries EMPTY =
        new Entries() {
          @Override
          public boolean next() {
            return false;
          }

          @Override
          public ByteBuffer buffer() {
            return null;
          }

          @Override
          public int position() {
            return 0;
          }

          @Override
          public int run() {
            return 0;
          }
        };

    boolean next() throws IOException;

    ByteBuffer buffer();

    int position();

    /** Where the current entry comes from: a slab, or a run of the merge (for its views). */
    int run();

    /**
     * Writes the unread rest as a run (a spill during iteration); returns the bytes to be freed.
     */
    default long spillRest() throws IOException {
      return 0;
    }
  }

  private final SessionEngine engine;
  private final ReentrantLock lock;
  private final Entries entries;
  private final EntrySpec spec;
  private final EntryLayout layout;
  private final OutputValidator validator; // null without validation (unless unique needs it)
  private final boolean check; // compare with what was added at the end
  private final boolean unique;
  private ByteBuffer[] sources = new ByteBuffer[16];
  private ByteBuffer[] recordViews = new ByteBuffer[16];
  private ByteBuffer[] keyViews = new ByteBuffer[16];
  private ByteBuffer[] checkViews = new ByteBuffer[16];
  private ByteBuffer record;
  private ByteBuffer key;
  private byte[] previousKey = new byte[64]; // unique mode without validation
  private int previousLength = -1;
  private boolean ended;
  private boolean closed;

  SessionCursor(SessionEngine engine, Entries entries, boolean validate) {
    this.engine = engine;
    this.lock = engine.lock();
    this.entries = entries;
    this.spec = engine.spec;
    this.layout = spec.layout();
    this.unique = spec.unique();
    this.check = validate;
    // Unique mode with an inexact key decides equal keys by the spec's comparator: the validator's.
    if (validate || (unique && spec.sameKey() != null)) {
      OutputValidator v = OutputValidator.of(spec);
      v.sumLike(engine.store().inputChecksum());
      this.validator = engine.pairs ? v.withKeysInChecksum() : v;
    } else {
      this.validator = null;
    }
  }

  @Override
  public boolean next() throws IOException {
    lock.lock();
    try {
      if (closed || engine.isClosed()) {
        throw new IllegalStateException(closed ? "cursor is closed" : "session is closed");
      }
      if (ended) {
        return false;
      }
      while (entries.next()) {
        ByteBuffer b = entries.buffer();
        int at = entries.position();
        if (unique && sameKeyAsPrevious(b, at)) {
          if (validator != null) {
            validator.dropEntry(b, at);
          }
          continue;
        }
        int s = entries.run();
        view(s, b, at);
        if (validator != null) {
          int from = engine.pairs ? key.position() : record.position();
          validator.acceptEntry(b, at, range(checkViews[s], from, record.limit()));
        } else if (unique) {
          rememberKey(b, at);
        }
        return true;
      }
      record = null;
      key = null;
      ended = true;
      if (check) {
        RunStore store = engine.store();
        validator.checkAgainstInput(
            store.inputRecords(), store.inputChecksum(), "the session's output");
      }
      engine.endOfStream();
      return false;
    } finally {
      lock.unlock();
    }
  }

  private boolean sameKeyAsPrevious(ByteBuffer b, int at) {
    if (validator != null) {
      return validator.sameKeyAsPrevious(b, at);
    }
    if (previousLength < 0) {
      return false;
    }
    int kp = layout.keyStart(at);
    int kl = layout.keyLength(b, at);
    if (kl != previousLength) {
      return false;
    }
    for (int i = 0; i < kl; i++) {
      if (previousKey[i] != b.get(kp + i)) {
        return false;
      }
    }
    return true; // equal normalized keys (no inexact key here: that goes through the validator)
  }

  private void rememberKey(ByteBuffer b, int at) {
    int kl = layout.keyLength(b, at);
    if (kl > previousKey.length) {
      previousKey = new byte[Math.max(kl, 2 * previousKey.length)];
    }
    b.get(layout.keyStart(at), previousKey, 0, kl);
    previousLength = kl;
  }

  /** Points the views of source {@code s} at the entry at {@code at} of {@code b}. */
  private void view(int s, ByteBuffer b, int at) {
    if (s >= sources.length) {
      int n = Math.max(s + 1, 2 * sources.length);
      sources = Arrays.copyOf(sources, n);
      recordViews = Arrays.copyOf(recordViews, n);
      keyViews = Arrays.copyOf(keyViews, n);
      checkViews = Arrays.copyOf(checkViews, n);
    }
    @SuppressWarnings("ReferenceEquality") // the same buffer object: its views still fit it
    boolean same = sources[s] == b;
    if (!same) {
      sources[s] = b;
      recordViews[s] = b.asReadOnlyBuffer();
      keyViews[s] = b.asReadOnlyBuffer();
      checkViews[s] = b.asReadOnlyBuffer();
    }
    int rp = layout.recordStart(b, at);
    record = range(recordViews[s], rp, rp + layout.recordLength(b, at));
    int kp = layout.keyStart(at);
    key = range(keyViews[s], kp, kp + layout.keyLength(b, at));
  }

  private static ByteBuffer range(ByteBuffer v, int from, int to) {
    v.clear();
    v.position(from);
    v.limit(to);
    return v;
  }

  /** The unread rest of an unspilled session goes to a run (a spill during iteration). */
  long spillRest() throws IOException {
    return ended ? 0 : entries.spillRest();
  }

  @Override
  public ByteBuffer record() {
    return record;
  }

  @Override
  public ByteBuffer key() {
    return key;
  }

  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      record = null;
      key = null;
      if (!ended && !engine.isClosed()) {
        ended = true;
        try {
          engine.endOfStream();
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
    } finally {
      lock.unlock();
    }
  }
}

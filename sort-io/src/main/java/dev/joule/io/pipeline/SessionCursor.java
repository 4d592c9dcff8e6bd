package dev.joule.io.pipeline;

import dev.joule.core.index.EntryLayout;
import dev.joule.io.hooks.OutputFault;
import dev.joule.io.hooks.SortHooks;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.output.OutputValidator;
import dev.joule.io.report.DataSummary;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

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
 * <p><b>Check.</b> Each entry passes an {@link EntryCheck} (with validation an {@link
 * OutputValidator}: one CRC-32C, a copy and a compare of its key; in unique mode an entry whose key
 * equals the previous one is left out and accounted for), here or on the thread of a merge that
 * runs ahead ({@link MergeAhead}); the last {@link #next()} compares count and checksum with what
 * was added.
 *
 * <p>Every method takes the session's lock, so a concurrent {@code spill()} runs between two moves.
 * A test's {@link OutputFault} of kind {@code DROP} (the other kinds do not apply here) leaves one
 * entry out before the check sees it, to show that the check catches it.
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
     * Has the entries pass {@code check} as they are produced (a merge running ahead does, on its
     * own thread); false if the cursor is to pass them through it as they are read.
     */
    default boolean checkAhead(EntryCheck check) {
      return false;
    }

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
  private final EntryCheck entryCheck; // null when the entries pass it as they are produced
  private ByteBuffer[] sources = new ByteBuffer[16];
  private ByteBuffer[] recordViews = new ByteBuffer[16];
  private ByteBuffer[] keyViews = new ByteBuffer[16];
  private ByteBuffer record;
  private ByteBuffer key;
  private boolean ended;
  private boolean closed;
  private String checkedName = "the session's output";
  private Supplier<String> checkedOutcome = () -> "its records were handed out already";

  SessionCursor(SessionEngine engine, Entries entries, boolean validate) {
    this.engine = engine;
    this.lock = engine.lock();
    this.entries = entries;
    this.spec = engine.spec;
    this.layout = spec.layout();
    this.check = validate;
    OutputFault f = SortHooks.of(engine.config).outputFault();
    // Unique mode with an inexact key decides equal keys by the spec's comparator: the validator's.
    if (validate || (spec.unique() && spec.sameKey() != null)) {
      OutputValidator v = OutputValidator.of(spec);
      v.sumLike(engine.store().inputChecksum());
      this.validator = engine.pairs ? v.withKeysInChecksum() : v;
    } else {
      this.validator = null;
    }
    EntryCheck c =
        new EntryCheck(
            layout,
            engine.pairs,
            spec.unique(),
            validator,
            f.kind() == OutputFault.Kind.DROP ? f : null);
    this.entryCheck = entries.checkAhead(c) ? null : c;
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
        int s = entries.run();
        if (entryCheck != null && !entryCheck.admit(b, at, s)) {
          continue;
        }
        view(s, b, at);
        return true;
      }
      record = null;
      key = null;
      ended = true;
      if (check) {
        RunStore store = engine.store();
        validator.checkAgainstInput(
            store.inputRecords(), store.inputChecksum(), checkedName, checkedOutcome.get());
      }
      engine.endOfStream();
      return false;
    } finally {
      lock.unlock();
    }
  }

  /** Points the views of source {@code s} at the entry at {@code at} of {@code b}. */
  private void view(int s, ByteBuffer b, int at) {
    if (s >= sources.length) {
      int n = Math.max(s + 1, 2 * sources.length);
      sources = Arrays.copyOf(sources, n);
      recordViews = Arrays.copyOf(recordViews, n);
      keyViews = Arrays.copyOf(keyViews, n);
    }
    @SuppressWarnings("ReferenceEquality") // the same buffer object: its views still fit it
    boolean same = sources[s] == b;
    if (!same) {
      sources[s] = b;
      recordViews[s] = b.asReadOnlyBuffer();
      keyViews[s] = b.asReadOnlyBuffer();
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

  /**
   * What the final check's failure calls the output and says became of its records (asked when it
   * fails): a sort of streams names its own output ({@link StreamSortJob}).
   */
  void describeOutput(String name, Supplier<String> outcome) {
    checkedName = name;
    checkedOutcome = outcome;
  }

  /** The valsort numbers of the records passed so far (null without validation). */
  DataSummary summary() {
    return validator == null ? null : validator.summary();
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

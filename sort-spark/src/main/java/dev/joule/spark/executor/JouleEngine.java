package dev.joule.spark.executor;

import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.CorruptRunException;
import dev.joule.io.error.SortValidationException;
import dev.joule.io.pipeline.ExternalSorter;
import dev.joule.io.pipeline.PairSession;
import dev.joule.io.pipeline.RecordCursor;
import dev.joule.io.pipeline.RecordSession;
import dev.joule.io.pipeline.SessionStats;
import dev.joule.io.pipeline.SortSession;
import dev.joule.spark.record.PairEntries;
import dev.joule.spark.record.SortKeyLayout;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * The one place where sort-spark touches joule's session API ({@code ExternalSorter.open} or {@code
 * openPairs} → {@code SortSession.add} → {@code finish} → {@code RecordCursor}), so that a move of
 * those classes changes imports here only.
 *
 * <p>A {@link PartitionSort} sorts one partition's shuffled chunks: the file sort's wrapped records
 * (fixed-size records whose sort key is the layout's user key, then ordinal) in a session of
 * records, or the pair sort's entries ({@link PairEntries}: engine key and value) in a key/value
 * session. Either way every key is unique, so the engine's order is total and deterministic. The
 * session keeps the entries off-heap within the memory budget and spills sorted runs to the temp
 * directories (one stripe each) when they do not fit. Not thread-safe: one per task.
 */
public final class JouleEngine {
  private JouleEngine() {}

  /** The smallest memory budget the engine accepts. */
  public static long minMemory() {
    return SortConfig.MIN_MEMORY.bytes();
  }

  /** Parses a size such as {@code 512m} (powers of 1024), as {@code joule sort --memory} does. */
  public static long parseSize(String text) {
    return DataSize.parse(text).bytes();
  }

  /** A size in its largest exact binary unit, such as {@code 512 MiB}. */
  public static String formatSize(long bytes) {
    return DataSize.ofBytes(bytes).toString();
  }

  /**
   * True when {@code t} or one of its causes is the engine's report of damaged data: a temp run
   * that failed its checksum, or a sort whose output disagreed with its input.
   */
  public static boolean isCorruption(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof SortValidationException || c instanceof CorruptRunException) {
        return true;
      }
    }
    return false;
  }

  /** Opens a sort of {@code layout}'s wrapped records. */
  public static PartitionSort open(
      SortKeyLayout layout, long memoryBytes, int threads, List<Path> tempDirs) throws IOException {
    SortConfig config =
        config(memoryBytes, threads, tempDirs)
            .format(
                RecordFormat.fixed(
                    layout.wrappedSize(),
                    KeySpec.bytes(layout.sortKeyOffset(), layout.sortKeyLength())))
            .build();
    return new PartitionSort(ExternalSorter.open(config), null);
  }

  /** Opens a sort of the pair sort's entries ({@link PairEntries}). */
  public static PartitionSort openPairs(long memoryBytes, int threads, List<Path> tempDirs)
      throws IOException {
    return new PartitionSort(
        null, ExternalSorter.openPairs(config(memoryBytes, threads, tempDirs).build()));
  }

  /**
   * Opens a sort of a Spark SQL operator's rows as pairs of sort key and row bytes: up to {@code
   * budget} bytes, each growth step granted by {@code grant} (the task's memory manager), which may
   * also make it spill. {@code validate} false leaves out the session's own check of count,
   * checksum and order.
   */
  public static PartitionSort openRows(
      TaskMemoryGrant grant, long budget, boolean validate, int threads, List<Path> tempDirs)
      throws IOException {
    SortConfig config =
        config(budget, threads, tempDirs).memoryGrant(grant).validate(validate).build();
    PartitionSort sort = new PartitionSort(null, ExternalSorter.openPairs(config));
    grant.attach(sort);
    return sort;
  }

  private static SortConfig.Builder config(long memoryBytes, int threads, List<Path> tempDirs) {
    return SortConfig.builder()
        .memoryBudget(DataSize.ofBytes(memoryBytes))
        .threads(threads)
        .tempDirs(tempDirs);
  }

  /**
   * One partition's sort: add chunks, then {@link #finish()} and pull entries in order. The views
   * it hands out are read-only and valid until the next {@link #next()}.
   */
  public static final class PartitionSort implements AutoCloseable {
    private final SortSession session;
    private final RecordSession records; // null for pairs
    private final PairSession pairs; // null for records
    private RecordCursor cursor;

    private PartitionSort(RecordSession records, PairSession pairs) {
      this.session = records != null ? records : pairs;
      this.records = records;
      this.pairs = pairs;
    }

    /**
     * Adds a chunk: whole wrapped records, or whole pair entries (copied, not retained).
     *
     * @throws IllegalArgumentException when the chunk is not whole records or entries
     */
    public void add(byte[] chunk) throws IOException {
      if (pairs == null) {
        records.add(ByteBuffer.wrap(chunk));
        return;
      }
      ByteBuffer k = ByteBuffer.wrap(chunk);
      ByteBuffer v = ByteBuffer.wrap(chunk);
      PairEntries.forEach(
          chunk,
          (c, keyOff, keyLen, valueOff, valueLen) -> {
            k.limit(keyOff + keyLen).position(keyOff);
            v.limit(valueOff + valueLen).position(valueOff);
            pairs.add(k, v);
          });
    }

    /** Adds one pair (copied, not retained): a SQL row's sort key and its bytes. */
    public void add(ByteBuffer key, ByteBuffer value) throws IOException {
      pairs.add(key, value);
    }

    /**
     * Writes what the session holds to a run and gives its memory back (see {@code
     * SortSession.spill}), from any thread, or from inside the session's memory grant.
     */
    public void spill() throws IOException {
      session.spill();
    }

    /**
     * What the session has done so far (sort time, runs and bytes spilled, merge passes, peak
     * memory), for an operator's metrics.
     */
    public SessionStats stats() {
      return session.stats();
    }

    /**
     * Nanoseconds the adds have spent beyond copying (see {@code SortSession.addStallNanos}): what
     * an operator timing a sample of its adds adds to that sample's estimate.
     */
    public long addStallNanos() {
      return session.addStallNanos();
    }

    /** Ends the input; the entries then come out of {@link #next()} in sort order. */
    public void finish() throws IOException {
      cursor = session.finish();
    }

    /**
     * Moves to the next entry; false after the last, when the engine has also checked count,
     * checksum and order of everything it returned against what was added.
     */
    public boolean next() throws IOException {
      return cursor.next();
    }

    /**
     * The current wrapped record, or a pair's value: read-only, position 0 (a slice of the cursor's
     * view, which starts where the record does).
     */
    public ByteBuffer record() {
      return cursor.record().slice();
    }

    /**
     * The current pair's value, without a slice: read-only, its position where the value starts in
     * the session's buffer and its limit where it ends; valid until {@link #next()}, which reuses
     * it.
     */
    public ByteBuffer value() {
      return cursor.value();
    }

    /**
     * The current pair's engine key ({@link dev.joule.spark.record.PairKey}): read-only, position
     * 0.
     */
    public ByteBuffer key() {
      return cursor.key().slice();
    }

    /** Sorted runs the session has written to the temp directories so far. */
    public int spilledRuns() {
      return session.spilledRuns();
    }

    /** Releases the off-heap memory, threads and temp files; idempotent. */
    @Override
    public void close() {
      try {
        if (cursor != null) {
          cursor.close();
        }
      } finally {
        session.close();
      }
    }
  }
}

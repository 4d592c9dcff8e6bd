package dev.joule.spark.executor;

import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.CorruptRunException;
import dev.joule.io.error.SortValidationException;
import dev.joule.io.pipeline.ExternalSorter;
import dev.joule.io.pipeline.RecordCursor;
import dev.joule.io.pipeline.SortSession;
import dev.joule.spark.record.SortKeyLayout;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * The one place where sort-spark touches joule's session API ({@code ExternalSorter.open} → {@code
 * SortSession.add} → {@code finish} → {@code RecordCursor}), so that a move of those classes
 * changes imports here only.
 *
 * <p>A {@link PartitionSort} sorts one partition's wrapped records: fixed-size records whose sort
 * key is the layout's (user key, then ordinal), so the engine's order is total and deterministic.
 * The session keeps the records off-heap within the memory budget and spills sorted runs to the
 * temp directories (one stripe each) when they do not fit. Not thread-safe: one per task.
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
        SortConfig.builder()
            .format(
                RecordFormat.fixed(
                    layout.wrappedSize(),
                    KeySpec.bytes(layout.sortKeyOffset(), layout.sortKeyLength())))
            .memoryBudget(DataSize.ofBytes(memoryBytes))
            .threads(threads)
            .tempDirs(tempDirs)
            .build();
    return new PartitionSort(ExternalSorter.open(config));
  }

  /** One partition's sort: add chunks, then {@link #finish()} and pull records in order. */
  public static final class PartitionSort implements AutoCloseable {
    private final SortSession session;
    private RecordCursor cursor;

    private PartitionSort(SortSession session) {
      this.session = session;
    }

    /** Adds whole wrapped records (the array is copied, not retained). */
    public void add(byte[] records) throws IOException {
      session.add(ByteBuffer.wrap(records));
    }

    /** Ends the input; the records then come out of {@link #next()} in sort order. */
    public void finish() throws IOException {
      cursor = session.finish();
    }

    /**
     * Moves to the next record; false after the last, when the engine has also checked count,
     * checksum and order of everything it returned against what was added.
     */
    public boolean next() throws IOException {
      return cursor.next();
    }

    /** The current wrapped record: read-only, position 0; valid until {@link #next()}. */
    public ByteBuffer record() {
      return cursor.record();
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

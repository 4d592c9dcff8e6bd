package dev.joule.io.input;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.RecordArena;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.fs.Failures;
import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Chunks of parsed records: {@link EntryFiller} splits the records ({@link RecordReader}), writes
 * their entries into the arena and indexes them on a {@code joule-parse-N} thread while the caller
 * sorts the previous chunk. A chunk ends when its arena or index is full.
 *
 * <p>Memory: none of its own (the reader's buffers are the caller's pool). Not thread-safe: one
 * driving thread; {@link #close()} waits for a fill in progress.
 */
public final class ParsedChunks implements ChunkSource {
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final RecordReader records;
  private final EntryFiller filler;
  private final ExecutorService parser;
  private Future<Chunk> pending;
  private Chunk last;

  /** Chunks of the records {@code records} reads, entries as {@code spec} says. */
  public ParsedChunks(RecordReader records, EntrySpec spec) {
    this(records, new EntryFiller(records, spec));
  }

  /** Chunks that {@code filler} fills from {@code records}, from where the filler stands. */
  public ParsedChunks(RecordReader records, EntryFiller filler) {
    this.records = records;
    this.filler = filler;
    this.parser =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "joule-parse-" + THREADS.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  @Override
  public void start(RecordArena arena, RecordIndex index) {
    pending = parser.submit(() -> filler.fill(arena, index));
  }

  @Override
  public void await() throws IOException {
    try {
      last = pending.get();
      pending = null;
      if (filler.tooLarge() != null) {
        throw filler.tooLarge();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SortCancelledException("sort cancelled while reading the input");
    } catch (ExecutionException e) {
      throw Failures.translate(e.getCause());
    }
  }

  @Override
  public Chunk index() {
    return last;
  }

  @Override
  public boolean exhausted() {
    return filler.exhausted();
  }

  @Override
  public int indexesInFlight() {
    return 3;
  }

  @Override
  public long bytesRead() {
    return records.bytesRead();
  }

  @Override
  public void finish() throws IOException {
    records.finish();
  }

  /** Waits for a fill in progress (it writes an arena the caller will close), then stops. */
  @Override
  public void close() throws IOException {
    if (pending != null) {
      pending.cancel(false);
    }
    parser.shutdown();
    boolean interrupted = false;
    while (true) {
      try {
        if (parser.awaitTermination(1, TimeUnit.MINUTES)) {
          break;
        }
      } catch (InterruptedException e) {
        interrupted = true; // keep waiting: the arena must not be closed under a running fill
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    records.close();
  }
}

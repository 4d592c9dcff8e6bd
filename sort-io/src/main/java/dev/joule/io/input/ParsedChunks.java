package dev.joule.io.input;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.RecordArena;
import dev.joule.io.block.SortThreads;
import dev.joule.io.block.WorkerThread;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.fs.Failures;
import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Chunks of parsed records: {@link EntryFiller} splits the records ({@link RecordReader}), writes
 * their entries into the arena and indexes them on a parse thread ({@code joule-parse-N} or the
 * caller's, from {@link SortThreads}) while the caller sorts the previous chunk. A chunk ends when
 * its arena or index is full.
 *
 * <p>Memory: the filler's overflow arenas (see {@link EntryFiller}); the reader's buffers are the
 * caller's pool. Not thread-safe: one driving thread; {@link #close()} waits for a fill in
 * progress.
 */
public final class ParsedChunks implements ChunkSource {
  private final RecordReader records;
  private final EntryFiller filler;
  private final WorkerThread parser;

  /**
   * Parse threads left to the rest of overlapped run formation: the sort of the chunk before and
   * the run writer keep about a core busy each.
   */
  static final int BESIDE_PIPELINE = 2;

  private Future<Chunk> pending;
  private int started;
  private Chunk last;

  /**
   * Chunks of the records {@code records} reads, entries as {@code spec} says, parsed on a thread
   * of {@code threads}.
   *
   * @throws java.util.concurrent.RejectedExecutionException if {@code threads} has none to give
   */
  public ParsedChunks(RecordReader records, EntrySpec spec, SortThreads threads) {
    this(records, new EntryFiller(records, spec), threads);
  }

  /**
   * Chunks that {@code filler} fills from {@code records}, from where the filler stands, parsed on
   * a thread of {@code threads}.
   *
   * @throws java.util.concurrent.RejectedExecutionException if {@code threads} has none to give
   */
  public ParsedChunks(RecordReader records, EntryFiller filler, SortThreads threads) {
    this.records = records;
    this.filler = filler;
    filler.filterRepeatsAsRead(); // runs account for drops and counts (RunFormationPhase)
    this.parser = new WorkerThread(threads, "parse");
  }

  /**
   * Fills the first chunk on all the filler's parse threads, as nothing else of the sort runs yet;
   * later ones beside the sort of the chunk before and the run writer, on all but {@link
   * #BESIDE_PIPELINE} of them. On 2 cores parsing on 2 threads there took 0.4 more CPU-seconds for
   * no gain in wall time (the CSV of sort-bench's text race, -S 64M, 5 alternating rounds: the
   * cores were busy already), so later chunks take one; all of them where the keys are most of the
   * parse ({@link EntrySpec#parseBound()}), which leaves the other stages idle.
   */
  @Override
  public void start(RecordArena arena, RecordIndex index) {
    int threads =
        started++ == 0 || filler.parseBound()
            ? filler.parseThreads()
            : filler.parseThreads() - BESIDE_PIPELINE;
    pending = parser.submit(() -> filler.fill(arena, index, threads));
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

  /**
   * Waits for a fill in progress (it writes an arena the caller will close), then stops and frees
   * the filler's overflow arenas: the caller has written or abandoned their chunks by now.
   */
  @Override
  public void close() throws IOException {
    parser.close(); // waits through interrupts: the arena must not be closed under a running fill
    filler.close();
    records.close();
  }
}

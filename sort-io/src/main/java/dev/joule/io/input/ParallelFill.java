package dev.joule.io.input;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.index.RepeatCounts;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.block.SortThreads;
import dev.joule.io.block.WorkerThread;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.fs.Failures;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * A chunk of lines filled by several parse threads at once ({@link EntryFiller#parseInParallel}):
 * each {@link SpanParser} takes spans of whole lines from the reader, and writes entries into
 * regions of the arena and index slots it claims ({@link ChunkSpace}); when all have stopped, their
 * slots are appended to the index, thread by thread, and their checksums and counts added up.
 *
 * <p>Only for sorts whose output does not depend on the input order of lines that compare equal
 * ({@link EntrySpec#orderFree()}): within a chunk, lines are in input order per thread, and a line
 * that one thread could not place goes into a later chunk than lines after it.
 *
 * <p>A line whose entry is larger than the largest slab is a chunk of its own, in an overflow arena
 * (as {@link EntryFiller} places one), at the start of the next fill.
 *
 * <p>Threads: the caller's and {@code workers - 1} {@code joule-parse-N} helpers, joined by {@link
 * #close()}. Memory: per thread a repeat filter and key scratch (see {@link EntryFiller}). Not
 * thread-safe: one caller fills one chunk at a time.
 */
final class ParallelFill implements AutoCloseable {
  private final SpanParser[] parsers;
  private final List<WorkerThread> helpers = new ArrayList<>();
  private final RecordReader reader;
  private final EntrySpec spec;
  private final boolean filter;

  ParallelFill(
      RecordReader reader, EntrySpec spec, int workers, SortThreads threads, boolean filter) {
    this.parsers = new SpanParser[workers];
    this.reader = reader;
    this.spec = spec;
    this.filter = filter;
    try {
      for (int w = 1; w < workers; w++) {
        helpers.add(new WorkerThread(threads, "parse"));
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /**
   * Parser {@code w}, made on the thread that runs it the first time: its fields, which it writes
   * for every line, then lie in that thread's allocation buffer, not on a cache line beside another
   * parser's.
   */
  private SpanParser parser(int w) {
    if (parsers[w] == null) {
      parsers[w] = new SpanParser(reader, spec, filter);
    }
    return parsers[w];
  }

  /** How many parsers have put all their lines in chunks. */
  int exhaustedParsers() {
    int n = 0;
    for (SpanParser p : parsers) {
      n += p != null && p.exhausted() ? 1 : 0;
    }
    return n;
  }

  /** Whether every line has been put in a chunk. */
  boolean exhausted() {
    for (SpanParser p : parsers) {
      if (p == null ? !reader.spansExhausted() : !p.exhausted()) { // one not made yet has none
        return false;
      }
    }
    return true;
  }

  /**
   * The parser holding an outsized line for a chunk of its own, or null: the caller places it in an
   * overflow arena ({@link SpanParser#placeAlone}) instead of filling.
   */
  SpanParser outsizedPending() {
    for (SpanParser p : parsers) {
      if (p != null && p.holdsOutsized()) {
        return p;
      }
    }
    return null;
  }

  /**
   * Clears {@code arena}, binds {@code index} to it and fills both on up to {@code threads} parse
   * threads at once: the first {@code threads} parsers that may still have lines, so that a parser
   * left out of earlier fills (which holds the rest of its span) runs once those before it have
   * used up the input.
   */
  ChunkSource.Chunk fill(RecordArena arena, RecordIndex index, int threads) throws IOException {
    arena.clear();
    index.bind(arena.view(), spec.layout(), spec.tie());
    int[] run = new int[parsers.length];
    int n = 0;
    for (int w = 0; w < parsers.length && n < threads; w++) {
      if (parsers[w] == null ? w < threads : !parsers[w].exhausted()) {
        run[n++] = w;
      }
    }
    ChunkSpace space = new ChunkSpace(arena, index);
    List<Future<Boolean>> running = new ArrayList<>();
    Throwable failure = null;
    try {
      for (int i = 1; i < n; i++) {
        int w = run[i];
        running.add(
            helpers
                .get(i - 1)
                .submit(
                    () -> {
                      try {
                        SpanParser p = parser(w);
                        p.start(space, index);
                        return p.parse();
                      } catch (Throwable e) {
                        space.stop();
                        throw e;
                      }
                    }));
      }
      if (n > 0) {
        SpanParser p = parser(run[0]);
        p.start(space, index);
        p.parse();
      }
    } catch (Throwable e) {
      space.stop(); // the helpers stop at their next span or region
      failure = e;
    }
    for (Future<Boolean> f : running) { // every thread has stopped writing before anything else
      try {
        awaitUninterruptibly(f);
      } catch (ExecutionException e) {
        failure = first(failure, e.getCause());
      }
    }
    if (failure != null) {
      throw Failures.translate(failure);
    }
    if (Thread.interrupted()) {
      Thread.currentThread().interrupt();
      throw new SortCancelledException("sort cancelled while reading the input");
    }
    n = topUp(space, index, run, n);
    RecordChecksum sum = new RecordChecksum();
    RecordChecksum droppedSum = new RecordChecksum();
    long dropped = 0;
    long bytes = 0;
    List<RepeatFilter> counting = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      SpanParser p = parsers[run[i]];
      p.finishRegion();
      p.appendTo(index);
      sum.add(p.checksum());
      droppedSum.add(p.droppedChecksum());
      dropped += p.dropped();
      bytes += p.bytes();
      if (p.counting() != null) {
        counting.add(p.counting());
      }
    }
    space.publish();
    RepeatCounts counts =
        counting.isEmpty() ? RepeatCounts.NONE : RepeatFilter.repeatCounts(counting);
    return new ChunkSource.Chunk(index.size(), bytes, sum, dropped, droppedSum, counts);
  }

  /**
   * On this thread, once the others have stopped: lets every parser that still holds lines place
   * them in the room left (what parsers that used up the input gave back, the rest of the arena),
   * until none can; parsers left out of this fill join it here. Without it, a one-pass sort whose
   * arena the input just fills could end with a line on one thread and room given back by another,
   * and the rest of a span a parser held from an earlier fill would make a chunk of its own.
   * Returns how many parsers took part in the fill ({@code run}'s first entries).
   */
  private int topUp(ChunkSpace space, RecordIndex index, int[] run, int n) throws IOException {
    boolean progress = true;
    while (progress) {
      progress = false;
      for (int w = 0; w < parsers.length; w++) {
        SpanParser p = parsers[w];
        if (p == null || p.exhausted() || p.holdsOutsized()) {
          continue;
        }
        if (!contains(run, n, w)) {
          run[n++] = w;
          p.start(space, index);
        }
        progress |= p.parse();
      }
    }
    return n;
  }

  private static boolean contains(int[] a, int n, int v) {
    for (int i = 0; i < n; i++) {
      if (a[i] == v) {
        return true;
      }
    }
    return false;
  }

  private static Throwable first(Throwable a, Throwable b) {
    if (a == null) {
      return b;
    }
    if (b != null && b != a) {
      a.addSuppressed(b);
    }
    return a;
  }

  /** Waits for {@code f} through interrupts, keeping the flag: its thread writes the arena. */
  private static void awaitUninterruptibly(Future<Boolean> f) throws ExecutionException {
    boolean interrupted = false;
    while (true) {
      try {
        f.get();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops the helpers (waiting for a fill in progress) and gives back the spans' buffers. */
  @Override
  public void close() {
    for (WorkerThread h : helpers) {
      h.close();
    }
    helpers.clear();
    for (SpanParser p : parsers) {
      if (p == null) {
        continue;
      }
      try {
        p.close();
      } catch (IOException e) {
        // the reader is being closed too: its close gives every buffer back
      }
    }
  }
}

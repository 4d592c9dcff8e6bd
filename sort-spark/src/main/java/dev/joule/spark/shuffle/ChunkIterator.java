package dev.joule.spark.shuffle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import scala.Tuple2;

/**
 * The map side's output for the joule engine: pulls input a block at a time ({@link #advance}),
 * which routes wrapped records into {@link PartitionChunks}, and hands out full chunks as they
 * appear, then the partial ones at the end. Lazy, so a map task holds only its open chunks, never
 * its whole split. Not thread-safe.
 */
public abstract class ChunkIterator implements Iterator<Tuple2<Integer, byte[]>> {
  protected final PartitionChunks chunks;
  private Tuple2<Integer, byte[]> next;
  private boolean ended;

  protected ChunkIterator(PartitionChunks chunks) {
    this.chunks = chunks;
  }

  /**
   * Routes the next piece of input into {@link #chunks}; returns false, having routed nothing, when
   * the input is exhausted.
   */
  protected abstract boolean advance() throws IOException;

  /** Called once after the last {@link #advance}; releases the input. */
  protected abstract void end() throws IOException;

  @Override
  public boolean hasNext() {
    while (next == null) {
      next = chunks.poll();
      if (next != null || ended) {
        break;
      }
      try {
        if (!advance()) {
          ended = true;
          end();
          chunks.flush();
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return next != null;
  }

  @Override
  public Tuple2<Integer, byte[]> next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Tuple2<Integer, byte[]> t = next;
    next = null;
    return t;
  }
}

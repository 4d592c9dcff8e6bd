package dev.joule.io.prefetch;

import dev.joule.core.merge.AbstractRunCursor;
import dev.joule.core.merge.RunCursor;
import dev.joule.io.run.RunDescriptor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * A {@link RunCursor} over records {@code [fromRecord, toRecord)} of one run file, walking the
 * blocks that a {@link BlockPrefetcher} delivers: the file-backed twin of {@code
 * core.merge.ByteBufferRunCursor}. It seeks straight to the range's first block.
 *
 * <p>{@code advance()} cannot throw checked exceptions (the {@code RunCursor} contract), so an I/O
 * error or corruption found while loading a block is thrown as {@link UncheckedIOException}
 * wrapping the original {@code SortIOException}/{@code CorruptRunException}; the merge driver
 * unwraps it. An interrupted thread is detected at every block boundary and reported the same way
 * (wrapping an {@link java.io.InterruptedIOException}).
 *
 * <p>Memory: at most one pool buffer at a time, given back when the cursor moves to the next block
 * or is {@link #close() closed}. Single-threaded (the merge thread).
 */
public final class FileRunCursor extends AbstractRunCursor implements AutoCloseable {
  private final BlockPrefetcher prefetcher;
  private final int run;
  private final int recordLength;
  private final int recordsPerBlock;
  private final int lastBlock; // inclusive; -1 when the range is empty
  private final int endInLastBlock; // byte offset (from the buffer's position) after the range
  private int block;
  private int startInFirstBlock;
  private ByteBuffer owned; // the pool buffer, given back to the prefetcher
  // buffer (inherited) is a read-only view of it: what buffer() hands out
  private int end;
  private boolean done;

  /**
   * A cursor over {@code [fromRecord, toRecord)} of the run {@code d}, whose blocks {@code
   * prefetcher} serves as run number {@code run}.
   */
  public FileRunCursor(
      RunDescriptor d, BlockPrefetcher prefetcher, int run, long fromRecord, long toRecord) {
    super(d.format());
    if (fromRecord < 0 || fromRecord > toRecord || toRecord > d.recordCount()) {
      throw new IndexOutOfBoundsException(
          "records [" + fromRecord + ", " + toRecord + ") outside a run of " + d.recordCount());
    }
    this.prefetcher = prefetcher;
    this.run = run;
    this.recordLength = d.format().recordSize();
    this.recordsPerBlock = d.recordsPerBlock();
    if (fromRecord == toRecord) {
      this.done = true;
      this.lastBlock = -1;
      this.endInLastBlock = 0;
    } else {
      this.block = (int) (fromRecord / recordsPerBlock) - 1;
      this.startInFirstBlock = (int) (fromRecord % recordsPerBlock) * recordLength;
      this.lastBlock = (int) ((toRecord - 1) / recordsPerBlock);
      this.endInLastBlock = (int) ((toRecord - 1) % recordsPerBlock + 1) * recordLength;
    }
  }

  /**
   * The blocks of records {@code [fromRecord, toRecord)}: {first, end}; empty range gives {0, 0}.
   */
  public static int[] blockRange(RunDescriptor d, long fromRecord, long toRecord) {
    if (fromRecord >= toRecord) {
      return new int[] {0, 0};
    }
    int rpb = d.recordsPerBlock();
    return new int[] {(int) (fromRecord / rpb), (int) ((toRecord - 1) / rpb) + 1};
  }

  @Override
  public boolean advance() {
    int nextPos = position + recordLength;
    if (nextPos < end) {
      position = nextPos;
      return true;
    }
    if (done) {
      return false;
    }
    return nextBlock();
  }

  private boolean nextBlock() {
    if (owned != null) {
      prefetcher.release(owned);
      owned = null;
      buffer = null;
    }
    if (block == lastBlock) {
      done = true;
      position = end;
      return false;
    }
    if (Thread.interrupted()) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new java.io.InterruptedIOException("merge cancelled"));
    }
    block++;
    try {
      owned = prefetcher.take(run, block);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // Read-only, like the arena slabs that run formation reads: the merge's hot code (key prefix,
    // key compare, record copy, CRC) then meets the buffer class it was compiled for in run
    // formation, instead of deoptimizing on a class_check and being compiled again (seen with
    // -XX:+LogCompilation). One view per block, nothing per record.
    buffer = owned.asReadOnlyBuffer().order(owned.order());
    int start = buffer.position();
    position = start + startInFirstBlock;
    startInFirstBlock = 0;
    end = block == lastBlock ? start + endInLastBlock : buffer.limit();
    return true;
  }

  /** Gives the current block back to the pool; idempotent. */
  @Override
  public void close() {
    done = true;
    if (owned != null) {
      prefetcher.release(owned);
      owned = null;
      buffer = null;
    }
  }
}

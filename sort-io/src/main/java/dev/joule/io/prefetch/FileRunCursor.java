package dev.joule.io.prefetch;

import dev.joule.core.merge.AbstractRunCursor;
import dev.joule.core.merge.RunCursor;
import dev.joule.io.error.CorruptRunException;
import dev.joule.io.run.RunDescriptor;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * A {@link RunCursor} over entries {@code [fromEntry, toEntry)} of one run file, walking the blocks
 * that a {@link BlockPrefetcher} delivers: the file-backed twin of {@code
 * core.merge.ByteBufferRunCursor}. It seeks straight to the range's first block and entry ({@link
 * RunDescriptor#locate}).
 *
 * <p>An entry larger than a block (a long line) arrives in pieces, one per block; the cursor joins
 * them in a heap buffer of the entry's size and exposes that buffer while the entry is current.
 *
 * <p>{@code advance()} cannot throw checked exceptions (the {@code RunCursor} contract), so an I/O
 * error or corruption found while loading a block is thrown as {@link UncheckedIOException}
 * wrapping the original {@code SortIOException}/{@code CorruptRunException}; the merge driver
 * unwraps it. An interrupted thread is detected at every block boundary and reported the same way
 * (wrapping an {@link InterruptedIOException}).
 *
 * <p>Memory: at most one pool buffer at a time, given back when the cursor moves to the next block
 * or is {@link #close() closed}, plus the joined copy of an entry larger than a block while it is
 * current. Single-threaded (the merge thread).
 */
public final class FileRunCursor extends AbstractRunCursor implements AutoCloseable {
  private final RunDescriptor descriptor;
  private final BlockPrefetcher prefetcher;
  private final int run;
  private final int endBlock; // after the range's last block (its last entry's last piece)
  private final int firstBlock;
  private final int firstOffset; // byte offset of the range's first known entry in firstBlock
  private int skip; // entries to pass over from there before the range starts
  private long left; // entries still to deliver
  private int block = -1;
  private ByteBuffer owned; // the pool buffer, given back to the prefetcher
  private ByteBuffer view; // read-only view of it
  private int blockEnd; // absolute end of the block's used bytes in view
  private boolean joined; // the current entry is a joined copy of a large entry

  /**
   * A cursor over {@code [fromEntry, toEntry)} of the run {@code d}, whose blocks {@code
   * prefetcher} serves as run number {@code run}.
   */
  public FileRunCursor(
      RunDescriptor d, BlockPrefetcher prefetcher, int run, long fromEntry, long toEntry) {
    super(d.layout());
    if (fromEntry < 0 || fromEntry > toEntry || toEntry > d.recordCount()) {
      throw new IndexOutOfBoundsException(
          "entries [" + fromEntry + ", " + toEntry + ") outside a run of " + d.recordCount());
    }
    this.descriptor = d;
    this.prefetcher = prefetcher;
    this.run = run;
    this.endBlock = blockRange(d, fromEntry, toEntry)[1];
    this.left = toEntry - fromEntry;
    if (left == 0) {
      this.firstBlock = 0;
      this.firstOffset = 0;
    } else {
      long[] at = d.locate(fromEntry);
      this.firstBlock = (int) at[0];
      this.firstOffset = (int) at[1];
      this.skip = (int) (fromEntry - at[2]);
    }
  }

  /**
   * The blocks the entries {@code [fromEntry, toEntry)} occupy: {first, end}; an empty range gives
   * {0, 0}. Includes the continuation blocks of a large last entry.
   */
  public static int[] blockRange(RunDescriptor d, long fromEntry, long toEntry) {
    if (fromEntry >= toEntry) {
      return new int[] {0, 0};
    }
    int first = d.blockOf(fromEntry);
    int last = d.blockOf(toEntry - 1);
    int end = last + 1;
    while (end < d.blockCount() && d.entriesStarting(end) == 0) {
      end++; // continuation pieces of the last entry (or padding-only blocks, never written)
    }
    return new int[] {first, end};
  }

  @Override
  public boolean advance() {
    if (left == 0) {
      finish();
      return false;
    }
    if (block < 0) {
      load(firstBlock);
      position = view.position() + firstOffset;
      for (; skip > 0; skip--) {
        position += layout.entryLength(view, position);
      }
    } else if (joined) {
      joined = false;
      loadStarting(block + 1); // a large entry ends its last piece's block
      position = view.position();
    } else {
      position += layout.entryLength(buffer, position);
      if (position >= blockEnd) {
        loadStarting(block + 1);
        position = view.position();
      }
    }
    buffer = view;
    int len = layout.entryLength(view, position);
    if (position + len > blockEnd) {
      join(len);
    }
    left--;
    return true;
  }

  /**
   * Joins the pieces of a large entry that starts at {@code position} of the current block. Each
   * piece must be in a block that starts no entry, and the last one must end where its block's used
   * bytes do; {@code RunReader} checks each block alone and cannot see that a length disagrees with
   * the pieces that follow it.
   */
  private void join(int length) {
    ByteBuffer whole = ByteBuffer.allocate(length);
    whole.put(0, view, position, blockEnd - position);
    int done = blockEnd - position;
    while (done < length) {
      if (block + 1 < endBlock && descriptor.entriesStarting(block + 1) != 0) {
        throw corrupt(block + 1, "an entry of " + length + " bytes lacks its continuation");
      }
      load(block + 1);
      int n = Math.min(length - done, blockEnd - view.position());
      if (done + n == length && view.position() + n != blockEnd) {
        throw corrupt(block, "an entry of " + length + " bytes ends before its last piece");
      }
      whole.put(done, view, view.position(), n);
      done += n;
    }
    buffer = whole.asReadOnlyBuffer();
    position = 0;
    joined = true;
  }

  /**
   * Loads block {@code k}, which must be in this cursor's range: entries that claim more blocks
   * than the run has are corruption, and asking the prefetcher for a block outside its schedule
   * would wait for a read that never comes.
   */
  private void load(int k) {
    release();
    if (k >= endBlock) {
      throw corrupt(k - 1, "entries run past the run's last block");
    }
    if (Thread.interrupted()) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new InterruptedIOException("merge cancelled"));
    }
    long waitedSince = System.nanoTime();
    try {
      owned = prefetcher.take(run, k);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // Charged to the block's device, so the timeline shows which stripe the merge waited for.
    descriptor.parts().meterAt(descriptor.blockOffset(k)).waited(System.nanoTime() - waitedSince);
    block = k;
    // Read-only, like the arena slabs that run formation reads: the merge's hot code (key prefix,
    // key compare, record copy, CRC) then meets the buffer class it was compiled for in run
    // formation, instead of deoptimizing on a class_check and being compiled again (seen with
    // -XX:+LogCompilation). One view per block, nothing per entry; a new object per block is also
    // what tells the tree that the previous entry's bytes may be gone (RunCursor).
    view = owned.asReadOnlyBuffer().order(owned.order());
    blockEnd = view.limit();
  }

  /** Loads block {@code k}, where the next entry must start. */
  private void loadStarting(int k) {
    load(k);
    if (descriptor.entriesStarting(k) == 0) {
      throw corrupt(k, "a piece of an entry where the next entry should start");
    }
  }

  private UncheckedIOException corrupt(int k, String what) {
    return new UncheckedIOException(
        new CorruptRunException(
            descriptor.path(), descriptor.blockOffset(k), "block " + k + ": " + what));
  }

  private void release() {
    if (owned != null) {
      prefetcher.release(owned);
      owned = null;
      view = null;
    }
  }

  private void finish() {
    release();
    buffer = null;
  }

  /** Gives the current block back to the pool; idempotent. */
  @Override
  public void close() {
    left = 0;
    finish();
  }
}

package dev.joule.io.input;

import dev.joule.core.memory.RecordArena;
import dev.joule.io.block.BlockReader;
import dev.joule.io.block.SortThreads;
import dev.joule.io.plan.SortPlan;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The first half of the input stage: reads the input file front to back into record arenas, one
 * chunk at a time. The arena's aligned windows are the {@link BlockReader}'s destination buffers,
 * so there is no copy between the read and the sort; one chunk can be in flight on the reader's
 * thread while the caller sorts the previous one ({@link #start}, then {@link #await}). After the
 * last chunk, {@link #finish} checks that the file did not change while it was read. A chunk can
 * also be handed to the reader slab by slab ({@link #begin}, {@link #submitSlab}), so that the
 * caller allocates the next slab of a {@link RecordArena#reserve reserved} arena while the reader
 * fills the one before.
 *
 * <p>Memory: none of its own (the arenas are the caller's); at most {@code maxWindows} reads in
 * flight. Not thread-safe: one driving thread; {@link #close()} stops the reader thread.
 */
public final class InputStage implements AutoCloseable {
  private final InputFile in;
  private final int transfer;
  private final BlockReader reader;
  private RecordArena pendingArena;
  private List<Window> pending = List.of();
  private int submitted; // windows of pending handed to the reader
  private long bytesRead;

  /**
   * One destination window: {@code length} bytes of slab {@code slab} at {@code offset}. Its buffer
   * is made when the window is submitted, since a reserved arena's slab has no memory before.
   */
  private static final class Window {
    final int slab;
    final int offset;
    final int length;
    ByteBuffer buffer;

    Window(int slab, int offset, int length) {
      this.slab = slab;
      this.offset = offset;
      this.length = length;
    }
  }

  /**
   * Reads {@code in} in transfers of {@code transfer} bytes, with room for one chunk of up to
   * {@code maxChunkBytes} in an arena of slab size {@code slabBytes} in flight, on a reader thread
   * of {@code threads}.
   */
  public InputStage(
      InputFile in, int transfer, long maxChunkBytes, int slabBytes, SortThreads threads) {
    this.in = in;
    this.transfer = transfer;
    this.reader = in.reader(transfer, windowCount(maxChunkBytes, slabBytes, transfer), threads);
  }

  /**
   * Slab size for an arena of {@code capacity} bytes of {@code recordSize}-byte records: one slab
   * when it fits 1 GiB, else the largest multiple of lcm(recordSize, 4096) below 1 GiB, so that
   * full slabs hold whole records and start aligned.
   */
  public static int slabBytes(long capacity, int recordSize) {
    return SortPlan.arenaSlabBytes(capacity, recordSize);
  }

  /**
   * Starts reading the next {@code bytes} of the input into {@code arena}, which is cleared first.
   * The previous chunk must have been awaited.
   */
  public void start(RecordArena arena, long bytes) throws IOException {
    begin(arena, bytes);
    for (int s = 0; s < arena.slabCount(); s++) {
      submitSlab(s);
    }
  }

  /**
   * Starts a chunk of the next {@code bytes} of the input into {@code arena}, which is cleared
   * first, but reads nothing yet: the caller hands each slab to the reader with {@link
   * #submitSlab}, in order, once it is allocated. The previous chunk must have been awaited.
   */
  public void begin(RecordArena arena, long bytes) {
    if (pendingArena != null) {
      throw new IllegalStateException("the previous chunk was not awaited");
    }
    arena.clear();
    pending = windows(arena, bytes);
    submitted = 0;
    pendingArena = arena;
  }

  /**
   * Hands slab {@code slab} of the chunk begun last to the reader (nothing when the chunk does not
   * reach it); the slabs before it must have been handed over already, and it must be allocated.
   */
  public void submitSlab(int slab) throws IOException {
    if (pendingArena == null) {
      throw new IllegalStateException("no chunk was begun");
    }
    if (submitted < pending.size() && pending.get(submitted).slab < slab) {
      throw new IllegalStateException("slab " + slab + " submitted before the slabs ahead of it");
    }
    while (submitted < pending.size() && pending.get(submitted).slab == slab) {
      Window w = pending.get(submitted);
      w.buffer = pendingArena.writableWindow(w.slab, w.offset, w.length);
      reader.submit(w.buffer);
      submitted++;
    }
  }

  /** Waits for the chunk started last, marks its arena's slabs filled; returns its bytes. */
  @SuppressWarnings("ReferenceEquality") // the reader returns our windows: identity is the point
  public long await() throws IOException {
    RecordArena arena = pendingArena;
    if (arena == null) {
      throw new IllegalStateException("no chunk was started");
    }
    if (submitted < pending.size()) {
      throw new IllegalStateException(
          (pending.size() - submitted) + " windows of the chunk were never submitted");
    }
    long total = 0;
    for (Window w : pending) {
      ByteBuffer b = reader.take();
      if (b != w.buffer) {
        throw new IllegalStateException("reader returned buffers out of order");
      }
      int got = b.limit() - b.position();
      total += got;
      if (got > 0) {
        arena.setFilled(w.slab, Math.max(arena.filled(w.slab), w.offset + got));
      }
    }
    pendingArena = null;
    pending = List.of();
    bytesRead += total;
    return total;
  }

  /** Bytes read so far. */
  public long bytesRead() {
    return bytesRead;
  }

  /** After the last chunk: the input must be unchanged and fully read ({@link InputFile}). */
  public void finish() throws IOException {
    in.checkUnchanged(bytesRead);
  }

  /** Stops the reader thread; idempotent. */
  @Override
  public void close() throws IOException {
    reader.close();
  }

  private List<Window> windows(RecordArena arena, long bytes) {
    List<Window> out = new ArrayList<>();
    long left = bytes;
    for (int s = 0; s < arena.slabCount() && left > 0; s++) {
      int inSlab = (int) Math.min(left, arena.slabCapacity(s));
      for (int off = 0; off < inSlab; off += transfer) {
        int len = Math.min(transfer, inSlab - off);
        out.add(new Window(s, off, len));
      }
      left -= inSlab;
    }
    return out;
  }

  /** Windows of at most {@code transfer} bytes covering {@code bytes} in slabs of {@code slab}. */
  private static int windowCount(long bytes, int slab, int transfer) {
    long full = bytes / slab;
    long rest = bytes % slab;
    long perSlab = ((long) slab + transfer - 1) / transfer;
    return (int) Math.max(1, full * perSlab + (rest + transfer - 1) / transfer);
  }
}

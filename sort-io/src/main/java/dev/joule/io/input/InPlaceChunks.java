package dev.joule.io.input;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.record.FixedLengthFormat;
import java.io.IOException;
import java.util.concurrent.ForkJoinPool;

/**
 * Chunks of fixed records read in place: {@link InputStage} reads the next {@code chunkBytes} of
 * input straight into the arena's windows on its reader thread, and {@link #index()} builds the
 * index and the checksum in one parallel pass ({@link ArenaIndexer}) on the sorter's pool. Chunks
 * end at whole 4096-byte pages of records, so every chunk's reads stay aligned.
 *
 * <p>Memory: none of its own. Not thread-safe: one driving thread.
 */
public final class InPlaceChunks implements ChunkSource {
  private final InputStage input;
  private final EntrySpec spec;
  private final int recordSize;
  private final ForkJoinPool pool;
  private final long size;
  private final long chunkBytes;
  private long started; // input bytes of the chunks started
  private RecordArena startedArena; // of the chunk started last
  private RecordIndex startedIndex;
  private RecordArena arena; // of the chunk awaited last
  private RecordIndex index;

  /**
   * Chunks of {@code chunkBytes} (whole records) of {@code in}, read in transfers of {@code
   * transfer} into arenas of slab size {@code slabBytes}; indexing runs on {@code pool}.
   */
  public InPlaceChunks(
      InputFile in,
      EntrySpec spec,
      int transfer,
      long chunkBytes,
      int slabBytes,
      ForkJoinPool pool) {
    this.input = new InputStage(in, transfer, chunkBytes, slabBytes);
    this.spec = spec;
    this.recordSize = ((FixedLengthFormat) spec.format()).recordSize();
    this.pool = pool;
    this.size = in.size();
    this.chunkBytes = chunkBytes;
  }

  @Override
  public void start(RecordArena arena, RecordIndex index) throws IOException {
    long bytes = Math.min(chunkBytes, size - started);
    input.start(arena, bytes);
    started += bytes;
    this.startedArena = arena;
    this.startedIndex = index;
  }

  @Override
  public void await() throws IOException {
    input.await();
    arena = startedArena;
    index = startedIndex;
  }

  @Override
  public Chunk index() {
    var sum = ArenaIndexer.checksumAndIndex(arena.view(), index, spec.layout(), spec.tie(), pool);
    return new Chunk(index.size(), (long) index.size() * recordSize, sum);
  }

  @Override
  public boolean exhausted() {
    return started >= size;
  }

  @Override
  public int indexesInFlight() {
    return 2;
  }

  @Override
  public long bytesRead() {
    return input.bytesRead();
  }

  @Override
  public void finish() throws IOException {
    input.finish();
  }

  @Override
  public void close() throws IOException {
    input.close();
  }
}

package dev.joule.io.input;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.index.RepeatCounts;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.valsort.RecordChecksum;
import java.io.IOException;

/**
 * Stage 1 as run formation and the one-pass sort drive it: fills arenas with entries and indexes
 * them, one chunk at a time, reading the next chunk while the caller sorts the last. {@link
 * InPlaceChunks} reads fixed records straight into the arena; {@link ParsedChunks} splits variable
 * records and writes their entries on a parse thread.
 *
 * <p>The protocol: {@link #start} a chunk; {@link #await} its data; {@link #index} it (the arena
 * and index of the chunk awaited). A chunk may be started before the previous one is indexed; its
 * index must not be in use by then only for {@link ParsedChunks} ({@link #indexesInFlight()}). Not
 * thread-safe: one driving thread.
 */
public interface ChunkSource extends AutoCloseable {
  /**
   * What one chunk holds: entries, the bytes and the valsort checksum of every record read into it,
   * including the {@code dropped} repeats unique mode left out as they were read (checksum {@code
   * droppedChecksum}), and the repeats counted on an identical entry instead ({@code repeats}:
   * written once per count; their bytes and checksum are the chunk's). See {@link
   * EntryFiller#filterRepeatsAsRead}.
   */
  record Chunk(
      int entries,
      long recordBytes,
      RecordChecksum checksum,
      long dropped,
      RecordChecksum droppedChecksum,
      RepeatCounts repeats) {
    /** A chunk whose every record is an entry. */
    public Chunk(int entries, long recordBytes, RecordChecksum checksum) {
      this(entries, recordBytes, checksum, 0, new RecordChecksum(), RepeatCounts.NONE);
    }

    /** Records read into the chunk: its entries, the repeats dropped and the repeats counted. */
    public long records() {
      return entries + dropped + repeats.total();
    }

    /** Records the chunk's entries stand for in its output: its entries and their copies. */
    public long written() {
      return entries + repeats.total();
    }
  }

  /** Starts filling {@code arena} and {@code index} with the next chunk. */
  void start(RecordArena arena, RecordIndex index) throws IOException;

  /** Waits for the data of the chunk started last. */
  void await() throws IOException;

  /** Indexes the chunk awaited last (if not done yet) and says what it holds. */
  Chunk index() throws IOException;

  /** Whether the input is used up: no chunk is left to start (valid after {@link #await}). */
  boolean exhausted();

  /** How many indexes are in use at once by chunks started, awaited and being written. */
  int indexesInFlight();

  /** Input bytes read so far. */
  long bytesRead();

  /** After the last chunk: the input must be unchanged and fully read. */
  void finish() throws IOException;

  /** Stops any thread of the source; idempotent. */
  @Override
  void close() throws IOException;
}

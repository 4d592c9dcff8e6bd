package dev.joule.io.input;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Fills arenas with the entries of parsed records: for each record of a {@link RecordReader}, its
 * entry (header, key if the sort stores one, record) is appended to the arena and its index ({@link
 * EntryAppender}); the record's CRC-32 goes into the chunk's valsort checksum. A chunk ends when
 * the arena or the index is full, or the input ends; the record that did not fit starts the next
 * chunk.
 *
 * <p>Memory: none of its own but the appender's key scratch (the arena and index are the caller's).
 * Not thread-safe: one thread fills one chunk at a time (run formation's parse thread).
 */
public final class EntryFiller {
  private final RecordReader records;
  private final EntryAppender appender;
  private boolean pending; // the reader's current record is not in an arena yet
  private boolean exhausted;
  private SortIOException tooLarge;

  /** Fills from {@code records}, entries as {@code spec} says. */
  public EntryFiller(RecordReader records, EntrySpec spec) {
    this.records = records;
    this.appender = new EntryAppender(spec);
  }

  /**
   * The error of a record that did not fit the empty arena of the last {@link #fill}, or null if
   * none.
   */
  public SortIOException tooLarge() {
    return tooLarge;
  }

  /** Whether every record has been put in a chunk. */
  public boolean exhausted() {
    return exhausted;
  }

  /**
   * Clears {@code arena}, binds {@code index} to it and fills both with the next records. A chunk
   * of no entries before the input is {@link #exhausted()} means that the next record does not fit
   * even this empty arena ({@link #tooLarge()}).
   */
  public ChunkSource.Chunk fill(RecordArena arena, RecordIndex index) throws IOException {
    tooLarge = null;
    appender.reset(arena, index);
    RecordChecksum sum = new RecordChecksum();
    long bytes = 0;
    while (true) {
      if (!pending) {
        if (!records.next()) {
          exhausted = true;
          break;
        }
        pending = true;
        encodeKey();
      }
      ByteBuffer src = records.buffer();
      int start = records.start();
      int length = records.length();
      if (!appender.append(src, start, length)) {
        if (appender.size() == 0) {
          tooLarge =
              new SortIOException(
                  "read",
                  records.path(),
                  "the record at offset "
                      + records.offset()
                      + " needs "
                      + appender.entryLength(length)
                      + " bytes in memory, more than the memory budget gives one arena ("
                      + appender.largestEntry()
                      + "): raise the memory budget");
        }
        break; // the arena or index is full: this record starts the next chunk
      }
      sum.addRecord(src, start, length);
      bytes += length;
      pending = false;
    }
    return new ChunkSource.Chunk(index.size(), bytes, sum);
  }

  /** Encodes the pending record's key (if the sort derives keys). */
  private void encodeKey() throws SortIOException {
    try {
      appender.encodeKey(records.buffer(), records.start(), records.length());
    } catch (IllegalArgumentException e) {
      throw new SortIOException(
          "read",
          records.path(),
          "the record at offset " + records.offset() + " has no key: " + e.getMessage(),
          e);
    }
  }
}

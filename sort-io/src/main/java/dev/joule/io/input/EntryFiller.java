package dev.joule.io.input;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Fills arenas with the entries of variable-length records: for each record of a {@link
 * RecordReader}, its entry (header, key if the sort stores one, record) is written into the next
 * arena slab with room and added to the index; the record's CRC-32 goes into the chunk's valsort
 * checksum. A chunk ends when the arena or the index is full, or the input ends; the record that
 * did not fit starts the next chunk.
 *
 * <p>Memory: none of its own (the arena and index are the caller's). Not thread-safe: one thread
 * fills one chunk at a time (run formation's parse thread).
 */
public final class EntryFiller {
  private final RecordReader records;
  private final EntrySpec spec;
  private final EntryLayout layout;
  private boolean pending; // the reader's current record is not in an arena yet
  private boolean exhausted;
  private SortIOException tooLarge;
  private ByteBuffer key = ByteBuffer.allocate(256); // the derived key of the pending record

  /** Fills from {@code records}, entries as {@code spec} says. */
  public EntryFiller(RecordReader records, EntrySpec spec) {
    this.records = records;
    this.spec = spec;
    this.layout = spec.layout();
  }

  /**
   * Encodes the pending record's key into {@link #key}, growing it as needed; returns its length.
   */
  private int encodeKey(ByteBuffer src, int start, int length) throws IOException {
    try {
      int n = spec.encodeKey(src, start, length, key);
      if (n < 0) {
        key = ByteBuffer.allocate(Math.max(-n, 2 * key.capacity()));
        n = spec.encodeKey(src, start, length, key);
      }
      return n;
    } catch (IllegalArgumentException e) {
      throw new SortIOException(
          "read",
          records.path(),
          "the record at offset " + records.offset() + " has no key: " + e.getMessage(),
          e);
    }
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
    arena.clear();
    index.bind(arena.view(), layout, spec.tie());
    RecordChecksum sum = new RecordChecksum();
    long bytes = 0;
    int slab = 0;
    int at = 0;
    ByteBuffer dst = arena.writableWindow(0, 0, arena.slabCapacity(0));
    while (true) {
      if (!pending) {
        if (!records.next()) {
          exhausted = true;
          break;
        }
        pending = true;
      }
      if (!index.hasRoom()) {
        break;
      }
      ByteBuffer src = records.buffer();
      int start = records.start();
      int length = records.length();
      int keyLength = spec.derivesKeys() ? encodeKey(src, start, length) : 0;
      int entry = spec.entryLength(length, keyLength);
      while (at + entry > arena.slabCapacity(slab)) {
        if (slab + 1 == arena.slabCount()) {
          break;
        }
        slab++;
        at = 0;
        dst = arena.writableWindow(slab, 0, arena.slabCapacity(slab));
      }
      if (at + entry > arena.slabCapacity(slab)) {
        if (index.size() == 0) {
          tooLarge =
              new SortIOException(
                  "read",
                  records.path(),
                  "the record at offset "
                      + records.offset()
                      + " needs "
                      + entry
                      + " bytes in memory, more than the memory budget gives one arena slab ("
                      + arena.slabCapacity(slab)
                      + "): raise the memory budget");
        }
        break; // the arena is full: this record starts the next chunk
      }
      spec.writeEntry(dst, at, src, start, length, key, keyLength);
      sum.addRecord(src, start, length);
      bytes += length;
      arena.setFilled(slab, at + entry);
      index.add(slab, at);
      at += entry;
      pending = false;
    }
    return new ChunkSource.Chunk(index.size(), bytes, sum);
  }
}

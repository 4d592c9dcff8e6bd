package dev.joule.io.input;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.index.RepeatCounts;
import dev.joule.core.memory.Alignment;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.record.LineFormat;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.block.SortThreads;
import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.IdentityHashMap;

/**
 * Fills arenas with the entries of parsed records: for each record of a {@link RecordReader}, its
 * entry (header, key if the sort stores one, record) is appended to the arena and its index ({@link
 * EntryAppender}); the record's CRC-32 goes into the chunk's valsort checksum. A chunk ends when
 * the arena or the index is full, or the input ends; the record that did not fit starts the next
 * chunk.
 *
 * <p>A record whose entry does not fit even an empty arena (a line of megabytes under a small
 * budget; the formats allow up to {@link
 * dev.joule.core.record.RecordFormat#MAX_RECORD_LENGTH_LIMIT} bytes) is a chunk of its own in an
 * <em>overflow arena</em> of its entry's size, so that it becomes a run of one record between the
 * runs before and after it (the merge keeps the sort stable). The overflow arena lives until the
 * index that holds the chunk is filled again (the protocol of {@link ChunkSource}: an index is
 * reused only once its chunk is written) or the filler is closed.
 *
 * <p>A sort may ask for repeated lines to be filtered as they are read ({@link
 * #filterRepeatsAsRead}): left out in unique mode of whole lines (a chunk then says how many were,
 * with their checksum), counted on their identical entry where equal means identical (a chunk then
 * carries the counts, and a key is encoded only for a line that becomes an entry).
 *
 * <p>Memory: the appender's key scratch, the repeat filter's table, and an overflow arena per chunk
 * of one outsized record: above the budget by that record's entry, as the reader's carry buffer is
 * by the record (the arena and index are the caller's). Not thread-safe: one thread fills one chunk
 * at a time (run formation's parse thread); {@link #close()} after the last fill.
 */
public final class EntryFiller implements AutoCloseable {
  private final RecordReader records;
  private final EntryAppender appender;
  private boolean pending; // the reader's current record is not in an arena yet
  private boolean encoded; // the pending record's key is encoded
  private boolean exhausted;
  private SortIOException tooLarge;
  private final IdentityHashMap<RecordIndex, RecordArena> overflows = new IdentityHashMap<>();
  private final EntrySpec spec;
  private RepeatFilter repeats; // null: every record becomes an entry
  private int workers = 1; // parse threads per chunk (parseInParallel)
  private SortThreads helperThreads;
  private ParallelFill parallel; // the parse threads, from the first fill with workers > 1
  private boolean keysAhead; // workers > 1 encode keys of batches in input order (KeyAhead)
  private KeyAhead ahead; // from the first fill that uses it

  /** Fills from {@code records}, entries as {@code spec} says. */
  public EntryFiller(RecordReader records, EntrySpec spec) {
    this.records = records;
    this.spec = spec;
    this.appender = new EntryAppender(spec);
  }

  /**
   * From the next chunk on, filters a line equal to one already in its chunk ({@link
   * RepeatFilter}): left out in unique mode, counted on that entry where equal entries are
   * identical records ({@link EntrySpec#equalMeansIdentical()}); a no-op for other sorts. For the
   * writers of chunks that account for what was dropped ({@link ChunkSource.Chunk#dropped()}) and
   * write every entry as often as it was counted ({@link ChunkSource.Chunk#repeats()}).
   */
  public void filterRepeatsAsRead() {
    if (repeats == null) {
      repeats = RepeatFilter.of(spec);
    }
  }

  /**
   * Fills each chunk on {@code workers} threads at once (the filling thread and {@code workers - 1}
   * {@code joule-parse-N} helpers of {@code threads}), if the records are lines and the sort's
   * output cannot tell lines that compare equal apart ({@link EntrySpec#orderFree()}: each thread
   * takes spans of whole lines, and a line another thread could not place starts a later chunk than
   * lines after it). Where the order of lines must be kept but their keys cost most of the parse
   * ({@link EntrySpec#parseBound()}: a field collated in a locale), the keys of batches of records
   * are encoded on two threads instead, in input order ({@link KeyAhead}). Else a no-op. Call
   * before the first {@link #fill}.
   */
  public void parseInParallel(int workers, SortThreads threads) {
    if (workers <= 1) {
      return;
    }
    boolean spans = spec.orderFree() && spec.format() instanceof LineFormat;
    if (spans || spec.parseBound()) {
      if (pending || parallel != null || ahead != null) {
        throw new IllegalStateException("parallel parsing starts before the first fill");
      }
      this.workers = workers;
      this.helperThreads = threads;
      this.keysAhead = !spans;
    }
  }

  /**
   * Whether deriving the keys is most of the parse's cost ({@link EntrySpec#parseBound()}): run
   * formation then parses every chunk on all the parse threads.
   */
  boolean parseBound() {
    return spec.parseBound();
  }

  /** The parse threads a chunk may be filled on ({@link #parseInParallel}; 1 if not parallel). */
  public int parseThreads() {
    return workers;
  }

  /**
   * The error of a record that did not fit the empty arena of the last {@link #fill} nor an
   * overflow arena (the direct memory ran out), or null if none.
   */
  public SortIOException tooLarge() {
    return tooLarge;
  }

  /** Whether every record has been put in a chunk. */
  public boolean exhausted() {
    return exhausted;
  }

  /**
   * Clears {@code arena}, binds {@code index} to it and fills both with the next records; or, if
   * the next record does not fit the empty arena, puts it alone in an overflow arena bound to
   * {@code index}. A chunk of no entries before the input is {@link #exhausted()} means that no
   * overflow arena could be allocated for the next record ({@link #tooLarge()}).
   */
  public ChunkSource.Chunk fill(RecordArena arena, RecordIndex index) throws IOException {
    return fill(arena, index, workers);
  }

  /**
   * As {@link #fill(RecordArena, RecordIndex)}, on at most {@code threads} parse threads (of those
   * {@link #parseInParallel} set): fewer where the fill overlaps other work of the sort.
   */
  public ChunkSource.Chunk fill(RecordArena arena, RecordIndex index, int threads)
      throws IOException {
    tooLarge = null;
    release(index); // its chunk is written: the caller fills an index again only then
    if (keysAhead && (repeats == null || ahead != null)) {
      return fillAhead(arena, index, threads > 1);
    }
    if (workers > 1 && !keysAhead) {
      return fillInParallel(arena, index, Math.max(1, Math.min(threads, workers)));
    }
    appender.reset(arena, index);
    RecordChecksum sum = new RecordChecksum();
    RecordChecksum droppedSum = new RecordChecksum();
    long dropped = 0;
    RepeatFilter active = repeats == null || repeats.off() ? null : repeats;
    RepeatFilter filter = active;
    if (filter != null) {
      filter.reset(index);
    }
    long bytes = 0;
    while (true) {
      if (!pending) {
        if (!records.next()) {
          exhausted = true;
          break;
        }
        pending = true;
        encoded = false;
      }
      ByteBuffer src = records.buffer();
      int start = records.start();
      int length = records.length();
      int crc = filter != null ? sum.crcOf(src, start, length) : 0; // the filter's hash
      if (filter != null && filter.repeats(src, start, length, crc)) {
        sum.addCrc(crc);
        if (filter.counts()) {
          bytes += length; // counted on its twin: written as often, part of the chunk's records
        } else {
          droppedSum.addCrc(crc);
          dropped++;
        }
        pending = false;
        continue;
      }
      if (!encoded) {
        encodeKey(); // only now: a repeat needs no key
        encoded = true;
      }
      if (!appender.append(src, start, length)) {
        if (appender.size() == 0 && appendOutsized(index, src, start, length, records.offset())) {
          sum.addRecord(src, start, length);
          bytes += length;
          pending = false;
          if (records.next()) { // known now, so that no empty chunk follows the last record
            pending = true;
            encoded = false;
          } else {
            exhausted = true;
          }
        }
        break; // the arena or index is full: this record starts the next chunk
      }
      if (filter != null) {
        filter.added(index.refs()[index.size() - 1]);
        sum.addCrc(crc);
        if (filter.off()) {
          filter = null;
        }
      } else {
        sum.addRecord(src, start, length);
      }
      bytes += length;
      pending = false;
    }
    RepeatCounts counted =
        active != null && active.counts() ? active.repeatCounts() : RepeatCounts.NONE;
    return new ChunkSource.Chunk(index.size(), bytes, sum, dropped, droppedSum, counted);
  }

  /**
   * {@link #fill} with the keys of the records encoded ahead in batches ({@link KeyAhead}), by a
   * helper thread too if {@code helped}. The records stay in input order; a record that does not
   * fit ends the chunk and starts the next, as in the one-thread fill.
   */
  private ChunkSource.Chunk fillAhead(RecordArena arena, RecordIndex index, boolean helped)
      throws IOException {
    if (ahead == null) {
      ahead = new KeyAhead(records, spec, helperThreads);
    }
    appender.reset(arena, index);
    RecordChecksum sum = new RecordChecksum();
    long bytes = 0;
    boolean full = false;
    while (!full) {
      KeyAhead.Batch b = ahead.current(helped);
      if (b == null) {
        exhausted = true;
        break;
      }
      ByteBuffer src = b.bytes();
      for (int i = b.next; i < b.count; i++) {
        if (i == b.failedAt) {
          throw noKey(records, b.position[i], b.failure);
        }
        int start = b.start[i];
        int length = b.length[i];
        if (!appender.append(src, start, length, b.keys(), b.keyStart[i], b.keyLength[i])) {
          if (appender.size() == 0) {
            appender.encodeKey(src, start, length); // the overflow arena's entry, sized by it
            if (appendOutsized(index, src, start, length, b.position[i])) {
              sum.addRecord(src, start, length);
              bytes += length;
              b.next = i + 1;
              // known now, so that no empty chunk follows the last record
              exhausted = ahead.current(helped) == null;
            }
          }
          full = true; // the arena or index is full: this record starts the next chunk
          break;
        }
        sum.addRecord(src, start, length);
        bytes += length;
        b.next = i + 1;
      }
    }
    return new ChunkSource.Chunk(index.size(), bytes, sum);
  }

  /** A chunk filled by the parse threads, or one outsized line alone in an overflow arena. */
  private ChunkSource.Chunk fillInParallel(RecordArena arena, RecordIndex index, int threads)
      throws IOException {
    if (parallel == null) {
      parallel = new ParallelFill(records, spec, workers, helperThreads, repeats != null);
    }
    while (true) {
      SpanParser big = parallel.outsizedPending();
      if (big != null) {
        RecordArena overflow = overflowArena(index, big.pendingEntryLength(), big.pendingOffset());
        if (overflow == null) {
          return new ChunkSource.Chunk(0, 0, new RecordChecksum());
        }
        ChunkSource.Chunk c = big.placeAlone(overflow, index);
        exhausted = parallel.exhausted();
        return c;
      }
      int done = parallel.exhaustedParsers();
      ChunkSource.Chunk c = parallel.fill(arena, index, threads);
      exhausted = parallel.exhausted();
      if (c.records() > 0 || exhausted) {
        return c;
      }
      if (parallel.outsizedPending() == null && parallel.exhaustedParsers() == done) {
        throw new IllegalStateException("no line fit an empty arena and none is outsized");
      }
      // Nothing fit: a thread's next line is outsized, and goes first into a chunk of its own;
      // or the threads that ran found the input used up, and others hold the rest of it.
    }
  }

  /**
   * Puts the record alone in an overflow arena of its entry's size bound to {@code index}; false
   * with {@link #tooLarge()} set if that arena cannot be allocated.
   */
  private boolean appendOutsized(
      RecordIndex index, ByteBuffer src, int start, int length, long offset) {
    long entry = appender.entryLength(length);
    RecordArena big = overflowArena(index, entry, offset);
    if (big == null) {
      return false;
    }
    appender.reset(big, index);
    if (!appender.append(src, start, length)) {
      throw new IllegalStateException("an empty overflow arena of " + entry + " bytes is full");
    }
    return true;
  }

  /**
   * A new overflow arena of {@code entry} bytes, held for {@code index}'s chunk; null with {@link
   * #tooLarge()} set if it cannot be allocated (for the record at input offset {@code offset}).
   */
  private RecordArena overflowArena(RecordIndex index, long entry, long offset) {
    RecordArena big;
    try {
      big = RecordArena.allocate(Math.max(entry, Alignment.BYTES));
    } catch (OutOfMemoryError e) {
      tooLarge =
          new SortIOException(
              "read",
              records.path(),
              "the record at offset "
                  + offset
                  + " needs "
                  + entry
                  + " bytes in memory beside the budget's arenas, and the JVM's direct memory is"
                  + " exhausted ("
                  + e.getMessage()
                  + "): raise -XX:MaxDirectMemorySize",
              e);
      return null;
    }
    overflows.put(index, big);
    return big;
  }

  /** Frees the overflow arena {@code index} was bound to, if any. */
  private void release(RecordIndex index) {
    RecordArena big = overflows.remove(index);
    if (big != null) {
      big.close();
    }
  }

  /** Frees every overflow arena; idempotent. The chunks they hold must be written. */
  @Override
  public void close() {
    if (parallel != null) {
      parallel.close();
    }
    if (ahead != null) {
      ahead.close();
    }
    for (RecordArena big : overflows.values()) {
      big.close();
    }
    overflows.clear();
  }

  /** Encodes the pending record's key (if the sort derives keys). */
  private void encodeKey() throws SortIOException {
    try {
      appender.encodeKey(records.buffer(), records.start(), records.length());
    } catch (IllegalArgumentException e) {
      throw noKey(records, records.offset(), e);
    }
  }

  /** The error of the record at input offset {@code offset} of {@code records} that has no key. */
  static SortIOException noKey(RecordReader records, long offset, IllegalArgumentException e) {
    return new SortIOException(
        "read",
        records.path(),
        "the record at offset " + offset + " has no key: " + e.getMessage(),
        e);
  }
}

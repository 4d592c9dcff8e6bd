package dev.joule.io.input;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.ByteSearch;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.record.LineFormat;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * One parse thread's share of a parallel fill ({@link ParallelFill}): it takes spans of whole lines
 * from the reader ({@link RecordReader#nextSpan}), splits them, and writes the entries into regions
 * of the shared arena it claims, their index words into blocks of the index's alternate bank it
 * claims ({@link ChunkSpace}). What it read into the chunk (checksums, counts, repeats) is its own
 * until the fill adds them up. It stops when the space has no room for its next entry, or the input
 * ends; the line it could not place, and the rest of its span, start its next fill.
 *
 * <p>Memory: its key scratch and repeat filter (as {@link EntryFiller}'s). Not thread-safe: one
 * parse thread at a time, and the fill's joins order one fill's work before the next.
 */
final class SpanParser {
  private final RecordReader reader;
  private final EntrySpec spec;
  private final byte delimiter;
  private final int maxLength;
  private final RepeatFilter repeats; // null: every line becomes an entry
  private RepeatFilter counting; // the last fill's counting filter, or null
  private RepeatFilter filter; // this fill's filter while it is on, or null
  private RecordIndex index;
  private final EntryAppender appender; // its key scratch; appends only an outsized line

  private RecordReader.LineSpan span; // null: take the next one
  private int pos; // the next line's start in the span
  private boolean pending; // a line split but not in the chunk yet: [lineStart, +lineLength)
  private boolean encoded; // the pending line's key is in the scratch
  private int lineStart;
  private int lineLength;
  private boolean exhausted; // the reader had no span left
  private boolean outsized; // the pending line's entry is larger than any region can be

  // This fill's.
  private ChunkSpace space;
  private ByteBuffer window; // the slab of the current region, this thread's own view
  private int slab;
  private int at; // where the next entry goes in the region
  private int regionEnd;
  private final int[] region = new int[3]; // a claim's slab, start, length
  private int slot; // the next free slot of the current index block
  private int slotEnd;
  private int[] blocks = new int[16]; // the index blocks used this fill, as (start, count) pairs
  private int blockCount;
  private RecordChecksum sum;
  private RecordChecksum droppedSum;
  private long dropped;
  private long bytes;
  private int entries;
  private int filledEnd; // the end of the last entry written in slab `slab`

  /**
   * A parser of {@code reader}'s lines into entries of {@code spec}, filtering repeats if asked.
   */
  SpanParser(RecordReader reader, EntrySpec spec, boolean filter) {
    this.reader = reader;
    this.spec = spec;
    this.delimiter = ((LineFormat) spec.format()).delimiter();
    this.maxLength = spec.format().maxRecordLength();
    this.repeats = filter ? RepeatFilter.of(spec) : null;
    this.appender = new EntryAppender(spec);
  }

  /** Starts a fill of {@code space} and {@code index}: what it read so far belongs to the last. */
  void start(ChunkSpace space, RecordIndex index) {
    this.space = space;
    this.index = index;
    window = null;
    regionEnd = 0;
    at = 0;
    slot = 0;
    slotEnd = 0;
    blockCount = 0;
    sum = new RecordChecksum();
    droppedSum = new RecordChecksum();
    dropped = 0;
    bytes = 0;
    entries = 0;
    filter = repeats == null || repeats.off() ? null : repeats;
    counting = filter != null && filter.counts() ? filter : null;
    if (filter != null) {
      filter.reset(index);
    }
  }

  /**
   * Parses into the space of this fill until it has no room for the next entry or the input ends;
   * may be called again in the same fill (when others have given back room). Returns whether it
   * placed a line.
   */
  boolean parse() throws IOException {
    int before = entries;
    long seen = bytes + dropped;
    parseLines(index, filter);
    return entries > before || bytes + dropped > seen;
  }

  private void parseLines(RecordIndex index, RepeatFilter filter) throws IOException {
    long[] keys = index.altKeys();
    long[] refs = index.altRefs();
    while (true) {
      if (!pending) {
        if (!nextLine()) {
          giveBackRoom();
          return;
        }
        pending = true;
        encoded = false;
      }
      ByteBuffer src = span.buffer();
      int start = lineStart;
      int length = lineLength;
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
        encodeKey(src, start, length);
        encoded = true;
      }
      int entry = appender.entryLength(length);
      if (!room(entry)) {
        outsized = entry > space.largestRegion();
        return;
      }
      spec.writeEntry(window, at, src, start, length, appender.key(), 0, appender.keyLength());
      int i = slot++;
      index.words(slab, at, keys, refs, i);
      at += entry;
      filledEnd = at;
      entries++;
      if (filter != null) {
        filter.added(refs[i]);
        sum.addCrc(crc);
        if (filter.off()) {
          filter = null;
          this.filter = null;
        }
      } else {
        sum.addRecord(src, start, length);
      }
      bytes += length;
      pending = false;
    }
  }

  /**
   * Whether an entry of {@code entry} bytes has a place and an index slot, claiming them if not.
   */
  private boolean room(int entry) {
    if (slot == slotEnd) {
      long b = space.claimSlots();
      if (b < 0) {
        return false;
      }
      slot = (int) (b >>> 32);
      slotEnd = slot + (int) b;
      if (blockCount * 2 == blocks.length) {
        blocks = java.util.Arrays.copyOf(blocks, blocks.length * 2);
      }
      blocks[blockCount * 2] = slot;
      blocks[blockCount * 2 + 1] = 0;
      blockCount++;
    }
    if (at + entry > regionEnd) {
      if (window != null) {
        space.filled(slab, filledEnd);
        space.giveBack(slab, at, regionEnd - at, 0, 0); // for shorter entries, on any thread
        window = null;
      }
      if (space.stopped() || !space.claimRegion(entry, region)) {
        regionEnd = 0;
        return false;
      }
      window = space.window(region[0]);
      slab = region[0];
      at = region[1];
      filledEnd = at;
      regionEnd = at + region[2];
    }
    blocks[blockCount * 2 - 1]++; // the slot room() hands out is used now
    return true;
  }

  /** Its input is used up: what it claimed and did not use goes back to the others. */
  private void giveBackRoom() {
    int length = 0;
    if (window != null) {
      space.filled(slab, filledEnd);
      length = regionEnd - at;
      window = null;
    }
    space.giveBack(slab, at, length, slot, slotEnd - slot);
    regionEnd = at;
    slotEnd = slot;
  }

  /** Moves to the next line of its span, or of the next span; false at the end of the input. */
  private boolean nextLine() throws IOException {
    while (true) {
      if (span == null) {
        if (exhausted || space.stopped()) {
          return false;
        }
        span = reader.nextSpan();
        if (span == null) {
          exhausted = true;
          return false;
        }
        pos = span.from();
      }
      int to = span.to();
      if (pos < to) {
        int d = ByteSearch.indexOf(span.buffer(), pos, to, delimiter);
        int end = d >= 0 ? d : to;
        if (end - pos > maxLength) { // spans are checked; a straddling line is too
          throw new IllegalStateException("a line of a span is longer than " + maxLength);
        }
        lineStart = pos;
        lineLength = end - pos;
        pos = d >= 0 ? d + 1 : to;
        return true;
      }
      reader.release(span);
      span = null;
    }
  }

  private void encodeKey(ByteBuffer src, int start, int length) throws SortIOException {
    try {
      appender.encodeKey(src, start, length);
    } catch (IllegalArgumentException e) {
      throw EntryFiller.noKey(reader, span.offset() + start - span.from(), e);
    }
  }

  /** Records the end of what it wrote in its last region (after {@link #parse} returns). */
  void finishRegion() {
    if (window != null) {
      space.filled(slab, filledEnd);
    }
  }

  /** Appends its index blocks of this fill to {@code index}, in the order it used them. */
  void appendTo(RecordIndex index) {
    for (int b = 0; b < blockCount; b++) {
      index.appendAlternates(blocks[b * 2], blocks[b * 2 + 1]);
    }
  }

  /** The input offset of the pending line. */
  long pendingOffset() {
    return span.offset() + lineStart - span.from();
  }

  /** The entry of the pending line (its key encoded). */
  long pendingEntryLength() {
    return appender.entryLength(lineLength);
  }

  /** Whether it holds an outsized line, which must go into a chunk of its own before it fills. */
  boolean holdsOutsized() {
    return pending && outsized;
  }

  /**
   * Puts the outsized line it holds alone into {@code big}, bound to {@code index}, and returns
   * that chunk. If the line was its span's last and the reader has none left, this parser has put
   * all its lines in chunks ({@link #exhausted()}), so that no empty chunk follows the last line.
   */
  ChunkSource.Chunk placeAlone(RecordArena big, RecordIndex index) throws IOException {
    ByteBuffer src = span.buffer();
    appender.reset(big, index);
    if (!appender.append(src, lineStart, lineLength)) {
      throw new IllegalStateException("an empty overflow arena is too small for its line");
    }
    RecordChecksum sum = new RecordChecksum();
    sum.addRecord(src, lineStart, lineLength);
    ChunkSource.Chunk chunk = new ChunkSource.Chunk(1, lineLength, sum);
    pending = false;
    outsized = false;
    if (pos >= span.to()) {
      reader.release(span);
      span = null;
      exhausted = reader.spansExhausted();
    }
    return chunk;
  }

  boolean exhausted() {
    return exhausted && !pending;
  }

  /**
   * The filter that counted repeats in the last fill (it was on when the fill started; it may have
   * switched itself off since), or null.
   */
  RepeatFilter counting() {
    return counting;
  }

  RecordChecksum checksum() {
    return sum;
  }

  RecordChecksum droppedChecksum() {
    return droppedSum;
  }

  long dropped() {
    return dropped;
  }

  long bytes() {
    return bytes;
  }

  int entries() {
    return entries;
  }

  /** Gives back the buffer of the span it holds (after the last fill, or on failure). */
  void close() throws IOException {
    if (span != null) {
      reader.release(span);
      span = null;
    }
  }
}

package dev.joule.io.input;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.merge.MergeOrder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Unique mode's first filter, as lines are read: a small hash table of lines already in the chunk
 * being filled, so that a line equal to one of them is dropped before it takes arena, index and
 * sorting time. With 10^7 lines of about 1000 distinct values a chunk then holds each value once.
 *
 * <p>Lossy on purpose: a slot keeps the last line that hashed to it, so a repeat whose first
 * occurrence was evicted is kept here and dropped later, when the run is written ({@code
 * UniqueKeys}) or in the final merge. That bounds the memory to the table and keeps a lookup to one
 * comparison. Only where the line is its own whole key and equal keys keep input order (no tie
 * breaker): the first occurrence in the chunk is then the one the sort keeps.
 *
 * <p>It switches itself off when lines rarely repeat: after {@link #TRIAL} lookups with fewer than
 * one hit in {@link #WORTH}, each lookup being wasted work.
 *
 * <p>Memory: the table, {@link #SLOTS} longs (128 KiB) on the heap, outside the budget like the
 * entry appender's key scratch. Not thread-safe: the filling thread's.
 */
final class RepeatFilter {
  /** Table slots: 16384, several times the distinct lines of the inputs it pays off for. */
  static final int SLOTS = 1 << 14;

  /** Lookups before the filter decides whether it pays. */
  static final int TRIAL = 1 << 16;

  /** The filter stays on if at least one lookup in this many finds a repeat. */
  static final int WORTH = 8;

  private static final long EMPTY = -1;
  private static final long MIX = 0x9E37_79B9_7F4A_7C15L;

  private final long[] refs = new long[SLOTS];
  private RecordIndex index;
  private long lookups;
  private long hits;
  private boolean off;
  private int slot;

  RepeatFilter() {
    Arrays.fill(refs, EMPTY);
  }

  /** Whether the filter applies to entries of {@code spec}. */
  static boolean applies(EntrySpec spec) {
    return spec.unique()
        && spec.layout().place() == EntryLayout.KeyPlace.WHOLE
        && spec.tie() == null
        && spec.sameKey() == null;
  }

  /** Forgets the lines of the previous chunk: {@code index} is the new chunk's, empty. */
  void reset(RecordIndex index) {
    this.index = index;
    Arrays.fill(refs, EMPTY);
  }

  /** Whether the filter has switched itself off. */
  boolean off() {
    return off;
  }

  /**
   * Whether the line {@code [start, start + length)} of {@code src} equals a line already in the
   * chunk (then it is to be dropped). If not, {@link #added} must follow once it is in the index.
   */
  boolean repeats(ByteBuffer src, int start, int length) {
    long h = length * MIX;
    int i = 0;
    for (; i + Long.BYTES <= length; i += Long.BYTES) {
      h = (h ^ src.getLong(start + i)) * MIX;
    }
    int rest = length - i;
    if (rest > 0 && start + i + Long.BYTES <= src.limit()) {
      // The last 1 to 7 bytes as one word, the bytes after the line masked off: short lines (the
      // many-duplicates case this filter is for) cost one read instead of a loop.
      long w = src.getLong(start + i);
      int drop = Long.SIZE - Byte.SIZE * rest;
      w = src.order() == ByteOrder.BIG_ENDIAN ? w >>> drop : w << drop;
      h = (h ^ w) * MIX;
      i = length;
    }
    for (; i < length; i++) {
      h = (h ^ (src.get(start + i) & 0xFF)) * MIX;
    }
    slot = (int) (h >>> (Long.SIZE - 14));
    lookups++;
    long ref = refs[slot];
    boolean hit = ref != EMPTY && sameLine(ref, src, start, length);
    if (hit) {
      hits++;
    }
    if (lookups == TRIAL && hits * WORTH < lookups) {
      off = true; // this lookup's answer still holds: a hit's line is in the chunk
    }
    return hit;
  }

  /** Remembers the line just looked up, now the index's last entry, in its slot. */
  void added() {
    refs[slot] = index.refs()[index.size() - 1];
  }

  private boolean sameLine(long ref, ByteBuffer src, int start, int length) {
    ByteBuffer b = index.slabBuffer(RecordIndex.slabOf(ref));
    int e = RecordIndex.offsetOf(ref);
    EntryLayout layout = index.layout();
    return layout.recordLength(b, e) == length
        // a word at a time, the last bytes as one masked word: a byte at a time, the 6-byte lines
        // of the duplicates file spent 45 % of the parsing thread here (JFR)
        && MergeOrder.compareKeys(b, layout.recordStart(b, e), src, start, length) == 0;
  }
}

package dev.joule.io.input;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.index.RepeatCounts;
import dev.joule.core.merge.MergeOrder;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The read-time filter of repeated lines: a small hash table of lines already in the chunk being
 * filled, so that a line equal to one of them takes no arena, index or sorting time. With 10^7
 * lines of about 1000 distinct values a chunk then holds each value once. Two modes:
 *
 * <ul>
 *   <li><b>drop</b> (unique mode, whatever the key): the repeat is left out. Of two identical lines
 *       the output holds at most one (their keys are equal), and which one cannot be told; the
 *       records dropped are accounted as unique mode's ({@link ChunkSource.Chunk#dropped()});
 *   <li><b>count</b> (a sort in which equal entries are identical records, {@link
 *       EntrySpec#equalMeansIdentical()}: GNU's last resort, or the whole line as the key): the
 *       repeat is counted on the entry it equals ({@link #counts()}), and the chunk's writer writes
 *       that entry once per count. Identical records are adjacent in such an order and
 *       indistinguishable in the output, so where the copies stand among them does not matter.
 * </ul>
 *
 * <p>Lossy on purpose: a line may take one of {@link #PROBES} slots from its hash's on, and when
 * they are all taken it replaces the first of them that may be given up: any in drop mode, one
 * without copies in count mode (a count belongs to its line); with none, the line is not
 * remembered. A repeat whose first occurrence was forgotten is kept: in drop mode it is dropped
 * later, when the run is written ({@code UniqueKeys}) or in the final merge; in count mode it is an
 * entry of its own. That bounds the memory to the table and a lookup to the probes, each comparing
 * a line only when its stored hash is the line's.
 *
 * <p>It switches itself off when lines rarely repeat: after {@link #TRIAL} lookups with fewer than
 * one hit in {@link #WORTH}, each lookup being wasted work.
 *
 * <p>Memory: the table, {@link #SLOTS} refs and hashes (256 KiB; 384 KiB in count mode) on the
 * heap, outside the budget like the entry appender's key scratch, and per chunk in count mode its
 * {@link RepeatCounts} (at most 1 MiB). Not thread-safe: the filling thread's.
 */
final class RepeatFilter {
  /** Table slots: 16384, several times the distinct lines of the inputs it pays off for. */
  static final int SLOTS = 1 << 14;

  private static final int SLOT_BITS = 14;

  /**
   * Slots a line may take, from its hash's: with one, 6 % of 1011 distinct lines shared a slot and
   * missed every time (count mode keeps a counted line in its slot); with 8, a table a fifth full
   * places all but a handful.
   */
  static final int PROBES = 8;

  /** Lookups before the filter decides whether it pays. */
  static final int TRIAL = 1 << 16;

  /** The filter stays on if at least one lookup in this many finds a repeat. */
  static final int WORTH = 8;

  private static final long EMPTY = -1;
  private static final long MIX = 0x9E37_79B9_7F4A_7C15L;

  private final long[] refs = new long[SLOTS];
  private final long[] hashes = new long[SLOTS]; // of each slot's line: most misses compare none
  private final long[] extras; // count mode: copies of each slot's line; null in drop mode
  private RecordIndex index;
  private long lookups;
  private long hits;
  private boolean off;
  private int slot;
  private long lastHash;

  private RepeatFilter(boolean counting) {
    Arrays.fill(refs, EMPTY);
    extras = counting ? new long[SLOTS] : null;
  }

  /** The filter for entries of {@code spec}, or null if none applies. */
  static RepeatFilter of(EntrySpec spec) {
    if (spec.unique()) {
      // Whatever the key: of two identical lines at most one is output, and which one cannot be
      // told, so the later one may go as it is read.
      return new RepeatFilter(false);
    }
    return spec.equalMeansIdentical() ? new RepeatFilter(true) : null;
  }

  /** Whether repeats are counted on their entry (else they are dropped: unique mode). */
  boolean counts() {
    return extras != null;
  }

  /** Forgets the lines of the previous chunk: {@code index} is the new chunk's, empty. */
  void reset(RecordIndex index) {
    this.index = index;
    Arrays.fill(refs, EMPTY);
    if (extras != null) {
      Arrays.fill(extras, 0);
    }
  }

  /** Count mode: the copies counted in the chunk so far, by entry. */
  RepeatCounts repeatCounts() {
    return RepeatCounts.of(refs, extras, SLOTS);
  }

  /**
   * Count mode: the copies the filters of the parse threads that filled one chunk counted, by entry
   * (each thread's entries are its own, so no entry is counted twice).
   */
  static RepeatCounts repeatCounts(java.util.List<RepeatFilter> filters) {
    if (filters.size() == 1) {
      return filters.get(0).repeatCounts();
    }
    long[] r = new long[filters.size() * SLOTS];
    long[] e = new long[r.length];
    for (int f = 0; f < filters.size(); f++) {
      System.arraycopy(filters.get(f).refs, 0, r, f * SLOTS, SLOTS);
      System.arraycopy(filters.get(f).extras, 0, e, f * SLOTS, SLOTS);
    }
    return RepeatCounts.of(r, e, r.length);
  }

  /** Whether the filter has switched itself off. */
  boolean off() {
    return off;
  }

  /**
   * Whether the line {@code [start, start + length)} of {@code src}, whose CRC-32 is {@code crc32},
   * equals a line already in the chunk (then it is to be dropped, or in count mode it has been
   * counted). If not, {@link #added} must follow once it is in the index.
   */
  boolean repeats(ByteBuffer src, int start, int length, int crc32) {
    // The line's CRC-32, which the input's checksum takes anyway, is its hash: a hash of its own
    // was a fifth of the parsing thread on the duplicates file (JFR). Mixed with the length, so
    // that the top bits, which pick the slot, depend on every bit of both.
    long h = ((crc32 & 0xFFFF_FFFFL) | (long) length << 32) * MIX;
    lookups++;
    boolean hit = false;
    slot = -1; // where the line goes if it misses; -1: nowhere
    int home = (int) (h >>> (Long.SIZE - SLOT_BITS));
    for (int p = 0; p < PROBES; p++) {
      int s = (home + p) & (SLOTS - 1);
      long ref = refs[s];
      if (ref == EMPTY) {
        slot = s; // slots fill in probe order and are never emptied: the line is not further on
        break;
      }
      if (hashes[s] == h && sameLine(ref, src, start, length)) {
        hit = true;
        slot = s;
        break;
      }
      if (slot < 0 && (extras == null || extras[s] == 0)) {
        slot = s; // the first line that may give up its slot, if no slot is free
      }
    }
    lastHash = h;
    if (hit) {
      hits++;
      if (extras != null) {
        extras[slot]++;
      }
    }
    if (lookups == TRIAL && hits * WORTH < lookups) {
      off = true; // this lookup's answer still holds: a hit's line is in the chunk
    }
    return hit;
  }

  /**
   * Remembers the line just looked up, now the entry of ref word {@code ref}, in a slot if it has
   * one.
   */
  void added(long ref) {
    if (slot >= 0) {
      refs[slot] = ref;
      hashes[slot] = lastHash;
    }
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

package dev.joule.core.index;

import java.util.Arrays;

/**
 * How many more copies of some entries a chunk stands for: a line read again while an identical one
 * was in the chunk is counted on that entry instead of taking arena, index and sorting time of its
 * own (the read-time repeat filter of a sort in which equal entries are identical records). Whoever
 * writes the sorted chunk writes such an entry {@code 1 + } {@link #extra} times.
 *
 * <p>Keyed by the entry's address (slab and offset, {@link RecordIndex#ADDRESS_MASK}), which the
 * sort does not change; open addressing in two parallel arrays at most half full, so a lookup of an
 * entry without copies usually costs one probe.
 *
 * <p>Memory: 16 bytes per slot, two to four times the counted entries (a power of two; the filter
 * counts at most its table's 16384 slots, so at most 1 MiB of heap per chunk, outside the budget
 * like the filter's table). Immutable once built; safe to read from several threads.
 */
public final class RepeatCounts {
  private static final long EMPTY_ADDRESS = -1;
  private static final long MIX = 0x9E37_79B9_7F4A_7C15L;

  /** No entry has copies. */
  public static final RepeatCounts NONE = new RepeatCounts(new long[] {EMPTY_ADDRESS}, new long[1]);

  private final long[] addresses;
  private final long[] extras;
  private final int shift;
  private final long total;
  private final int counted;

  private RepeatCounts(long[] addresses, long[] extras) {
    this.addresses = addresses;
    this.extras = extras;
    this.shift = Long.SIZE - Integer.numberOfTrailingZeros(addresses.length);
    long t = 0;
    int c = 0;
    for (long e : extras) {
      t += e;
      c += e > 0 ? 1 : 0;
    }
    this.total = t;
    this.counted = c;
  }

  /**
   * The counts of the entries whose ref words are {@code refs[i]} with {@code extras[i] > 0} extra
   * copies, for {@code i < n}; entries with 0 are left out, and no ref may appear twice.
   */
  public static RepeatCounts of(long[] refs, long[] extras, int n) {
    int counted = 0;
    for (int i = 0; i < n; i++) {
      if (extras[i] < 0) {
        throw new IllegalArgumentException("negative count " + extras[i]);
      }
      counted += extras[i] > 0 ? 1 : 0;
    }
    if (counted == 0) {
      return NONE;
    }
    int slots = Integer.highestOneBit(counted) << 2; // between 2x and 4x the entries: half full
    long[] addresses = new long[slots];
    Arrays.fill(addresses, EMPTY_ADDRESS);
    long[] counts = new long[slots];
    RepeatCounts c = new RepeatCounts(addresses, counts);
    for (int i = 0; i < n; i++) {
      if (extras[i] > 0) {
        long a = refs[i] & RecordIndex.ADDRESS_MASK;
        int s = c.find(a);
        if (addresses[s] == a) {
          throw new IllegalArgumentException("entry " + a + " counted twice");
        }
        addresses[s] = a;
        counts[s] = extras[i];
      }
    }
    return new RepeatCounts(addresses, counts);
  }

  /** The slot of {@code address}, or the empty slot where it would go. */
  private int find(long address) {
    int mask = addresses.length - 1;
    int s = (int) ((address * MIX) >>> shift);
    while (addresses[s] != address && addresses[s] != EMPTY_ADDRESS) {
      s = (s + 1) & mask;
    }
    return s;
  }

  /** Extra copies of the entry whose ref word is {@code ref} (0 if it stands for itself only). */
  public long extra(long ref) {
    if (counted == 0) {
      return 0;
    }
    long a = ref & RecordIndex.ADDRESS_MASK;
    int s = find(a);
    return addresses[s] == a ? extras[s] : 0;
  }

  /** All extra copies: the records the chunk stands for beyond its entries. */
  public long total() {
    return total;
  }

  /** Whether no entry has copies. */
  public boolean isEmpty() {
    return counted == 0;
  }
}

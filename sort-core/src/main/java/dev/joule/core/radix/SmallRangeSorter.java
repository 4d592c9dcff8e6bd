package dev.joule.core.radix;

import dev.joule.core.index.RecordIndex;

/**
 * The radix sorter's fallback for small ranges: a stable insertion sort of (key word, ref word)
 * pairs by full key: key word unsigned, then the ref word's tie bits, then the key bytes in the
 * arena from where the words end (with lengths, for variable keys); then, with a tie breaker, each
 * run of equal keys by the tie breaker. The words may hold key bytes from past the start of the key
 * ({@link RecordIndex#loadKeyWords}) when all entries of the range agree on the bytes before. Also
 * used for a whole range whose buckets are all small and already in bucket order, where each entry
 * moves only within its bucket, so the pass is linear. No memory; stateless per call; safe to use
 * from several threads on disjoint ranges.
 *
 * <p>Why the tie breaker goes second, by binary insertion: it may cost a call into the C library (a
 * key in a locale, whose code holds only the collation's primary level: {@code strcoll} of two
 * lines, 0.2-0.6 µs), where the key compares in a few nanoseconds. A linear insertion sort of a run
 * of m equal keys in random order makes about m²/4 such calls, a binary one about m·log2(m).
 */
final class SmallRangeSorter {
  private final RecordIndex index;
  private final long tieMask;
  private final int keyEnd;
  private final boolean ties;

  SmallRangeSorter(RecordIndex index) {
    this.index = index;
    this.tieMask = index.tieMask();
    // variable keys: where equal words end in a key's zero padding, only the lengths can tell
    this.keyEnd = index.variableKeys() ? Integer.MAX_VALUE : index.keyLength();
    this.ties = index.tieBreaker() != null;
  }

  /**
   * Sorts {@code [from, to)} of bank (k, r), whose entries agree on the key bytes before those the
   * words hold; the words end at key byte {@code tailFrom}, where comparisons go on in the arena.
   */
  void sort(long[] k, long[] r, int from, int to, int tailFrom) {
    for (int i = from + 1; i < to; i++) {
      long key = k[i];
      long ref = r[i];
      int j = i - 1;
      while (j >= from && compareKeys(key, ref, k[j], r[j], tailFrom) < 0) {
        k[j + 1] = k[j];
        r[j + 1] = r[j];
        j--;
      }
      k[j + 1] = key;
      r[j + 1] = ref;
    }
    if (ties) {
      int start = from;
      for (int i = from + 1; i <= to; i++) {
        if (i == to || compareKeys(k[i - 1], r[i - 1], k[i], r[i], tailFrom) != 0) {
          if (i - start > 1) {
            byTies(index, k, r, start, i);
          }
          start = i;
        }
      }
    }
  }

  private int compareKeys(long ka, long ra, long kb, long rb, int tailFrom) {
    if (ka != kb) {
      return Long.compareUnsigned(ka, kb);
    }
    long ta = ra & tieMask;
    long tb = rb & tieMask;
    if (ta != tb) {
      return Long.compareUnsigned(ta, tb);
    }
    return tailFrom < keyEnd ? index.compareKeyBytes(ra, rb, tailFrom) : 0;
  }

  /**
   * A stable binary insertion sort of {@code [from, to)} of bank (k, r) by {@code index}'s tie
   * breaker alone (the entries' keys are equal): an entry not below its predecessor stays after one
   * call, any other finds its place in log2 of the entries before it.
   */
  static void byTies(RecordIndex index, long[] k, long[] r, int from, int to) {
    if (GroupTieOrder.sort(index, k, r, from, to)) {
      return;
    }
    for (int i = from + 1; i < to; i++) {
      long ref = r[i];
      if (index.compareTie(ref, r[i - 1]) >= 0) {
        continue;
      }
      int lo = from;
      int hi = i - 1; // the first entry above ref is in [lo, hi]; r[i - 1] is one
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (index.compareTie(ref, r[mid]) < 0) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      long key = k[i];
      System.arraycopy(k, lo, k, lo + 1, i - lo);
      System.arraycopy(r, lo, r, lo + 1, i - lo);
      k[lo] = key;
      r[lo] = ref;
    }
  }
}

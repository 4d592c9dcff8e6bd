package dev.joule.core.radix;

import dev.joule.core.index.RecordIndex;

/**
 * The radix sorter's fallback for small ranges: a stable insertion sort of (key word, ref word)
 * pairs by full key: key word unsigned, then the ref word's tie bits, then the key bytes in the
 * arena from where the words end (with lengths, for variable keys), then the tie breaker. The words
 * may hold key bytes from past the start of the key ({@link RecordIndex#loadKeyWords}) when all
 * entries of the range agree on the bytes before. Also used for a whole range whose buckets are all
 * small and already in bucket order, where each entry moves only within its bucket, so the pass is
 * linear. No memory; stateless per call; safe to use from several threads on disjoint ranges.
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
      while (j >= from && less(key, ref, k[j], r[j], tailFrom)) {
        k[j + 1] = k[j];
        r[j + 1] = r[j];
        j--;
      }
      k[j + 1] = key;
      r[j + 1] = ref;
    }
  }

  private boolean less(long ka, long ra, long kb, long rb, int tailFrom) {
    if (ka != kb) {
      return Long.compareUnsigned(ka, kb) < 0;
    }
    long ta = ra & tieMask;
    long tb = rb & tieMask;
    if (ta != tb) {
      return Long.compareUnsigned(ta, tb) < 0;
    }
    int c = tailFrom < keyEnd ? index.compareKeyBytes(ra, rb, tailFrom) : 0;
    if (c == 0 && ties) {
      c = index.compareTie(ra, rb);
    }
    return c < 0;
  }
}

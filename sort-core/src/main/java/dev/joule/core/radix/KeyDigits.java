package dev.joule.core.radix;

import dev.joule.core.index.RecordIndex;

/**
 * Key digits of {@link RadixRunSorter}'s entries, read from the index words only: the 8-bit digit
 * of word byte b (bytes 0..7 from the key word, 8..9 from the ref word's tie bits), the 12-bit
 * digit, the histogram and stable scatter loops on the 8-bit digit, and the OR-of-XOR common-prefix
 * scan. Word byte b is key byte {@code base + b} where the words were reloaded from key byte {@code
 * base} ({@link RecordIndex#loadKeyWords}), which is why variable-key lengths are compared with
 * {@code base} added. Stateless apart from the index's layout; no memory; safe to use from several
 * threads on disjoint ranges. Split out of {@code RadixJob} (which holds the levels).
 */
final class KeyDigits {
  private final RecordIndex index;
  private final int indexBytes;
  private final long tieMask;

  KeyDigits(RecordIndex index) {
    this.index = index;
    this.indexBytes = index.indexedKeyBytes();
    this.tieMask = index.tieMask();
  }

  /**
   * The first key byte at or after {@code b} where the entries of {@code [from, to)} may differ,
   * found from the index words in one branch-free pass (OR of XORs, as Lucene's MSB radix sorter
   * does), so shared prefixes and skewed keys skip whole bytes without a histogram.
   */
  int commonPrefix(long[] k, long[] r, int from, int to, int b) {
    if (b < 8) {
      long first = k[from];
      long diff = 0;
      for (int i = from + 1; i < to; i++) {
        diff |= k[i] ^ first;
      }
      if (diff != 0) {
        return Math.max(b, Long.numberOfLeadingZeros(diff) >>> 3);
      }
      b = 8;
    }
    if (b < indexBytes) {
      long first = r[from];
      long diff = 0;
      for (int i = from + 1; i < to; i++) {
        diff |= r[i] ^ first;
      }
      diff &= tieMask;
      return diff != 0 ? Math.max(b, 8 + (Long.numberOfLeadingZeros(diff) >>> 3)) : indexBytes;
    }
    return b;
  }

  /** The 12 key bits from byte {@code b} on; needs {@code b + 1 < indexBytes}. */
  static int digit12(long key, long ref, int b) {
    if (b < 7) {
      return (int) (key >>> (52 - (b << 3))) & 0xFFF;
    }
    if (b == 7) {
      return ((int) key & 0xFF) << 4 | (int) (ref >>> 60);
    }
    return (int) (ref >>> 52) & 0xFFF;
  }

  /** The 8-bit digit of word byte {@code b}; needs {@code b < indexBytes}. */
  int digit(long key, long ref, int b) {
    assert b < indexBytes : b;
    if (b < 8) {
      return (int) (key >>> ((7 - b) << 3)) & 0xFF;
    }
    return (int) (ref >>> (56 - ((b - 8) << 3))) & 0xFF;
  }

  void count(long[] k, long[] r, int from, int to, int b, int[] h) {
    assert b < indexBytes : b;
    if (b < 8) {
      int sh = (7 - b) << 3;
      for (int i = from; i < to; i++) {
        h[(int) (k[i] >>> sh) & 0xFF]++;
      }
    } else {
      int sh = 56 - ((b - 8) << 3);
      for (int i = from; i < to; i++) {
        h[(int) (r[i] >>> sh) & 0xFF]++;
      }
    }
  }

  /** Stable scatter of {@code [from, to)} by byte {@code b}; {@code pos[d]} = next slot of d. */
  void scatter(long[] sk, long[] sr, long[] dk, long[] dr, int from, int to, int b, int[] pos) {
    assert b < indexBytes : b;
    if (b < 8) {
      int sh = (7 - b) << 3;
      for (int i = from; i < to; i++) {
        long key = sk[i];
        int p = pos[(int) (key >>> sh) & 0xFF]++;
        dk[p] = key;
        dr[p] = sr[i];
      }
    } else {
      int sh = 56 - ((b - 8) << 3);
      for (int i = from; i < to; i++) {
        long ref = sr[i];
        int p = pos[(int) (ref >>> sh) & 0xFF]++;
        dk[p] = sk[i];
        dr[p] = ref;
      }
    }
  }

  /** The shortest key length among entries {@code [from, to)} (variable-length keys). */
  int minKeyLength(long[] r, int from, int to) {
    int m = Integer.MAX_VALUE;
    for (int i = from; i < to; i++) {
      m = Math.min(m, index.keyLength(r[i]));
    }
    return m;
  }

  /**
   * The digit of word byte {@code b} (key byte {@code base + b}) plus one, or 0 when the key has no
   * such byte: the buckets of a variable-length key's byte, the keys that end there first.
   */
  int digitOrEnd(long key, long ref, int b, int base) {
    return base + b < index.keyLength(ref) ? digit(key, ref, b) + 1 : 0;
  }

  /** {@link #digit12} plus one, or 0 when the key has no byte {@code base + b}. */
  int digit12OrEnd(long key, long ref, int b, int base) {
    return base + b < index.keyLength(ref) ? digit12(key, ref, b) + 1 : 0;
  }

  /** {@link #count} with the end bucket: {@code h[0]} ended keys, {@code h[1 + d]} digit d. */
  void countOrEnd(long[] k, long[] r, int from, int to, int b, int base, int[] h) {
    for (int i = from; i < to; i++) {
      h[digitOrEnd(k[i], r[i], b, base)]++;
    }
  }

  /** {@link #scatter} with the end bucket first; {@code pos[d]} = next slot of bucket d. */
  void scatterOrEnd(
      long[] sk, long[] sr, long[] dk, long[] dr, int from, int to, int b, int base, int[] pos) {
    for (int i = from; i < to; i++) {
      long key = sk[i];
      long ref = sr[i];
      int p = pos[digitOrEnd(key, ref, b, base)]++;
      dk[p] = key;
      dr[p] = ref;
    }
  }
}

package dev.joule.core.radix;

import dev.joule.core.index.RecordIndex;
import java.util.Arrays;

/**
 * One sort call of {@link RadixRunSorter}: the MSD levels, histogram, scatter and insertion sort
 * over one index, on the key digits of {@link KeyDigits}, and the reloading of a bucket's words
 * once its entries agree on all the key bytes the words hold. Holds no per-bucket state; tasks call
 * in with their borrowed scratch.
 *
 * <p>Byte positions: {@code b} is a byte of the words and {@code base} the key byte the words start
 * at (0 until a reload), so {@code b} is key byte {@code base + b}; {@code b} never goes past the
 * words ({@code indexBytes}): the words are reloaded instead.
 */
final class RadixJob {
  /** Bits of a wide digit: key byte b plus the high nibble of byte b + 1. */
  static final int WIDE_BITS = 12;

  /**
   * Buckets in [WIDE_MIN, WIDE_MAX] use one 12-bit digit instead of an 8-bit one followed by
   * insertion sorts of ~n/256 entries: the 4096-bucket pass leaves ~1 entry per bucket. Above
   * WIDE_MAX the scatter's 4096 destinations thrash the cache. WIDE_MIN 512 against the earlier
   * 2048 (SortAbHarness, sort-bench/results/radix.md): real gensort -s 1e6 ~10 % faster (its byte-0
   * buckets of ~1,400 background keys no longer take an 8-bit pass that leaves insertion sorts of
   * ~6), uniform 2e5 (buckets of ~780) 3.05 to 2.31 ms, uniform 5e4..1e6 and -s 5e4..2e5 within
   * noise; 256 was no better than 512 on -s 1e6.
   */
  static final int WIDE_MIN = 512;

  static final int WIDE_MAX = 1 << 15;

  /**
   * A bucket whose next byte takes at most this many values gets one combined pass (see {@code
   * combined}); with gensort -s data, byte-0 buckets holding 2..4 skewed prefixes.
   */
  static final int COMBINED_MAX_DISTINCT = 4;

  private static final int WIDE_DONE = 0;
  private static final int WIDE_SAME_BYTE = 1;
  private static final int WIDE_USE_BYTE = 2;

  /** Buckets of a byte digit plus one, in front, for the keys that end at that byte. */
  static final int BUCKETS_WITH_END = 257;

  final RadixRunSorter sorter;
  final RecordIndex index;
  final long[] keys;
  final long[] refs;
  final long[] altKeys;
  final long[] altRefs;
  private final int keyLength;
  private final int indexBytes;
  private final long tieMask;
  private final int threshold;
  private final SmallRangeSorter small;
  private final StableMergeSort fullOrder;
  private final StableMergeSort tieOrder;
  final boolean variable;
  final KeyDigits digits;

  RadixJob(RadixRunSorter sorter, RecordIndex index, int threshold) {
    this.sorter = sorter;
    this.index = index;
    this.keys = index.keys();
    this.refs = index.refs();
    this.altKeys = index.altKeys();
    this.altRefs = index.altRefs();
    this.keyLength = index.keyLength();
    this.indexBytes = index.indexedKeyBytes();
    this.tieMask = index.tieMask();
    this.threshold = threshold;
    this.small = new SmallRangeSorter(index);
    this.fullOrder = new StableMergeSort(index, StableMergeSort.Order.FULL);
    this.tieOrder = new StableMergeSort(index, StableMergeSort.Order.TIES);
    this.variable = index.variableKeys();
    this.digits = new KeyDigits(index);
  }

  int keyLength() {
    return keyLength;
  }

  int indexBytes() {
    return indexBytes;
  }

  void sortSequential(RadixScratch s, int from, int to) {
    process(s, null, keys, refs, altKeys, altRefs, from, to, 0, 0, 0);
  }

  /**
   * Sorts {@code [from, to)}, whose entries sit in bank (sk, sr) with words that start at key byte
   * {@code base}, and agree on key bytes before {@code base + b}; leaves the result in the primary
   * bank. Forks buckets into {@code owner}'s pending list when {@code owner} is not null (the top
   * level of a task), else works inline.
   */
  void process(
      RadixScratch s,
      RadixTasks.Task owner,
      long[] sk,
      long[] sr,
      long[] dk,
      long[] dr,
      int from,
      int to,
      int b,
      int base,
      int level) {
    int n = to - from;
    if (level >= RadixRunSorter.MAX_LEVELS) {
      // Long keys that split off one entry per level: merge sort, not an O(n²) insertion sort.
      fullOrder.sort(sk, sr, dk, dr, from, to, base + indexBytes);
      copyBack(sk, sr, from, to);
      return;
    }
    if (n <= threshold) {
      finishSmall(sk, sr, from, to, b, base);
      return;
    }
    if (variable) {
      processVariable(s, owner, sk, sr, dk, dr, from, to, b, base, level);
      return;
    }
    b = digits.commonPrefix(sk, sr, from, to, b);
    int[] h = s.hist[level];
    boolean mayWide = n >= WIDE_MIN && n <= WIDE_MAX && s.wideLevel < 0;
    while (true) {
      if (b >= keyLength - base) {
        finishEqual(sk, sr, from, to); // all keys equal
        return;
      }
      if (b >= indexBytes) {
        reload(s, owner, sk, sr, dk, dr, from, to, base, level);
        return;
      }
      if (mayWide && b + 1 < indexBytes) {
        int outcome = wide(s, sk, sr, dk, dr, from, to, b, base, level);
        if (outcome == WIDE_DONE) {
          return;
        }
        if (outcome == WIDE_USE_BYTE) {
          break; // h holds byte b's histogram
        }
        b++; // byte b is the same in all entries
        continue;
      }
      Arrays.fill(h, 0);
      digits.count(sk, sr, from, to, b, h);
      if (h[digits.digit(sk[from], sr[from], b)] != n) {
        break;
      }
      b++; // one non-empty bucket: skip the byte without moving data
    }
    int sum = from;
    int max = 0;
    for (int d = 0; d < 256; d++) {
      int c = h[d];
      h[d] = sum;
      sum += c;
      max = Math.max(max, c);
    }
    digits.scatter(sk, sr, dk, dr, from, to, b, h); // h[d] is now the end of bucket d
    if (max <= threshold) {
      finishSmall(dk, dr, from, to, b, base); // buckets in order, all small: one linear pass
    } else {
      children(s, owner, dk, dr, sk, sr, from, h, 0, b, base, level);
    }
  }

  /**
   * Sorts {@code [from, to)} of bank (sk, sr), whose entries agree on all the key bytes their words
   * hold ({@code base} to {@code base + indexBytes}) and go on past them: the words are reloaded
   * from the arena with the next bytes (one random read per entry, where byte levels and insertion
   * sorts would read the arena once per byte and per comparison), the range sorted on them, and the
   * words of the key's first bytes put back, which the entries share (everything after the sort
   * reads them). With an owner this is a task of its own: the words can only be put back once the
   * tasks it forks are done.
   */
  private void reload(
      RadixScratch s,
      RadixTasks.Task owner,
      long[] sk,
      long[] sr,
      long[] dk,
      long[] dr,
      int from,
      int to,
      int base,
      int level) {
    if (owner != null) {
      owner.spawn(new RadixTasks.Reload(this, sk, sr, dk, dr, from, to, base));
      return;
    }
    long key0 = sk[from];
    long tie0 = sr[from] & tieMask;
    int at = loadWords(sk, sr, from, to, base + indexBytes);
    process(s, null, sk, sr, dk, dr, from, to, 0, at, level);
    if (base == 0) {
      restoreWords(from, to, key0, tie0);
    }
  }

  /**
   * Loads the words of {@code [from, to)} of bank (k, r) from key byte {@code at} on, where the
   * entries agree on the bytes before; returns the key byte the words start at. If the entries
   * agree on all the bytes loaded too, they are loaded again from the first byte where a key
   * differs or ends, found in one pass over the arena: a long shared prefix costs two reads per
   * entry rather than one per ten bytes.
   */
  int loadWords(long[] k, long[] r, int from, int to, int at) {
    index.loadKeyWords(k, r, from, to, at);
    int shortest = variable ? digits.minKeyLength(r, from, to) : keyLength;
    if (shortest - at <= indexBytes || digits.commonPrefix(k, r, from, to, 0) < indexBytes) {
      return at;
    }
    int shared = index.sharedKeyPrefix(r, from, to, at + indexBytes);
    index.loadKeyWords(k, r, from, to, shared);
    return shared;
  }

  /**
   * Puts back the words of the key's first bytes into the primary bank's {@code [from, to)}, whose
   * entries all had {@code key0} and tie bits {@code tie0} before their words were reloaded.
   */
  void restoreWords(int from, int to, long key0, long tie0) {
    for (int i = from; i < to; i++) {
      keys[i] = key0;
      refs[i] = (refs[i] & ~tieMask) | tie0;
    }
  }

  /**
   * One 12-bit level (byte b and the high nibble of byte b + 1); children continue at byte b + 1
   * and may not go wide themselves (one wide histogram per scratch). If no bucket exceeds the
   * insertion threshold, a single insertion pass over the whole range finishes it (each entry moves
   * only within its bucket). Returns {@link #WIDE_SAME_BYTE}, having moved nothing, if all entries
   * share byte b; {@link #WIDE_USE_BYTE}, having put byte b's histogram into {@code hist[level]},
   * if byte b has too few distinct values for 12 bits to leave small buckets (the children then go
   * wide on the next byte); else {@link #WIDE_DONE}.
   */
  private int wide(
      RadixScratch s,
      long[] sk,
      long[] sr,
      long[] dk,
      long[] dr,
      int from,
      int to,
      int b,
      int base,
      int level) {
    int[] h = s.wide;
    Arrays.fill(h, 0, 1 << WIDE_BITS, 0);
    for (int i = from; i < to; i++) {
      h[KeyDigits.digit12(sk[i], sr[i], b)]++;
    }
    int[] h8 = s.hist[level];
    int distinct = 0;
    for (int v = 0, d = 0; v < 256; v++) {
      int c = 0;
      for (int e = d + 16; d < e; d++) {
        c += h[d];
      }
      h8[v] = c;
      distinct += c == 0 ? 0 : 1;
    }
    if (distinct == 1) {
      return WIDE_SAME_BYTE;
    }
    if (to - from > 8 * distinct * threshold) {
      // 12 bits would leave buckets of over threshold / 2 on average
      if (distinct <= COMBINED_MAX_DISTINCT && b + 2 < indexBytes) {
        combined(s, sk, sr, dk, dr, from, to, b, base, level, h8);
        return WIDE_DONE;
      }
      return WIDE_USE_BYTE;
    }
    int sum = from;
    int max = 0;
    for (int d = 0; d < 1 << WIDE_BITS; d++) {
      int c = h[d];
      h[d] = sum;
      sum += c;
      max = Math.max(max, c);
    }
    for (int i = from; i < to; i++) {
      long key = sk[i];
      long ref = sr[i];
      int p = h[KeyDigits.digit12(key, ref, b)]++;
      dk[p] = key;
      dr[p] = ref;
    }
    if (max <= threshold) {
      finishSmall(dk, dr, from, to, b, base); // entries differ from byte b on
      return WIDE_DONE;
    }
    wideChildren(s, dk, dr, sk, sr, from, 0, 1 << WIDE_BITS, b + 1, base, level);
    return WIDE_DONE;
  }

  private void wideChildren(
      RadixScratch s,
      long[] k,
      long[] r,
      long[] ok,
      long[] or,
      int from,
      int first,
      int buckets,
      int b,
      int base,
      int level) {
    int[] ends = s.wide;
    s.wideLevel = level;
    int start = from;
    for (int d = first; d < buckets; d++) {
      int end = ends[d];
      if (end - start > 0) {
        child(s, k, r, ok, or, start, end, b, base, level + 1);
      }
      start = end;
    }
    s.wideLevel = -1;
  }

  /**
   * One pass on a 14-bit-or-less digit for a bucket whose byte b has at most {@link
   * #COMBINED_MAX_DISTINCT} values (e.g. a few skewed 2-byte prefixes): the rank of byte b among
   * its values, then byte b + 1 and the high nibble of byte b + 2. Saves the 8-bit pass on byte b
   * that would split off only a few children. {@code h8} is byte b's histogram.
   */
  private void combined(
      RadixScratch s,
      long[] sk,
      long[] sr,
      long[] dk,
      long[] dr,
      int from,
      int to,
      int b,
      int base,
      int level,
      int[] h8) {
    int[] rank = s.rank;
    int values = 0;
    for (int v = 0; v < 256; v++) {
      rank[v] = values << WIDE_BITS;
      values += h8[v] == 0 ? 0 : 1;
    }
    int buckets = values << WIDE_BITS;
    int[] h = s.wide;
    Arrays.fill(h, 0, buckets, 0);
    for (int i = from; i < to; i++) {
      long key = sk[i];
      long ref = sr[i];
      h[rank[digits.digit(key, ref, b)] | KeyDigits.digit12(key, ref, b + 1)]++;
    }
    int sum = from;
    int max = 0;
    for (int d = 0; d < buckets; d++) {
      int c = h[d];
      h[d] = sum;
      sum += c;
      max = Math.max(max, c);
    }
    for (int i = from; i < to; i++) {
      long key = sk[i];
      long ref = sr[i];
      int p = h[rank[digits.digit(key, ref, b)] | KeyDigits.digit12(key, ref, b + 1)]++;
      dk[p] = key;
      dr[p] = ref;
    }
    if (max <= threshold) {
      finishSmall(dk, dr, from, to, b, base);
    } else {
      wideChildren(s, dk, dr, sk, sr, from, 0, buckets, b + 2, base, level);
    }
  }

  /**
   * Processes the buckets of byte {@code b} whose ends are {@code ends[0..255]}, data in bank (k,
   * r). With an owner, big buckets and groups of small ones are forked; the last group is inline.
   */
  void children(
      RadixScratch s,
      RadixTasks.Task owner,
      long[] k,
      long[] r,
      long[] ok,
      long[] or,
      int from,
      int[] ends,
      int first,
      int b,
      int base,
      int level) {
    int start = from;
    if (owner == null) {
      for (int d = 0; d < 256; d++) {
        int end = ends[first + d];
        if (end - start > 0) {
          child(s, k, r, ok, or, start, end, b + 1, base, level + 1);
        }
        start = end;
      }
      return;
    }
    int group = -1;
    for (int d = 0; d < 256; d++) {
      int end = ends[first + d];
      int size = end - start;
      if (size >= RadixRunSorter.FORK_THRESHOLD) {
        if (group >= 0) {
          owner.spawn(new RadixTasks.Group(this, k, r, ok, or, group, start, b, base));
          group = -1;
        }
        owner.spawn(new RadixTasks.Bucket(this, k, r, ok, or, start, end, b + 1, base));
      } else if (size > 0) {
        if (group < 0) {
          group = start;
        }
        if (end - group >= RadixRunSorter.FORK_THRESHOLD) {
          owner.spawn(new RadixTasks.Group(this, k, r, ok, or, group, end, b, base));
          group = -1;
        }
      }
      start = end;
    }
    if (group >= 0) {
      processPartitioned(s, k, r, ok, or, group, start, b, base, level + 1);
    }
  }

  /** Sorts {@code [from, to)} of bank (k, r), already partitioned on byte {@code b}, inline. */
  void processPartitioned(
      RadixScratch s,
      long[] k,
      long[] r,
      long[] ok,
      long[] or,
      int from,
      int to,
      int b,
      int base,
      int level) {
    int[] h = s.hist[level];
    Arrays.fill(h, 0);
    digits.count(k, r, from, to, b, h);
    int sum = from;
    for (int d = 0; d < 256; d++) {
      sum += h[d];
      h[d] = sum;
    }
    children(s, null, k, r, ok, or, from, h, 0, b, base, level);
  }

  private void child(
      RadixScratch s,
      long[] k,
      long[] r,
      long[] ok,
      long[] or,
      int from,
      int to,
      int b,
      int base,
      int level) {
    if (to - from == 1) {
      if (k != keys) {
        keys[from] = k[from];
        refs[from] = r[from];
      }
    } else {
      process(s, null, k, r, ok, or, from, to, b, base, level);
    }
  }

  /**
   * Entries {@code [from, to)} of bank (k, r) whose keys are all equal: in input order, unless a
   * tie breaker orders them: through its group when it has one ({@link GroupTieOrder}), else by a
   * stable merge sort on it, the alternate bank as scratch.
   */
  void finishEqual(long[] k, long[] r, int from, int to) {
    copyBack(k, r, from, to);
    if (index.tieBreaker() != null
        && to - from > 1
        && !GroupTieOrder.sort(index, keys, refs, from, to)) {
      tieOrder.sort(keys, refs, altKeys, altRefs, from, to, 0);
    }
  }

  /**
   * {@link #process} for variable-length keys: each byte's digit has one more bucket, in front, for
   * the keys that end there (a key that ends sorts before every key that goes on, and all keys that
   * end at the same byte of one bucket are equal). Mid-sized buckets try a 12-bit digit first
   * ({@link #wideVariable}).
   */
  private void processVariable(
      RadixScratch s,
      RadixTasks.Task owner,
      long[] sk,
      long[] sr,
      long[] dk,
      long[] dr,
      int from,
      int to,
      int b,
      int base,
      int level) {
    int n = to - from;
    b =
        Math.min(
            digits.commonPrefix(sk, sr, from, to, b), digits.minKeyLength(sr, from, to) - base);
    if (n >= WIDE_MIN
        && n <= WIDE_MAX
        && s.wideLevel < 0
        && b + 1 < indexBytes
        && wideVariable(s, sk, sr, dk, dr, from, to, b, base, level)) {
      return;
    }
    int[] h = s.hist[level];
    while (true) {
      if (b >= indexBytes) {
        reload(s, owner, sk, sr, dk, dr, from, to, base, level);
        return;
      }
      Arrays.fill(h, 0);
      digits.countOrEnd(sk, sr, from, to, b, base, h);
      if (h[0] == n) {
        finishEqual(sk, sr, from, to); // every key ends here: all equal
        return;
      }
      if (h[digits.digitOrEnd(sk[from], sr[from], b, base)] != n) {
        break;
      }
      b++; // one non-empty bucket: skip the byte without moving data
    }
    int sum = from;
    int max = 0;
    for (int d = 0; d < BUCKETS_WITH_END; d++) {
      int c = h[d];
      h[d] = sum;
      sum += c;
      if (d > 0) {
        max = Math.max(max, c);
      }
    }
    digits.scatterOrEnd(sk, sr, dk, dr, from, to, b, base, h); // h[d] is now the end of bucket d
    int ended = h[0];
    if (ended > from) {
      finishEqual(dk, dr, from, ended);
    }
    if (max <= threshold) {
      finishSmall(dk, dr, ended, to, b, base); // the other buckets in order, all small: one pass
    } else {
      children(s, owner, dk, dr, sk, sr, ended, h, 1, b, base, level);
    }
  }

  /**
   * {@link #wide} for variable-length keys: one pass on the end bucket (keys that end at byte b)
   * plus the 12 bits from byte b on. A key that ends at byte b + 1 reads the next nibble as zero
   * and shares its bucket with the keys whose nibble is zero, which the child pass on byte b + 1
   * (with its own end bucket) tells apart. Returns false, having moved nothing, where 12 bits would
   * not leave small buckets (byte b takes few values; the byte pass then skips or splits it). Same
   * bounds as the fixed-key digit. On the typed keys of TypedKeyBenchmark, whose text bytes split
   * buckets of ~1,000 entries (one int64 value) by ~30 first letters, 12 bits leave insertion sorts
   * where 8 bits left a second byte pass: 13–20 % less time (sort-bench/results/radix.md).
   */
  private boolean wideVariable(
      RadixScratch s,
      long[] sk,
      long[] sr,
      long[] dk,
      long[] dr,
      int from,
      int to,
      int b,
      int base,
      int level) {
    int buckets = 1 + (1 << WIDE_BITS);
    int[] h = s.wide;
    Arrays.fill(h, 0, buckets, 0);
    for (int i = from; i < to; i++) {
      h[digits.digit12OrEnd(sk[i], sr[i], b, base)]++;
    }
    int distinct = h[0] == 0 ? 0 : 1; // values of byte b, and the end
    for (int v = 0; v < 256; v++) {
      int c = 0;
      for (int d = 1 + (v << 4), e = d + 16; d < e; d++) {
        c += h[d];
      }
      distinct += c == 0 ? 0 : 1;
    }
    if (to - from > 8 * distinct * threshold) {
      return false; // as in wide(): buckets of over threshold / 2 on average
    }
    int sum = from;
    int max = 0;
    for (int d = 0; d < buckets; d++) {
      int c = h[d];
      h[d] = sum;
      sum += c;
      if (d > 0) {
        max = Math.max(max, c);
      }
    }
    for (int i = from; i < to; i++) {
      long key = sk[i];
      long ref = sr[i];
      int p = h[digits.digit12OrEnd(key, ref, b, base)]++;
      dk[p] = key;
      dr[p] = ref;
    }
    int ended = h[0];
    if (ended > from) {
      finishEqual(dk, dr, from, ended);
    }
    if (max <= threshold) {
      finishSmall(dk, dr, ended, to, b, base);
    } else {
      wideChildren(s, dk, dr, sk, sr, ended, 1, buckets, b + 1, base, level);
    }
    return true;
  }

  private void finishSmall(long[] k, long[] r, int from, int to, int b, int base) {
    small.sort(k, r, from, to, base + Math.max(b, indexBytes));
    copyBack(k, r, from, to);
  }

  private void copyBack(long[] k, long[] r, int from, int to) {
    if (k != keys) {
      System.arraycopy(k, from, keys, from, to - from);
      System.arraycopy(r, from, refs, from, to - from);
    }
  }
}

package dev.joule.core.radix;

import dev.joule.core.record.RecordIndex;
import java.util.Arrays;

/**
 * One sort call of {@link RadixRunSorter}: the MSD levels, histogram, scatter and insertion sort
 * over one index. Holds no per-bucket state; tasks call in with their borrowed scratch.
 */
final class RadixJob {
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
  }

  int keyLength() {
    return keyLength;
  }

  void sortSequential(RadixScratch s, int from, int to) {
    process(s, null, keys, refs, altKeys, altRefs, from, to, 0, 0);
  }

  /**
   * Sorts {@code [from, to)}, whose entries sit in bank (sk, sr) and agree on key bytes before
   * {@code b}; leaves the result in the primary bank. Forks buckets into {@code owner}'s pending
   * list when {@code owner} is not null (the top level of a task), else works inline.
   */
  void process(
      RadixScratch s, RadixTasks.Task owner, long[] sk, long[] sr, long[] dk, long[] dr,
      int from, int to, int b, int level) {
    int n = to - from;
    if (n <= threshold || level >= RadixRunSorter.MAX_LEVELS) {
      finishSmall(sk, sr, from, to, b);
      return;
    }
    int[] h = s.hist[level];
    while (true) {
      if (b >= keyLength) {
        copyBack(sk, sr, from, to); // all keys equal: input order is the stable order
        return;
      }
      Arrays.fill(h, 0);
      count(sk, sr, from, to, b, h);
      if (h[digit(sk[from], sr[from], b)] != n) {
        break;
      }
      b++; // one non-empty bucket: skip the byte without moving data
    }
    int sum = from;
    for (int d = 0; d < 256; d++) {
      int c = h[d];
      h[d] = sum;
      sum += c;
    }
    scatter(sk, sr, dk, dr, from, to, b, h); // h[d] is now the end of bucket d
    children(s, owner, dk, dr, sk, sr, from, h, b, level);
  }

  /**
   * Processes the buckets of byte {@code b} whose ends are {@code ends[0..255]}, data in bank (k,
   * r). With an owner, big buckets and groups of small ones are forked; the last group is inline.
   */
  void children(
      RadixScratch s, RadixTasks.Task owner, long[] k, long[] r, long[] ok, long[] or,
      int from, int[] ends, int b, int level) {
    int start = from;
    if (owner == null) {
      for (int d = 0; d < 256; d++) {
        int end = ends[d];
        if (end - start > 0) {
          child(s, k, r, ok, or, start, end, b + 1, level + 1);
        }
        start = end;
      }
      return;
    }
    int group = -1;
    for (int d = 0; d < 256; d++) {
      int end = ends[d];
      int size = end - start;
      if (size >= RadixRunSorter.FORK_THRESHOLD) {
        if (group >= 0) {
          owner.spawn(new RadixTasks.Group(this, k, r, ok, or, group, start, b));
          group = -1;
        }
        owner.spawn(new RadixTasks.Bucket(this, k, r, ok, or, start, end, b + 1));
      } else if (size > 0) {
        if (group < 0) {
          group = start;
        }
        if (end - group >= RadixRunSorter.FORK_THRESHOLD) {
          owner.spawn(new RadixTasks.Group(this, k, r, ok, or, group, end, b));
          group = -1;
        }
      }
      start = end;
    }
    if (group >= 0) {
      processPartitioned(s, k, r, ok, or, group, start, b, level + 1);
    }
  }

  /** Sorts {@code [from, to)} of bank (k, r), already partitioned on byte {@code b}, inline. */
  void processPartitioned(
      RadixScratch s, long[] k, long[] r, long[] ok, long[] or, int from, int to, int b,
      int level) {
    int[] h = s.hist[level];
    Arrays.fill(h, 0);
    count(k, r, from, to, b, h);
    int sum = from;
    for (int d = 0; d < 256; d++) {
      sum += h[d];
      h[d] = sum;
    }
    children(s, null, k, r, ok, or, from, h, b, level);
  }

  private void child(
      RadixScratch s, long[] k, long[] r, long[] ok, long[] or, int from, int to, int b,
      int level) {
    if (to - from == 1) {
      if (k != keys) {
        keys[from] = k[from];
        refs[from] = r[from];
      }
    } else {
      process(s, null, k, r, ok, or, from, to, b, level);
    }
  }

  private void finishSmall(long[] k, long[] r, int from, int to, int b) {
    insertionSort(k, r, from, to, Math.max(b, indexBytes));
    copyBack(k, r, from, to);
  }

  private void copyBack(long[] k, long[] r, int from, int to) {
    if (k != keys) {
      System.arraycopy(k, from, keys, from, to - from);
      System.arraycopy(r, from, refs, from, to - from);
    }
  }

  int digit(long key, long ref, int b) {
    if (b < 8) {
      return (int) (key >>> ((7 - b) << 3)) & 0xFF;
    }
    if (b < indexBytes) {
      return (int) (ref >>> (56 - ((b - 8) << 3))) & 0xFF;
    }
    return index.keyByte(ref, b);
  }

  void count(long[] k, long[] r, int from, int to, int b, int[] h) {
    if (b < 8) {
      int sh = (7 - b) << 3;
      for (int i = from; i < to; i++) {
        h[(int) (k[i] >>> sh) & 0xFF]++;
      }
    } else if (b < indexBytes) {
      int sh = 56 - ((b - 8) << 3);
      for (int i = from; i < to; i++) {
        h[(int) (r[i] >>> sh) & 0xFF]++;
      }
    } else {
      for (int i = from; i < to; i++) {
        h[index.keyByte(r[i], b)]++;
      }
    }
  }

  /** Stable scatter of {@code [from, to)} by byte {@code b}; {@code pos[d]} = next slot of d. */
  void scatter(long[] sk, long[] sr, long[] dk, long[] dr, int from, int to, int b, int[] pos) {
    if (b < 8) {
      int sh = (7 - b) << 3;
      for (int i = from; i < to; i++) {
        long key = sk[i];
        int p = pos[(int) (key >>> sh) & 0xFF]++;
        dk[p] = key;
        dr[p] = sr[i];
      }
    } else if (b < indexBytes) {
      int sh = 56 - ((b - 8) << 3);
      for (int i = from; i < to; i++) {
        long ref = sr[i];
        int p = pos[(int) (ref >>> sh) & 0xFF]++;
        dk[p] = sk[i];
        dr[p] = ref;
      }
    } else {
      for (int i = from; i < to; i++) {
        long ref = sr[i];
        int p = pos[index.keyByte(ref, b)]++;
        dk[p] = sk[i];
        dr[p] = ref;
      }
    }
  }

  /** Stable insertion sort on the full key; key bytes before {@code tailFrom} are in the words. */
  private void insertionSort(long[] k, long[] r, int from, int to, int tailFrom) {
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
    return tailFrom < keyLength && index.compareKeyBytes(ra, rb, tailFrom) < 0;
  }
}

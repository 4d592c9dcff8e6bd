package dev.joule.core.radix;

import dev.joule.core.index.RecordIndex;
import java.util.Arrays;

/**
 * Baseline: the JDK's comparison sort over the same index, for benchmarks and as a second
 * implementation in the contract test.
 *
 * <p><b>Algorithm</b>: pack each entry into one {@code long} as (top {@code 64 - b} bits of the key
 * prefix, sign-flipped so signed order is unsigned order | input ordinal in the low {@code b =
 * ceil(log2 n)} bits), sort those with {@link Arrays#sort(long[], int, int)} (dual-pivot
 * quicksort), then finish every group of equal packed-key bits by a stable sort on the full key
 * (insertion sort up to {@link #SMALL_GROUP} entries, else a top-down merge sort), and permute the
 * index. <b>Stable</b>: ordinals break every tie and each group starts in ordinal order.
 *
 * <p><b>Memory</b>: the index's alternate bank, plus a merge buffer grown to the largest tie group
 * seen (kept for the sorter's lifetime; usually empty for gensort data). Single-threaded; one sort
 * at a time.
 */
final class JdkRunSorter implements RunSorter {
  /** Tie groups up to this size use insertion sort (the usual cut-over of merge sorts). */
  static final int SMALL_GROUP = 32;

  private long[] merge = new long[0];

  @Override
  public void sort(RecordIndex index, int from, int to) {
    int n = to - from;
    if (n < 2) {
      return;
    }
    long[] keys = index.keys();
    long[] refs = index.refs();
    long[] packed = index.altKeys();
    long[] spare = index.altRefs();
    int bits = 64 - Long.numberOfLeadingZeros(n - 1);
    long ordMask = (1L << bits) - 1;
    for (int i = 0; i < n; i++) {
      packed[from + i] = ((keys[from + i] >>> bits << bits) ^ Long.MIN_VALUE) | i;
      spare[from + i] = keys[from + i];
    }
    Arrays.sort(packed, from, to);
    // spare holds the original key words, refs the original ref words, both by ordinal
    int g = from;
    while (g < to) {
      long hi = packed[g] & ~ordMask;
      int e = g + 1;
      while (e < to && (packed[e] & ~ordMask) == hi) {
        e++;
      }
      if (e - g > SMALL_GROUP) {
        if (merge.length < e - g) {
          merge = new long[e - g];
        }
        mergeSort(index, packed, spare, refs, from, g, e, ordMask);
      } else if (e - g > 1) {
        insertionSort(index, packed, spare, refs, from, g, e, ordMask);
      }
      g = e;
    }
    for (int i = from; i < to; i++) {
      keys[i] = spare[from + (int) (packed[i] & ordMask)];
    }
    System.arraycopy(refs, from, spare, from, n);
    for (int i = from; i < to; i++) {
      refs[i] = spare[from + (int) (packed[i] & ordMask)];
    }
  }

  private static void insertionSort(
      RecordIndex index,
      long[] packed,
      long[] keys,
      long[] refs,
      int base,
      int lo,
      int hi,
      long ordMask) {
    for (int i = lo + 1; i < hi; i++) {
      long p = packed[i];
      int a = base + (int) (p & ordMask);
      int j = i - 1;
      while (j >= lo) {
        int b = base + (int) (packed[j] & ordMask);
        if (index.compareEntries(keys[b], refs[b], keys[a], refs[a]) <= 0) {
          break;
        }
        packed[j + 1] = packed[j];
        j--;
      }
      packed[j + 1] = p;
    }
  }

  private void mergeSort(
      RecordIndex index,
      long[] packed,
      long[] keys,
      long[] refs,
      int base,
      int lo,
      int hi,
      long ordMask) {
    if (hi - lo <= SMALL_GROUP) {
      insertionSort(index, packed, keys, refs, base, lo, hi, ordMask);
      return;
    }
    int mid = (lo + hi) >>> 1;
    mergeSort(index, packed, keys, refs, base, lo, mid, ordMask);
    mergeSort(index, packed, keys, refs, base, mid, hi, ordMask);
    int n = mid - lo;
    System.arraycopy(packed, lo, merge, 0, n);
    int i = 0;
    int j = mid;
    int o = lo;
    while (i < n && j < hi) {
      int a = base + (int) (merge[i] & ordMask);
      int b = base + (int) (packed[j] & ordMask);
      if (index.compareEntries(keys[b], refs[b], keys[a], refs[a]) < 0) {
        packed[o++] = packed[j++];
      } else {
        packed[o++] = merge[i++];
      }
    }
    while (i < n) {
      packed[o++] = merge[i++];
    }
  }

  @Override
  public void close() {}

  @Override
  public String toString() {
    return "jdk";
  }
}

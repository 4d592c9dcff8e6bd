package dev.joule.core.radix;

import dev.joule.core.index.RecordIndex;

/**
 * The radix sorter's comparison fallback: a stable merge sort of (key word, ref word) pairs, used
 * where radix passes cannot finish the job: groups of entries whose normalized keys are all equal
 * but whose order is decided by a {@link dev.joule.core.index.TieBreaker}, and ranges that are
 * still unsorted after {@link RadixRunSorter#MAX_LEVELS} scatter levels (long keys that differ in
 * one entry per level), where insertion sort would cost O(n²).
 *
 * <p>Algorithm: top-down merge sort, ping-ponging between the range's two banks, insertion sort
 * below {@value #INSERTION} entries. O(n log n) comparisons; the result is in the bank the caller
 * names. Stable: equal entries keep their order. No memory beyond the other bank's range, which the
 * caller guarantees is free; stateless, safe on disjoint ranges from several threads.
 */
final class StableMergeSort {
  /** Runs this short are sorted by insertion: fewer moves than merging below ~16 entries. */
  static final int INSERTION = 16;

  /** What is compared: the full order, or only the tie breaker (keys already known equal). */
  enum Order {
    FULL,
    TIES
  }

  private final RecordIndex index;
  private final Order order;

  StableMergeSort(RecordIndex index, Order order) {
    this.index = index;
    this.order = order;
  }

  /**
   * Sorts {@code [from, to)} of bank (k, r), using bank (bk, br) over the same range as scratch;
   * the result is in (k, r). The words end at key byte {@code tailFrom} ({@link
   * RecordIndex#compareKeysFrom}); ignored for {@link Order#TIES}.
   */
  void sort(long[] k, long[] r, long[] bk, long[] br, int from, int to, int tailFrom) {
    if (to - from < 2) {
      return;
    }
    System.arraycopy(k, from, bk, from, to - from);
    System.arraycopy(r, from, br, from, to - from);
    split(bk, br, k, r, from, to, tailFrom);
  }

  /** Sorts (sk, sr)[from, to) into (dk, dr)[from, to); both hold the same entries on entry. */
  private void split(long[] sk, long[] sr, long[] dk, long[] dr, int from, int to, int tailFrom) {
    if (to - from <= INSERTION) {
      insertion(dk, dr, from, to, tailFrom);
      return;
    }
    int mid = (from + to) >>> 1;
    split(dk, dr, sk, sr, from, mid, tailFrom);
    split(dk, dr, sk, sr, mid, to, tailFrom);
    int i = from;
    int j = mid;
    for (int o = from; o < to; o++) {
      if (j >= to || (i < mid && compare(sk[i], sr[i], sk[j], sr[j], tailFrom) <= 0)) {
        dk[o] = sk[i];
        dr[o] = sr[i++];
      } else {
        dk[o] = sk[j];
        dr[o] = sr[j++];
      }
    }
  }

  private void insertion(long[] k, long[] r, int from, int to, int tailFrom) {
    if (order == Order.TIES) {
      SmallRangeSorter.byTies(index, k, r, from, to); // each compare may be a C library call
      return;
    }
    for (int i = from + 1; i < to; i++) {
      long key = k[i];
      long ref = r[i];
      int j = i - 1;
      while (j >= from && compare(key, ref, k[j], r[j], tailFrom) < 0) {
        k[j + 1] = k[j];
        r[j + 1] = r[j];
        j--;
      }
      k[j + 1] = key;
      r[j + 1] = ref;
    }
  }

  private int compare(long ka, long ra, long kb, long rb, int tailFrom) {
    if (order == Order.TIES) {
      return index.compareTie(ra, rb);
    }
    int c = index.compareKeysFrom(ka, ra, kb, rb, tailFrom);
    return c != 0 ? c : index.compareTie(ra, rb);
  }
}

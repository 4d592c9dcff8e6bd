package dev.joule.core.radix;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.index.TieGroup;
import java.util.Arrays;

/**
 * Orders entries whose keys are equal through their tie breaker's {@link TieGroup}: each record is
 * copied into the group once, then a stable merge sort of the group's numbers (binary insertion
 * below {@value #INSERTION}, about log2(g!) comparisons) compares the copies, and the entries are
 * moved once into that order.
 *
 * <p>Stateless; safe from several threads on disjoint ranges (each thread has its own group).
 */
final class GroupTieOrder {
  /**
   * The fewest entries worth a group: ordering g records in place locates and copies two records
   * per comparison, a group each record once; at g = 3 that is 3 against 4 to 6.
   */
  static final int MIN_GROUP = 3;

  /** Runs this short are sorted by binary insertion. */
  static final int INSERTION = 16;

  private GroupTieOrder() {}

  /**
   * Sorts {@code [from, to)} of bank (k, r), whose keys are equal, by {@code index}'s tie breaker
   * (which must exist); false, with nothing moved, when it has no groups or the group cannot hold
   * these records.
   */
  static boolean sort(RecordIndex index, long[] k, long[] r, int from, int to) {
    int n = to - from;
    if (n < MIN_GROUP) {
      return false;
    }
    TieGroup group = index.tieBreaker().group();
    if (group == null) {
      return false;
    }
    for (int i = from; i < to; i++) {
      if (!index.addToGroup(group, r[i])) {
        return false;
      }
    }
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    split(group, order.clone(), order, 0, n);
    long[] keys = Arrays.copyOfRange(k, from, to);
    long[] refs = Arrays.copyOfRange(r, from, to);
    for (int i = 0; i < n; i++) {
      k[from + i] = keys[order[i]];
      r[from + i] = refs[order[i]];
    }
    return true;
  }

  /** Sorts {@code dst[from, to)}; {@code src} holds the same numbers there on entry. */
  private static void split(TieGroup g, int[] src, int[] dst, int from, int to) {
    if (to - from <= INSERTION) {
      insertion(g, dst, from, to);
      return;
    }
    int mid = (from + to) >>> 1;
    split(g, dst, src, from, mid);
    split(g, dst, src, mid, to);
    if (g.compare(src[mid - 1], src[mid]) <= 0) {
      System.arraycopy(src, from, dst, from, to - from); // already in order: one call
      return;
    }
    int i = from;
    int j = mid;
    for (int o = from; o < to; o++) {
      if (j >= to || (i < mid && g.compare(src[i], src[j]) <= 0)) {
        dst[o] = src[i++];
      } else {
        dst[o] = src[j++];
      }
    }
  }

  /** Stable binary insertion: an entry not below its predecessor stays after one call. */
  private static void insertion(TieGroup g, int[] a, int from, int to) {
    for (int i = from + 1; i < to; i++) {
      int x = a[i];
      if (g.compare(x, a[i - 1]) >= 0) {
        continue;
      }
      int lo = from;
      int hi = i - 1;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (g.compare(x, a[mid]) < 0) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      System.arraycopy(a, lo, a, lo + 1, i - lo);
      a[lo] = x;
    }
  }
}

package dev.joule.core.merge;

/**
 * Exact splitters for a parallel merge: per-run cut indices that divide k sorted runs into p parts
 * of equal total size (±1) such that every record of part j precedes every record of part j+1 in
 * the stable merge order of {@link MergeOrder} (key, run index, position). Merging each part on its
 * own (cursors built over {@code [cuts[j][i], cuts[j+1][i])}) and concatenating the outputs gives
 * exactly the bytes of one merge.
 *
 * <p><b>Algorithm.</b> A cut at global rank r (the first r records of the merge) is found by
 * multi-sequence selection. First the key K of the record of rank r: keep a window {@code [lo_i,
 * hi_i)} per run that holds every candidate; take the middle record of the widest window as pivot,
 * count by binary search in each window the records with key &lt; pivot and &le; pivot; if r falls
 * below the first count, every window shrinks to the part below the pivot, if at or above the
 * second, to the part above it, otherwise K is the pivot. The widest window at least halves each
 * round, so there are at most {@code k log2 n} rounds of {@code k} binary searches: O(k² log² n)
 * key comparisons. Then the cut of run i is the number of its records with key &lt; K, plus the
 * records with key = K taken from runs in run order until r records are reached — which is where
 * the stable order puts the boundary among equal keys. Heavy duplicates cost nothing extra.
 *
 * <p><b>Memory.</b> O(k) longs and one key buffer per call. Stateless and thread-safe; the views
 * are used only by the calling thread.
 */
public final class MergeSplitter {
  private MergeSplitter() {}

  /**
   * Cut vectors for {@code parts} parts of equal size (±1): row j (0 &le; j &le; parts) holds, per
   * run, the index of the first record of part j; row 0 is all zeros and row {@code parts} holds
   * the run sizes. Part j of run i is {@code [cuts[j][i], cuts[j + 1][i])}. Part j starts at global
   * rank {@code floor(j * total / parts)}.
   *
   * @param runs the sorted runs in run (input) order, all of one entry layout and order
   * @param parts number of parts, at least 1 (parts beyond the record count come out empty)
   */
  public static long[][] split(SortedRunView[] runs, int parts) {
    if (parts < 1) {
      throw new IllegalArgumentException("parts " + parts + " must be at least 1");
    }
    long total = totalSize(runs);
    long[][] cuts = new long[parts + 1][];
    for (int j = 0; j <= parts; j++) {
      // floor(j * total / parts) without overflowing: j * (q * parts + r) / parts.
      long rank = (total / parts) * j + (total % parts) * j / parts;
      cuts[j] = cutsAtRank(runs, rank);
    }
    return cuts;
  }

  /**
   * The per-run cut indices of the first {@code rank} records of the stable merge: {@code sum(cut)
   * == rank}, and every record before a cut precedes, in merge order, every record at or after any
   * cut.
   *
   * @param runs the sorted runs in run (input) order, all of one entry layout and order
   * @param rank how many records go before the cut, {@code 0..total}
   */
  public static long[] cutsAtRank(SortedRunView[] runs, long rank) {
    long total = totalSize(runs);
    if (rank < 0 || rank > total) {
      throw new IllegalArgumentException("rank " + rank + " is outside 0.." + total);
    }
    int k = runs.length;
    long[] cut = new long[k];
    if (rank == 0) {
      return cut;
    }
    if (rank == total) {
      for (int i = 0; i < k; i++) {
        cut[i] = runs[i].size();
      }
      return cut;
    }
    SortedRunView.Probe key = keyAtRank(runs, rank);
    long below = 0;
    long[] equalEnd = new long[k];
    for (int i = 0; i < k; i++) {
      SortedRunView run = runs[i];
      cut[i] = lowerBound(run, 0, run.size(), key);
      equalEnd[i] = upperBound(run, cut[i], run.size(), key);
      below += cut[i];
    }
    // Records with key == K are ordered by run, then position: fill the remaining rank in run
    // order.
    long need = rank - below;
    for (int i = 0; i < k && need > 0; i++) {
      long take = Math.min(equalEnd[i] - cut[i], need);
      cut[i] += take;
      need -= take;
    }
    assert need == 0 : "selection found a key whose equal range does not cover rank " + rank;
    return cut;
  }

  /** The key of the record at 0-based merge rank {@code rank} ({@code 0 <= rank < total}). */
  private static SortedRunView.Probe keyAtRank(SortedRunView[] runs, long rank) {
    int k = runs.length;
    SortedRunView.Probe pivot;
    long[] lo = new long[k];
    long[] hi = new long[k];
    long[] lt = new long[k];
    long[] le = new long[k];
    for (int i = 0; i < k; i++) {
      hi[i] = runs[i].size();
    }
    // Invariant: keys below lo[i] are < K, keys at or above hi[i] are > K, and every earlier pivot
    // lies outside all windows, so counts inside the windows plus lo[i] are global counts.
    while (true) {
      int widest = 0;
      for (int i = 1; i < k; i++) {
        if (hi[i] - lo[i] > hi[widest] - lo[widest]) {
          widest = i;
        }
      }
      assert hi[widest] > lo[widest] : "all windows empty before finding the key of rank " + rank;
      pivot = runs[widest].probe(lo[widest] + (hi[widest] - lo[widest]) / 2);
      long countLt = 0;
      long countLe = 0;
      for (int i = 0; i < k; i++) {
        lt[i] = lowerBound(runs[i], lo[i], hi[i], pivot);
        le[i] = upperBound(runs[i], lt[i], hi[i], pivot);
        countLt += lt[i];
        countLe += le[i];
      }
      if (rank < countLt) {
        System.arraycopy(lt, 0, hi, 0, k);
      } else if (rank >= countLe) {
        System.arraycopy(le, 0, lo, 0, k);
      } else {
        return pivot;
      }
    }
  }

  /** First index in {@code [from, to)} whose key is &ge; {@code key}, or {@code to}. */
  private static long lowerBound(SortedRunView run, long from, long to, SortedRunView.Probe key) {
    while (from < to) {
      long mid = (from + to) >>> 1;
      if (run.compare(mid, key) < 0) {
        from = mid + 1;
      } else {
        to = mid;
      }
    }
    return from;
  }

  /** First index in {@code [from, to)} whose key is &gt; {@code key}, or {@code to}. */
  private static long upperBound(SortedRunView run, long from, long to, SortedRunView.Probe key) {
    while (from < to) {
      long mid = (from + to) >>> 1;
      if (run.compare(mid, key) <= 0) {
        from = mid + 1;
      } else {
        to = mid;
      }
    }
    return from;
  }

  private static long totalSize(SortedRunView[] runs) {
    if (runs.length == 0) {
      throw new IllegalArgumentException("no runs to split");
    }
    long total = 0;
    for (SortedRunView run : runs) {
      total = Math.addExact(total, run.size());
    }
    return total;
  }
}

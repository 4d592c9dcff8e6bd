package dev.joule.core.merge;

import java.util.function.IntConsumer;

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
 * second, to the part above it, otherwise K is the pivot. The pivot is taken where the rank would
 * fall in the widest window if all windows held keys alike, which ends a split of runs of one
 * distribution in a few rounds; after such a round that left more than 3/4 of the candidates, at
 * the middle, which halves the widest window. So there are at most {@code 2 k (floor(log2 n) + 1) +
 * log_4/3 N + 1} rounds (n records in the longest run, N in all) of {@code k} binary searches: O(k²
 * log² n) key comparisons. The equal range of K in each run comes from the last round's searches.
 * Runs out of order (the splitter does not check them) end the split too, with wrong cuts, or with
 * an {@link IllegalStateException} when no record is left to have the rank. Then the cut of run i
 * is the number of its records with key &lt; K, plus the records with key = K taken from runs in
 * run order until r records are reached — which is where the stable order puts the boundary among
 * equal keys. Heavy duplicates cost nothing extra.
 *
 * <p><b>Searches at once.</b> The binary searches of one round, one per run, are independent: a
 * {@link RunSearches} may run them at once, so that a splitter over run files keeps a read of every
 * run in flight instead of waiting for each in turn. The pivots are taken on the calling thread.
 *
 * <p><b>Memory.</b> O(k) longs and one key buffer per call. Stateless and thread-safe; a view is
 * used by one thread at a time (the calling thread, or the one a {@link RunSearches} runs its
 * search on).
 */
public final class MergeSplitter {
  /**
   * Runs a round's searches: {@code search.accept(i)} once for every run {@code 0 <= i < runs}, in
   * any order and possibly at once, and returns when all have returned, or throws the first failure
   * once none is still running (a search must not outlive the views it uses). What the caller wrote
   * before must be visible to each search, and what a search wrote to the caller when this returns:
   * a happens-before edge each way, as a task submission and its future's {@code get} give.
   */
  @FunctionalInterface
  public interface RunSearches {
    void forEachRun(int runs, IntConsumer search);
  }

  /** One search after another on the calling thread. */
  public static final RunSearches IN_TURN =
      (runs, search) -> {
        for (int i = 0; i < runs; i++) {
          search.accept(i);
        }
      };

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
    return cutsAtRank(runs, rank, IN_TURN);
  }

  /**
   * {@link #cutsAtRank(SortedRunView[], long)} with each round's per-run searches run by {@code
   * searches}.
   */
  public static long[] cutsAtRank(SortedRunView[] runs, long rank, RunSearches searches) {
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
    // The selection's last round searched every run for K: its counts are K's equal ranges.
    long[] equalEnd = new long[k];
    keyAtRank(runs, rank, searches, cut, equalEnd);
    long below = 0;
    for (int i = 0; i < k; i++) {
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

  /**
   * Finds the key K of the record at 0-based merge rank {@code rank} ({@code 0 <= rank < total})
   * and leaves in {@code lt[i]} and {@code le[i]} the number of records of run i with key &lt; K
   * and &le; K.
   */
  private static void keyAtRank(
      SortedRunView[] runs, long rank, RunSearches searches, long[] lt, long[] le) {
    int k = runs.length;
    long[] lo = new long[k];
    long[] hi = new long[k];
    for (int i = 0; i < k; i++) {
      hi[i] = runs[i].size();
    }
    // Invariant: keys below lo[i] are < K, keys at or above hi[i] are > K, and every earlier pivot
    // lies outside all windows, so counts inside the windows plus lo[i] are global counts.
    boolean interpolate = true;
    long miss = 0; // the last pivot's rank less the wanted one, give or take its equal keys
    long missAmong = 1; // the candidates it was chosen among
    while (true) {
      int widest = 0;
      long below = 0;
      long candidates = 0;
      for (int i = 0; i < k; i++) {
        if (hi[i] - lo[i] > hi[widest] - lo[widest]) {
          widest = i;
        }
        below += lo[i];
        candidates += hi[i] - lo[i];
      }
      if (candidates == 0) {
        throw new IllegalStateException(
            "the runs are not in merge order: no record has rank " + rank + " of the merge");
      }
      long width = hi[widest] - lo[widest];
      long at = lo[widest] + width / 2;
      if (interpolate) {
        // Where rank would fall in the widest window if every window held keys alike (runs cut
        // from one input mostly do), moved past it by twice the last pivot's miss, to the side
        // that has not been cut yet: a round cuts the windows on its pivot's side only, so a pivot
        // just across the wanted key shrinks them to its neighbourhood, where the middle only
        // halves them. The miss of an estimate shrinks with the root of the candidates: scale it
        // by the root of their ratio now to when the miss was made (at most 1).
        double scale = Math.sqrt((double) candidates / missAmong);
        long target =
            Math.max(0, Math.min(candidates - 1, rank - below - (long) (2 * miss * scale)));
        double share = (double) target / candidates;
        at = lo[widest] + Math.min(width - 1, (long) (share * width));
      }
      SortedRunView.Probe p = runs[widest].probe(at);
      searches.forEachRun(
          k,
          i -> {
            // narrowed by what the view knows unread (a run file's block first keys): the
            // lower and the upper bound both lie in [from, to]
            long from = runs[i].searchFrom(lo[i], hi[i], p);
            long to = runs[i].searchTo(from, hi[i], p);
            lt[i] = lowerBound(runs[i], from, to, p);
            le[i] = upperBound(runs[i], lt[i], to, p);
          });
      long countLt = 0;
      long countLe = 0;
      for (int i = 0; i < k; i++) {
        countLt += lt[i];
        countLe += le[i];
      }
      // In sorted runs lt[widest] <= at < le[widest], so the widest window shrinks every round.
      // The bounds below keep that true for runs out of order too (a corrupt page, a writer's bug),
      // where the searches can miss the pivot itself: the split then ends, with cuts the final
      // merge's checks reject, instead of repeating one round forever.
      if (rank < countLt) {
        System.arraycopy(lt, 0, hi, 0, k);
        hi[widest] = Math.min(hi[widest], at);
        miss = countLt - rank; // too high: aim below next
        missAmong = candidates;
      } else if (rank >= countLe) {
        System.arraycopy(le, 0, lo, 0, k);
        lo[widest] = Math.max(lo[widest], at + 1);
        miss = countLe - 1 - rank; // too low: aim above next
        missAmong = candidates;
      } else {
        return; // p is K
      }
      // An estimate that left more than 3/4 of the candidates is followed by a round at the middle
      // of the widest window, which halves it; the others shrink the candidates geometrically. So
      // whatever the keys, at most twice the rounds of middles alone plus log_4/3 of the records.
      // (A good estimate cuts one side per round: 1/2 of them at first, nearly all in the next.)
      long left = 0;
      for (int i = 0; i < k; i++) {
        left += hi[i] - lo[i];
      }
      interpolate = !interpolate || left <= candidates / 4 * 3;
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

  /**
   * First index in {@code [from, to)} whose key is &gt; {@code key}, or {@code to}; {@code from} is
   * the lower bound of {@code key}. Galloping from it: keys equal to a pivot are mostly few, and
   * their end is then found among the pages the lower bound just read, not by a search of the whole
   * window that reads as many new ones.
   */
  private static long upperBound(SortedRunView run, long from, long to, SortedRunView.Probe key) {
    for (long step = 1; from < to; step <<= 1) {
      long probe = from + Math.min(step, to - from) - 1;
      if (run.compare(probe, key) > 0) {
        to = probe;
        break;
      }
      from = probe + 1;
    }
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

package dev.joule.io.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * The three ways {@link MergePlan} builds a merge tree over adjacent runs: an exact interval DP for
 * small inputs, for larger ones the cheaper of Hadoop's smallest-first rule restricted to adjacent
 * windows and balanced rounds, and for run counts too large for Hadoop's rule ({@link #hadoopFits})
 * balanced rounds alone. Each returns the root (the final merge) of a tree of {@link Node}s whose
 * leaves are the runs in order. Not thread-safe (nodes are mutable while planning); {@link
 * MergePlan} copies the result into immutable objects.
 */
final class MergePlanSearch {
  /**
   * Most inner-loop steps ({@code ~ F n^3 / 6}) the exact DP may take: 2^27, about 0.1 s, which is
   * nothing next to merging hundreds of runs but keeps {@code --explain} instant.
   */
  static final long DP_MAX_STEPS = 1L << 27;

  /** Most table cells ({@code (F + 1)(n + 1)^2}, 12 bytes each) the exact DP may use: 12 MiB. */
  static final long DP_MAX_CELLS = 1L << 20;

  /**
   * Most window-sum steps ({@code ~ n^2 / (F - 1)}: each of about {@code n / (F - 1)} merges scans
   * every segment) the Hadoop rule may take: 2^27, about 2 s (planning a 1 TB input in 8 MiB runs,
   * 2^17 runs at fan-in 8, about 2^31 steps, took 30 s here: ExternalSorterTest.manyRunsTinyRuns).
   * Above it only {@link #balancedRounds} is planned, which on runs of the planned, equal size
   * writes the least volume.
   */
  static final long HADOOP_MAX_STEPS = 1L << 27;

  private MergePlanSearch() {}

  /** How a plan was found; printed by {@link MergePlan#describe()}. */
  enum Rule {
    NONE("nothing to merge"),
    SINGLE("one final merge"),
    OPTIMAL("least volume over adjacent merges (interval DP)"),
    HADOOP_ADJACENT("smallest adjacent window first (Hadoop rule over adjacent runs)"),
    BALANCED_ROUNDS("balanced rounds of adjacent runs");

    final String text;

    Rule(String text) {
      this.text = text;
    }
  }

  /** A segment while planning: an original run ({@code inputs == null}) or a merge output. */
  static final class Node {
    final int fromRun;
    final int toRun;
    final long size;
    final List<Node> inputs;
    final int pass;
    int id = -1;

    Node(int run, long size) {
      this.fromRun = run;
      this.toRun = run + 1;
      this.size = size;
      this.inputs = null;
      this.pass = 0;
    }

    /** A merge of {@code inputs}, which must be adjacent and in run order. */
    Node(List<Node> inputs) {
      this.inputs = List.copyOf(inputs);
      this.fromRun = inputs.get(0).fromRun;
      this.toRun = inputs.get(inputs.size() - 1).toRun;
      long s = 0;
      int p = 0;
      for (Node in : inputs) {
        s = Math.addExact(s, in.size);
        p = Math.max(p, in.pass);
      }
      this.size = s;
      this.pass = p + 1;
    }

    boolean isRun() {
      return inputs == null;
    }
  }

  /** Whether the exact DP fits its time and memory caps for {@code n} runs and fan-in {@code F}. */
  static boolean dpFits(int n, int fanIn) {
    long f = Math.min(fanIn, n);
    long n1 = n + 1L;
    return f * n * n * n / 6 <= DP_MAX_STEPS && (f + 1) * n1 * n1 <= DP_MAX_CELLS;
  }

  /** Whether the Hadoop rule fits its time cap for {@code n} runs and fan-in {@code F}. */
  static boolean hadoopFits(int n, int fanIn) {
    return (long) n * n / (fanIn - 1) <= HADOOP_MAX_STEPS;
  }

  /** Intermediate volume of a tree: every merge's size except the root's. */
  static long intermediateVolume(Node root) {
    long v = -root.size;
    List<Node> stack = new ArrayList<>(List.of(root));
    while (!stack.isEmpty()) {
      Node x = stack.remove(stack.size() - 1);
      if (!x.isRun()) {
        v += x.size;
        stack.addAll(x.inputs);
      }
    }
    return v;
  }

  /**
   * The least-volume tree of adjacent merges with fan-in at most F. {@code c[i][j]}: least volume
   * to reduce runs {@code [i, j)} to one segment (its own write included); {@code g[m][i][j]}:
   * least volume to reduce them to exactly {@code m} segments, the first being {@code [i, t)}. O(F
   * n^3) time, O(F n^2) memory; call only when {@link #dpFits}.
   */
  static Node optimal(List<Node> runs, int fanIn) {
    int n = runs.size();
    int f = Math.min(fanIn, n);
    long[] prefix = new long[n + 1];
    for (int i = 0; i < n; i++) {
      prefix[i + 1] = prefix[i] + runs.get(i).size;
    }
    long[][] c = new long[n + 1][n + 1];
    int[][] parts = new int[n + 1][n + 1];
    long[][][] g = new long[f + 1][][];
    int[][][] split = new int[f + 1][][];
    for (int m = 2; m <= f; m++) {
      g[m] = new long[n + 1][n + 1];
      split[m] = new int[n + 1][n + 1];
    }
    for (int len = 2; len <= n; len++) {
      for (int i = 0, j = len; j <= n; i++, j++) {
        long bestAll = Long.MAX_VALUE;
        for (int m = 2; m <= Math.min(f, len); m++) {
          long best = Long.MAX_VALUE;
          int bestT = -1;
          // First segment [i, t), the other m - 1 segments cover [t, j) (at least one run each).
          for (int t = i + 1; t <= j - (m - 1); t++) {
            long rest = m == 2 ? c[t][j] : g[m - 1][t][j];
            long v = c[i][t] + rest;
            if (v < best) {
              best = v;
              bestT = t;
            }
          }
          g[m][i][j] = best;
          split[m][i][j] = bestT;
          if (best < bestAll) {
            bestAll = best;
            parts[i][j] = m;
          }
        }
        c[i][j] = prefix[j] - prefix[i] + bestAll;
      }
    }
    return rebuild(runs, parts, split, 0, n);
  }

  private static Node rebuild(List<Node> runs, int[][] parts, int[][][] split, int i, int j) {
    if (j - i == 1) {
      return runs.get(i);
    }
    List<Node> inputs = new ArrayList<>();
    int from = i;
    for (int m = parts[i][j]; m >= 2; m--) {
      int t = split[m][from][j];
      inputs.add(rebuild(runs, parts, split, from, t));
      from = t;
    }
    inputs.add(rebuild(runs, parts, split, from, j));
    return new Node(inputs);
  }

  /**
   * Hadoop's {@code Merger} rule over adjacent segments: the first merge takes {@code (n - 1) mod
   * (F - 1) + 1} inputs (F when that is 1), later ones F, each the cheapest window of adjacent
   * segments (leftmost on ties), until F remain for the final merge. Needs {@code n > F}.
   */
  static Node hadoopAdjacent(List<Node> runs, int fanIn) {
    List<Node> segments = new ArrayList<>(runs);
    int first = (segments.size() - 1) % (fanIn - 1) + 1;
    int width = first == 1 ? fanIn : first;
    while (segments.size() > fanIn) {
      mergeCheapestWindow(segments, width);
      width = fanIn;
    }
    return new Node(segments);
  }

  private static void mergeCheapestWindow(List<Node> segments, int width) {
    long sum = 0;
    for (int i = 0; i < width; i++) {
      sum += segments.get(i).size;
    }
    long best = sum;
    int bestAt = 0;
    for (int i = width; i < segments.size(); i++) {
      sum += segments.get(i).size - segments.get(i - width).size;
      if (sum < best) {
        best = sum;
        bestAt = i - width + 1;
      }
    }
    List<Node> window = segments.subList(bestAt, bestAt + width);
    Node merged = new Node(window);
    window.clear();
    segments.add(bestAt, merged);
  }

  /**
   * Rounds of adjacent merges: a first round that merges only as many runs, from the left, as it
   * takes to leave a power of F segments ({@code F^(p-1)} for {@code F^(p-1) < n <= F^p}), then
   * rounds that merge consecutive groups of F until at most F remain. On runs of one size that is
   * the least volume of any plan (only the runs of the first round are written once more), where
   * plain rounds of F would write every run in every round (32769 runs at F = 8: 5 intermediate
   * writes of everything instead of about 4). O(n).
   */
  static Node balancedRounds(List<Node> runs, int fanIn) {
    List<Node> segments = new ArrayList<>(runs);
    int n = segments.size();
    if (n > fanIn) {
      long target = 1;
      while (target * fanIn < n) {
        target *= fanIn;
      }
      long excess = n - target; // segments the first round must remove, F - 1 per full merge
      List<Node> next = new ArrayList<>();
      int at = 0;
      while (excess > 0) {
        int width = (int) Math.min(fanIn, excess + 1);
        next.add(new Node(segments.subList(at, at + width)));
        at += width;
        excess -= width - 1;
      }
      next.addAll(segments.subList(at, n));
      segments = next;
    }
    while (segments.size() > fanIn) {
      List<Node> next = new ArrayList<>();
      for (int i = 0; i < segments.size(); i += fanIn) {
        List<Node> group = segments.subList(i, Math.min(segments.size(), i + fanIn));
        next.add(group.size() == 1 ? group.get(0) : new Node(group));
      }
      segments = next;
    }
    return new Node(segments);
  }
}

package dev.joule.io.plan;

import dev.joule.io.plan.MergePlanSearch.Node;
import dev.joule.io.plan.MergePlanSearch.Rule;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * The merge passes that reduce the sorted runs of run formation to one output, with fan-in at most
 * F: pure planning, no I/O. Printed by {@code --explain} through {@link #describe()}.
 *
 * <p><b>Algorithm.</b> Every merge takes adjacent segments (see Stability). With n runs and n &le;
 * F there is one final merge of all runs (none for n &le; 1). Otherwise:
 *
 * <ul>
 *   <li>When the search is small ({@code F n^3 / 6} steps within {@code
 *       MergePlanSearch.DP_MAX_STEPS} = 2^27, e.g. 200 runs at F = 16), an interval DP finds the
 *       plan with the least intermediate volume among all plans of adjacent merges with fan-in &le;
 *       F.
 *   <li>Beyond that, the cheaper of two heuristics: Hadoop's {@code Merger} rule over adjacent
 *       windows (the first merge takes {@code (n - 1) mod (F - 1) + 1} inputs, F when that is 1,
 *       later ones F, each the cheapest window of adjacent segments, until exactly F segments
 *       remain for a full final merge), and balanced rounds of adjacent segments (a first round
 *       that merges just enough runs to leave a power of F, then rounds of F).
 *   <li>Where Hadoop's rule would take more than {@code MergePlanSearch.HADOOP_MAX_STEPS} = 2^27
 *       steps (about {@code n^2 / (F - 1)}; 2^17 runs at F = 8 took 30 s), balanced rounds alone,
 *       which on runs of one size write the least volume.
 * </ul>
 *
 * Hadoop's rule alone is optimal only without the adjacency restriction (it is Huffman's
 * algorithm): over adjacent windows it wrote up to about 10 % more than the optimum on equal runs
 * and sometimes more than balanced rounds on random sizes ({@code MergePlanTest}), hence the DP and
 * the fallback comparison.
 *
 * <p><b>Stability — why adjacent windows.</b> The sort is stable: among equal keys, records leave
 * in input order. A merge breaks ties by input index ({@code core.merge.TournamentTree}), which is
 * only correct if each of its inputs covers a contiguous range of the original runs and the ranges
 * come in order: merging runs 0 and 2 into one segment and then merging that with run 1 would have
 * to interleave equal keys of runs 0, 1 and 2 record by record, which a per-segment ordinal cannot
 * express (the segment holds both run 0's and run 2's records). Carrying the input ordinal in every
 * record would fix that at the cost of bytes per record in every temp file; restricting merges to
 * adjacent segments costs nothing per record, and when runs are of one size (run formation makes
 * them so, except the last) an adjacent plan is as cheap as an unrestricted one (exactly so when
 * all are equal: equal leaves can be laid out in any order). So every segment covers runs {@code
 * [fromRun, toRun)}, and a merge's inputs are listed in run order with touching ranges.
 *
 * <p><b>Passes.</b> A merge's pass is one more than the latest pass among its inputs (runs are pass
 * 0); the final merge is always alone in the last pass. Merges of one pass depend only on earlier
 * passes, so running the passes in order (and the merges of a pass in any order or concurrently) is
 * valid. {@link #merges()} lists them that way.
 *
 * <p><b>Memory:</b> the plan holds O(n) objects; planning takes at most {@code
 * MergePlanSearch.DP_MAX_CELLS} = 2^20 table cells (12 MiB) and about 0.1 s, or O(n² / F) for the
 * heuristics. Immutable and thread-safe.
 */
public final class MergePlan {
  private final long[] runSizes;
  private final int fanIn;
  private final Rule rule;
  private final List<Merge> merges;
  private final List<Pass> passes;

  private MergePlan(long[] runSizes, int fanIn, Rule rule, List<Merge> merges, List<Pass> passes) {
    this.runSizes = runSizes;
    this.fanIn = fanIn;
    this.rule = rule;
    this.merges = merges;
    this.passes = passes;
  }

  /**
   * Plans the merge of runs with the given sizes.
   *
   * @param runSizes size of each run in run (input) order, in bytes (record counts work the same
   *     way; the plan only adds sizes); each at least 0
   * @param fanIn most inputs per merge, at least 2 (see {@link MergePlanLimits#maxFanIn})
   */
  public static MergePlan of(long[] runSizes, int fanIn) {
    if (fanIn < 2) {
      throw new IllegalArgumentException("fan-in " + fanIn + " must be at least 2");
    }
    long[] sizes = runSizes.clone();
    List<Node> runs = new ArrayList<>(sizes.length);
    for (int i = 0; i < sizes.length; i++) {
      if (sizes[i] < 0) {
        throw new IllegalArgumentException("run " + i + " has negative size " + sizes[i]);
      }
      runs.add(new Node(i, sizes[i]));
    }
    int n = runs.size();
    if (n <= 1) {
      return build(sizes, fanIn, Rule.NONE, null);
    }
    if (n <= fanIn) {
      return build(sizes, fanIn, Rule.SINGLE, new Node(runs));
    }
    if (MergePlanSearch.dpFits(n, fanIn)) {
      return build(sizes, fanIn, Rule.OPTIMAL, MergePlanSearch.optimal(runs, fanIn));
    }
    Node rounds = MergePlanSearch.balancedRounds(runs, fanIn);
    if (!MergePlanSearch.hadoopFits(n, fanIn)) {
      return build(sizes, fanIn, Rule.BALANCED_ROUNDS, rounds);
    }
    Node hadoop = MergePlanSearch.hadoopAdjacent(runs, fanIn);
    return MergePlanSearch.intermediateVolume(rounds) < MergePlanSearch.intermediateVolume(hadoop)
        ? build(sizes, fanIn, Rule.BALANCED_ROUNDS, rounds)
        : build(sizes, fanIn, Rule.HADOOP_ADJACENT, hadoop);
  }

  private static MergePlan build(long[] sizes, int fanIn, Rule rule, Node root) {
    List<Node> planned = new ArrayList<>();
    if (root != null) {
      collectMerges(root, planned);
    }
    // Execution order: by pass, then left to right; ids follow that order. The root has the
    // highest pass (one more than any input's), so it comes last, alone in its pass.
    planned.sort(Comparator.<Node>comparingInt(m -> m.pass).thenComparingInt(m -> m.fromRun));
    int n = sizes.length;
    for (int i = 0; i < planned.size(); i++) {
      planned.get(i).id = n + i;
    }
    List<Merge> merges = new ArrayList<>(planned.size());
    List<Pass> passes = new ArrayList<>();
    List<Merge> current = new ArrayList<>();
    for (int i = 0; i < planned.size(); i++) {
      Node m = planned.get(i);
      int[] inputs = new int[m.inputs.size()];
      for (int j = 0; j < inputs.length; j++) {
        Node in = m.inputs.get(j);
        inputs[j] = in.isRun() ? in.fromRun : in.id;
      }
      Merge merge =
          new Merge(m.id, inputs, m.fromRun, m.toRun, m.size, m.pass, i == planned.size() - 1, n);
      merges.add(merge);
      current.add(merge);
      if (i == planned.size() - 1 || planned.get(i + 1).pass != m.pass) {
        passes.add(new Pass(m.pass, current));
        current = new ArrayList<>();
      }
    }
    return new MergePlan(
        sizes,
        fanIn,
        rule,
        Collections.unmodifiableList(merges),
        Collections.unmodifiableList(passes));
  }

  private static void collectMerges(Node root, List<Node> out) {
    List<Node> stack = new ArrayList<>(List.of(root));
    while (!stack.isEmpty()) {
      Node x = stack.remove(stack.size() - 1);
      if (!x.isRun()) {
        out.add(x);
        stack.addAll(x.inputs);
      }
    }
  }

  /** The fan-in the plan was made for: no merge has more inputs. */
  public int fanIn() {
    return fanIn;
  }

  /** How the plan was found. */
  Rule rule() {
    return rule;
  }

  /** Number of runs planned for. */
  public int runCount() {
    return runSizes.length;
  }

  /** Size of run {@code i}, as given. */
  public long runSize(int i) {
    return runSizes[i];
  }

  /** Every merge in a valid execution order, the final merge last. Empty for 0 or 1 runs. */
  public List<Merge> merges() {
    return merges;
  }

  /** The passes in order; the last holds only the final merge. Empty for 0 or 1 runs. */
  public List<Pass> passes() {
    return passes;
  }

  /** The final merge, or {@code null} when there is at most one run (nothing to merge). */
  public Merge finalMerge() {
    return merges.isEmpty() ? null : merges.get(merges.size() - 1);
  }

  /** Volume written to temp space by intermediate merges (and read back by later ones). */
  public long intermediateVolume() {
    long v = 0;
    for (Merge m : merges) {
      if (!m.isFinal()) {
        v += m.size();
      }
    }
    return v;
  }

  /** The runs' total size, as given. */
  public long runVolume() {
    long v = 0;
    for (long s : runSizes) {
      v += s;
    }
    return v;
  }

  /** Total volume read by all merges (the runs once, plus every intermediate output once). */
  public long volumeRead() {
    long v = 0;
    for (Pass p : passes) {
      v += p.volumeRead();
    }
    return v;
  }

  /** A multi-line, human-readable account of the plan, as {@code --explain} prints it. */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    long total = runVolume();
    sb.append("merge plan: ")
        .append(runSizes.length)
        .append(" runs, ")
        .append(total)
        .append(" bytes, fan-in ")
        .append(fanIn)
        .append(", ")
        .append(rule.text)
        .append('\n');
    if (merges.isEmpty()) {
      sb.append("  no merge: ")
          .append(runSizes.length == 0 ? "no runs" : "the single run is the output")
          .append('\n');
      return sb.toString();
    }
    for (Pass p : passes) {
      sb.append("  pass ")
          .append(p.number())
          .append(p.isFinal() ? " (final)" : "")
          .append(": ")
          .append(p.merges().size())
          .append(p.merges().size() == 1 ? " merge" : " merges")
          .append(", read ")
          .append(p.volumeRead())
          .append(" bytes, write ")
          .append(p.volumeWritten())
          .append(" bytes")
          .append('\n');
      for (Merge m : p.merges()) {
        sb.append("    ").append(m).append('\n');
      }
    }
    sb.append("  total: read ")
        .append(volumeRead())
        .append(" bytes, intermediate write ")
        .append(intermediateVolume())
        .append(" bytes (")
        .append(
            String.format(
                java.util.Locale.ROOT, "%.2f", total == 0 ? 0.0 : (double) volumeRead() / total))
        .append("x the run volume)")
        .append('\n');
    return sb.toString();
  }

  @Override
  public String toString() {
    return describe();
  }

  /**
   * One merge: its inputs (segment ids: run {@code i} is {@code i}, the output of merge {@code j}
   * is {@code runCount() + j}) in run order, covering original runs {@code [fromRun, toRun)}.
   * Immutable.
   */
  public static final class Merge {
    private final int id;
    private final int[] inputs;
    private final int fromRun;
    private final int toRun;
    private final long size;
    private final int pass;
    private final boolean isFinal;
    private final int runCount;

    Merge(
        int id,
        int[] inputs,
        int fromRun,
        int toRun,
        long size,
        int pass,
        boolean isFinal,
        int runCount) {
      this.runCount = runCount;
      this.id = id;
      this.inputs = inputs;
      this.fromRun = fromRun;
      this.toRun = toRun;
      this.size = size;
      this.pass = pass;
      this.isFinal = isFinal;
    }

    /** This merge's output segment id ({@code runCount() + index in merges()}). */
    public int id() {
      return id;
    }

    /** Input segment ids in run order (a copy). */
    public int[] inputs() {
      return inputs.clone();
    }

    /** Number of inputs. */
    public int fanIn() {
      return inputs.length;
    }

    /** First original run covered. */
    public int fromRun() {
      return fromRun;
    }

    /** One past the last original run covered. */
    public int toRun() {
      return toRun;
    }

    /** Volume read, equal to the volume written. */
    public long size() {
      return size;
    }

    /** The pass this merge belongs to (1-based). */
    public int pass() {
      return pass;
    }

    /** Whether this merge writes the sort's output. */
    public boolean isFinal() {
      return isFinal;
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder(isFinal ? "final" : "m" + id).append(" <- ");
      // Long input lists (a final merge at fan-in 500) are shortened; the run range says it all.
      int shown = Math.min(inputs.length, 12);
      for (int i = 0; i < shown; i++) {
        sb.append(i == 0 ? "" : " ").append(label(inputs[i]));
      }
      if (shown < inputs.length) {
        sb.append(" ... ").append(label(inputs[inputs.length - 1]));
      }
      return sb.append(" (")
          .append(inputs.length)
          .append(" inputs, runs ")
          .append(fromRun)
          .append("..")
          .append(toRun - 1)
          .append(", ")
          .append(size)
          .append(" bytes)")
          .toString();
    }

    private String label(int segment) {
      return segment < runCount ? "r" + segment : "m" + segment;
    }
  }

  /** The merges of one pass. Immutable. */
  public static final class Pass {
    private final int number;
    private final List<Merge> merges;

    Pass(int number, List<Merge> merges) {
      this.number = number;
      this.merges = Collections.unmodifiableList(merges);
    }

    /** 1-based pass number. */
    public int number() {
      return number;
    }

    /** The merges of this pass, left to right. */
    public List<Merge> merges() {
      return merges;
    }

    /** Whether this is the final pass (only the final merge). */
    public boolean isFinal() {
      return merges.size() == 1 && merges.get(0).isFinal();
    }

    /** Volume read by this pass. */
    public long volumeRead() {
      long v = 0;
      for (Merge m : merges) {
        v += m.size();
      }
      return v;
    }

    /** Volume written by this pass (equal to the volume read). */
    public long volumeWritten() {
      return volumeRead();
    }

    @Override
    public String toString() {
      return "pass " + number + " " + merges;
    }
  }
}

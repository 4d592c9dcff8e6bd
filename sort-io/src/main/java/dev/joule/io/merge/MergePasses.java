package dev.joule.io.merge;

import dev.joule.io.plan.MergePlan;
import dev.joule.io.report.PhaseClock;
import dev.joule.io.report.PhaseReport;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.stripe.TempSpace;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs the passes of a {@link MergePlan} that come before its final merge, for the file sort and
 * the session alike: each intermediate merge writes a new run, and its inputs are deleted as soon
 * as it ends, so temp space peaks at one pass's input and output. The merges of one pass read only
 * runs or earlier passes' outputs, so several of them run at once ({@link
 * IntermediateMerges#mergeToRuns}, as many as {@link IntermediateMerges#width} allows); each
 * merge's output is the same whichever thread runs it and whenever, so the sort's output does not
 * depend on the thread count. Returns the final merge's inputs, which the caller merges into its
 * output or its cursor.
 *
 * <p>Stateless; called on the caller's thread.
 */
public final class MergePasses {
  private MergePasses() {}

  /**
   * Runs every pass of {@code plan} before the final one over {@code runs} (run formation's output,
   * in run order) and returns the final merge's inputs in run order. {@code reports} receives one
   * {@link PhaseReport} per pass, named {@code "merge pass N (W at a time)"}, W being how many of
   * its merges ran at once.
   */
  static List<RunDescriptor> beforeFinal(
      MergePlan plan,
      List<RunDescriptor> runs,
      IntermediateMerges merges,
      MergeProgress progress,
      TempSpace temp,
      Consumer<PhaseReport> reports)
      throws IOException {
    // Written by the merge threads, each at its own merges' ids; read after they have all ended.
    RunDescriptor[] segments = new RunDescriptor[runs.size() + plan.merges().size()];
    for (int i = 0; i < runs.size(); i++) {
      segments[i] = runs.get(i);
    }
    for (MergePlan.Pass pass : plan.passes()) {
      if (pass.isFinal()) {
        break;
      }
      List<MergePlan.Merge> passMerges = pass.merges();
      List<List<RunDescriptor>> inputs = new ArrayList<>();
      long read = 0;
      int runsIn = 0;
      int fanIn = 0;
      for (MergePlan.Merge m : passMerges) {
        List<RunDescriptor> in = inputs(m, segments);
        inputs.add(in);
        read += fileBytes(in);
        runsIn += in.size();
        fanIn = Math.max(fanIn, in.size());
      }
      int width = merges.width(fanIn, passMerges.size());
      String name = "merge pass " + pass.number() + " (" + width + " at a time)";
      progress.startPass(name, pass.volumeRead());
      PhaseClock clock = new PhaseClock();
      merges.mergeToRuns(
          inputs,
          temp,
          width,
          (i, run) -> {
            MergePlan.Merge m = passMerges.get(i);
            segments[m.id()] = run;
            for (int id : m.inputs()) {
              temp.delete(segments[id].parts()); // consumed: free its space now
              segments[id] = null;
            }
          });
      long written = 0;
      for (MergePlan.Merge m : passMerges) {
        written += segments[m.id()].fileSize();
      }
      reports.accept(clock.phase(name, read, written, runsIn, passMerges.size(), fanIn));
    }
    return plan.finalMerge() == null
        ? Arrays.asList(segments)
        : inputs(plan.finalMerge(), segments);
  }

  /** The segments a merge reads, in run order. */
  private static List<RunDescriptor> inputs(MergePlan.Merge m, RunDescriptor[] segments) {
    List<RunDescriptor> in = new ArrayList<>();
    for (int id : m.inputs()) {
      in.add(segments[id]);
    }
    return in;
  }

  /** Bytes of run files on disk. */
  public static long fileBytes(List<RunDescriptor> runs) {
    long bytes = 0;
    for (RunDescriptor d : runs) {
      bytes += d.fileSize();
    }
    return bytes;
  }
}

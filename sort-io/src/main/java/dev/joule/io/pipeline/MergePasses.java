package dev.joule.io.pipeline;

import dev.joule.io.fs.Failures;
import dev.joule.io.plan.MergePlan;
import dev.joule.io.report.PhaseClock;
import dev.joule.io.report.PhaseReport;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.stripe.TempSpace;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs the passes of a {@link MergePlan} that come before its final merge, for the file sort and
 * the session alike: each intermediate merge writes a new run ({@link MergePhase#mergeToRun}), and
 * its inputs are deleted as soon as it ends, so temp space peaks at one pass's output. Returns the
 * final merge's inputs, which the caller merges into its output or its cursor.
 *
 * <p>Stateless; runs on the caller's thread.
 */
final class MergePasses {
  private MergePasses() {}

  /**
   * Runs every pass of {@code plan} before the final one over {@code runs} (run formation's output,
   * in run order) and returns the final merge's inputs in run order. {@code reports} receives one
   * {@link PhaseReport} per pass.
   */
  static List<RunDescriptor> beforeFinal(
      MergePlan plan,
      List<RunDescriptor> runs,
      MergePhase merge,
      TempSpace temp,
      Consumer<PhaseReport> reports)
      throws IOException {
    List<RunDescriptor> segments = new ArrayList<>(runs);
    for (int i = 0; i < plan.merges().size(); i++) {
      segments.add(null);
    }
    for (MergePlan.Pass pass : plan.passes()) {
      if (pass.isFinal()) {
        break;
      }
      String name = "merge pass " + pass.number();
      merge.startPass(name, pass.volumeRead());
      PhaseClock clock = new PhaseClock();
      long read = 0;
      long written = 0;
      int inputs = 0;
      int width = 0;
      for (MergePlan.Merge m : pass.merges()) {
        List<RunDescriptor> in = inputs(m, segments);
        read += fileBytes(in);
        RunDescriptor d = merge.mergeToRun(in, temp);
        written += d.fileSize();
        inputs += in.size();
        width = Math.max(width, in.size());
        segments.set(m.id(), d);
        for (int id : m.inputs()) {
          temp.delete(segments.get(id).parts()); // consumed: free its space now
          segments.set(id, null);
        }
        Failures.checkCancelled();
      }
      reports.accept(clock.phase(name, read, written, inputs, pass.merges().size(), width));
    }
    return plan.finalMerge() == null ? segments : inputs(plan.finalMerge(), segments);
  }

  /** The segments a merge reads, in run order. */
  private static List<RunDescriptor> inputs(MergePlan.Merge m, List<RunDescriptor> segments) {
    List<RunDescriptor> in = new ArrayList<>();
    for (int id : m.inputs()) {
      in.add(segments.get(id));
    }
    return in;
  }

  /** Bytes of run files on disk. */
  static long fileBytes(List<RunDescriptor> runs) {
    long bytes = 0;
    for (RunDescriptor d : runs) {
      bytes += d.fileSize();
    }
    return bytes;
  }
}

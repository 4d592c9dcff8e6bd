package dev.joule.io.pipeline;

import dev.joule.core.memory.RecordArena;
import dev.joule.core.radix.RadixRunSorter;
import dev.joule.io.block.BlockPool;
import dev.joule.io.fs.NoticeSink;
import dev.joule.io.input.InputFile;
import dev.joule.io.output.AtomicOutput;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.stripe.RoundRobinStripes;
import dev.joule.io.stripe.Stripe;
import dev.joule.io.stripe.TempSpace;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One file-to-file sort of {@link ExternalSorter#sort}: checks the arguments, then runs either the
 * one-pass {@link InMemorySortPhase} or {@link RunFormationPhase} followed by the {@link
 * MergePlan}'s passes, and publishes the validated output. Everything it opens is registered in its
 * {@link Resources} or held as its {@link TempSpace}, which the caller closes on success ({@link
 * #resources()}) or failure ({@link #closeAfterFailure}).
 *
 * <p>Used once, by one thread.
 */
final class FileSortJob {
  private final Path output;
  private final SortConfig config;
  private final NoticeSink notices;
  private final MemoryMeter meter = new MemoryMeter();
  private final Resources res = new Resources(meter);
  private final List<PhaseReport> phases = new ArrayList<>();
  private TempSpace temp;

  FileSortJob(Path output, SortConfig config) {
    this.output = output;
    this.config = config;
    this.notices = NoticeSink.distinct(config.notices());
  }

  Resources resources() {
    return res;
  }

  /** Closes what the job opened, adding errors to {@code primary}; deletes every temp file. */
  void closeAfterFailure(Throwable primary) {
    res.closeAfterFailure(primary);
    if (temp != null) {
      temp.closeAfterFailure(primary);
    }
  }

  SortReport run(Path input) throws IOException {
    InputFile in = res.add(InputFile.open(input, config.directIo(), notices));
    in.checkWholeRecords(config.format().recordSize());
    ExternalSorter.checkOutputDir(output);
    for (Path d : config.tempDirs()) {
      Stripe.validate(d); // also for a one-pass sort: the same arguments fail the same way
    }
    SortPlan plan = SortPlan.of(in.size(), config);
    plan.notes().forEach(notices::notice);
    RadixRunSorter sorter = res.add(new RadixRunSorter(config.threads()));
    return plan.onePass() ? onePass(in, plan, sorter) : twoPass(in, plan, sorter);
  }

  private SortReport onePass(InputFile in, SortPlan plan, RadixRunSorter sorter)
      throws IOException {
    BlockPool outPool = InMemorySortPhase.outputPool(plan, res);
    AtomicOutput out = res.add(AtomicOutput.create(output, config.directIo(), notices, outPool, 1));
    PhaseClock clock = new PhaseClock();
    InMemorySortPhase.Result r = InMemorySortPhase.run(in, out, plan, config, sorter, res);
    DataSummary inSum = ExternalSorter.validate(r.records(), r.inputChecksum(), r.output(), output);
    out.commit();
    phases.add(clock.phase("in-memory sort", in.size(), in.size(), 0, r.records() == 0 ? 0 : 1, 0));
    return report(in, r.records(), 0, 0, 0, inSum, r.output().summary());
  }

  private SortReport twoPass(InputFile in, SortPlan plan, RadixRunSorter sorter)
      throws IOException {
    temp = TempSpace.open(config.tempDirs(), new RoundRobinStripes(), notices);
    PhaseClock clock = new PhaseClock();
    RecordArena[] arenas = RunFormationPhase.allocateArenas(plan, config, res);
    RunFormationPhase.Result rf =
        RunFormationPhase.run(in, plan, config, temp, sorter, arenas, meter);
    phases.add(
        clock.phase("run formation", rf.bytesRead(), rf.bytesWritten(), 0, rf.runs().size(), 0));
    List<Path> runFiles = new ArrayList<>();
    for (RunDescriptor d : rf.runs()) {
      runFiles.add(d.path());
    }
    config.afterRunFormation().accept(List.copyOf(runFiles)); // test hook, no-op by default

    MergePhase merge = new MergePhase(config, plan, meter, new ArenaMemory(arenas));
    MergePlan mp = MergePlan.of(sizes(rf.runs()), plan.fanIn());
    List<RunDescriptor> segments = intermediatePasses(mp, rf.runs(), merge);
    List<RunDescriptor> finalInputs = new ArrayList<>();
    for (int id : mp.finalMerge().inputs()) {
      finalInputs.add(segments.get(id));
    }
    AtomicOutput out =
        res.add(AtomicOutput.create(output, config.directIo(), notices, res.pool(1, 4096), 1));
    int parts = merge.parts(finalInputs.size(), rf.records());
    long outBytes = rf.records() * config.format().recordSize();
    String name =
        "merge pass "
            + mp.passes().size()
            + " (final, "
            + parts
            + (parts == 1 ? " part)" : " parts)");
    merge.startPass(name, outBytes);
    clock = new PhaseClock();
    OutputValidator v = merge.mergeToOutput(finalInputs, out, parts);
    DataSummary inSum = ExternalSorter.validate(rf.records(), rf.inputChecksum(), v, output);
    // Delete the temps before publishing: a cleanup error then fails the sort while the previous
    // output is still in place (CFC 3), instead of failing after the output was replaced.
    temp.close();
    temp = null;
    out.commitRegions(outBytes);
    phases.add(
        clock.phase(
            name, fileBytes(finalInputs), outBytes, finalInputs.size(), 1, finalInputs.size()));
    return report(
        in, rf.records(), rf.runs().size(), mp.passes().size(), mp.fanIn(), inSum, v.summary());
  }

  /** Runs the plan's passes before the final one; returns the segments, indexed by merge id. */
  private List<RunDescriptor> intermediatePasses(
      MergePlan mp, List<RunDescriptor> runs, MergePhase merge) throws IOException {
    List<RunDescriptor> segments = new ArrayList<>(runs);
    for (int i = 0; i < mp.merges().size(); i++) {
      segments.add(null);
    }
    for (MergePlan.Pass pass : mp.passes()) {
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
        List<RunDescriptor> in = new ArrayList<>();
        for (int id : m.inputs()) {
          in.add(segments.get(id));
        }
        read += fileBytes(in);
        RunDescriptor d = merge.mergeToRun(in, temp);
        written += d.fileSize();
        inputs += in.size();
        width = Math.max(width, in.size());
        segments.set(m.id(), d);
        for (int id : m.inputs()) {
          temp.delete(segments.get(id).path()); // consumed: free its space now
          segments.set(id, null);
        }
        ExternalSorter.checkCancelled();
      }
      phases.add(clock.phase(name, read, written, inputs, pass.merges().size(), width));
    }
    return segments;
  }

  private SortReport report(
      InputFile in,
      long records,
      int runs,
      int passes,
      int fanIn,
      DataSummary inSum,
      DataSummary outSum) {
    return new SortReport(
        records,
        in.size(),
        config.threads(),
        config.tempDirs().size(),
        in.file().isDirect(),
        runs,
        passes,
        fanIn,
        meter.peak(),
        phases,
        inSum,
        outSum);
  }

  private static long[] sizes(List<RunDescriptor> runs) {
    long[] s = new long[runs.size()];
    for (int i = 0; i < s.length; i++) {
      s[i] = runs.get(i).recordCount() * runs.get(i).format().recordSize();
    }
    return s;
  }

  private static long fileBytes(List<RunDescriptor> runs) {
    long bytes = 0;
    for (RunDescriptor d : runs) {
      bytes += d.fileSize();
    }
    return bytes;
  }

  /** Wall and process CPU time since construction, turned into a {@link PhaseReport}. */
  private static final class PhaseClock {
    private final long wall0 = System.nanoTime();
    private final long cpu0 = CpuClock.processCpuNanos();

    PhaseReport phase(String name, long read, long written, int runsIn, int runsOut, int fanIn) {
      return new PhaseReport(
          name,
          System.nanoTime() - wall0,
          CpuClock.processCpuNanos() - cpu0,
          read,
          written,
          runsIn,
          runsOut,
          fanIn);
    }
  }
}

package dev.joule.io.pipeline;

import dev.joule.core.memory.RecordArena;
import dev.joule.core.radix.RadixRunSorter;
import dev.joule.io.block.BlockPool;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.config.SortConfig;
import dev.joule.io.hooks.SortHooks;
import dev.joule.io.input.InputFile;
import dev.joule.io.memory.ArenaMemory;
import dev.joule.io.memory.MemoryMeter;
import dev.joule.io.memory.Resources;
import dev.joule.io.output.AtomicOutput;
import dev.joule.io.output.OutputValidator;
import dev.joule.io.plan.MergePlan;
import dev.joule.io.plan.SortPlan;
import dev.joule.io.report.DataSummary;
import dev.joule.io.report.PhaseClock;
import dev.joule.io.report.PhaseReport;
import dev.joule.io.report.SortReport;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.stripe.RoundRobinStripes;
import dev.joule.io.stripe.TempSpace;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One file-to-file sort of {@link ExternalSorter#sort}: checks the arguments, then runs either the
 * one-pass {@link InMemorySortPhase} or {@link RunFormationPhase} followed by the {@link
 * MergePlan}'s passes ({@link MergePasses}, then the final {@link MergePhase#mergeToOutput}), and
 * publishes the validated output. Everything it opens is registered in its {@link Resources} or
 * held as its {@link TempSpace}, which {@link #close()} (success) or {@link #closeAfterFailure}
 * release.
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

  /** Closes what the job opened (the temp files are already gone after a success). */
  void close() throws IOException {
    res.close();
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
    AtomicOutput.checkDirectory(output);
    ExternalSorter.checkTempDirs(config); // also for a one-pass sort: same arguments, same errors
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
    DataSummary inSum = r.output().checkAgainstInput(r.records(), r.inputChecksum(), output);
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
    SortHooks.of(config).afterRunFormation().accept(List.copyOf(runFiles));

    MergePhase merge = new MergePhase(config, plan, meter, new ArenaMemory(arenas));
    MergePlan mp = MergePlan.of(sizes(rf.runs()), plan.fanIn());
    List<RunDescriptor> finalInputs =
        MergePasses.beforeFinal(mp, rf.runs(), merge, temp, phases::add);
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
    DataSummary inSum = v.checkAgainstInput(rf.records(), rf.inputChecksum(), output);
    // Delete the temps before publishing: a cleanup error then fails the sort while the previous
    // output is still in place (the output contract), instead of failing after it was replaced.
    temp.close();
    temp = null;
    out.commitRegions(outBytes);
    phases.add(
        clock.phase(
            name,
            MergePasses.fileBytes(finalInputs),
            outBytes,
            finalInputs.size(),
            1,
            finalInputs.size()));
    return report(
        in, rf.records(), rf.runs().size(), mp.passes().size(), mp.fanIn(), inSum, v.summary());
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
      s[i] = runs.get(i).dataBytes();
    }
    return s;
  }
}

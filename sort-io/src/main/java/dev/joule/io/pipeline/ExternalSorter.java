package dev.joule.io.pipeline;

import dev.joule.core.memory.RecordArena;
import dev.joule.core.radix.RadixRunSorter;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.block.BlockPool;
import dev.joule.io.fs.NoticeSink;
import dev.joule.io.fs.SortIOException;
import dev.joule.io.input.InputFile;
import dev.joule.io.output.AtomicOutput;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.stripe.RoundRobinStripes;
import dev.joule.io.stripe.Stripe;
import dev.joule.io.stripe.TempSpace;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The facade of the sort: file to file ({@link #sort}), the plan alone ({@link #plan}), and a
 * push/pull session ({@link #open}).
 *
 * <p><b>File sort.</b> Checks the arguments (input readable and a whole number of records, output
 * directory present, temp stripes valid) before writing anything; then either the one-pass
 * {@link InMemorySortPhase} or {@link RunFormationPhase} followed by the {@link MergePlan}'s passes
 * in {@link MergePhase} (intermediate merges into temp runs, deleted as soon as they are consumed;
 * the final merge split over threads). The output is validated while it is written (count,
 * checksum and order against the input's count and checksum) and published atomically only if it
 * matches; otherwise {@link SortValidationException} and nothing is published.
 *
 * <p><b>Failure.</b> Every path closes what it opened (arenas, pools, reader and writer threads,
 * the radix ForkJoin pool), deletes the temp files ({@link TempSpace#closeAfterFailure}) and the
 * output temporary; the original exception propagates with cleanup errors suppressed. An
 * interrupt of the calling thread cancels the sort between blocks: {@link SortCancelledException}.
 *
 * <p>Stateless and thread-safe: concurrent sorts share nothing.
 */
public final class ExternalSorter {
  private ExternalSorter() {}

  /** Sorts input to output (output may equal input); validates itself; atomic publish. */
  public static SortReport sort(Path input, Path output, SortConfig config) throws IOException {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(output, "output");
    Objects.requireNonNull(config, "config");
    NoticeSink notices = NoticeSink.distinct(config.notices());
    MemoryMeter meter = new MemoryMeter();
    Resources res = new Resources(meter);
    TempSpace temp = null;
    try {
      checkCancelled();
      InputFile in = res.add(InputFile.open(input, config.directIo(), notices));
      in.checkWholeRecords(config.format().recordSize());
      checkOutputDir(output);
      for (Path d : config.tempDirs()) {
        Stripe.validate(d); // also for a one-pass sort: the same arguments fail the same way
      }
      SortPlan plan = SortPlan.of(in.size(), config);
      plan.notes().forEach(notices::notice);
      RadixRunSorter sorter = res.add(new RadixRunSorter(config.threads()));
      List<PhaseReport> phases = new ArrayList<>();
      int rs = config.format().recordSize();
      SortReport report;
      if (plan.onePass()) {
        BlockPool outPool = InMemorySortPhase.outputPool(plan, res);
        AtomicOutput out = res.add(AtomicOutput.create(output, config.directIo(), notices, outPool, 1));
        long t0 = System.nanoTime();
        long c0 = CpuClock.processCpuNanos();
        InMemorySortPhase.Result r = InMemorySortPhase.run(in, out, plan, config, sorter, res);
        DataSummary inSum = validate(r.records(), r.inputChecksum(), r.output(), output);
        out.commit();
        phases.add(new PhaseReport("in-memory sort", System.nanoTime() - t0, CpuClock.processCpuNanos() - c0,
            in.size(), in.size(), 0, r.records() == 0 ? 0 : 1, 0));
        report = new SortReport(r.records(), in.size(), config.threads(), config.tempDirs().size(), in.file().isDirect(),
            0, 0, 0, meter.peak(), phases, inSum, r.output().summary());
      } else {
        temp = TempSpace.open(config.tempDirs(), new RoundRobinStripes(), notices);
        long t0 = System.nanoTime();
        long c0 = CpuClock.processCpuNanos();
        RecordArena[] arenas = RunFormationPhase.allocateArenas(plan, config, res);
        RunFormationPhase.Result rf = RunFormationPhase.run(in, plan, config, temp, sorter, arenas, meter);
        phases.add(new PhaseReport("run formation", System.nanoTime() - t0, CpuClock.processCpuNanos() - c0,
            rf.bytesRead(), rf.bytesWritten(), 0, rf.runs().size(), 0));
        List<Path> runFiles = new ArrayList<>();
        for (RunDescriptor d : rf.runs()) {
          runFiles.add(d.path());
        }
        config.afterRunFormation().accept(List.copyOf(runFiles)); // test hook, no-op by default
        MergePhase merge = new MergePhase(config, plan, meter, new ArenaMemory(arenas));
        MergePlan mp = MergePlan.of(sizes(rf.runs()), plan.fanIn());
        List<RunDescriptor> segments = intermediatePasses(mp, rf.runs(), merge, temp, phases);
        MergePlan.Merge last = mp.finalMerge();
        List<RunDescriptor> finalInputs = new ArrayList<>();
        for (int id : last.inputs()) {
          finalInputs.add(segments.get(id));
        }
        BlockPool tiny = res.pool(1, 4096);
        AtomicOutput out = res.add(AtomicOutput.create(output, config.directIo(), notices, tiny, 1));
        int parts = merge.parts(finalInputs.size(), rf.records());
        long t1 = System.nanoTime();
        long c1 = CpuClock.processCpuNanos();
        OutputValidator v = merge.mergeToOutput(finalInputs, out, parts);
        DataSummary inSum = validate(rf.records(), rf.inputChecksum(), v, output);
        // Delete the temps before publishing: a cleanup error then fails the sort while the previous
        // output is still in place (CFC 3), instead of failing after the output was replaced.
        temp.close();
        temp = null;
        out.commitRegions(rf.records() * rs);
        long readBytes = 0;
        for (RunDescriptor d : finalInputs) {
          readBytes += d.fileSize();
        }
        phases.add(new PhaseReport("merge pass " + mp.passes().size() + " (final, " + parts + (parts == 1 ? " part)" : " parts)"), System.nanoTime() - t1,
            CpuClock.processCpuNanos() - c1, readBytes, rf.records() * rs, finalInputs.size(), 1, finalInputs.size()));
        report = new SortReport(rf.records(), in.size(), config.threads(), config.tempDirs().size(), in.file().isDirect(),
            rf.runs().size(), mp.passes().size(), mp.fanIn(), meter.peak(), phases, inSum, v.summary());
      }
      closeOrThrow(res);
      return report;
    } catch (Throwable e) {
      res.closeAfterFailure(e);
      if (temp != null) {
        temp.closeAfterFailure(e);
      }
      throw translate(e);
    }
  }

  private static List<RunDescriptor> intermediatePasses(MergePlan mp, List<RunDescriptor> runs, MergePhase merge,
      TempSpace temp, List<PhaseReport> phases) throws IOException {
    List<RunDescriptor> segments = new ArrayList<>(runs);
    for (int i = 0; i < mp.merges().size(); i++) {
      segments.add(null);
    }
    for (MergePlan.Pass pass : mp.passes()) {
      if (pass.isFinal()) {
        break;
      }
      long t0 = System.nanoTime();
      long c0 = CpuClock.processCpuNanos();
      long read = 0;
      long written = 0;
      int width = 0;
      for (MergePlan.Merge m : pass.merges()) {
        List<RunDescriptor> inputs = new ArrayList<>();
        for (int id : m.inputs()) {
          inputs.add(segments.get(id));
          read += segments.get(id).fileSize();
        }
        RunDescriptor d = merge.mergeToRun(inputs, temp);
        written += d.fileSize();
        width = Math.max(width, inputs.size());
        segments.set(m.id(), d);
        for (int id : m.inputs()) {
          temp.delete(segments.get(id).path()); // consumed: free its space now
          segments.set(id, null);
        }
        checkCancelled();
      }
      phases.add(new PhaseReport("merge pass " + pass.number(), System.nanoTime() - t0,
          CpuClock.processCpuNanos() - c0, read, written, width * pass.merges().size(), pass.merges().size(), width));
    }
    return segments;
  }

  private static long[] sizes(List<RunDescriptor> runs) {
    long[] s = new long[runs.size()];
    for (int i = 0; i < s.length; i++) {
      s[i] = runs.get(i).recordCount() * runs.get(i).format().recordSize();
    }
    return s;
  }

  /** Compares the output's validation with the input's numbers; returns the input's summary. */
  static DataSummary validate(long inputRecords, RecordChecksum inputChecksum, OutputValidator out, Path output)
      throws SortValidationException {
    DataSummary o = out.summary();
    // The input side cannot know its duplicates or order without sorting: -1 and false (DataSummary).
    DataSummary in = new DataSummary(inputRecords, inputChecksum.toHex(), -1, false);
    if (o.records() != inputRecords || !out.checksum().equals(inputChecksum) || !o.ordered()) {
      throw new SortValidationException("self-validation failed for " + output + ": input " + inputRecords
          + " records, checksum " + inputChecksum.toHex() + "; output " + o.records() + " records, checksum "
          + o.checksum() + (o.ordered() ? "" : ", NOT in key order") + "; nothing was published");
    }
    return in;
  }

  private static void closeOrThrow(Resources res) throws IOException {
    try {
      res.close();
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Turns interrupts into {@link SortCancelledException}; rethrows everything else as it is. */
  static IOException translate(Throwable e) {
    if (e instanceof InterruptedIOException && !(e instanceof SortCancelledException)) {
      Thread.currentThread().interrupt();
      SortCancelledException c = new SortCancelledException("sort cancelled: " + e.getMessage());
      c.initCause(e);
      return c;
    }
    if (e instanceof IOException) {
      return (IOException) e;
    }
    if (e instanceof RuntimeException) {
      throw (RuntimeException) e;
    }
    if (e instanceof Error) {
      throw (Error) e;
    }
    throw new IllegalStateException(e);
  }

  /** Throws {@link SortCancelledException} if the current thread was interrupted (flag kept set). */
  static void checkCancelled() throws SortCancelledException {
    if (Thread.currentThread().isInterrupted()) {
      throw new SortCancelledException("sort cancelled (thread interrupted)");
    }
  }

  private static void checkOutputDir(Path output) throws SortIOException {
    Path dir = output.toAbsolutePath().getParent();
    if (dir == null || !Files.isDirectory(dir)) {
      throw new SortIOException("create", output, "No such file or directory");
    }
    if (!Files.isWritable(dir)) {
      throw new SortIOException("create", output, "Permission denied");
    }
  }

  /**
   * Checks the arguments exactly as {@link #sort} does (input readable and whole records, output
   * directory present and writable, stripes valid) and returns the plan, writing nothing.
   */
  public static SortPlan plan(Path input, Path output, SortConfig config) throws IOException {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(output, "output");
    Objects.requireNonNull(config, "config");
    long size;
    try (InputFile in = InputFile.open(input, config.directIo(), NoticeSink.IGNORE)) {
      in.checkWholeRecords(config.format().recordSize());
      size = in.size();
    }
    checkOutputDir(output);
    for (Path d : config.tempDirs()) {
      Stripe.validate(d);
    }
    return SortPlan.of(size, config);
  }

  /** A push/pull session for embedding: add records, then pull them sorted. */
  public static SortSession open(SortConfig config) throws IOException {
    return new SortSession(Objects.requireNonNull(config, "config"));
  }
}

package dev.joule.io.pipeline;

import dev.joule.core.gather.RecordGatherer;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.Alignment;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.radix.RadixRunSorter;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.DeviceMeter;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.config.SortConfig;
import dev.joule.io.hooks.SortHooks;
import dev.joule.io.input.ChunkSource;
import dev.joule.io.input.EntryFiller;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.input.InputFile;
import dev.joule.io.input.InputStage;
import dev.joule.io.input.ParsedChunks;
import dev.joule.io.input.RecordReader;
import dev.joule.io.input.RecordSampler;
import dev.joule.io.memory.ArenaMemory;
import dev.joule.io.memory.MemoryMeter;
import dev.joule.io.memory.Resources;
import dev.joule.io.merge.MergePasses;
import dev.joule.io.merge.Merges;
import dev.joule.io.output.AtomicOutput;
import dev.joule.io.output.OutputValidator;
import dev.joule.io.plan.MergePlan;
import dev.joule.io.plan.RecordEstimate;
import dev.joule.io.plan.SortPlan;
import dev.joule.io.report.CompressionReport;
import dev.joule.io.report.DataSummary;
import dev.joule.io.report.DeviceReport;
import dev.joule.io.report.PhaseClock;
import dev.joule.io.report.PhaseReport;
import dev.joule.io.report.PrefetchReport;
import dev.joule.io.report.SortReport;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.stripe.TempSpace;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One file-to-file sort of {@link ExternalSorter#sort}: plan → one pass or run formation → merge
 * down → merge into output → publish. It checks the arguments, then runs either the one-pass {@link
 * InMemorySortPhase} or {@link RunFormationPhase}, which spills its runs into the sort's {@link
 * RunStore}; the store merges them down by the {@link MergePlan} and into the output, and the
 * validated output is published. Everything it opens is registered in its {@link Resources} or held
 * by its store, which {@link #close()} (success) or {@link #closeAfterFailure} release.
 *
 * <p>Used once, by one thread.
 */
final class FileSortJob {
  private final Path output;
  private final SortConfig config;
  private final NoticeSink notices;
  private final SortThreads threads;
  private final MemoryMeter meter = new MemoryMeter();
  private final Resources res = new Resources(meter);
  private final List<PhaseReport> phases = new ArrayList<>();
  private RunStore store;
  private TimelineSampler timeline;
  private RecordArena[] arenas; // run formation's, lent to the merge
  private PrefetchReport prefetch = PrefetchReport.NONE; // the merges', for the report
  private UniqueDrops drops; // duplicates unique mode left out of the runs

  FileSortJob(Path output, SortConfig config) {
    this.output = output;
    this.config = config;
    this.notices = NoticeSink.distinct(config.notices());
    this.threads = SortThreads.of(config.threadFactory());
  }

  /** Closes what the job opened (the temp files are already gone after a success). */
  void close() throws IOException {
    if (timeline != null) {
      timeline.close();
    }
    try {
      res.close();
    } finally {
      if (store != null) {
        store.close();
      }
    }
  }

  /** Closes what the job opened, adding errors to {@code primary}; deletes every temp file. */
  void closeAfterFailure(Throwable primary) {
    if (timeline != null) {
      timeline.close(); // first: its thread must not outlive the sort
    }
    res.closeAfterFailure(primary);
    if (store != null) {
      store.closeAfterFailure(primary);
    }
  }

  SortReport run(Path input) throws IOException {
    timeline = TimelineSampler.start(config, threads, notices);
    InputFile in =
        res.add(
            InputFile.open(
                input, config.directIo(), notices, timeline.newDevice("input", input.toString())));
    EntrySpec spec = EntrySpec.of(config);
    drops = new UniqueDrops(spec);
    if (config.format() instanceof FixedLengthFormat f) {
      in.checkWholeRecords(f.recordSize());
    }
    RecordEstimate estimate = RecordSampler.sample(in, spec);
    SortPlan plan = SortPlan.of(in.size(), config, estimate);
    AtomicOutput.checkDirectory(output);
    // No check of the temp dirs here: a sort that fits in memory needs none (GNU sort only needs -T
    // when it spills); openTemp checks them, with the same error, when runs are to be written.
    plan.notes().forEach(notices::notice);
    Sorters.checkComputePool(config);
    store = new RunStore(config, spec, plan, meter, threads, notices);
    store.onTempOpen(this::tempDevices);
    RadixRunSorter sorter = store.sorter();
    if (!spec.inPlace()) {
      return parsed(in, spec, estimate, plan, sorter);
    }
    return plan.onePass() ? onePass(in, spec, plan, sorter) : twoPass(in, spec, plan, sorter);
  }

  /**
   * The plan for sorting {@code in}: fixed records must be whole; parsed records are sampled for
   * their sizes ({@link RecordSampler}).
   */
  static SortPlan plan(InputFile in, SortConfig config, EntrySpec spec) throws IOException {
    if (config.format() instanceof FixedLengthFormat f) {
      in.checkWholeRecords(f.recordSize());
    }
    return SortPlan.of(in.size(), config, RecordSampler.sample(in, spec));
  }

  private SortReport onePass(InputFile in, EntrySpec spec, SortPlan plan, RadixRunSorter sorter)
      throws IOException {
    BlockPool outPool = InMemorySortPhase.outputPool(plan, res);
    AtomicOutput out = createOutput(outPool);
    timeline.phase("in-memory sort");
    PhaseClock clock = new PhaseClock();
    InMemorySortPhase.Result r =
        InMemorySortPhase.run(in, out, plan, spec, config, threads, sorter, res);
    return publishOnePass(in, out, clock, r);
  }

  private SortReport publishOnePass(
      InputFile in, AtomicOutput out, PhaseClock clock, InMemorySortPhase.Result r)
      throws IOException {
    DataSummary inSum = r.output().checkAgainstInput(r.records(), r.inputChecksum(), output);
    long outBytes = out.writer().position();
    out.commit();
    addPhase(
        clock.phase("in-memory sort", in.size(), outBytes, 0, r.records() == 0 ? 0 : 1, 0), null);
    return report(in, r.records(), 0, 0, 0, inSum, r.output().summary(), List.of());
  }

  private SortReport twoPass(InputFile in, EntrySpec spec, SortPlan plan, RadixRunSorter sorter)
      throws IOException {
    store.temp();
    timeline.phase("run formation");
    PhaseClock clock = new PhaseClock();
    arenas = RunFormationPhase.allocateArenas(plan, res);
    RunFormationPhase.Result rf =
        formRuns(
            RunFormationPhase.inPlace(in, plan, spec, arenas, sorter, threads), plan, sorter, null);
    addPhase(
        clock.phase("run formation", rf.bytesRead(), rf.bytesWritten(), 0, rf.runs().size(), 0),
        "merge pass 1");
    return merge(in, rf);
  }

  /**
   * Parsed records (lines, rows, fixed records with a derived key). A one-pass plan fills one arena
   * sized from the sample and sorts it. If the input turns out larger than the sample said and
   * overflows that arena (or a record does not fit it), the full arena becomes the first run, is
   * freed, and the rest is sorted by a two-pass plan made from what the arena saw. A two-pass plan
   * forms runs with overlap ({@link ParsedChunks}).
   */
  private SortReport parsed(
      InputFile in, EntrySpec spec, RecordEstimate estimate, SortPlan plan, RadixRunSorter sorter)
      throws IOException {
    // Closed once the input is read: the merge has no use for the read pool.
    Resources input = res.add(new Resources(meter));
    BlockPool readPool = input.pool(plan.readBuffers(), plan.inputTransfer());
    RecordReader reader =
        input.add(new RecordReader(in, spec.format(), plan.inputTransfer(), readPool, threads));
    timeline.phase(plan.onePass() ? "in-memory sort" : "run formation");
    PhaseClock clock = new PhaseClock();
    if (!plan.onePass()) {
      store.temp();
      AtomicOutput[] wholeOut = new AtomicOutput[1];
      RunFormationPhase.Result rf =
          formParsedRuns(
              new ParsedChunks(reader, filler(reader, spec, plan), threads),
              plan,
              sorter,
              (index, chunk) -> {
                timeline.phase("in-memory sort");
                // The run writer's pool is not allocated: output buffers no larger than its take
                // its place in the budget.
                wholeOut[0] =
                    createOutput(
                        res.pool(
                            SortPlan.OUTPUT_POOL_BUFFERS,
                            Math.min(plan.outputTransfer(), plan.tempTransfer())));
                return InMemorySortPhase.sortAndWrite(
                    index, chunk, wholeOut[0], spec, sorter, SortHooks.of(config).outputFault());
              });
      input.close();
      if (rf.onePass() != null) {
        store.closeTemp(); // empty; closed before publishing, as after a merge
        return publishOnePass(in, wholeOut[0], clock, rf.onePass());
      }
      addPhase(
          clock.phase("run formation", rf.bytesRead(), rf.bytesWritten(), 0, rf.runs().size(), 0),
          "merge pass 1");
      return merge(in, rf);
    }
    Resources onePass = res.add(new Resources(meter));
    long bytes = Math.max(Alignment.BYTES, plan.arenaBytes());
    RecordArena arena = onePass.arena(bytes, InputStage.slabBytes(bytes, 1));
    RecordIndex index = onePass.index(plan.indexEntries());
    EntryFiller filler = res.add(filler(reader, spec, plan)); // its overflow arenas
    filler.filterRepeatsAsRead(); // the one pass and the first run account for drops and counts
    ChunkSource.Chunk first = filler.fill(arena, index);
    if (filler.exhausted()) {
      reader.finish();
      config.progress().update("in-memory sort", reader.bytesRead(), in.size());
      AtomicOutput out = createOutput(InMemorySortPhase.outputPool(plan, res));
      return publishOnePass(
          in,
          out,
          clock,
          InMemorySortPhase.sortAndWrite(
              index, first, out, spec, sorter, SortHooks.of(config).outputFault()));
    }
    notices.notice("the input is larger than its sample suggested: sorting it in two passes");
    timeline.phase("run formation");
    store.temp();
    long written = 0;
    RecordEstimate seen = estimate;
    if (first.entries() > 0) {
      sorter.sort(index);
      store.addInput(first.records(), first.checksum());
      try (Resources local = new Resources(meter)) {
        written +=
            RunFormationPhase.writeRun(
                    store,
                    local.pool(plan.runWriteBuffers(), plan.tempTransfer()),
                    index,
                    first,
                    new RecordGatherer(sorter.pool()),
                    drops)
                .fileSize();
      }
      int n = first.entries();
      long w = first.written(); // the records' bytes include the copies counted on entries
      seen =
          new RecordEstimate(
              false,
              Math.max(1, (double) (first.recordBytes() + spec.framing() * w) / w),
              Math.max(1, (double) arena.filledBytes() / n),
              estimate.linesInAnyOrder());
    }
    onePass.close(); // the arena and index, before the two-pass plan's arenas are allocated
    SortPlan two = SortPlan.twoPass(in.size(), config, seen);
    store.replan(two);
    RunFormationPhase.Result rest =
        formParsedRuns(new ParsedChunks(reader, filler, threads), two, sorter, null);
    input.close();
    RunFormationPhase.Result rf =
        new RunFormationPhase.Result(store.runs(), rest.bytesRead(), written + rest.bytesWritten());
    addPhase(
        clock.phase("run formation", rf.bytesRead(), rf.bytesWritten(), 0, rf.runs().size(), 0),
        "merge pass 1");
    return merge(in, rf);
  }

  /** The filler of {@code reader}'s records, on {@code plan}'s parse threads where they apply. */
  private EntryFiller filler(RecordReader reader, EntrySpec spec, SortPlan plan) {
    EntryFiller f = new EntryFiller(reader, spec);
    f.parseInParallel(plan.parseThreads(), threads);
    return f;
  }

  /**
   * Run formation of parsed records from {@code chunks} in new arenas of {@code plan}; a first
   * chunk that is the whole input goes to {@code whole} if not null.
   */
  private RunFormationPhase.Result formParsedRuns(
      ParsedChunks chunks, SortPlan plan, RadixRunSorter sorter, RunFormationPhase.WholeInput whole)
      throws IOException {
    arenas = RunFormationPhase.allocateArenas(plan, res);
    return formRuns(chunks, plan, sorter, whole);
  }

  /**
   * Run formation from {@code chunks} into {@link #arenas}, with indexes of its own. They are freed
   * before this returns, uncounted and no longer referenced, so that the merge has their memory: it
   * needs the arenas (it borrows them), not the indexes.
   */
  private RunFormationPhase.Result formRuns(
      ChunkSource chunks, SortPlan plan, RadixRunSorter sorter, RunFormationPhase.WholeInput whole)
      throws IOException {
    try (Resources indexes = new Resources(meter)) {
      return RunFormationPhase.run(
          chunks,
          plan,
          config,
          store,
          sorter,
          arenas,
          RunFormationPhase.indexes(plan, chunks, indexes),
          meter,
          plan.inputBytes(),
          drops,
          whole);
    }
  }

  /** The merge passes and the final merge of the runs {@code rf} formed, then the publication. */
  private SortReport merge(InputFile in, RunFormationPhase.Result rf) throws IOException {
    List<Path> runFiles = new ArrayList<>();
    for (RunDescriptor d : rf.runs()) {
      runFiles.add(d.path());
    }
    SortHooks.of(config).afterRunFormation().accept(List.copyOf(runFiles));

    Merges merge = store.startMerge(new ArenaMemory(arenas));
    MergePlan mp = store.mergePlan();
    List<RunDescriptor> finalInputs =
        store.mergeDown(p -> addPhase(p, "merge pass " + (phases.size() + 1)));
    AtomicOutput out = createOutput(res.pool(1, SortPlan.MERGED_OUTPUT_WRITER_BUFFER));
    long records = store.inputRecords();
    int parts = merge.parts(finalInputs.size(), records);
    long outBytes = outputBytes(finalInputs);
    String name =
        "merge pass "
            + Math.max(1, mp.passes().size()) // one run (e.g. unique input that shrank) is copied
            + " (final, "
            + parts
            + (parts == 1 ? " part)" : " parts)");
    merge.startPass(name, outBytes);
    timeline.phase(name);
    PhaseClock clock = new PhaseClock();
    Merges.Output merged = store.mergeInto(finalInputs, out, parts);
    OutputValidator v = merged.validator();
    drops.addTo(v);
    DataSummary inSum = v.checkAgainstInput(records, store.inputChecksum(), output);
    // Delete the temps before publishing: a cleanup error then fails the sort while the previous
    // output is still in place (the output contract), instead of failing after it was replaced.
    List<DeviceReport> devices = devices(store.openTemp());
    store.closeTemp();
    long written = merged.bytes(); // less than outBytes when unique output left records out
    out.commitRegions(written);
    addPhase(
        clock.phase(
            name,
            MergePasses.fileBytes(finalInputs),
            written,
            finalInputs.size(),
            1,
            finalInputs.size()),
        null);
    prefetch = merge.prefetchReport();
    return report(
        in, records, rf.runs().size(), mp.passes().size(), mp.fanIn(), inSum, v.summary(), devices);
  }

  /** Output bytes of all records of {@code runs}: the records and their framing. */
  private long outputBytes(List<RunDescriptor> runs) {
    int framing = EntrySpec.of(config).framing();
    long n = 0;
    for (RunDescriptor d : runs) {
      n += d.recordBytes() + (long) framing * d.recordCount();
    }
    return n;
  }

  private SortReport report(
      InputFile in,
      long records,
      int runs,
      int passes,
      int fanIn,
      DataSummary inSum,
      DataSummary outSum,
      List<DeviceReport> devices) {
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
        outSum,
        devices,
        timeline.finish(),
        prefetch,
        store == null ? CompressionReport.NONE : store.compressionReport());
  }

  /** Records a finished phase, in the report and on the timeline; {@code next} is the next one. */
  private void addPhase(PhaseReport p, String next) {
    phases.add(p);
    timeline.phaseEnded(p, next);
  }

  /** Each stripe of the temp space, once the store opened it, a device of the timeline. */
  private void tempDevices(TempSpace temp) {
    for (int i = 0; i < config.tempDirs().size(); i++) {
      timeline.device("temp " + i, config.tempDirs().get(i).toString(), temp.meter(i));
    }
  }

  /** The output's temporary and writer, the output a device of the timeline. */
  private AtomicOutput createOutput(BlockPool pool) throws IOException {
    return res.add(
        AtomicOutput.create(
            output,
            config.directIo(),
            notices,
            pool,
            1,
            threads,
            timeline.newDevice("output", output.toString())));
  }

  /** What each temp directory of {@code temp} did. */
  private List<DeviceReport> devices(TempSpace temp) {
    return devices(config, temp);
  }

  /** What each temp directory of {@code config} did, by {@code temp}'s meters. */
  static List<DeviceReport> devices(SortConfig config, TempSpace temp) {
    List<DeviceReport> list = new ArrayList<>();
    for (int i = 0; i < config.tempDirs().size(); i++) {
      DeviceMeter m = temp.meter(i);
      list.add(
          new DeviceReport(
              config.tempDirs().get(i).toString(),
              m.bytesRead(),
              m.bytesWritten(),
              m.readNanos(),
              m.writeNanos(),
              m.writeWaitNanos(),
              m.boundBytes(),
              m.boundNanos()));
    }
    return list;
  }
}

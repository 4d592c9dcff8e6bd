package dev.joule.io.merge;

import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.SortConfig;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.memory.ArenaMemory;
import dev.joule.io.memory.MemoryMeter;
import dev.joule.io.memory.Resources;
import dev.joule.io.output.AtomicOutput;
import dev.joule.io.output.OutputValidator;
import dev.joule.io.plan.MergePlan;
import dev.joule.io.plan.SortPlan;
import dev.joule.io.prefetch.MergeInputs;
import dev.joule.io.prefetch.MergeSource;
import dev.joule.io.report.PhaseReport;
import dev.joule.io.report.PrefetchReport;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.stripe.TempSpace;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;

/**
 * The merges of one sort, from the moment its last run is written: the passes before the final
 * merge ({@link #mergeDown}), then the final merge into an output file ({@link #mergeInto}) or as a
 * stream of entries ({@link #stream}). All of them share the sort's {@link MergeBuffers} (idle
 * arenas lent to the merges first), its progress and its prefetch figures.
 *
 * <p>Made on the sort's driving thread and used there; the merges it runs use threads of their own
 * ({@link MergeThreads}).
 */
public final class Merges {
  private final SortConfig config;
  private final EntrySpec entries;
  private final SortThreads threads;
  private final MergeBuffers buffers;
  private final MergeProgress progress;
  private final MergeLoop loop;
  private final IntermediateMerges intermediate;
  private final FinalMerge finalMerge;

  /**
   * The merges of a sort under {@code config} and {@code plan} (transfers, fan-in, buffers), with
   * buffers carved from {@code lent} first (may be null: all fresh), counted in {@code meter}.
   */
  public Merges(
      SortConfig config,
      EntrySpec entries,
      SortPlan plan,
      MemoryMeter meter,
      ArenaMemory lent,
      SortThreads threads) {
    this.config = config;
    this.entries = entries;
    this.threads = threads;
    this.buffers = new MergeBuffers(plan, plan.workBudget(), meter, lent);
    this.progress = new MergeProgress(config.progress());
    this.loop = new MergeLoop(entries.tie(), threads, progress);
    this.intermediate = new IntermediateMerges(config, entries, plan, buffers, loop, threads);
    this.finalMerge = new FinalMerge(config, entries, plan, buffers, loop, threads);
  }

  /**
   * Runs every pass of {@code plan} before the final one over {@code runs} (in run order), deleting
   * each merge's inputs from {@code temp} when it is done, and returns the final merge's inputs;
   * {@code reports} gets one phase report per pass.
   */
  public List<RunDescriptor> mergeDown(
      MergePlan plan, List<RunDescriptor> runs, TempSpace temp, Consumer<PhaseReport> reports)
      throws IOException {
    return MergePasses.beforeFinal(plan, runs, intermediate, progress, temp, reports);
  }

  /**
   * How many parts the final merge of {@code k} runs of {@code records} records can use within the
   * threads and the budget.
   */
  public int parts(int k, long records) {
    return finalMerge.parts(k, records);
  }

  /** Names the pass the following merges belong to, for progress reports out of {@code bytes}. */
  public void startPass(String name, long bytes) {
    progress.startPass(name, bytes);
  }

  /** What a final merge wrote: the validator of its records and the output's length. */
  public record Output(OutputValidator validator, long bytes) {}

  /** The final merge of {@code runs} into {@code out}, in {@code parts} parallel parts. */
  public Output mergeInto(List<RunDescriptor> runs, AtomicOutput out, int parts)
      throws IOException {
    return finalMerge.merge(runs, out, parts);
  }

  /**
   * The final merge of {@code runs} as a stream of entries in merge order, its inputs, read pool
   * ({@code k + 1} to {@code 2k} temp buffers, carved from the lent arenas first) and prefetch
   * threads registered in {@code owner}.
   */
  public MergeSource stream(List<RunDescriptor> runs, Resources owner) throws IOException {
    MergeInputs in =
        owner.add(new MergeInputs(runs, entries.layout(), config.directIo(), config.notices()));
    BlockPool pool = buffers.streamingPool(owner, runs.size());
    return owner.add(MergeSource.whole(in, pool, entries.tie(), threads));
  }

  /** How the prefetch of every merge finished so far kept ahead of it. */
  public PrefetchReport prefetchReport() {
    return loop.prefetch();
  }
}

package dev.joule.io.hooks;

import dev.joule.io.config.SortConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;

/**
 * Test hooks of one sort, carried by its {@link SortConfig} but not part of the exported API: this
 * package is internal to the {@code dev.joule.io} module. Tests set them with {@link #set}; the
 * planner and the pipeline read them with {@link #of}.
 *
 * @param runRecordsLimit the most records per run (0: as the budget allows), rounded down to whole
 *     4096-byte pages of input; lets tests reach hundreds of runs and several merge passes with a
 *     few KiB of input. Also applies to the one-pass decision, so that small inputs reach run
 *     formation
 * @param afterRunFormation called on the sorting thread with the run files, in run order, after run
 *     formation has written and closed all of them and before the first merge opens one; not called
 *     for a one-pass sort. The reliability tests damage or delete run files here; an exception
 *     thrown by the hook fails the sort like any other (everything is cleaned up)
 * @param outputFault a fault the output path of a file sort injects before its self-validation
 *     ({@link OutputFault#NONE}: none); the validation tests show with it that a wrong output is
 *     caught and not published. A session's cursor applies {@code DROP} (and only that kind), so
 *     that the sort of streams shows the same of its check
 * @param beforeIntermediateMerge called with the input run files of every intermediate merge (not
 *     the final one), on the thread that runs that merge, before it opens them; concurrent merges
 *     of one pass call it concurrently. The concurrency tests hold merges here to see how many are
 *     in flight, and damage an input; an exception thrown by the hook fails that merge
 * @param onePassSlabBytes the slab size the one-pass sort of fixed records aims at (0: {@code
 *     SortPlan.ONE_PASS_SLAB_BYTES}); lets tests fill an arena of a few KiB slab by slab. The plan
 *     counts the slack of the slabs this gives, so a small value costs one-pass capacity
 * @param beforeOnePassSlab called on the sorting thread with each slab number just before the
 *     one-pass sort allocates that slab of its arena; an exception it throws (an {@code
 *     OutOfMemoryError} stands for a refused allocation) fails the sort like any other
 * @param beforeSessionRunWrite called on a sort session's run writer thread before it sorts and
 *     writes each chunk handed to it, with the number of records the session had taken when it
 *     handed the chunk over, and for an oversized first chunk written in two runs once more before
 *     the second (its tail's slabs given back by then); the overlap test blocks it there until more
 *     records were added since then, which only works if adding does not wait for the write
 *     (counted from the hand-off, not from when the writer thread gets to the chunk: a writer
 *     scheduled late must not make a chunk that filled meanwhile look like adding that waited)
 * @param probeMinBytes the smallest run file {@code auto}'s device probe reads (0: {@code
 *     DeviceProbe.MIN_BYTES}); lets tests probe runs of a few MiB
 */
public record SortHooks(
    long runRecordsLimit,
    Consumer<List<Path>> afterRunFormation,
    OutputFault outputFault,
    Consumer<List<Path>> beforeIntermediateMerge,
    int onePassSlabBytes,
    IntConsumer beforeOnePassSlab,
    LongConsumer beforeSessionRunWrite,
    long probeMinBytes) {
  /** No hooks: runs as large as the budget allows, nothing called between phases, no fault. */
  public static final SortHooks NONE =
      new SortHooks(0, runs -> {}, OutputFault.NONE, inputs -> {}, 0, slab -> {}, added -> {}, 0);

  private static volatile Access access;

  /** Validates the arguments. */
  public SortHooks {
    if (runRecordsLimit < 0) {
      throw new IllegalArgumentException("run record limit " + runRecordsLimit + " is negative");
    }
    Objects.requireNonNull(afterRunFormation, "afterRunFormation");
    Objects.requireNonNull(outputFault, "outputFault");
    Objects.requireNonNull(beforeIntermediateMerge, "beforeIntermediateMerge");
    if (onePassSlabBytes < 0 || onePassSlabBytes % 4096 != 0) {
      throw new IllegalArgumentException(
          "one-pass slab size " + onePassSlabBytes + " must be a multiple of 4096 (0: default)");
    }
    Objects.requireNonNull(beforeOnePassSlab, "beforeOnePassSlab");
    Objects.requireNonNull(beforeSessionRunWrite, "beforeSessionRunWrite");
    if (probeMinBytes < 0) {
      throw new IllegalArgumentException("probe minimum " + probeMinBytes + " is negative");
    }
  }

  /** These hooks with another run record limit. */
  public SortHooks withRunRecordsLimit(long records) {
    return new SortHooks(
        records,
        afterRunFormation,
        outputFault,
        beforeIntermediateMerge,
        onePassSlabBytes,
        beforeOnePassSlab,
        beforeSessionRunWrite,
        probeMinBytes);
  }

  /** These hooks with another after-run-formation callback. */
  public SortHooks withAfterRunFormation(Consumer<List<Path>> hook) {
    return new SortHooks(
        runRecordsLimit,
        hook,
        outputFault,
        beforeIntermediateMerge,
        onePassSlabBytes,
        beforeOnePassSlab,
        beforeSessionRunWrite,
        probeMinBytes);
  }

  /** These hooks with another output fault. */
  public SortHooks withOutputFault(OutputFault fault) {
    return new SortHooks(
        runRecordsLimit,
        afterRunFormation,
        fault,
        beforeIntermediateMerge,
        onePassSlabBytes,
        beforeOnePassSlab,
        beforeSessionRunWrite,
        probeMinBytes);
  }

  /** These hooks with another before-intermediate-merge callback. */
  public SortHooks withBeforeIntermediateMerge(Consumer<List<Path>> hook) {
    return new SortHooks(
        runRecordsLimit,
        afterRunFormation,
        outputFault,
        hook,
        onePassSlabBytes,
        beforeOnePassSlab,
        beforeSessionRunWrite,
        probeMinBytes);
  }

  /** These hooks with another one-pass slab size (0: the default). */
  public SortHooks withOnePassSlabBytes(int bytes) {
    return new SortHooks(
        runRecordsLimit,
        afterRunFormation,
        outputFault,
        beforeIntermediateMerge,
        bytes,
        beforeOnePassSlab,
        beforeSessionRunWrite,
        probeMinBytes);
  }

  /** These hooks with another callback before each one-pass slab allocation. */
  public SortHooks withBeforeOnePassSlab(IntConsumer hook) {
    return new SortHooks(
        runRecordsLimit,
        afterRunFormation,
        outputFault,
        beforeIntermediateMerge,
        onePassSlabBytes,
        hook,
        beforeSessionRunWrite,
        probeMinBytes);
  }

  /** These hooks with another callback before each run write of a session. */
  public SortHooks withBeforeSessionRunWrite(LongConsumer hook) {
    return new SortHooks(
        runRecordsLimit,
        afterRunFormation,
        outputFault,
        beforeIntermediateMerge,
        onePassSlabBytes,
        beforeOnePassSlab,
        hook,
        probeMinBytes);
  }

  /** These hooks with another smallest run {@code auto}'s device probe reads (0: the default). */
  public SortHooks withProbeMinBytes(long bytes) {
    return new SortHooks(
        runRecordsLimit,
        afterRunFormation,
        outputFault,
        beforeIntermediateMerge,
        onePassSlabBytes,
        beforeOnePassSlab,
        beforeSessionRunWrite,
        bytes);
  }

  /** How this package reaches the hooks that {@code SortConfig} keeps private. */
  public interface Access {
    /** The hooks of {@code config}. */
    SortHooks get(SortConfig config);

    /** The hooks {@code builder} holds so far. */
    SortHooks get(SortConfig.Builder builder);

    /** The hooks {@code builder} holds so far ({@link #NONE} unless set). */
    public static SortHooks of(SortConfig.Builder builder) {
      return access().get(builder);
    }

    /** Sets the hooks of the configuration {@code builder} will build. */
    void set(SortConfig.Builder builder, SortHooks hooks);
  }

  /** Called once, by {@code SortConfig}'s static initializer. */
  public static void install(Access a) {
    if (access != null) {
      throw new IllegalStateException("SortHooks access is already installed");
    }
    access = Objects.requireNonNull(a, "access");
  }

  /** The hooks of {@code config} ({@link #NONE} unless a test set them). */
  public static SortHooks of(SortConfig config) {
    return access().get(config);
  }

  /** The hooks {@code builder} holds so far ({@link #NONE} unless set). */
  public static SortHooks of(SortConfig.Builder builder) {
    return access().get(builder);
  }

  /** Sets the hooks of the configuration {@code builder} will build; returns the builder. */
  public static SortConfig.Builder set(SortConfig.Builder builder, SortHooks hooks) {
    access().set(builder, Objects.requireNonNull(hooks, "hooks"));
    return builder;
  }

  private static Access access() {
    Access a = access;
    if (a == null) {
      SortConfig.builder(); // initializes SortConfig, which installs the access
      a = access;
    }
    return a;
  }
}

package dev.joule.io.testing;

import dev.joule.io.config.SortConfig;
import dev.joule.io.hooks.OutputFault;
import dev.joule.io.hooks.SortHooks;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/** Sets the internal {@link SortHooks} of a configuration under construction, for tests. */
public final class TestHooks {
  private TestHooks() {}

  /** Caps the records per run of the configuration {@code b} builds; returns {@code b}. */
  public static SortConfig.Builder runRecordsLimit(SortConfig.Builder b, long records) {
    return SortHooks.set(b, SortHooks.of(b).withRunRecordsLimit(records));
  }

  /** Lets {@code auto}'s device probe read run files from {@code bytes} up; returns {@code b}. */
  public static SortConfig.Builder probeMinBytes(SortConfig.Builder b, long bytes) {
    return SortHooks.set(b, SortHooks.of(b).withProbeMinBytes(bytes));
  }

  /** Calls {@code hook} with the run files after run formation; returns {@code b}. */
  public static SortConfig.Builder afterRunFormation(
      SortConfig.Builder b, Consumer<List<Path>> hook) {
    return SortHooks.set(b, SortHooks.of(b).withAfterRunFormation(hook));
  }

  /**
   * Calls {@code hook} with the input run files of every intermediate merge, on that merge's thread
   * before it opens them; returns {@code b}.
   */
  public static SortConfig.Builder beforeIntermediateMerge(
      SortConfig.Builder b, Consumer<List<Path>> hook) {
    return SortHooks.set(b, SortHooks.of(b).withBeforeIntermediateMerge(hook));
  }

  /**
   * Injects {@code fault} into the output path of the sort {@code b} configures; returns {@code b}.
   */
  public static SortConfig.Builder outputFault(SortConfig.Builder b, OutputFault fault) {
    return SortHooks.set(b, SortHooks.of(b).withOutputFault(fault));
  }

  /**
   * Makes the one-pass sort of fixed records fill its arena in slabs of about {@code bytes}
   * (rounded to whole records and pages); returns {@code b}.
   */
  public static SortConfig.Builder onePassSlabBytes(SortConfig.Builder b, int bytes) {
    return SortHooks.set(b, SortHooks.of(b).withOnePassSlabBytes(bytes));
  }

  /** Calls {@code hook} with each slab number before the one-pass sort allocates it. */
  public static SortConfig.Builder beforeOnePassSlab(SortConfig.Builder b, IntConsumer hook) {
    return SortHooks.set(b, SortHooks.of(b).withBeforeOnePassSlab(hook));
  }
}

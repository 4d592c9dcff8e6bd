package dev.joule.cli;

import dev.joule.io.config.SortConfig;
import dev.joule.io.pipeline.SortedInputs;
import dev.joule.io.report.SortReport;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;

/**
 * What the CLI needs from the sort engine: {@code ExternalSorter.sort} of a file or of streams, and
 * {@code ExternalSorter.plan(...).describe()}. The seam lets the command tests inject failures
 * (typed exceptions, reports) without a real sort; {@link #external()} is the engine the CLI runs.
 */
interface SortEngine {
  /** Sorts {@code input} into {@code output}; see {@code ExternalSorter.sort}. */
  SortReport sort(Path input, Path output, SortConfig config) throws IOException;

  /**
   * Sorts the streams {@code inputs} into {@code output}, published atomically; see {@code
   * ExternalSorter.sort(List, Path, SortConfig)}.
   */
  SortReport sort(List<SortedInputs.Input> inputs, Path output, SortConfig config)
      throws IOException;

  /**
   * Sorts the streams {@code inputs} into the stream {@code out}, which errors call {@code
   * outName}; see {@code ExternalSorter.sort(List, OutputStream, Path, SortConfig)}.
   */
  SortReport sort(
      List<SortedInputs.Input> inputs, OutputStream out, Path outName, SortConfig config)
      throws IOException;

  /** What {@code --explain} prints: the plan, validated like a sort, with nothing written. */
  String explain(Path input, Path output, SortConfig config) throws IOException;

  /** The real engine: {@code dev.joule.io.pipeline.ExternalSorter}. */
  static SortEngine external() {
    return ExternalSortEngine.INSTANCE;
  }
}

package dev.joule.cli;

import dev.joule.io.config.SortConfig;
import dev.joule.io.pipeline.ExternalSorter;
import dev.joule.io.pipeline.SortedInputs;
import dev.joule.io.report.SortReport;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;

/** {@link SortEngine} over {@link ExternalSorter}. Stateless. */
final class ExternalSortEngine implements SortEngine {
  static final ExternalSortEngine INSTANCE = new ExternalSortEngine();

  private ExternalSortEngine() {}

  @Override
  public SortReport sort(Path input, Path output, SortConfig config) throws IOException {
    return ExternalSorter.sort(input, output, config);
  }

  @Override
  public SortReport sort(List<SortedInputs.Input> inputs, Path output, SortConfig config)
      throws IOException {
    return ExternalSorter.sort(inputs, output, config);
  }

  @Override
  public SortReport sort(
      List<SortedInputs.Input> inputs, OutputStream out, Path outName, SortConfig config)
      throws IOException {
    return ExternalSorter.sort(inputs, out, outName, config);
  }

  @Override
  public String explain(Path input, Path output, SortConfig config) throws IOException {
    return ExternalSorter.plan(input, output, config).describe();
  }
}

package dev.joule.cli;

import dev.joule.io.pipeline.SortConfig;
import dev.joule.io.pipeline.SortReport;
import java.io.IOException;
import java.nio.file.Path;

/** {@link SortEngine} over {@code ExternalSorter}. Stateless. */
final class ExternalSortEngine implements SortEngine {
  static final ExternalSortEngine INSTANCE = new ExternalSortEngine();

  private ExternalSortEngine() {}

  @Override
  public SortReport sort(Path input, Path output, SortConfig config) throws IOException {
    throw notYet();
  }

  @Override
  public String explain(Path input, Path output, SortConfig config) throws IOException {
    throw notYet();
  }

  // Until branch `pipeline` provides ExternalSorter; then these call it directly.
  private static UnsupportedOperationException notYet() {
    return new UnsupportedOperationException("the sort engine (ExternalSorter) is not in this build yet");
  }
}

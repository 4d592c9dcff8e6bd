package dev.joule.cli;

import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortIOException;
import dev.joule.io.pipeline.SortedInputs;
import dev.joule.io.report.DataSummary;
import dev.joule.io.report.PhaseReport;
import dev.joule.io.report.SortReport;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A test double of the CLI's {@link SortEngine} seam: it records what the command passed, and then
 * either throws a given exception or writes a fixed marker (not a sort) to the output and returns a
 * canned report. Real sorting is exercised by the src-it tests through ExternalSorter.
 */
final class StubEngine implements SortEngine {
  static final byte[] MARKER = "stub output\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /** What the command passed to the last call: the file, or (a sort of streams) the streams. */
  Path input;

  List<SortedInputs.Input> streams;

  Path output;
  SortConfig config;
  byte[] inputBytes;
  int sorts;
  int explains;

  /** Thrown by sort/explain when set. */
  Exception failure;

  /** Called with the config before returning, e.g. to report progress or notices. */
  java.util.function.Consumer<SortConfig> during = c -> {};

  static final SortReport REPORT =
      new SortReport(
          1000,
          100_000,
          2,
          1,
          true,
          3,
          1,
          3,
          8L << 20,
          List.of(
              new PhaseReport(
                  "run formation", 2_000_000_000L, 3_000_000_000L, 100_000, 100_000, 0, 3, 0),
              new PhaseReport(
                  "merge pass 1", 1_000_000_000L, 1_000_000_000L, 100_000, 100_000, 3, 1, 3)),
          new DataSummary(1000, "1ea6370b955", 0, false),
          new DataSummary(1000, "1ea6370b955", 0, true));

  @Override
  public SortReport sort(Path in, Path out, SortConfig c) throws IOException {
    sorts++;
    record(in, out, c);
    during.accept(c);
    rethrow();
    Files.write(out, MARKER);
    return REPORT;
  }

  @Override
  public SortReport sort(List<SortedInputs.Input> in, Path out, SortConfig c) throws IOException {
    sorts++;
    record(in, out, c);
    during.accept(c);
    rethrow();
    Files.write(out, MARKER);
    return REPORT;
  }

  @Override
  public SortReport sort(List<SortedInputs.Input> in, OutputStream out, Path outName, SortConfig c)
      throws IOException {
    sorts++;
    record(in, outName, c);
    during.accept(c);
    rethrow();
    try {
      out.write(MARKER);
    } catch (IOException e) { // the engine's contract: a failed write names the output
      throw new SortIOException("write", outName, SortIOException.reasonOf(e), e);
    }
    return REPORT;
  }

  @Override
  public String explain(Path in, Path out, SortConfig c) throws IOException {
    explains++;
    record(in, out, c);
    rethrow();
    return "plan: 1 run, no merge\n";
  }

  private void record(Path in, Path out, SortConfig c) throws IOException {
    input = in;
    streams = null;
    output = out;
    config = c;
    inputBytes = Files.readAllBytes(in);
  }

  /**
   * Records a sort of streams: what they hold, read to their end (and closed, as the engine does).
   */
  private void record(List<SortedInputs.Input> in, Path out, SortConfig c) throws IOException {
    input = null;
    streams = in;
    output = out;
    config = c;
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (SortedInputs.Input i : in) {
      try (InputStream s = i.stream()) {
        s.transferTo(all);
      }
    }
    inputBytes = all.toByteArray();
  }

  private void rethrow() throws IOException {
    if (failure instanceof IOException) {
      throw (IOException) failure;
    }
    if (failure instanceof RuntimeException) {
      throw (RuntimeException) failure;
    }
  }

  /** An environment with this engine, {@code stdin} as standard input and a captured stdout. */
  CliEnvironment env(InputStream stdin, ByteArrayOutputStream stdout, Path powercap) {
    return new CliEnvironment(this, stdin, stdout, powercap);
  }

  CliEnvironment env() {
    return env(
        new ByteArrayInputStream(new byte[0]),
        new ByteArrayOutputStream(),
        Path.of("/nonexistent"));
  }
}

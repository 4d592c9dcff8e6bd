package dev.joule.io.pipeline;

import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.fs.NoticeSink;
import dev.joule.io.fs.SortIOException;
import dev.joule.io.input.InputFile;
import dev.joule.io.stripe.Stripe;
import dev.joule.io.stripe.TempSpace;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The facade of the sort: file to file ({@link #sort}), the plan alone ({@link #plan}), and a
 * push/pull session ({@link #open}).
 *
 * <p><b>File sort.</b> Checks the arguments (input readable and a whole number of records, output
 * directory present, temp stripes valid) before writing anything; then either the one-pass {@link
 * InMemorySortPhase} or {@link RunFormationPhase} followed by the {@link MergePlan}'s passes in
 * {@link MergePhase} (intermediate merges into temp runs, deleted as soon as they are consumed; the
 * final merge split over threads). The output is validated while it is written (count, checksum and
 * order against the input's count and checksum) and published atomically only if it matches;
 * otherwise {@link SortValidationException} and nothing is published.
 *
 * <p><b>Failure.</b> Every path closes what it opened (arenas, pools, reader and writer threads,
 * the radix ForkJoin pool), deletes the temp files ({@link TempSpace#closeAfterFailure}) and the
 * output temporary; the original exception propagates with cleanup errors suppressed. An interrupt
 * of the calling thread cancels the sort between blocks: {@link SortCancelledException}.
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
    FileSortJob job = new FileSortJob(output, config);
    try {
      checkCancelled();
      SortReport report = job.run(input);
      closeOrThrow(job.resources());
      return report;
    } catch (Throwable e) {
      job.closeAfterFailure(e);
      throw translate(e);
    }
  }

  /** Compares the output's validation with the input's numbers; returns the input's summary. */
  static DataSummary validate(
      long inputRecords, RecordChecksum inputChecksum, OutputValidator out, Path output)
      throws SortValidationException {
    DataSummary o = out.summary();
    // The input side cannot know its duplicates or order without sorting: -1 and false
    // (DataSummary).
    DataSummary in = new DataSummary(inputRecords, inputChecksum.toHex(), -1, false);
    if (o.records() != inputRecords || !out.checksum().equals(inputChecksum) || !o.ordered()) {
      throw new SortValidationException(
          "self-validation failed for "
              + output
              + ": input "
              + inputRecords
              + " records, checksum "
              + inputChecksum.toHex()
              + "; output "
              + o.records()
              + " records, checksum "
              + o.checksum()
              + (o.ordered() ? "" : ", NOT in key order")
              + "; nothing was published");
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

  /**
   * Throws {@link SortCancelledException} if the current thread was interrupted (flag kept set).
   */
  static void checkCancelled() throws SortCancelledException {
    if (Thread.currentThread().isInterrupted()) {
      throw new SortCancelledException("sort cancelled (thread interrupted)");
    }
  }

  static void checkOutputDir(Path output) throws SortIOException {
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

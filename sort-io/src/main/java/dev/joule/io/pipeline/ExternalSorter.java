package dev.joule.io.pipeline;

import dev.joule.io.config.NoticeSink;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.CorruptRunException;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.error.SortIOException;
import dev.joule.io.error.SortValidationException;
import dev.joule.io.fs.Failures;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.input.InputFile;
import dev.joule.io.output.AtomicOutput;
import dev.joule.io.plan.SortPlan;
import dev.joule.io.report.SortReport;
import dev.joule.io.stripe.Stripe;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The facade of the sort: file to file ({@link #sort}), the plan alone ({@link #plan}), and a
 * push/pull session ({@link #open}).
 *
 * <p><b>File sort.</b> Checks the arguments (input readable and a whole number of records, output
 * directory present, temp stripes valid) before writing anything; then sorts in one pass when the
 * input fits the budget, else forms sorted runs and merges them in the passes the {@link
 * dev.joule.io.plan.MergePlan} asks for (intermediate merges into temp runs, deleted as soon as
 * they are consumed; the final merge split over threads). The output is validated while it is
 * written (count, checksum and order against the input's) and published atomically only if it
 * matches; otherwise {@link SortValidationException} and nothing is published.
 *
 * <p><b>Failure.</b> Every path closes what it opened (arenas, pools, reader and writer threads,
 * the radix ForkJoin pool), deletes the temp files and the output temporary; the original exception
 * propagates with cleanup errors suppressed: {@link SortIOException} (operation, path, errno text),
 * {@link CorruptRunException}, {@link SortValidationException}. An interrupt of the calling thread
 * cancels the sort between blocks: {@link SortCancelledException}.
 *
 * <p>Stateless and thread-safe: concurrent sorts share nothing.
 */
public final class ExternalSorter {
  private ExternalSorter() {}

  /**
   * Sorts {@code input} into {@code output} (which may be {@code input}); validates itself and
   * publishes atomically.
   *
   * @return what the sort did: phases, times, runs, and the valsort numbers of input and output
   * @throws IOException one of the typed failures of the class documentation
   */
  public static SortReport sort(Path input, Path output, SortConfig config) throws IOException {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(output, "output");
    Objects.requireNonNull(config, "config");
    FileSortJob job = new FileSortJob(output, config);
    try {
      Failures.checkCancelled();
      SortReport report = job.run(input);
      job.close();
      return report;
    } catch (Throwable e) {
      job.closeAfterFailure(e);
      throw Failures.translate(e);
    }
  }

  /**
   * Checks the arguments exactly as {@link #sort} does (input readable and whole records, output
   * directory present and writable, stripes valid) and returns the plan, writing nothing.
   *
   * @throws IOException a {@link SortIOException} naming the first bad path
   */
  public static SortPlan plan(Path input, Path output, SortConfig config) throws IOException {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(output, "output");
    Objects.requireNonNull(config, "config");
    SortPlan plan;
    try (InputFile in = InputFile.open(input, config.directIo(), NoticeSink.IGNORE)) {
      plan = FileSortJob.plan(in, config, EntrySpec.of(config));
    }
    AtomicOutput.checkDirectory(output);
    checkTempDirs(config);
    return plan;
  }

  /**
   * Checks that every temp directory of {@code config} can hold this sort's private directory
   * (exists, is a writable directory, and is not world-writable without the sticky bit).
   *
   * @throws SortIOException naming the first unusable directory
   */
  public static void checkTempDirs(SortConfig config) throws SortIOException {
    for (Path d : config.tempDirs()) {
      checkTempDir(d);
    }
  }

  /**
   * Checks that {@code dir} can hold a sort's private directory: the checks of {@link
   * #checkTempDirs} for one directory.
   *
   * @throws SortIOException naming {@code dir} and the reason
   */
  public static void checkTempDir(Path dir) throws SortIOException {
    Stripe.validate(dir);
  }

  /**
   * A push/pull session for embedding: add records, then pull them sorted.
   *
   * @throws IOException when the session cannot start
   */
  public static SortSession open(SortConfig config) throws IOException {
    return new SortSession(Objects.requireNonNull(config, "config"), false);
  }

  /**
   * A push/pull session of key/value pairs ({@link SortSession#add(ByteBuffer, ByteBuffer)}),
   * ordered by the unsigned bytes of the keys; the configuration's format and key do not apply.
   *
   * @throws IOException when the session cannot start
   */
  public static SortSession openPairs(SortConfig config) throws IOException {
    return new SortSession(Objects.requireNonNull(config, "config"), true);
  }
}

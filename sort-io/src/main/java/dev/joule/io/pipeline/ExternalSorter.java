package dev.joule.io.pipeline;

import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.FileKind;
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
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
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
 * <p><b>Failure.</b> Every path closes what it opened (arenas, pools, every thread it started, the
 * radix ForkJoin pool unless it is the caller's), deletes the temp files and the output temporary;
 * the original exception propagates with cleanup errors suppressed: {@link SortIOException}
 * (operation, path, errno text), {@link CorruptRunException}, {@link SortValidationException}. An
 * interrupt of the calling thread cancels the sort between blocks: {@link SortCancelledException}.
 * A caller's {@link SortConfig#threadFactory() thread factory} that refuses a thread, or a {@link
 * SortConfig#computePool() compute pool} that is shut down, fails it with a {@link
 * java.util.concurrent.RejectedExecutionException} after the same cleanup.
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
   * Merges inputs that are each already sorted under {@code config} into {@code output} (GNU's
   * {@code sort -m}), published atomically as a sort's output is; {@code output} may be one of the
   * inputs. Equal records leave in input order; unique mode keeps the first of equal keys. An input
   * out of order is merged as it comes, not refused; check it first with {@link #check}.
   *
   * @return the records written
   * @throws IOException a {@link SortIOException} naming the input or output that failed
   */
  public static long merge(List<SortedInputs.Input> inputs, Path output, SortConfig config)
      throws IOException {
    Objects.requireNonNull(output, "output");
    Objects.requireNonNull(config, "config");
    AtomicOutput.checkDirectory(output);
    SortThreads threads = SortThreads.of(config.threadFactory());
    try (BlockPool pool = new BlockPool(2, config.transferSize(FileKind.OUTPUT));
        AtomicOutput out =
            AtomicOutput.create(output, config.directIo(), config.notices(), pool, 1, threads)) {
      long n = SortedInputs.merge(inputs, EntrySpec.FramedSink.of(out.writer()), config);
      out.commit();
      return n;
    } catch (Throwable e) {
      throw Failures.translate(e);
    }
  }

  /**
   * Merges as {@link #merge(List, Path, SortConfig)} into the stream {@code out} (flushed, not
   * closed), which errors call {@code outName}.
   *
   * @return the records written
   */
  public static long merge(
      List<SortedInputs.Input> inputs, OutputStream out, Path outName, SortConfig config)
      throws IOException {
    Objects.requireNonNull(config, "config");
    BufferedOutputStream buffered = new BufferedOutputStream(out, 1 << 16);
    long n = SortedInputs.merge(inputs, SortedInputs.sink(buffered, outName), config);
    try {
      buffered.flush();
    } catch (IOException e) {
      throw new SortIOException("write", outName, SortIOException.reasonOf(e), e);
    }
    return n;
  }

  /**
   * Checks whether {@code input} is sorted under {@code config} (GNU's {@code sort -c}; strictly,
   * without equal keys, in unique mode) and closes it.
   *
   * @return null if it is sorted, else the first record out of order
   * @throws IOException a {@link SortIOException} naming the input
   */
  public static SortedInputs.Disorder check(SortedInputs.Input input, SortConfig config)
      throws IOException {
    Objects.requireNonNull(config, "config");
    return SortedInputs.check(input, config);
  }

  /**
   * A push/pull session for embedding: add records of the configured format, then pull them sorted.
   * Nothing is allocated until the first record arrives.
   *
   * @throws IOException when the session cannot start: a temp directory that cannot hold its
   *     private directory ({@link SortIOException} naming it), or a shut-down compute pool
   */
  public static RecordSession open(SortConfig config) throws IOException {
    return new RecordSession(new SessionEngine(Objects.requireNonNull(config, "config"), false));
  }

  /**
   * A push/pull session of key/value pairs ({@link PairSession#add(ByteBuffer, ByteBuffer)}),
   * ordered by the unsigned bytes of the keys, then by the configuration's last resort (the values'
   * bytes) if it has one; the configuration's format and key do not apply.
   *
   * @throws IOException when the session cannot start, as for {@link #open}
   */
  public static PairSession openPairs(SortConfig config) throws IOException {
    return new PairSession(new SessionEngine(Objects.requireNonNull(config, "config"), true));
  }
}

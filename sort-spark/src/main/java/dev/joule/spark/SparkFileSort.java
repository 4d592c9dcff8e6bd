package dev.joule.spark;

import dev.joule.spark.executor.JouleEngine;
import dev.joule.spark.executor.TaskSorts;
import dev.joule.spark.input.InputPlan;
import dev.joule.spark.input.InputSplit;
import dev.joule.spark.input.SplitChecksums;
import dev.joule.spark.input.SplitSampler;
import dev.joule.spark.output.PartResult;
import dev.joule.spark.output.PartValidation;
import dev.joule.spark.output.PartWriter;
import dev.joule.spark.output.StagedOutput;
import dev.joule.spark.partition.IdPartitioner;
import dev.joule.spark.partition.KeySample;
import dev.joule.spark.partition.SampleSize;
import dev.joule.spark.partition.SplitterPartitioner;
import dev.joule.spark.partition.Splitters;
import dev.joule.spark.partition.UnsignedBytesComparator;
import dev.joule.spark.record.OrdinalRecordLayout;
import dev.joule.spark.shuffle.SplitChunks;
import dev.joule.spark.shuffle.SplitPairs;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkContext;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.SerializableConfiguration;
import scala.Tuple2;

/**
 * The sort of record files on Spark: sample the keys, range-partition by splitters, sort every
 * partition, write {@code part-NNNNN} files with their valsort summaries and {@code _SUCCESS}.
 *
 * <ol>
 *   <li><b>Plan</b> (driver): inputs checked and cut into splits ({@link InputPlan}); the output
 *       checked and a staging directory made ({@link StagedOutput}).
 *   <li><b>Sample</b> (one Spark job, a task per split): {@link SampleSize} keys with their
 *       ordinals ({@link SplitSampler}); the driver picks the {@link Splitters}.
 *   <li><b>Map</b> (a task per split): every record is wrapped with its ordinal and routed by the
 *       splitters. With the joule engine the records travel in chunks keyed by partition id ({@link
 *       SplitChunks}, {@link IdPartitioner}), so Spark never compares keys; with the Spark engine
 *       as {@code (key+ordinal, rest)} pairs ({@link SplitPairs}).
 *   <li><b>Reduce</b> (a task per partition): joule's engine sorts the chunks off-heap ({@link
 *       TaskSorts}), or Spark's {@code repartitionAndSortWithinPartitions} with the same splitters
 *       does; {@link PartWriter} writes and validates the part.
 *   <li><b>Commit</b> (driver): the parts are validated together against the input's count and
 *       checksum ({@link PartValidation}) and published at once ({@link StagedOutput#commit}).
 * </ol>
 *
 * <p>The parts concatenated in name order are byte-identical to {@code joule sort} of the inputs
 * concatenated: the order is (key, global ordinal) in both the splitters and every partition, which
 * is exactly the stable order, whatever order Spark fetches the shuffle blocks in. On any failure
 * the staging directory is removed and the exception names the path and the cause; nothing appears
 * under the output's name. Stateless.
 */
public final class SparkFileSort {
  /**
   * Local property of a test hook: the reduce task of this partition fails after writing its part,
   * so that the tests see a job fail with some parts already written.
   */
  public static final String FAIL_PARTITION = "spark.joule.test.failPartition";

  /** Bytes per partition when the number is not given. */
  public static final long DEFAULT_PARTITION_BYTES = 256L << 20;

  private SparkFileSort() {}

  /**
   * The default number of partitions: Spark's default parallelism (every core busy), or more when
   * the input exceeds {@link #DEFAULT_PARTITION_BYTES} per partition.
   */
  public static int defaultPartitions(int defaultParallelism, long inputBytes) {
    long bySize = (inputBytes + DEFAULT_PARTITION_BYTES - 1) / DEFAULT_PARTITION_BYTES;
    return (int) Math.min(StagedOutput.MAX_PARTITIONS, Math.max(defaultParallelism, bySize));
  }

  /** Sorts {@code spec}'s inputs into its output directory on {@code spark}'s context. */
  public static FileSortResult run(SparkSession spark, FileSortSpec spec) throws IOException {
    return run(Objects.requireNonNull(spark, "spark").sparkContext(), spec);
  }

  /**
   * Sorts {@code spec}'s inputs into its output directory on {@code sc}. Only Spark's core is
   * needed: the command line starts a bare context, which is seconds faster than a SQL session.
   */
  public static FileSortResult run(SparkContext sc, FileSortSpec spec) throws IOException {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(Objects.requireNonNull(sc, "sc"));
    Configuration hconf = jsc.hadoopConfiguration();
    OrdinalRecordLayout layout = spec.layout();
    long t0 = System.nanoTime();
    InputPlan plan =
        InputPlan.of(
            spec.inputs(), hconf, layout.recordSize(), spec.splitBytes(), jsc.defaultParallelism());
    int partitions =
        spec.partitions() > 0
            ? spec.partitions()
            : defaultPartitions(jsc.defaultParallelism(), plan.bytes());
    StagedOutput staged = StagedOutput.create(spec.output(), spec.overwrite(), hconf);
    JobMetrics metrics = JobMetrics.attach(sc);
    int jobs = 0;
    try {
      Broadcast<SerializableConfiguration> conf =
          jsc.broadcast(new SerializableConfiguration(hconf));
      long t1 = System.nanoTime();
      long sampleSize =
          spec.sampleSize() > 0
              ? Math.min(spec.sampleSize(), plan.records())
              : SampleSize.of(plan.records(), partitions);
      jsc.setLocalProperty(JobMetrics.PHASE, "sample");
      List<KeySample> samples = sample(jsc, plan, layout, sampleSize, conf);
      jobs += plan.splits().isEmpty() ? 0 : 1;
      Splitters splitters = Splitters.fromSample(samples, partitions, layout.sortKeyLength());
      long t2 = System.nanoTime();
      jsc.setLocalProperty(JobMetrics.PHASE, "sort");
      SplitChecksums read = new SplitChecksums();
      // unnamed: Spark then keeps it out of its listener events and the UI
      jsc.sc().register(read);
      JavaRDD<InputSplit> splits =
          jsc.parallelize(plan.splits(), Math.max(1, plan.splits().size()));
      long sampled = samples.stream().mapToLong(KeySample::size).sum();
      long expected = SampleSize.largestPartition(plan.records(), partitions, sampled);
      JavaRDD<PartResult> written =
          spec.engine() == FileSortSpec.Engine.JOULE
              ? sortWithJoule(jsc, splits, layout, splitters, expected, staged, conf, read)
              : sortWithSpark(splits, layout, splitters, staged, conf, read);
      List<PartResult> parts = new ArrayList<>(written.collect());
      jobs++;
      jsc.setLocalProperty(JobMetrics.PHASE, null);
      parts.sort(Comparator.comparingInt(PartResult::partition));
      long t3 = System.nanoTime();
      if (read.value().size() != plan.splits().size() || read.records() != plan.records()) {
        throw new JobValidationException(
            "the map tasks reported "
                + read.value().size()
                + " of "
                + plan.splits().size()
                + " splits and "
                + read.records()
                + " of "
                + plan.records()
                + " records; nothing was published");
      }
      PartValidation.Verdict verdict =
          PartValidation.check(parts, partitions, plan.records(), read.checksum());
      staged.commit(parts);
      long t4 = System.nanoTime();
      metrics.awaitJobs(jobs, 5_000);
      return new FileSortResult(
          staged.output(),
          spec.engine(),
          plan.files().size(),
          partitions,
          sampled,
          verdict,
          (t1 - t0) / 1e9,
          (t2 - t1) / 1e9,
          (t3 - t2) / 1e9,
          (t4 - t3) / 1e9,
          parts.stream().mapToLong(PartResult::records).max().orElse(0),
          parts.stream().mapToLong(PartResult::writeMillis).sum() / 1e3,
          parts.stream().mapToLong(PartResult::syncMillis).sum() / 1e3,
          metrics.stages());
    } catch (Throwable e) {
      staged.abort(e);
      throw failure(e);
    } finally {
      jsc.setLocalProperty(JobMetrics.PHASE, null);
      metrics.detach(sc);
    }
  }

  private static List<KeySample> sample(
      JavaSparkContext jsc,
      InputPlan plan,
      OrdinalRecordLayout layout,
      long sampleSize,
      Broadcast<SerializableConfiguration> conf) {
    if (plan.splits().isEmpty() || sampleSize == 0) {
      return List.of();
    }
    long total = plan.records();
    boolean complete = sampleSize >= total;
    return jsc.parallelize(plan.splits(), plan.splits().size())
        .map(
            s -> {
              long wanted =
                  complete
                      ? s.records()
                      : Math.max(1, Math.round((double) sampleSize * s.records() / total));
              return SplitSampler.sample(s, layout, wanted, conf.value().value());
            })
        .filter(Objects::nonNull)
        .collect();
  }

  private static JavaRDD<PartResult> sortWithJoule(
      JavaSparkContext jsc,
      JavaRDD<InputSplit> splits,
      OrdinalRecordLayout layout,
      Splitters splitters,
      long expectedRecords,
      StagedOutput staged,
      Broadcast<SerializableConfiguration> conf,
      SplitChecksums read) {
    Broadcast<Splitters> bs = jsc.broadcast(splitters);
    String attempts = staged.attemptDir();
    PairFlatMapFunction<Iterator<InputSplit>, Integer, byte[]> map =
        it -> new SplitChunks(it, layout, bs.value(), conf.value().value(), read);
    Function2<Integer, Iterator<Tuple2<Integer, byte[]>>, Iterator<PartResult>> reduce =
        (p, chunks) ->
            List.of(sortPart(p, chunks, layout, expectedRecords, attempts, conf.value().value()))
                .iterator();
    return splits
        .mapPartitionsToPair(map)
        .partitionBy(new IdPartitioner(splitters.partitions()))
        .mapPartitionsWithIndex(reduce, false);
  }

  /** A reduce task of the joule engine: sort the partition's chunks, write the part. */
  private static PartResult sortPart(
      int partition,
      Iterator<Tuple2<Integer, byte[]>> chunks,
      OrdinalRecordLayout layout,
      long expectedRecords,
      String attemptDir,
      Configuration conf)
      throws IOException {
    try (JouleEngine.PartitionSort sort = TaskSorts.open(layout, expectedRecords)) {
      while (chunks.hasNext()) {
        sort.add(chunks.next()._2());
      }
      sort.finish();
      try (PartWriter w =
          new PartWriter(conf, attemptDir, partition, TaskContext.get().taskAttemptId(), layout)) {
        while (sort.next()) {
          w.addWrapped(sort.record());
        }
        return failIfAsked(partition, w.finish());
      }
    }
  }

  private static JavaRDD<PartResult> sortWithSpark(
      JavaRDD<InputSplit> splits,
      OrdinalRecordLayout layout,
      Splitters splitters,
      StagedOutput staged,
      Broadcast<SerializableConfiguration> conf,
      SplitChecksums read) {
    String attempts = staged.attemptDir();
    PairFlatMapFunction<Iterator<InputSplit>, byte[], byte[]> map =
        it -> new SplitPairs(it, layout, conf.value().value(), read);
    Function2<Integer, Iterator<Tuple2<byte[], byte[]>>, Iterator<PartResult>> reduce =
        (p, records) ->
            List.of(writePart(p, records, layout, attempts, conf.value().value())).iterator();
    return splits
        .mapPartitionsToPair(map)
        .repartitionAndSortWithinPartitions(
            new SplitterPartitioner(splitters), new UnsignedBytesComparator())
        .mapPartitionsWithIndex(reduce, false);
  }

  /** A reduce task of the Spark engine: Spark has sorted the records; write the part. */
  private static PartResult writePart(
      int partition,
      Iterator<Tuple2<byte[], byte[]>> sorted,
      OrdinalRecordLayout layout,
      String attemptDir,
      Configuration conf)
      throws IOException {
    try (PartWriter w =
        new PartWriter(conf, attemptDir, partition, TaskContext.get().taskAttemptId(), layout)) {
      while (sorted.hasNext()) {
        Tuple2<byte[], byte[]> r = sorted.next();
        w.addJoined(r._1(), r._2());
      }
      return failIfAsked(partition, w.finish());
    }
  }

  private static PartResult failIfAsked(int partition, PartResult written) throws JobIOException {
    String fail = TaskContext.get().getLocalProperty(FAIL_PARTITION);
    if (Integer.toString(partition).equals(fail)) {
      throw new JobIOException(
          "write", written.partFile(), "failed on purpose (" + FAIL_PARTITION + ")");
    }
    return written;
  }

  /**
   * The exception to report for a failed sort: for a task failure, a {@link TaskFailedException}
   * with the task's own exception (whose message names the path and the cause) rather than Spark's
   * multi-line report; otherwise the exception itself.
   */
  static IOException failure(Throwable e) {
    if (e instanceof Error err) {
      throw err;
    }
    boolean fromSpark = false;
    Throwable task = null;
    for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof org.apache.spark.SparkException) {
        fromSpark = true;
      } else if (fromSpark) {
        task = t;
        break; // the first cause below Spark's report is what the task threw
      }
    }
    if (fromSpark) {
      Throwable cause = task == null ? e : task;
      // unwrap the iterator's UncheckedIOException around the task's IOException
      if (cause instanceof java.io.UncheckedIOException && cause.getCause() != null) {
        cause = cause.getCause();
      }
      return new TaskFailedException(cause, e);
    }
    if (e instanceof IOException io) {
      return io;
    }
    if (e instanceof RuntimeException re) {
      throw re;
    }
    return new IOException(e);
  }
}

package dev.joule.spark;

import dev.joule.spark.input.InputPlan;
import dev.joule.spark.output.StagedOutput;
import dev.joule.spark.record.OrdinalRecordLayout;
import java.util.List;
import java.util.Objects;

/**
 * What {@link SparkFileSort} sorts, where to, and how.
 *
 * @param inputs input files or directories, in order (their concatenation is what is sorted)
 * @param output the output directory to create
 * @param layout record size and key position
 * @param partitions number of parts; 0 picks {@link SparkFileSort#defaultPartitions}
 * @param engine who sorts each partition
 * @param overwrite replace an existing output directory
 * @param splitBytes most input bytes per map task
 * @param sampleSize keys to sample for the splitters; 0 uses {@link
 *     dev.joule.spark.partition.SampleSize}
 */
public record FileSortSpec(
    List<String> inputs,
    String output,
    OrdinalRecordLayout layout,
    int partitions,
    Engine engine,
    boolean overwrite,
    long splitBytes,
    long sampleSize) {

  /** Who sorts each partition. */
  public enum Engine {
    /** joule's off-heap engine, fed with chunks of wrapped records shuffled by partition id. */
    JOULE,
    /** Spark's {@code repartitionAndSortWithinPartitions} with the same splitters: the baseline. */
    SPARK
  }

  public FileSortSpec {
    inputs = List.copyOf(inputs);
    Objects.requireNonNull(output, "output");
    Objects.requireNonNull(layout, "layout");
    Objects.requireNonNull(engine, "engine");
    if (inputs.isEmpty()) {
      throw new IllegalArgumentException("at least one input is needed");
    }
    if (partitions < 0 || partitions > StagedOutput.MAX_PARTITIONS) {
      throw new IllegalArgumentException(
          "partitions " + partitions + " is outside 1.." + StagedOutput.MAX_PARTITIONS);
    }
    if (splitBytes < 1) {
      throw new IllegalArgumentException("split size must be positive: " + splitBytes);
    }
    if (sampleSize < 0) {
      throw new IllegalArgumentException("sample size must not be negative: " + sampleSize);
    }
  }

  /** gensort records, automatic partitions, the joule engine, default split and sample sizes. */
  public static FileSortSpec of(List<String> inputs, String output) {
    return new FileSortSpec(
        inputs,
        output,
        OrdinalRecordLayout.gensort(),
        0,
        Engine.JOULE,
        false,
        InputPlan.DEFAULT_SPLIT_BYTES,
        0);
  }

  public FileSortSpec withPartitions(int p) {
    return new FileSortSpec(inputs, output, layout, p, engine, overwrite, splitBytes, sampleSize);
  }

  public FileSortSpec withEngine(Engine e) {
    return new FileSortSpec(
        inputs, output, layout, partitions, e, overwrite, splitBytes, sampleSize);
  }

  public FileSortSpec withLayout(OrdinalRecordLayout l) {
    return new FileSortSpec(
        inputs, output, l, partitions, engine, overwrite, splitBytes, sampleSize);
  }

  public FileSortSpec withOverwrite(boolean o) {
    return new FileSortSpec(inputs, output, layout, partitions, engine, o, splitBytes, sampleSize);
  }

  public FileSortSpec withSplitBytes(long b) {
    return new FileSortSpec(inputs, output, layout, partitions, engine, overwrite, b, sampleSize);
  }

  public FileSortSpec withSampleSize(long s) {
    return new FileSortSpec(inputs, output, layout, partitions, engine, overwrite, splitBytes, s);
  }
}

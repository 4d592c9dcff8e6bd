package dev.joule.spark.cli;

import dev.joule.spark.FileSortResult;
import dev.joule.spark.FileSortSpec;
import dev.joule.spark.JobValidationException;
import dev.joule.spark.SparkFileSort;
import dev.joule.spark.executor.ExecutorBudget;
import dev.joule.spark.executor.JouleEngine;
import dev.joule.spark.executor.TaskSorts;
import dev.joule.spark.input.InputPlan;
import dev.joule.spark.output.StagedOutput;
import dev.joule.spark.record.OrdinalRecordLayout;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import scala.Tuple2;

/**
 * {@code joule-spark sort}: checks the arguments, the inputs and the output before Spark starts,
 * then runs {@link SparkFileSort} and prints its report on standard error. Errors are one line,
 * {@code joule-spark: <op> failed: <path>: <reason>}; exit codes as {@code joule sort}.
 */
@Command(
    name = "sort",
    mixinStandardHelpOptions = true,
    versionProvider = SparkVersionProvider.class,
    sortOptions = false,
    separator = " ",
    description = {
      "Sorts the concatenation of INPUT... (files, or directories of files) by key into"
          + " OUTPUT_DIR/part-NNNNN files, in name order, each with its 280-byte valsort summary"
          + " part-NNNNN.sum (gensort layout only), and _SUCCESS when everything is complete and"
          + " validated.",
      "The result is byte-identical to `joule sort` of the concatenated inputs (stable: equal keys"
          + " keep their input order). `cat OUTPUT_DIR/part-*.sum > all.sum && joule valsort -s"
          + " all.sum` validates it.",
      "Every path must be reachable under the same name from the driver and every executor (local"
          + " disk in local mode; HDFS or a shared mount on a cluster).",
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:success",
      "2:usage, I/O or environment error, or a failed Spark task",
      "3:corruption detected (run checksum or self-validation mismatch); nothing published",
    },
    footer = {
      "",
      "Examples:",
      "  joule-spark sort data.dat sorted",
      "  joule-spark sort --master local[2] --partitions 8 --engine spark data.dat sorted",
      "  joule-spark sort --record-size 16 --key-offset 8 --key-size 8 a.bin b.bin out",
      "  spark-submit --class dev.joule.spark.cli.JouleSparkCommand joule-spark.jar sort"
          + " hdfs:///in hdfs:///out",
    })
public final class SparkSortCommand implements Callable<Integer> {
  static final int OK = 0;
  static final int USAGE_OR_IO = 2;
  static final int CORRUPT = 3;

  @Spec CommandSpec spec;

  @Option(
      names = "--master",
      paramLabel = "URL",
      description =
          "Spark master. Default: spark.master when set (spark-submit sets it), else local[*].")
  String master;

  @Option(
      names = "--partitions",
      paramLabel = "N",
      description =
          "Parts to write, 1..100000. Default: Spark's default parallelism, or one per 256 MiB of"
              + " input when that is more.")
  Integer partitions;

  @Option(
      names = "--engine",
      paramLabel = "joule|spark",
      description =
          "Who sorts each partition: joule's off-heap engine, or Spark's own"
              + " repartitionAndSortWithinPartitions with the same splitters (the baseline)."
              + " Default: joule.")
  FileSortSpec.Engine engine = FileSortSpec.Engine.JOULE;

  @Option(
      names = "--memory",
      paramLabel = "SIZE",
      description =
          "Most memory per task for joule's engine (k, m, g; powers of 1024); sets "
              + ExecutorBudget.MEMORY
              + ". Default: half the executor's direct-memory limit over its task slots, or"
              + " spark.memory.offHeap.size over the slots when Spark's off-heap memory is on.")
  String memory;

  @Option(
      names = "--threads",
      paramLabel = "N",
      description =
          "Sort threads per task, 1..256; sets "
              + TaskSorts.THREADS
              + ". Default: spark.task.cpus.")
  Integer threads;

  @Option(
      names = "--temp",
      paramLabel = "DIR",
      description =
          "Temp directory for spilled runs on every executor, repeatable (one stripe each); sets "
              + TaskSorts.TEMP_DIRS
              + ". Default: the executor's Spark local dirs.")
  List<String> temp = new ArrayList<>();

  @Option(
      names = "--record-size",
      paramLabel = "BYTES",
      description = "Fixed record size, 1..65527. Default: ${DEFAULT-VALUE} (gensort).")
  int recordSize = 100;

  @Option(
      names = "--key-offset",
      paramLabel = "BYTES",
      description = "Offset of the key in the record. Default: ${DEFAULT-VALUE}.")
  int keyOffset = 0;

  @Option(
      names = "--key-size",
      paramLabel = "BYTES",
      description = "Key length; keys compare as unsigned bytes. Default: ${DEFAULT-VALUE}.")
  int keySize = 10;

  @Option(
      names = "--sample-size",
      paramLabel = "N",
      description =
          "Keys to sample for the splitters. Default: max(100000, 100 per partition), at most the"
              + " records.")
  long sampleSize;

  @Option(
      names = "--split-size",
      paramLabel = "SIZE",
      description = "Most input bytes per map task. Default: 128m.")
  String splitSize;

  @Option(names = "--overwrite", description = "Replace OUTPUT_DIR if it exists.")
  boolean overwrite;

  @Option(
      names = "--conf",
      paramLabel = "KEY=VALUE",
      description = "A Spark configuration property, repeatable (as spark-submit's --conf).")
  List<String> conf = new ArrayList<>();

  @Option(names = "--quiet", description = "No report on success.")
  boolean quiet;

  @Option(names = "--debug", description = "Stack traces on errors.")
  boolean debug;

  @Parameters(
      arity = "2..*",
      paramLabel = "INPUT... OUTPUT_DIR",
      hideParamSyntax = true,
      description = "Input files or directories, then the output directory to create.")
  List<String> paths;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    FileSortSpec job;
    SparkConf sparkConf;
    try {
      job = spec();
      sparkConf = sparkConf();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    try {
      // Everything about the arguments, inputs and output fails here, before Spark starts.
      Configuration hadoop = hadoopConf(sparkConf);
      InputPlan.of(job.inputs(), hadoop, job.layout().recordSize(), job.splitBytes(), 1);
      StagedOutput.check(job.output(), job.overwrite(), hadoop);
      FileSortResult result;
      SparkContext sc = SparkContext.getOrCreate(sparkConf);
      try {
        result = SparkFileSort.run(sc, job);
      } finally {
        sc.stop();
      }
      if (!quiet) {
        result.reportLines().forEach(l -> err.println("joule-spark: " + l));
      }
      err.flush();
      return OK;
    } catch (Exception e) {
      err.println("joule-spark: " + message(e));
      if (debug) {
        e.printStackTrace(err);
      }
      err.flush();
      return e instanceof JobValidationException || JouleEngine.isCorruption(e)
          ? CORRUPT
          : USAGE_OR_IO;
    }
  }

  private static String message(Exception e) {
    if (e instanceof IOException || e instanceof IllegalStateException) {
      String m = e.getMessage();
      return m == null ? e.toString() : m;
    }
    return e.toString();
  }

  /** The job's specification from the options; IllegalArgumentException for bad values. */
  FileSortSpec spec() {
    List<String> inputs = paths.subList(0, paths.size() - 1);
    String output = paths.get(paths.size() - 1);
    if (partitions != null && (partitions < 1 || partitions > StagedOutput.MAX_PARTITIONS)) {
      throw new IllegalArgumentException(
          "invalid value for --partitions: "
              + partitions
              + " is outside 1.."
              + StagedOutput.MAX_PARTITIONS);
    }
    if (threads != null && (threads < 1 || threads > 256)) {
      throw new IllegalArgumentException(
          "invalid value for --threads: " + threads + " is outside 1..256");
    }
    if (sampleSize < 0) {
      throw new IllegalArgumentException("invalid value for --sample-size: " + sampleSize);
    }
    OrdinalRecordLayout layout;
    try {
      layout = new OrdinalRecordLayout(recordSize, keyOffset, keySize);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid record layout: " + e.getMessage(), e);
    }
    long split = InputPlan.DEFAULT_SPLIT_BYTES;
    if (splitSize != null) {
      split = size("--split-size", splitSize);
    }
    if (memory != null) {
      long m = size("--memory", memory);
      if (m < JouleEngine.minMemory()) {
        throw new IllegalArgumentException(
            "invalid value for --memory: '"
                + memory
                + "' is below the minimum "
                + JouleEngine.formatSize(JouleEngine.minMemory()));
      }
    }
    return new FileSortSpec(
        inputs,
        output,
        layout,
        partitions == null ? 0 : partitions,
        engine,
        overwrite,
        split,
        sampleSize);
  }

  private static long size(String option, String text) {
    try {
      long b = JouleEngine.parseSize(text);
      if (b < 1) {
        throw new IllegalArgumentException("must be positive");
      }
      return b;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "invalid value for " + option + ": '" + text + "': " + e.getMessage(), e);
    }
  }

  /** The Spark configuration: spark.* system properties (spark-submit), then the options. */
  SparkConf sparkConf() {
    SparkConf c = new SparkConf(true);
    c.setIfMissing("spark.app.name", "joule-spark sort");
    // Kryo for the Spark engine's per-record shuffle, as Spark's tuning guide advises; the joule
    // engine's chunks are byte arrays, which every serializer moves the same way.
    c.setIfMissing("spark.serializer", "org.apache.spark.serializer.KryoSerializer");
    for (String kv : conf) {
      int eq = kv.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            "invalid value for --conf: '" + kv + "': expected KEY=VALUE");
      }
      c.set(kv.substring(0, eq), kv.substring(eq + 1));
    }
    if (master != null) {
      c.setMaster(master);
    } else if (!c.contains("spark.master")) {
      c.setMaster("local[*]");
    }
    if (memory != null) {
      c.set(ExecutorBudget.MEMORY, memory);
    }
    if (threads != null) {
      c.set(TaskSorts.THREADS, Integer.toString(threads));
    }
    if (!temp.isEmpty()) {
      c.set(
          TaskSorts.TEMP_DIRS,
          temp.stream()
              .map(d -> java.nio.file.Path.of(d).toAbsolutePath().toString())
              .collect(Collectors.joining(",")));
    }
    String m = c.get("spark.master").toLowerCase(Locale.ROOT);
    boolean inProcess = m.equals("local") || m.startsWith("local[");
    if (!inProcess && !c.contains("spark.jars")) {
      // executors in other JVMs (a cluster, or local-cluster[...]) need this jar; spark-submit sets
      // spark.jars itself
      String jar = ownJar();
      if (jar != null) {
        c.set("spark.jars", jar);
      }
    }
    return c;
  }

  private static String ownJar() {
    try {
      var src = SparkSortCommand.class.getProtectionDomain().getCodeSource();
      String p = src == null ? null : java.nio.file.Path.of(src.getLocation().toURI()).toString();
      return p != null && p.endsWith(".jar") ? p : null;
    } catch (java.net.URISyntaxException | RuntimeException e) {
      return null;
    }
  }

  /** A Hadoop configuration with the spark.hadoop.* properties, as Spark builds its own. */
  static Configuration hadoopConf(SparkConf c) {
    Configuration h = new Configuration();
    for (Tuple2<String, String> kv : c.getAll()) {
      if (kv._1().startsWith("spark.hadoop.")) {
        h.set(kv._1().substring("spark.hadoop.".length()), kv._2());
      }
    }
    return h;
  }
}

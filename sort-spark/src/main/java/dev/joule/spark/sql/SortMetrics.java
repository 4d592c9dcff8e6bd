package dev.joule.spark.sql;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.SparkContext;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.execution.metric.SQLMetric;
import org.apache.spark.sql.execution.metric.SQLMetrics;

/**
 * The SQL metrics of {@link JouleSortExec}, shown in the Spark UI's SQL tab. Those that mean what
 * {@code SortExec}'s mean keep its names: {@code sortTime} ("sort time": the session's in-memory
 * sorts and the run writes they feed, that is the adds that wrote a run and {@code finish()}),
 * {@code peakMemory} ("peak memory": the session's), {@code spillSize} ("spill size": bytes of rows
 * and keys written to runs). joule's own: {@code jouleTime} ("joule operator time": rows in to rows
 * out, keys, spills and merges included, the child's time not) and {@code jouleRuns} ("joule
 * spilled runs"). Spilled bytes also go to the task's memory/disk spill metrics, as Spark's sorter
 * reports them. Serializable: the operator's closure carries it to the tasks.
 */
final class SortMetrics implements Serializable {
  private static final long serialVersionUID = 1L;

  private final SQLMetric sortTime;
  private final SQLMetric peakMemory;
  private final SQLMetric spillSize;
  private final SQLMetric jouleTime;
  private final SQLMetric jouleRuns;
  private long spilled; // this task's, for the task metrics

  private SortMetrics(Map<String, SQLMetric> m) {
    this.sortTime = m.get("sortTime");
    this.peakMemory = m.get("peakMemory");
    this.spillSize = m.get("spillSize");
    this.jouleTime = m.get("jouleTime");
    this.jouleRuns = m.get("jouleRuns");
  }

  /** The operator's metrics, by name, registered with {@code sc}. */
  static Map<String, SQLMetric> create(SparkContext sc) {
    Map<String, SQLMetric> m = new LinkedHashMap<>();
    m.put("sortTime", SQLMetrics.createTimingMetric(sc, "sort time", -1));
    m.put("peakMemory", SQLMetrics.createSizeMetric(sc, "peak memory", -1));
    m.put("spillSize", SQLMetrics.createSizeMetric(sc, "spill size", -1));
    m.put("jouleTime", SQLMetrics.createNanoTimingMetric(sc, "joule operator time", -1));
    m.put("jouleRuns", SQLMetrics.createMetric(sc, "joule spilled runs"));
    return m;
  }

  /** The metrics a partition updates, from the operator's {@link #create}d map. */
  static SortMetrics of(Map<String, SQLMetric> m) {
    return new SortMetrics(m);
  }

  void addInput(long opNanos, long sortNanos) {
    jouleTime.add(opNanos);
    sortTime.add(sortNanos / 1_000_000);
  }

  void addOutput(long nanos, long peakBytes, int runs, long spilledBytes) {
    jouleTime.add(nanos);
    peakMemory.add(peakBytes);
    jouleRuns.add(runs);
    spillSize.add(spilledBytes);
    spilled = spilledBytes;
  }

  void reportToTask(TaskContext ctx) {
    if (spilled > 0) {
      ctx.taskMetrics().incMemoryBytesSpilled(spilled);
      ctx.taskMetrics().incDiskBytesSpilled(spilled);
    }
  }
}

package dev.joule.spark.sql;

import dev.joule.io.pipeline.SessionStats;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.SparkContext;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.execution.metric.SQLMetric;
import org.apache.spark.sql.execution.metric.SQLMetrics;

/**
 * The SQL metrics of {@link JouleSortExec}, shown in the Spark UI's SQL tab. Those that mean what
 * {@code SortExec}'s mean keep its names, and take their values from the session's own {@code
 * stats()}: {@code sortTime} ("sort time": the session's in-memory sorts of its chunks, on
 * whichever thread ran them, as Spark's counts its in-memory sorts only), {@code peakMemory} ("peak
 * memory": everything the session held at once), {@code spillSize} ("spill size": bytes of keys and
 * rows written to runs). joule's own: {@code jouleTime} ("joule operator time": rows in to rows
 * out, keys, spills and merges included, the child's time not), {@code jouleRuns} ("joule spilled
 * runs") and {@code jouleMergePasses} ("joule merge passes", before the final merge). Spilled bytes
 * also go to the task's memory and disk spill metrics, as Spark's sorter reports them.
 * Serializable: the operator's closure carries it to the tasks.
 */
final class SortMetrics implements Serializable {
  private static final long serialVersionUID = 1L;

  private final SQLMetric sortTime;
  private final SQLMetric peakMemory;
  private final SQLMetric spillSize;
  private final SQLMetric jouleTime;
  private final SQLMetric jouleRuns;
  private final SQLMetric jouleMergePasses;

  private SortMetrics(Map<String, SQLMetric> m) {
    this.sortTime = m.get("sortTime");
    this.peakMemory = m.get("peakMemory");
    this.spillSize = m.get("spillSize");
    this.jouleTime = m.get("jouleTime");
    this.jouleRuns = m.get("jouleRuns");
    this.jouleMergePasses = m.get("jouleMergePasses");
  }

  /** The operator's metrics, by name, registered with {@code sc}. */
  static Map<String, SQLMetric> create(SparkContext sc) {
    Map<String, SQLMetric> m = new LinkedHashMap<>();
    m.put("sortTime", SQLMetrics.createTimingMetric(sc, "sort time", -1));
    m.put("peakMemory", SQLMetrics.createSizeMetric(sc, "peak memory", -1));
    m.put("spillSize", SQLMetrics.createSizeMetric(sc, "spill size", -1));
    m.put("jouleTime", SQLMetrics.createNanoTimingMetric(sc, "joule operator time", -1));
    m.put("jouleRuns", SQLMetrics.createMetric(sc, "joule spilled runs"));
    m.put("jouleMergePasses", SQLMetrics.createMetric(sc, "joule merge passes"));
    return m;
  }

  /** The metrics a partition updates, from the operator's {@link #create}d map. */
  static SortMetrics of(Map<String, SQLMetric> m) {
    return new SortMetrics(m);
  }

  void addOperatorTime(long nanos) {
    jouleTime.add(nanos);
  }

  /** Adds what a partition's session did; its spill also to the task's metrics. */
  void addSession(SessionStats s) {
    sortTime.add(s.sortNanos() / 1_000_000);
    peakMemory.add(s.peakMemoryBytes());
    spillSize.add(s.spilledBytes());
    jouleRuns.add(s.spilledRuns());
    jouleMergePasses.add(s.mergePasses());
    TaskContext ctx = TaskContext.get();
    if (ctx != null && s.spilledBytes() > 0) {
      ctx.taskMetrics().incMemoryBytesSpilled(s.spilledBytes());
      ctx.taskMetrics().incDiskBytesSpilled(s.spilledBytes());
    }
  }
}

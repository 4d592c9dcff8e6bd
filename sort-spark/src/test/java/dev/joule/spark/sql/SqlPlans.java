package dev.joule.spark.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;
import scala.jdk.javaapi.CollectionConverters;

/** The tests' look into executed plans: joule's nodes and their metrics, stages included. */
final class SqlPlans {
  private SqlPlans() {}

  /** Sum of the metric {@code name} over the executed plan's {@link JouleSortExec} nodes. */
  static long jouleMetric(Dataset<Row> executed, String name) {
    return sum(executed.queryExecution().executedPlan(), name);
  }

  /**
   * The metric {@code name} of each of the executed plan's {@link JouleSortExec} nodes, in the
   * plan's depth-first order (a join's left side first).
   */
  static List<Long> jouleMetrics(Dataset<Row> executed, String name) {
    List<Long> values = new ArrayList<>();
    collect(executed.queryExecution().executedPlan(), name, values);
    return values;
  }

  /** The number of {@link JouleSortExec} nodes in the executed plan. */
  static long jouleNodes(Dataset<Row> executed) {
    return sum(executed.queryExecution().executedPlan(), null);
  }

  private static long sum(SparkPlan p, String name) {
    List<Long> values = new ArrayList<>();
    collect(p, name, values);
    return name == null ? values.size() : values.stream().mapToLong(Long::longValue).sum();
  }

  /** Adds the metric {@code name} (any value when null) of each joule node under {@code p}. */
  private static void collect(SparkPlan p, String name, List<Long> values) {
    if (p instanceof JouleSortExec j) {
      values.add(name == null ? 1L : j.metrics().apply(name).value());
    }
    if (p instanceof AdaptiveSparkPlanExec a) {
      collect(a.executedPlan(), name, values);
    } else if (p instanceof QueryStageExec q) {
      collect(q.plan(), name, values);
    }
    for (SparkPlan c : CollectionConverters.asJava(p.children())) {
      collect(c, name, values);
    }
  }
}

package dev.joule.spark.sql;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;
import org.apache.spark.sql.execution.metric.SQLMetric;
import scala.jdk.javaapi.CollectionConverters;

/** The tests' look into executed plans: joule's nodes and their metrics, stages included. */
final class SqlPlans {
  private SqlPlans() {}

  /** Sum of the metric {@code name} over the executed plan's {@link JouleSortExec} nodes. */
  static long jouleMetric(Dataset<Row> executed, String name) {
    return sum(executed.queryExecution().executedPlan(), name);
  }

  /** The number of {@link JouleSortExec} nodes in the executed plan. */
  static long jouleNodes(Dataset<Row> executed) {
    return sum(executed.queryExecution().executedPlan(), null);
  }

  private static long sum(SparkPlan p, String name) {
    long total = 0;
    if (p instanceof JouleSortExec j) {
      if (name == null) {
        total++;
      } else {
        SQLMetric m = j.metrics().apply(name);
        total += m.value();
      }
    }
    if (p instanceof AdaptiveSparkPlanExec a) {
      total += sum(a.executedPlan(), name);
    } else if (p instanceof QueryStageExec q) {
      total += sum(q.plan(), name);
    }
    for (SparkPlan c : CollectionConverters.asJava(p.children())) {
      total += sum(c, name);
    }
    return total;
  }
}

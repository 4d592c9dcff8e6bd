package dev.joule.spark.cluster;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;
import org.apache.spark.sql.execution.metric.SQLMetric;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The SQL program {@link JouleSparkClusterIT} submits to its standalone cluster with {@code
 * spark-submit}, the way a user's program runs: it knows nothing of joule (Spark's API only, in a
 * jar of its own), and the extension comes from the command line ({@code --jars joule-spark.jar
 * --conf spark.sql.extensions=...}). It runs one query that sorts in three ways (a sort-merge join
 * of two shuffled tables, a window, a global ORDER BY over keys of several types with a unique last
 * key, so the order is defined), once as submitted and once with {@code
 * spark.joule.sort.enabled=false} (Spark's own sort, the reference), and compares the collected
 * rows in order. Prints one {@code RESULT} line: the row count, whether the rows are identical, the
 * sort nodes of each plan by name and the sum of the joule nodes' metrics, which come back from the
 * executors only when the nodes ran there.
 */
public final class ClusterSqlQuery {
  private ClusterSqlQuery() {}

  private static final String QUERY =
      """
      SELECT f.id, f.s, f.d, f.k, g.name,
             row_number() OVER (PARTITION BY f.k ORDER BY f.d DESC, f.id) AS rn
      FROM facts f JOIN groups g ON f.k = g.k
      ORDER BY f.s, f.d DESC NULLS LAST, f.k, f.id
      """;

  /** Arguments: the number of fact rows. Exits 1 when the rows differ or joule never ran. */
  public static void main(String[] args) {
    long rows = Long.parseLong(args[0]);
    SparkSession spark = SparkSession.builder().appName("joule cluster SQL").getOrCreate();
    try {
      // strings with long common prefixes, doubles with NaN, -0.0 and nulls, duplicate keys
      spark
          .range(0, rows, 1, 6)
          .selectExpr(
              "id",
              "CASE WHEN id % 97 = 0 THEN NULL ELSE concat('customer-account-', pmod(hash(id),"
                  + " 500)) END AS s",
              "CASE pmod(hash(id, 1), 50) WHEN 0 THEN double('NaN') WHEN 1 THEN -0.0 WHEN 2 THEN"
                  + " 0.0 WHEN 3 THEN NULL ELSE (pmod(hash(id, 2), 100000) - 50000) / 7.0 END AS d",
              "pmod(hash(id, 3), 1000) AS k")
          .createOrReplaceTempView("facts");
      spark
          .range(0, 1000, 1, 3)
          .selectExpr("id AS k", "concat('group-', id) AS name")
          .createOrReplaceTempView("groups");
      Dataset<Row> withJoule = spark.sql(QUERY);
      List<Row> joule = withJoule.collectAsList();
      spark.conf().set("spark.joule.sort.enabled", "false");
      Dataset<Row> withSpark = spark.sql(QUERY);
      List<Row> sparks = withSpark.collectAsList();
      boolean identical = joule.equals(sparks);
      List<String> jouleNodes = sortNodes(withJoule.queryExecution().executedPlan());
      List<String> sparkNodes = sortNodes(withSpark.queryExecution().executedPlan());
      long jouleTime = metric(withJoule.queryExecution().executedPlan(), "jouleTime");
      long spill = metric(withJoule.queryExecution().executedPlan(), "spillSize");
      System.out.println(
          "RESULT rows="
              + joule.size()
              + " identical="
              + identical
              + " joule-plan="
              + jouleNodes
              + " spark-plan="
              + sparkNodes
              + " jouleTimeNanos="
              + jouleTime
              + " spillBytes="
              + spill);
      if (!identical || jouleTime <= 0 || joule.size() != rows) {
        System.exit(1);
      }
    } finally {
      spark.stop();
    }
  }

  /** The names of the plan's sort nodes (Spark's {@code Sort}, joule's {@code JouleSort}). */
  private static List<String> sortNodes(SparkPlan plan) {
    List<String> names = new ArrayList<>();
    for (SparkPlan p : nodes(plan)) {
      if (p.nodeName().endsWith("Sort")) {
        names.add(p.nodeName());
      }
    }
    return names;
  }

  /** The metric {@code name} summed over the plan's joule sort nodes. */
  private static long metric(SparkPlan plan, String name) {
    long sum = 0;
    for (SparkPlan p : nodes(plan)) {
      if (p.nodeName().equals("JouleSort")) {
        SQLMetric m = p.metrics().apply(name);
        sum += m.value();
      }
    }
    return sum;
  }

  /** Every node of an executed plan, adaptive query stages included. */
  private static List<SparkPlan> nodes(SparkPlan p) {
    List<SparkPlan> all = new ArrayList<>();
    all.add(p);
    if (p instanceof AdaptiveSparkPlanExec a) {
      all.addAll(nodes(a.executedPlan()));
    } else if (p instanceof QueryStageExec q) {
      all.addAll(nodes(q.plan()));
    }
    for (SparkPlan c : CollectionConverters.asJava(p.children())) {
      all.addAll(nodes(c));
    }
    return all;
  }
}

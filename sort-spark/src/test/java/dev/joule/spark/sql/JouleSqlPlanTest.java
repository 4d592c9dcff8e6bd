package dev.joule.spark.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.spark.LocalSpark;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Where the extension puts joule's operator (global sorts, both sides of a sort-merge join,
 * windows, sort aggregates; adaptive execution on and off), that its results are Spark's, that it
 * spills within a small memory, that it stays out when turned off or a key has no code, and that a
 * failing task leaves nothing behind.
 */
class JouleSqlPlanTest {
  private static SparkSession spark;

  @BeforeAll
  static void startSpark() {
    spark =
        LocalSpark.start(
            "JouleSqlPlanTest",
            Map.of(
                "spark.sql.extensions", JouleExtensions.class.getName(),
                "spark.joule.sql.memory", "16m",
                "spark.sql.autoBroadcastJoinThreshold", "-1"));
    spark
        .range(0, 20_000)
        .selectExpr(
            "id",
            "id % 97 AS k",
            "CAST(id * 7 % 1000 AS STRING) AS s",
            "CAST(id AS DOUBLE) / 3 AS d")
        .createOrReplaceTempView("t");
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  @AfterEach
  void noLeaks(TestInfo info) throws InterruptedException {
    spark.conf().unset(JouleSortRule.ENABLED);
    spark.conf().unset("spark.sql.adaptive.enabled");
    spark.sparkContext().setLocalProperty("spark.joule.sql.memory", null);
    LocalSpark.assertNoLeakedArenas(spark, info.getDisplayName());
  }

  /** Runs {@code sql} with joule and without; checks joule's nodes and the results. */
  private static Dataset<Row> sameAsSpark(String sql, int jouleNodes) {
    Dataset<Row> d = spark.sql(sql);
    List<Row> joule = d.collectAsList();
    String plan = d.queryExecution().executedPlan().toString();
    assertEquals(jouleNodes, SqlPlans.jouleNodes(d), plan);
    spark.conf().set(JouleSortRule.ENABLED, "false");
    Dataset<Row> v = spark.sql(sql);
    List<Row> vanilla = v.collectAsList();
    spark.conf().unset(JouleSortRule.ENABLED);
    assertEquals(0, SqlPlans.jouleNodes(v));
    assertTrue(v.queryExecution().executedPlan().toString().contains("Sort"));
    assertEquals(vanilla, joule, sql);
    return d;
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void orderByJoinWindowAndAggregate(boolean adaptive) {
    spark.conf().set("spark.sql.adaptive.enabled", Boolean.toString(adaptive));
    Dataset<Row> d = sameAsSpark("SELECT s, k, id FROM t ORDER BY s DESC, k, id", 1);
    assertTrue(d.queryExecution().executedPlan().toString().contains("JouleSort"));
    d =
        sameAsSpark(
            "SELECT count(*), sum(a.id), max(b.s) FROM t a JOIN t b ON a.k = b.k AND a.s = b.s", 2);
    assertTrue(d.queryExecution().executedPlan().toString().contains("SortMergeJoin"));
    if (!adaptive) {
      return; // the rest plans alike either way: once is enough for CI's time
    }
    sameAsSpark(
        "SELECT sum(rn * id) FROM (SELECT id, row_number() OVER"
            + " (PARTITION BY k ORDER BY d DESC, id) AS rn FROM t)",
        1);
    // the partial and the final aggregate each sort, then the ORDER BY
    d = sameAsSpark("SELECT k, max(s), min(s) FROM t GROUP BY k ORDER BY k", 3);
    assertTrue(d.queryExecution().executedPlan().toString().contains("SortAggregate"));
  }

  @Test
  void explainShowsJouleSort() {
    String explain =
        spark
            .sql("SELECT id FROM t ORDER BY s")
            .queryExecution()
            .explainString(org.apache.spark.sql.execution.ExplainMode.fromString("simple"));
    spark.conf().set("spark.sql.adaptive.enabled", "false");
    String plain =
        spark
            .sql("SELECT id FROM t ORDER BY s")
            .queryExecution()
            .explainString(org.apache.spark.sql.execution.ExplainMode.fromString("simple"));
    assertTrue(plain.contains("JouleSort [s#"), plain);
    assertTrue(explain.contains("AdaptiveSparkPlan"), explain);
  }

  @Test
  void spillsWithinSmallMemory() {
    spark.sparkContext().setLocalProperty("spark.joule.sql.memory", "8m");
    Dataset<Row> d =
        sameAsSpark(
            "SELECT id, s FROM (SELECT id, concat(repeat('x', 150), s) AS s FROM t"
                + " UNION ALL SELECT id + 1, concat(repeat('y', 150), s) FROM t) ORDER BY s, id",
            1);
    assertTrue(SqlPlans.jouleMetric(d, "jouleRuns") > 1, "runs");
    assertTrue(SqlPlans.jouleMetric(d, "spillSize") > 0, "spill size");
    assertTrue(SqlPlans.jouleMetric(d, "peakMemory") > 0, "peak memory");
  }

  @Test
  void offPerSessionAndForKeysWithoutCode() {
    spark.conf().set(JouleSortRule.ENABLED, "false");
    Dataset<Row> d = spark.sql("SELECT id FROM t ORDER BY s");
    d.collectAsList();
    assertEquals(0, SqlPlans.jouleNodes(d));
    spark.conf().unset(JouleSortRule.ENABLED);
    // ICU collations stay Spark's (JouleSqlOrderTest says why), the rest of the plan is joule's
    d =
        sameAsSpark(
            "SELECT x, id FROM (SELECT s COLLATE UNICODE AS x, id FROM t) ORDER BY x, id", 0);
    assertFalse(d.queryExecution().executedPlan().toString().contains("JouleSort"));
  }

  @Test
  void failingTaskReleasesEverything() {
    Exception e =
        assertThrows(
            Exception.class,
            () ->
                spark
                    .sql(
                        "SELECT id, CASE WHEN id = 15000 THEN raise_error('boom') END"
                            + " FROM (SELECT id FROM t ORDER BY s, id)")
                    .collectAsList());
    assertTrue(String.valueOf(e.getMessage()).contains("boom"), e.getMessage());
  }
}

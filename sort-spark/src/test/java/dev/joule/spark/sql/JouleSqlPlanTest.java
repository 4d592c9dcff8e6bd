package dev.joule.spark.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

/** Where the extension puts joule's operator, and that the results are Spark's. */
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
        .selectExpr("id", "id % 97 AS k", "CAST(id * 7 % 1000 AS STRING) AS s")
        .createOrReplaceTempView("t");
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  @AfterEach
  void noLeaks(TestInfo info) throws InterruptedException {
    LocalSpark.assertNoLeakedArenas(spark, info.getDisplayName());
  }

  private static String plan(Dataset<Row> d) {
    return d.queryExecution().executedPlan().toString();
  }

  @Test
  void orderByRunsJouleAndMatchesSpark() {
    Dataset<Row> d = spark.sql("SELECT s, k, id FROM t ORDER BY s DESC, k, id");
    List<Row> joule = d.collectAsList();
    assertTrue(plan(d).contains("JouleSort"), plan(d));
    spark.conf().set("spark.joule.sort.enabled", "false");
    try {
      Dataset<Row> v = spark.sql("SELECT s, k, id FROM t ORDER BY s DESC, k, id");
      List<Row> vanilla = v.collectAsList();
      assertFalse(plan(v).contains("JouleSort"), plan(v));
      assertEquals(vanilla, joule);
    } finally {
      spark.conf().unset("spark.joule.sort.enabled");
    }
  }
}

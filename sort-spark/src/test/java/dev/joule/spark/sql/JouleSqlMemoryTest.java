package dev.joule.spark.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

/**
 * Spark's memory manager drives joule's sorts: in a 30 MiB off-heap pool, one task's sort-merge
 * join opens two sorts of 20 MiB each; the second gets its memory only because the memory manager
 * asks the first (already returning rows) to spill, which writes its unread rows to a run and gives
 * its memory back. Without that spill the second sort would be refused (under 8 MiB granted).
 */
class JouleSqlMemoryTest {
  private static SparkSession spark;

  @BeforeAll
  static void startSpark() {
    spark =
        LocalSpark.start(
            "JouleSqlMemoryTest",
            Map.of(
                "spark.master", "local[1]",
                "spark.sql.extensions", JouleExtensions.class.getName(),
                "spark.memory.offHeap.enabled", "true",
                "spark.memory.offHeap.size", "30m",
                "spark.joule.sql.memory", "20m",
                "spark.sql.autoBroadcastJoinThreshold", "-1",
                "spark.sql.shuffle.partitions", "2"));
    spark
        .range(0, 20_000)
        .selectExpr("id", "id % 1000 AS k", "repeat(CAST(id AS STRING), 5) AS s")
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

  @Test
  void secondSortOfAJoinSpillsTheFirst() {
    String sql = "SELECT sum(a.id * b.id), count(*) FROM t a JOIN t b ON a.k = b.k";
    Dataset<Row> d = spark.sql(sql);
    List<Row> joule = d.collectAsList();
    assertEquals(2, SqlPlans.jouleNodes(d));
    assertTrue(SqlPlans.jouleMetric(d, "jouleRuns") > 0, "no sort was asked to spill");
    spark.conf().set(JouleSortRule.ENABLED, "false");
    try {
      assertEquals(spark.sql(sql).collectAsList(), joule);
    } finally {
      spark.conf().unset(JouleSortRule.ENABLED);
    }
  }
}

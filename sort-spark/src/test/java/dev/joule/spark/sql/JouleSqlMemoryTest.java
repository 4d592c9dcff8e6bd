package dev.joule.spark.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.spark.LocalSpark;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.TaskContext;
import org.apache.spark.memory.MemoryConsumer;
import org.apache.spark.memory.MemoryMode;
import org.apache.spark.memory.TaskMemoryManager;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.util.TaskCompletionListener;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Spark's memory manager drives joule's sorts through their memory grant. A 24 MiB off-heap pool,
 * one task slot, sorts of about 13 MB of rows each, which grow by steps as rows arrive and alone
 * never spill (their budget, 64 MiB, holds them). When another consumer of the task needs memory
 * the pool does not have, Spark asks joule's sort to spill, and the sort writes a run and gives its
 * memory back: while adding (the memory comes back at once, so the other consumer gets all it asked
 * for) and while its rows go out (the second sort of a join growing past what the first leaves).
 */
class JouleSqlMemoryTest {
  private static final long HOG_BYTES = 20L << 20;
  private static final long HOG_AT_ROW = 15_000;
  private static final AtomicLong HOG_GRANTED = new AtomicLong(-1);
  private static final long HOG_OUT_BYTES = 18L << 20;
  private static final long HOG_OUT_AT_ROW = 5_000;
  private static final AtomicLong OUT_ROWS = new AtomicLong();

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
                "spark.memory.offHeap.size", "24m",
                "spark.joule.sql.memory", "64m",
                "spark.sql.autoBroadcastJoinThreshold", "-1",
                "spark.sql.shuffle.partitions", "1"));
    // 20,000 rows of about 630 bytes: 13 MB per sort, more than half the pool
    spark
        .range(0, 20_000)
        .selectExpr("id", "id % 1000 AS k", "repeat(CAST(id AS STRING), 120) AS s")
        .createOrReplaceTempView("t");
    UDF1<Long, Boolean> hog = JouleSqlMemoryTest::hog;
    spark.udf().register("hog", functions.udf(hog, DataTypes.BooleanType).asNondeterministic());
    UDF1<Long, Long> hogOut = JouleSqlMemoryTest::hogOut;
    spark.udf().register("hogOut", functions.udf(hogOut, DataTypes.LongType).asNondeterministic());
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  @AfterEach
  void noLeaks(TestInfo info) throws InterruptedException {
    LocalSpark.assertNoLeakedArenas(spark, info.getDisplayName());
  }

  /**
   * Another consumer of the task takes {@value #HOG_BYTES} bytes from the pool at row {@value
   * #HOG_AT_ROW} of the sort's input, while joule's sort holds about 10 MB: the pool has room for
   * it only if Spark makes the sort spill and the sort gives its memory back before Spark answers.
   */
  @Test
  void sparkSpillsAnAddingSortForAnotherConsumer() {
    String sql = "SELECT id, s FROM t WHERE hog(id) SORT BY s, id";
    HOG_GRANTED.set(-1);
    Dataset<Row> d = spark.sql(sql);
    List<Row> joule = d.collectAsList();
    assertEquals(1, SqlPlans.jouleNodes(d));
    assertEquals(HOG_BYTES, HOG_GRANTED.get(), "the other consumer's grant");
    assertTrue(SqlPlans.jouleMetric(d, "jouleRuns") > 0, "the sort spilled no run");
    assertEquals(20_000, joule.size());
    assertEquals(spark(sql), joule);
  }

  /**
   * A sort-merge join sorts its left side, starts returning its rows, then sorts its right side:
   * the right sort's growth finds the pool held by the left one, and Spark makes the left sort
   * spill the rows it has not returned (the only way the left sort can write a run here).
   */
  @Test
  void secondSortOfAJoinSpillsTheFirst() {
    String sql =
        "SELECT sum(a.id * b.id), count(*), max(a.s), max(b.s) FROM t a JOIN t b ON a.k = b.k";
    Dataset<Row> d = spark.sql(sql);
    List<Row> joule = d.collectAsList();
    List<Long> runs = SqlPlans.jouleMetrics(d, "jouleRuns");
    assertEquals(2, runs.size());
    assertTrue(runs.get(0) > 0, "the left sort was not asked to spill: runs " + runs);
    assertEquals(spark(sql), joule);
  }

  /**
   * Another consumer takes {@value #HOG_OUT_BYTES} bytes while the sort's rows go out (at output
   * row {@value #HOG_OUT_AT_ROW} of 10,000), and the sort, whose rows fit in memory unspilled,
   * holds about 8 MB of the 24 MiB pool: Spark makes the sort spill the rows not yet returned, and
   * counts only what the spill released while it ran. The sort gives back all but the slab of the
   * current row then, so the other consumer gets all it asked for (a sort that gave its memory back
   * only at its next row left it 0 bytes: a hash aggregate above a sort-merge join failed so in the
   * SQL race).
   */
  @Test
  void sparkSpillsASortWhoseRowsGoOutForAnotherConsumer() {
    String sql =
        "SELECT hogOut(id) AS id, s FROM (SELECT id, s FROM t WHERE id < 10000 SORT BY s, id)";
    HOG_GRANTED.set(-1);
    OUT_ROWS.set(0);
    Dataset<Row> d = spark.sql(sql);
    List<Row> joule = d.collectAsList();
    assertEquals(1, SqlPlans.jouleNodes(d));
    assertEquals(HOG_OUT_BYTES, HOG_GRANTED.get(), "the other consumer's grant");
    assertEquals(1, SqlPlans.jouleMetric(d, "jouleRuns"), "runs: the rest, spilled once");
    OUT_ROWS.set(Long.MIN_VALUE); // no hog while Spark's own sort gives the reference
    assertEquals(spark(sql), joule);
  }

  /** {@code sql}'s rows with Spark's own sort. */
  private static List<Row> spark(String sql) {
    spark.conf().set(JouleSortRule.ENABLED, "false");
    try {
      return spark.sql(sql).collectAsList();
    } finally {
      spark.conf().unset(JouleSortRule.ENABLED);
    }
  }

  /**
   * The UDF {@code hog(id)}: true; at row {@value #HOG_AT_ROW} it takes {@value #HOG_BYTES} bytes
   * of the task's execution memory (a consumer that cannot spill) until the task ends, and records
   * what it got.
   */
  private static boolean hog(long id) {
    if (id == HOG_AT_ROW) {
      takeUntilTaskEnd(HOG_BYTES);
    }
    return true;
  }

  /**
   * The UDF {@code hogOut(id)}: {@code id}; at the {@value #HOG_OUT_AT_ROW}th row it sees it takes
   * {@value #HOG_OUT_BYTES} bytes of the task's execution memory until the task ends, as {@link
   * #hog} does.
   */
  private static long hogOut(long id) {
    if (OUT_ROWS.incrementAndGet() == HOG_OUT_AT_ROW) {
      takeUntilTaskEnd(HOG_OUT_BYTES);
    }
    return id;
  }

  /** Asks the task for {@code bytes} as a consumer that cannot spill; records what it got. */
  private static void takeUntilTaskEnd(long bytes) {
    TaskContext ctx = TaskContext.get();
    Hog h = new Hog(ctx.taskMemoryManager());
    long got = h.acquireMemory(bytes);
    HOG_GRANTED.set(got);
    ctx.addTaskCompletionListener((TaskCompletionListener) c -> h.freeMemory(got));
  }

  /** A consumer of the task's off-heap execution memory that cannot spill. */
  private static final class Hog extends MemoryConsumer {
    Hog(TaskMemoryManager tmm) {
      super(tmm, MemoryMode.OFF_HEAP);
    }

    @Override
    public long spill(long size, MemoryConsumer trigger) {
      return 0;
    }
  }
}

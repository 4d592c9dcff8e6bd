package dev.joule.spark;

import dev.joule.core.memory.ArenaTracker;
import dev.joule.testing.ArenaLeakExtension;
import java.util.Map;
import org.apache.spark.SparkExecutorInfo;
import org.apache.spark.sql.SparkSession;

/**
 * The tests' Spark: local mode with two task slots (as the CI machine's two cores), no UI, bound to
 * the loopback address, one session per test class.
 */
public final class LocalSpark {
  private LocalSpark() {}

  public static SparkSession start(String name, Map<String, String> extra) {
    SparkSession.Builder b =
        SparkSession.builder()
            .master("local[2]")
            .appName(name)
            .config("spark.ui.enabled", "false")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
            .config("spark.sql.shuffle.partitions", "4")
            // a task that leaves Spark-managed memory reserved (OffHeapReservation) fails
            .config("spark.unsafe.exceptionOnMemoryLeak", "true");
    extra.forEach(b::config);
    return b.getOrCreate();
  }

  /**
   * Fails if a task left a joule arena open (the sessions' off-heap memory). First waits until no
   * task runs: after a failed job, Spark cancels the job's other tasks without waiting for them.
   */
  public static void assertNoLeakedArenas(SparkSession spark, String test)
      throws InterruptedException {
    long deadline = System.nanoTime() + 20_000_000_000L;
    // A failed job's other tasks are killed: the tracker may count them gone while their threads
    // still close their sessions, so wait for the arenas too (a real leak stays past the deadline).
    while ((running(spark) > 0 || ArenaTracker.liveDirectBytes() > 0)
        && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    ArenaLeakExtension.checkNoLeaks(test);
  }

  private static int running(SparkSession spark) {
    int n = 0;
    for (SparkExecutorInfo e : spark.sparkContext().statusTracker().getExecutorInfos()) {
      n += e.numRunningTasks();
    }
    return n;
  }
}

package dev.joule.spark.executor;

import java.io.IOException;
import org.apache.spark.SparkConf;
import org.apache.spark.memory.MemoryConsumer;
import org.apache.spark.memory.MemoryMode;
import org.apache.spark.memory.TaskMemoryManager;

/**
 * A Spark SQL sort's memory, granted by the task's {@link TaskMemoryManager} in the executor's
 * Tungsten mode (on-heap or off-heap pool, as {@code spark.memory.offHeap.enabled} says): Spark
 * counts joule's memory as the task's execution memory, and asks it back through {@link #spill}
 * when another consumer of the task (or this one) needs memory.
 *
 * <p>The session's memory budget is what the pool grants at open, up to {@link #budget(SparkConf,
 * int, MemoryMode)}. A spill writes the session's records to a run, frees its arena and gives the
 * freed bytes back to Spark; before the session allocates again (its next add, or the merge),
 * {@link #beforeGrowth} asks Spark for them once more, and fails the task with Spark's words when
 * Spark cannot give them: the session may not grow past what Spark granted. Not thread-safe, except
 * {@link #spill}, which Spark may call from another task's thread.
 */
public final class TaskMemoryGrant extends MemoryConsumer {
  /** Spark conf key: the most memory one SQL sort takes (a size such as {@code 256m}). */
  public static final String MEMORY = "spark.joule.sql.memory";

  /** What Spark keeps of the heap for itself before {@code spark.memory.fraction} applies. */
  private static final long RESERVED_SYSTEM_MEMORY = 300L << 20;

  private long budget;
  private volatile JouleEngine.PartitionSort sort;
  private volatile boolean gaveBack;

  private TaskMemoryGrant(TaskMemoryManager tmm) {
    super(tmm, tmm.getTungstenMemoryMode());
  }

  /**
   * Asks the task's memory manager for a sort's memory: {@code want} bytes, or what it grants.
   *
   * @throws IllegalStateException naming the settings when it grants less than the engine's minimum
   */
  public static TaskMemoryGrant acquire(TaskMemoryManager tmm, long want) {
    TaskMemoryGrant g = new TaskMemoryGrant(tmm);
    long got = g.acquireMemory(want);
    if (got < JouleEngine.minMemory()) {
      g.freeMemory(got);
      throw new IllegalStateException(
          "Spark's "
              + tmm.getTungstenMemoryMode()
              + " execution memory granted "
              + JouleEngine.formatSize(got)
              + " to joule's sort, which needs at least "
              + JouleEngine.formatSize(JouleEngine.minMemory())
              + "; raise spark.memory.fraction or spark.memory.offHeap.size");
    }
    g.budget = got;
    return g;
  }

  /**
   * The most one SQL sort asks for: {@value #MEMORY} when set, else half the task's fair share of
   * the execution pool (a sort-merge join runs two sorts in a task), within half the JVM's
   * direct-memory limit per task, since the engine's memory is direct in either mode.
   */
  public static long budget(SparkConf conf, int slots, MemoryMode mode) {
    long cap;
    if (conf.contains(MEMORY)) {
      cap = JouleEngine.parseSize(conf.get(MEMORY));
    } else {
      long pool =
          mode == MemoryMode.OFF_HEAP
              ? conf.getSizeAsBytes("spark.memory.offHeap.size", "0")
              : (long)
                  ((Runtime.getRuntime().maxMemory() - RESERVED_SYSTEM_MEMORY)
                      * conf.getDouble("spark.memory.fraction", 0.6));
      cap = pool / (2L * slots);
    }
    long direct =
        Math.max(0, ExecutorBudget.maxDirectMemory() - ExecutorBudget.DIRECT_HEADROOM)
            / (2L * slots);
    return Math.max(JouleEngine.minMemory(), Math.min(cap, direct));
  }

  /** The session's memory budget: what Spark granted. */
  public long budget() {
    return budget;
  }

  void attach(JouleEngine.PartitionSort sort) {
    this.sort = sort;
  }

  /**
   * Asks Spark again for what a spill gave back, before the session allocates it again.
   *
   * @throws IllegalStateException when Spark cannot give it
   */
  void beforeGrowth() {
    if (!gaveBack) {
      return;
    }
    gaveBack = false;
    long need = budget - getUsed();
    if (need > 0) {
      long got = acquireMemory(need);
      if (got < need) {
        freeMemory(got);
        throw new IllegalStateException(
            "Spark's execution memory granted "
                + JouleEngine.formatSize(got)
                + " of the "
                + JouleEngine.formatSize(need)
                + " joule's sort gave back on a spill and needs again; raise spark.memory.fraction"
                + " or spark.memory.offHeap.size, or lower "
                + MEMORY);
      }
    }
  }

  /**
   * Spark's request for memory: the session writes what it holds to a run and frees it; the freed
   * bytes go back to Spark at once.
   */
  @Override
  public long spill(long size, MemoryConsumer trigger) throws IOException {
    JouleEngine.PartitionSort s = sort;
    if (s == null) {
      return 0;
    }
    long freed = Math.min(s.spill(), getUsed());
    if (freed > 0) {
      freeMemory(freed);
      gaveBack = true;
    }
    return freed;
  }

  /** Gives everything back to Spark; idempotent. */
  public void releaseAll() {
    sort = null;
    long held = getUsed();
    if (held > 0) {
      freeMemory(held);
    }
  }
}

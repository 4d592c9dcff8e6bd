package dev.joule.spark.executor;

import dev.joule.io.config.MemoryGrant;
import java.io.IOException;
import org.apache.spark.SparkConf;
import org.apache.spark.memory.MemoryConsumer;
import org.apache.spark.memory.MemoryMode;
import org.apache.spark.memory.TaskMemoryManager;

/**
 * A Spark SQL sort's memory, granted by the task's {@link TaskMemoryManager} in the executor's
 * Tungsten mode (on-heap or off-heap pool, as {@code spark.memory.offHeap.enabled} says): the
 * session's {@link MemoryGrant}, so Spark counts joule's memory as the task's execution memory.
 *
 * <p>The session asks ({@link #acquire}) before each growth step, from a 64 KiB slab up to its
 * budget ({@link #budget}), and releases ({@link #release}) at once what it frees. When Spark needs
 * memory for another consumer of the task, or for this one, it calls {@link #spill}, which calls
 * the session's cooperative spill: while rows are added the session writes what it holds to a run
 * and releases it before {@code spill} returns; while rows go out it writes the unread rest and
 * releases all but the current row's slab before it returns, that one when the operator moves past
 * the row. A spill may come from inside {@link #acquire} (Spark spilling the consumer that asks):
 * the session allows that.
 *
 * <p>Thread-safety: the session calls it from the thread that adds, finishes or spills; Spark's
 * memory manager and {@code MemoryConsumer}'s ledger are thread-safe.
 */
public final class TaskMemoryGrant extends MemoryConsumer implements MemoryGrant {
  /** Spark conf key: the most memory one SQL sort takes (a size such as {@code 256m}). */
  public static final String MEMORY = "spark.joule.sql.memory";

  /** What Spark keeps of the heap for itself before {@code spark.memory.fraction} applies. */
  private static final long RESERVED_SYSTEM_MEMORY = 300L << 20;

  private volatile JouleEngine.PartitionSort sort;

  /** A grant of {@code tmm}'s execution memory, in its Tungsten mode. */
  public TaskMemoryGrant(TaskMemoryManager tmm) {
    super(tmm, tmm.getTungstenMemoryMode());
  }

  /**
   * The budget of one SQL sort: {@value #MEMORY} when set, else the task's fair share of the
   * execution pool (Spark's own sort may grow to it too; the memory manager arbitrates between the
   * sorts of one task, such as the two of a sort-merge join, by spilling). Either way within half
   * the JVM's direct-memory limit per task slot, since joule's memory is direct in either mode and
   * in on-heap mode Spark's pool does not bound it.
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
      cap = pool / slots;
    }
    long direct =
        Math.max(0, ExecutorBudget.maxDirectMemory() - ExecutorBudget.DIRECT_HEADROOM)
            / (2L * slots);
    return Math.max(JouleEngine.minMemory(), Math.min(cap, direct));
  }

  void attach(JouleEngine.PartitionSort sort) {
    this.sort = sort;
  }

  @Override
  public long acquire(long bytes) {
    return acquireMemory(bytes);
  }

  @Override
  public void release(long bytes) {
    freeMemory(bytes);
  }

  /**
   * Spark's request for memory: the session spills; returns what it released during the call (while
   * rows go out, the current row's slab comes back when the operator moves to the next row).
   */
  @Override
  public long spill(long size, MemoryConsumer trigger) throws IOException {
    JouleEngine.PartitionSort s = sort;
    if (s == null) {
      return 0;
    }
    long before = getUsed();
    s.spill();
    return Math.max(0, before - getUsed());
  }

  /**
   * Detaches the sort and gives back whatever is still counted (nothing, when the session closed
   * normally: it released everything); idempotent.
   */
  public void releaseAll() {
    sort = null;
    long held = getUsed();
    if (held > 0) {
      freeMemory(held);
    }
  }

  @Override
  public String toString() {
    return "Spark's " + getMode() + " execution memory";
  }
}

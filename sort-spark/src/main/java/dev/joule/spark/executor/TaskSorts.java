package dev.joule.spark.executor;

import dev.joule.spark.JobIOException;
import dev.joule.spark.record.SortKeyLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.memory.TaskMemoryManager;
import org.apache.spark.util.TaskCompletionListener;

/**
 * Stage 4 of 5, in a reduce task: opens joule's sort for the task's partition with the executor's
 * resources.
 *
 * <ul>
 *   <li><b>Memory</b>: {@link ExecutorBudget#taskMemory} for the partition's expected records;
 *       reserved from Spark's off-heap pool when Spark's off-heap memory is on.
 *   <li><b>Threads</b>: {@value #THREADS} when set, else the task's {@code spark.task.cpus} (Spark
 *       runs one task per core, so one thread each keeps every core busy without oversubscribing).
 *   <li><b>Temp directories</b>: {@value #TEMP_DIRS} (comma-separated) when set, else the
 *       executor's block-manager directories (one per {@code spark.local.dir} / {@code
 *       SPARK_LOCAL_DIRS} / YARN local dir), one stripe each; {@code java.io.tmpdir} when neither
 *       is available. They are checked when the task starts, before it reads its shuffle input.
 * </ul>
 *
 * <p>Each of the three settings may also be given per job as a local property of the same name
 * ({@link #settings}), which wins over the configuration.
 *
 * <p>The sort is closed, and the reservation given back, when the task completes, whether it
 * succeeded, failed or was killed. Stateless.
 */
public final class TaskSorts {
  /** Spark conf key: sort threads per task. */
  public static final String THREADS = "spark.joule.threads";

  /** Spark conf key: temp directories for spilled runs, comma-separated, one stripe each. */
  public static final String TEMP_DIRS = "spark.joule.tempDirs";

  private TaskSorts() {}

  /** Opens the sort of this task's partition, expected to receive {@code expectedRecords}. */
  public static JouleEngine.PartitionSort open(SortKeyLayout layout, long expectedRecords)
      throws IOException {
    long data =
        Math.multiplyExact(expectedRecords, ExecutorBudget.recordBytes(layout.wrappedSize()));
    return open(data, (memory, threads, temp) -> JouleEngine.open(layout, memory, threads, temp));
  }

  /**
   * Opens the pair sort of this task's partition, expected to receive {@code expectedPairs} pairs
   * of {@code meanEntry} bytes of engine key and value on average, the longest {@code maxEntry}.
   */
  public static JouleEngine.PartitionSort openPairs(
      long expectedPairs, double meanEntry, long maxEntry) throws IOException {
    long data =
        Math.max(
            (long) Math.ceil(expectedPairs * (double) ExecutorBudget.pairBytes(meanEntry)),
            // the longest pair must fit the session's arena, which is most of its memory
            Math.multiplyExact(2, ExecutorBudget.PAIR_ENTRY_HEADER + maxEntry));
    return open(data, JouleEngine::openPairs);
  }

  /**
   * Opens the sort of a Spark SQL operator in this task: its memory granted step by step by the
   * task's memory manager ({@link TaskMemoryGrant}) up to {@link TaskMemoryGrant#budget}, threads
   * and temp directories as for the other sorts. The sort is closed, and the memory given back,
   * when the task completes, fails or is killed; {@link JouleEngine.PartitionSort#close()} may come
   * earlier.
   *
   * @throws IllegalStateException outside a task
   */
  public static JouleEngine.PartitionSort openRows(boolean validate) throws IOException {
    TaskContext ctx = TaskContext.get();
    if (ctx == null) {
      throw new IllegalStateException("joule's SQL sort runs in a Spark task");
    }
    SparkConf conf = settings(ctx);
    List<Path> temp = tempDirs(conf);
    int threads = conf.contains(THREADS) ? conf.getInt(THREADS, 1) : ctx.cpus();
    TaskMemoryManager tmm = ctx.taskMemoryManager();
    long budget =
        TaskMemoryGrant.budget(conf, ExecutorBudget.slots(conf), tmm.getTungstenMemoryMode());
    TaskMemoryGrant grant = new TaskMemoryGrant(tmm);
    JouleEngine.PartitionSort sort;
    try {
      sort = JouleEngine.openRows(grant, budget, validate, threads, temp);
    } catch (IOException | RuntimeException e) {
      grant.releaseAll();
      throw e;
    }
    closeAtTaskEnd(ctx, sort, grant::releaseAll);
    return sort;
  }

  /** How {@link #open(long, Opener)} starts the engine once the resources are known. */
  @FunctionalInterface
  private interface Opener {
    JouleEngine.PartitionSort open(long memory, int threads, List<Path> tempDirs)
        throws IOException;
  }

  private static JouleEngine.PartitionSort open(long dataBytes, Opener opener) throws IOException {
    TaskContext ctx = TaskContext.get();
    SparkConf conf = settings(ctx);
    List<Path> temp = tempDirs(conf);
    int slots = ExecutorBudget.slots(conf);
    long memory =
        ExecutorBudget.taskMemory(conf, slots, ExecutorBudget.maxDirectMemory(), dataBytes);
    OffHeapReservation reservation = null;
    if (ExecutorBudget.offHeap(conf) && ctx != null) {
      reservation = new OffHeapReservation(ctx.taskMemoryManager());
      long granted = reservation.reserve(memory);
      if (granted < JouleEngine.minMemory()) {
        reservation.release();
        throw new IllegalStateException(
            "Spark's off-heap pool granted "
                + JouleEngine.formatSize(granted)
                + " of the "
                + JouleEngine.formatSize(memory)
                + " joule's sort asked for; raise spark.memory.offHeap.size");
      }
      memory = granted;
    }
    int threads = conf.contains(THREADS) ? conf.getInt(THREADS, 1) : ctx == null ? 1 : ctx.cpus();
    JouleEngine.PartitionSort sort;
    try {
      sort = opener.open(memory, threads, temp);
    } catch (IOException | RuntimeException e) {
      if (reservation != null) {
        reservation.release();
      }
      throw e;
    }
    if (ctx != null) {
      OffHeapReservation r = reservation;
      closeAtTaskEnd(ctx, sort, r == null ? () -> {} : r::release);
    }
    return sort;
  }

  /**
   * Closes {@code sort}, then runs {@code release}, when the task completes, fails or is killed.
   */
  private static void closeAtTaskEnd(
      TaskContext ctx, JouleEngine.PartitionSort sort, Runnable release) {
    ctx.addTaskCompletionListener(
        (TaskCompletionListener)
            c -> {
              try {
                sort.close();
              } finally {
                release.run();
              }
            });
  }

  /**
   * The executor's Spark configuration with this job's local properties for {@value
   * ExecutorBudget#MEMORY}, {@value #THREADS} and {@value #TEMP_DIRS} on top: a program sharing one
   * session among jobs sets them per job with {@code SparkContext.setLocalProperty}.
   */
  public static SparkConf settings(TaskContext ctx) {
    SparkConf conf = SparkEnv.get().conf();
    if (ctx == null) {
      return conf;
    }
    SparkConf effective = null;
    for (String key :
        new String[] {ExecutorBudget.MEMORY, THREADS, TEMP_DIRS, TaskMemoryGrant.MEMORY}) {
      String v = ctx.getLocalProperty(key);
      if (v != null) {
        effective = effective == null ? conf.clone() : effective;
        effective.set(key, v);
      }
    }
    return effective == null ? conf : effective;
  }

  /** The temp directories of this executor's tasks (see the class comment), checked. */
  static List<Path> tempDirs(SparkConf conf) throws JobIOException {
    List<Path> dirs = new ArrayList<>();
    if (conf.contains(TEMP_DIRS)) {
      for (String d : conf.get(TEMP_DIRS).split(",", -1)) {
        if (!d.isBlank()) {
          dirs.add(Path.of(d.trim()));
        }
      }
    } else {
      dirs.addAll(blockManagerDirs());
    }
    if (dirs.isEmpty()) {
      dirs.add(Path.of(System.getProperty("java.io.tmpdir")));
    }
    for (Path d : dirs) {
      if (!Files.isDirectory(d)) {
        throw new JobIOException("temp", d.toString(), "No such file or directory");
      }
      if (!Files.isWritable(d)) {
        throw new JobIOException("temp", d.toString(), "Permission denied");
      }
    }
    return dirs;
  }

  /**
   * The block manager's local directories: created by Spark under each configured local dir and
   * removed by it when the executor exits, so even a killed task's runs do not outlive it.
   */
  private static List<Path> blockManagerDirs() {
    List<Path> dirs = new ArrayList<>();
    try {
      for (java.io.File f : SparkEnv.get().blockManager().diskBlockManager().localDirs()) {
        dirs.add(f.toPath());
      }
    } catch (LinkageError | RuntimeException e) {
      // an internal Spark API; should it change, java.io.tmpdir is the fallback
    }
    return dirs;
  }
}

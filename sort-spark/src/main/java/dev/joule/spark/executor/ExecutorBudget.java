package dev.joule.spark.executor;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.SuppressForbidden;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import org.apache.spark.SparkConf;

/**
 * How much memory one task's sort may take, from the executor's budget.
 *
 * <p>A task's cap is, in this order of precedence:
 *
 * <ol>
 *   <li>{@value #MEMORY} ({@code --memory}), when set: bytes per task;
 *   <li>with {@code spark.memory.offHeap.enabled}: {@code spark.memory.offHeap.size} divided by the
 *       executor's task slots, and the task also reserves it from Spark's off-heap execution pool
 *       ({@link OffHeapReservation}), so Spark's own off-heap users and container sizing account
 *       for it;
 *   <li>otherwise half the JVM's direct-memory limit ({@code -XX:MaxDirectMemorySize}, by default
 *       the max heap) divided by the task slots: the engine's records live in direct buffers, and
 *       the other half stays for Spark's Netty shuffle buffers and the JDK.
 * </ol>
 *
 * <p>A task then takes only what its partition needs: the entries it is expected to receive (the
 * mean partition plus the sampling error, {@link
 * dev.joule.spark.partition.SampleSize#largestPartition}) at {@link #recordBytes} or {@link
 * #pairBytes} each, and {@value #IO_ALLOWANCE_MIB} MiB for the engine's transfer buffers, because a
 * partition sorts in memory only if it fits the session's budget. A partition larger than that
 * still sorts: the engine spills sorted runs to the temp directories and merges them. The result is
 * refused, naming the settings, when it is below the engine's minimum or when the executor's tasks
 * together could exceed the direct-memory limit. Stateless.
 */
public final class ExecutorBudget {
  /** Spark conf key: memory per task for the engine (a size such as {@code 2g}). */
  public static final String MEMORY = "spark.joule.memory";

  /** The engine's transfer buffers and alignment slack beside the records (3 × 4 MiB and more). */
  public static final int IO_ALLOWANCE_MIB = 16;

  /** Direct memory left to the JDK and to others when checking the limit. */
  public static final long DIRECT_HEADROOM = 64L << 20;

  /**
   * Bytes of a key/value session's entry beside the key and value: the value's and the key's
   * lengths.
   */
  public static final int PAIR_ENTRY_HEADER = 8;

  private ExecutorBudget() {}

  /** Memory per fixed-size record of {@code wrappedSize} bytes: the record and its index entry. */
  public static long recordBytes(int wrappedSize) {
    return (long) wrappedSize + RecordIndex.BYTES_PER_ENTRY;
  }

  /**
   * Memory per pair in a key/value session whose pairs take {@code meanEntry} bytes of key and
   * value on average, so that a partition of the expected size sorts in memory. Until its first
   * spill a session's one chunk may take its whole budget but the run writer's buffers (issue 27's
   * engine), so a partition must fit there: the pair's entry and up to two index entries (the index
   * doubles, both arrays counted while it is copied; past 16,384 entries it grows to what the chunk
   * holds at the entries' mean size, about one entry per pair, but an estimate short of the
   * partition's end doubles it again, so the worst case stays).
   */
  public static long pairBytes(double meanEntry) {
    double entry = PAIR_ENTRY_HEADER + Math.max(0, meanEntry);
    return (long) Math.ceil(entry + 2.0 * RecordIndex.BYTES_PER_ENTRY);
  }

  /**
   * The memory for one task's sort.
   *
   * @param conf the executor's Spark configuration
   * @param slots tasks that run at once in this executor
   * @param maxDirect the JVM's direct-memory limit
   * @param dataBytes what the partition's entries take in the session (margin included): the
   *     expected entries times {@link #recordBytes} or {@link #pairBytes}
   * @throws IllegalStateException naming the settings when no workable budget exists
   */
  public static long taskMemory(SparkConf conf, int slots, long maxDirect, long dataBytes) {
    long cap = cap(conf, slots, maxDirect);
    long need = Math.addExact(dataBytes, (long) IO_ALLOWANCE_MIB << 20);
    long min = JouleEngine.minMemory();
    long budget = Math.max(min, Math.min(cap, need));
    if (cap < min) {
      throw new IllegalStateException(
          "joule's sort needs at least "
              + JouleEngine.formatSize(min)
              + " per task, but "
              + source(conf)
              + " gives "
              + JouleEngine.formatSize(cap)
              + " per task ("
              + slots
              + " task slots); raise it or set "
              + MEMORY);
    }
    if (budget > (maxDirect - DIRECT_HEADROOM) / slots) {
      throw new IllegalStateException(
          "joule's sort would use "
              + JouleEngine.formatSize(budget)
              + " of direct memory per task, "
              + slots
              + " tasks at once, but the JVM's limit is "
              + JouleEngine.formatSize(maxDirect)
              + "; raise -XX:MaxDirectMemorySize (spark.executor.extraJavaOptions or"
              + " spark.driver.extraJavaOptions in local mode) or lower "
              + MEMORY);
    }
    return budget;
  }

  /** The per-task cap before the partition's own need (see the class comment). */
  static long cap(SparkConf conf, int slots, long maxDirect) {
    if (conf.contains(MEMORY)) {
      return JouleEngine.parseSize(conf.get(MEMORY));
    }
    if (offHeap(conf)) {
      return conf.getSizeAsBytes("spark.memory.offHeap.size", "0") / slots;
    }
    return Math.max(0, maxDirect - DIRECT_HEADROOM) / 2 / slots;
  }

  private static String source(SparkConf conf) {
    if (conf.contains(MEMORY)) {
      return MEMORY;
    }
    return offHeap(conf) ? "spark.memory.offHeap.size" : "the JVM's direct-memory limit";
  }

  /** True when Spark's off-heap memory is on (then tasks reserve their budget from it). */
  public static boolean offHeap(SparkConf conf) {
    return conf.getBoolean("spark.memory.offHeap.enabled", false);
  }

  /**
   * Tasks that run at once in one executor: the cores ({@code local[N]}'s N in local mode, else
   * {@code spark.executor.cores}, else the processors the JVM sees) over {@code spark.task.cpus}.
   */
  public static int slots(SparkConf conf) {
    int cores = Runtime.getRuntime().availableProcessors();
    String master = conf.get("spark.master", "local[*]").trim().toLowerCase(Locale.ROOT);
    if (master.equals("local")) {
      cores = 1;
    } else if (master.startsWith("local[")) {
      String n =
          master.substring(6, master.indexOf(']') < 0 ? master.length() : master.indexOf(']'));
      n = n.contains(",") ? n.substring(0, n.indexOf(',')) : n;
      if (!n.trim().equals("*")) {
        cores = Integer.parseInt(n.trim());
      }
    } else if (conf.contains("spark.executor.cores")) {
      cores = conf.getInt("spark.executor.cores", cores);
    }
    return Math.max(1, cores / Math.max(1, conf.getInt("spark.task.cpus", 1)));
  }

  /** The JVM's direct-memory limit: -XX:MaxDirectMemorySize, or the max heap when unset. */
  @SuppressForbidden(
      "the direct-memory limit has no portable API; other JVMs fall back to the heap")
  public static long maxDirectMemory() {
    try {
      HotSpotDiagnosticMXBean hs =
          ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      long v = Long.parseLong(hs.getVMOption("MaxDirectMemorySize").getValue());
      if (v > 0) {
        return v;
      }
    } catch (RuntimeException e) {
      // not HotSpot, or no such option: the JDK's rule for the default applies
    }
    return Runtime.getRuntime().maxMemory();
  }
}

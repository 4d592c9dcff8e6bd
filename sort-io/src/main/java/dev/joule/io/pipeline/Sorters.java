package dev.joule.io.pipeline;

import dev.joule.core.radix.RadixRunSorter;
import dev.joule.io.config.SortConfig;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;

/** The radix sorter of a sort, on the caller's compute pool or on one of its own. Stateless. */
final class Sorters {
  private Sorters() {}

  /**
   * The radix sorter of a sort with {@code config}: on the caller's compute pool if it gave one,
   * else on a pool of its own.
   *
   * @throws RejectedExecutionException if the caller's pool is shut down
   */
  static RadixRunSorter sorter(SortConfig config) {
    ForkJoinPool pool = config.computePool();
    if (pool == null) {
      return new RadixRunSorter(config.threads());
    }
    checkComputePool(config);
    return new RadixRunSorter(pool, config.threads());
  }

  /**
   * Fails before anything is written if the caller's compute pool is already shut down.
   *
   * @throws RejectedExecutionException naming the setting
   */
  static void checkComputePool(SortConfig config) {
    ForkJoinPool pool = config.computePool();
    if (pool != null && pool.isShutdown()) {
      throw new RejectedExecutionException(
          "the compute pool of the sort's configuration (SortConfig.computePool) is shut down: "
              + pool);
    }
  }
}

package dev.joule.core.radix;

import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.joule.core.index.RecordIndex;
import java.util.concurrent.ForkJoinPool;

/**
 * The radix variant on a caller's pool whose parallelism differs from the threads the sorter plans
 * for: the order must not depend on either, and closing the sorter must leave the pool running.
 */
class BorrowedPoolRadixRunSorterTest extends RunSorterContractTest {
  @Override
  RunSorter newSorter(int threads) {
    ForkJoinPool pool = new ForkJoinPool(threads % 2 == 0 ? threads - 1 : threads + 1);
    RadixRunSorter sorter = new RadixRunSorter(pool, threads);
    return new RunSorter() {
      @Override
      public void sort(RecordIndex index, int from, int to) {
        sorter.sort(index, from, to);
      }

      @Override
      public void close() {
        sorter.close();
        assertFalse(pool.isShutdown(), "the sorter shut down a pool it borrowed");
        pool.shutdown();
      }
    };
  }
}

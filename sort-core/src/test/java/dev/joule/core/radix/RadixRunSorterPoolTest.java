package dev.joule.core.radix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.index.RecordIndex;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RadixRunSorterPoolTest {
  @Test
  void poolHasTheSetParallelismAndNamedWorkers() throws Exception {
    try (RadixRunSorter sorter = new RadixRunSorter(3)) {
      assertEquals(3, sorter.pool().getParallelism());
      String name = sorter.pool().submit(() -> Thread.currentThread().getName()).get();
      assertTrue(name.startsWith("joule-radix-"), name);
    }
  }

  @Test
  void closeIsIdempotentAndSortingAfterwardsFails() {
    RadixRunSorter sorter = new RadixRunSorter(2);
    sorter.close();
    sorter.close();
    assertTrue(sorter.pool().isShutdown());
    assertThrows(IllegalStateException.class, () -> sorter.sort(RecordIndex.allocate(0), 0, 0));
  }

  @Test
  void aBorrowedPoolIsUsedAndOutlivesTheSorter() throws Exception {
    ForkJoinPool pool = new ForkJoinPool(2);
    try {
      RadixRunSorter sorter = new RadixRunSorter(pool, 3);
      assertSame(pool, sorter.pool());
      assertFalse(sorter.ownsPool());
      assertEquals(3, sorter.threads(), "the threads planned for, not the pool's parallelism");
      sorter.sort(RecordIndex.allocate(0), 0, 0);
      sorter.close();
      sorter.close();
      assertFalse(pool.isShutdown(), "the sorter shut down a pool it borrowed");
      assertEquals(7, pool.submit(() -> 7).get(10, TimeUnit.SECONDS));
      assertThrows(IllegalStateException.class, () -> sorter.sort(RecordIndex.allocate(0), 0, 0));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aShutDownPoolIsRefusedAtOnceAndAtTheNextSort() {
    ForkJoinPool dead = new ForkJoinPool(1);
    dead.shutdown();
    assertThrows(RejectedExecutionException.class, () -> new RadixRunSorter(dead, 1));

    ForkJoinPool pool = new ForkJoinPool(1);
    try (RadixRunSorter sorter = new RadixRunSorter(pool, 1)) {
      pool.shutdown();
      RejectedExecutionException e =
          assertThrows(
              RejectedExecutionException.class, () -> sorter.sort(RecordIndex.allocate(0), 0, 0));
      assertTrue(e.getMessage().contains("shut down"), e.getMessage());
    }
  }
}

package dev.joule.core.radix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.index.RecordIndex;
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
}

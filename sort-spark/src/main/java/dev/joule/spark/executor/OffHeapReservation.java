package dev.joule.spark.executor;

import java.io.IOException;
import org.apache.spark.memory.MemoryConsumer;
import org.apache.spark.memory.MemoryMode;
import org.apache.spark.memory.TaskMemoryManager;

/**
 * A task's sort budget reserved from Spark's off-heap execution pool, so that Spark counts joule's
 * direct memory as used while the partition sorts. It cannot be spilled on request: the engine
 * spills by its own budget instead. Not thread-safe: one per task.
 */
final class OffHeapReservation extends MemoryConsumer {
  private long held;

  OffHeapReservation(TaskMemoryManager tmm) {
    super(tmm, MemoryMode.OFF_HEAP);
  }

  /** Reserves up to {@code bytes}; returns what Spark granted. */
  long reserve(long bytes) {
    held += acquireMemory(bytes);
    return held;
  }

  /** Gives the reservation back; idempotent. */
  void release() {
    if (held > 0) {
      freeMemory(held);
      held = 0;
    }
  }

  @Override
  public long spill(long size, MemoryConsumer trigger) throws IOException {
    return 0; // the engine holds its budget until the partition is written
  }
}

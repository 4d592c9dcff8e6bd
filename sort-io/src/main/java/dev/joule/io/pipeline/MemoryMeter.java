package dev.joule.io.pipeline;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the off-heap bytes a sort holds (arenas and block pools) and remembers the peak.
 * Thread-safe.
 */
final class MemoryMeter {
  private final AtomicLong current = new AtomicLong();
  private final AtomicLong peak = new AtomicLong();

  void allocated(long bytes) {
    long now = current.addAndGet(bytes);
    peak.accumulateAndGet(now, Math::max);
  }

  void freed(long bytes) {
    current.addAndGet(-bytes);
  }

  long peak() {
    return peak.get();
  }
}

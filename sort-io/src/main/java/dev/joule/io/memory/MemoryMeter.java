package dev.joule.io.memory;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the memory a sort holds against its budget (off-heap arenas and block pools, and the heap
 * arrays of its indexes) and remembers the peak. Thread-safe.
 */
public final class MemoryMeter {
  private final AtomicLong current = new AtomicLong();
  private final AtomicLong peak = new AtomicLong();

  /** Counts {@code bytes} more held. */
  public void allocated(long bytes) {
    long now = current.addAndGet(bytes);
    peak.accumulateAndGet(now, Math::max);
  }

  /** Counts {@code bytes} released. */
  public void freed(long bytes) {
    current.addAndGet(-bytes);
  }

  /** The bytes held now. */
  public long current() {
    return current.get();
  }

  /** The most bytes held at once so far. */
  public long peak() {
    return peak.get();
  }
}

package dev.joule.io.stripe;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Places runs on stripes 0, 1, 2, …, 0, 1, … in turn, so that consecutive runs (which the merge
 * reads at the same time) sit on different devices. Thread-safe (one atomic counter).
 */
public final class RoundRobinStripes implements StripeAllocator {
  private final AtomicLong counter = new AtomicLong();

  @Override
  public int next(int stripeCount, long bytes) {
    return (int) Long.remainderUnsigned(counter.getAndIncrement(), stripeCount);
  }
}

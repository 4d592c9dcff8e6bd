package dev.joule.io.stripe;

/**
 * Chooses the stripe for the next run file. Implementations are small strategy objects (STXXL's
 * striping / RC allocators) chosen by configuration.
 *
 * <p>Implementations must be thread-safe: runs may be created from several threads.
 */
public interface StripeAllocator {
  /**
   * The index, in {@code 0..stripeCount-1}, of the stripe that receives the next run of about
   * {@code bytes} bytes.
   */
  int next(int stripeCount, long bytes);
}

package dev.joule.io.config;

/**
 * Receives a file sort's timeline as it happens, one {@link TimelineSample} per interval ({@link
 * SortConfig#timelineInterval()}), so that an embedding platform can publish each device's
 * throughput and the sort's CPU use to its own metrics while the sort runs.
 *
 * <p>Called on the sort's sampler thread (from {@link SortConfig#threadFactory()} when one was
 * given), never concurrently, in time order, the last call before the sort returns. A listener that
 * throws is not called again; the sort goes on and reports the failure as a notice. It should
 * return quickly: a slow listener delays the next sample, never the sort.
 */
@FunctionalInterface
public interface TimelineListener {
  /** A listener that ignores the samples. */
  TimelineListener NONE = sample -> {};

  /** One interval of the sort. */
  void sample(TimelineSample sample);
}

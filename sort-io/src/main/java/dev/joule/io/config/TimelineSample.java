package dev.joule.io.config;

import java.util.List;

/**
 * One interval of a sort's timeline: what the process and each device did between two samples.
 * Bytes and times are the interval's own (not running totals), so summing a device's samples gives
 * its totals for the sort.
 *
 * <p>Immutable.
 *
 * @param startNanos start of the interval, nanoseconds since the sort began
 * @param endNanos end of the interval (the next sample's start)
 * @param phase the phase in progress when the sample was taken ("plan" before the first one, then
 *     the names of the sort's phase reports: "run formation", "merge pass 1", ...)
 * @param cpuNanos CPU time the whole process used in the interval (all threads, user + system; 0
 *     where the JVM cannot tell)
 * @param devices one entry per device the sort had opened by then: the input, each temp stripe, the
 *     output
 */
public record TimelineSample(
    long startNanos, long endNanos, String phase, long cpuNanos, List<DeviceSample> devices) {

  /** Copies the list. */
  public TimelineSample {
    devices = List.copyOf(devices);
  }

  /** Length of the interval in nanoseconds. */
  public long nanos() {
    return endNanos - startNanos;
  }

  /** CPU use in the interval as a percentage of one core (200 % = two busy cores). */
  public double cpuPercent() {
    return nanos() <= 0 ? 0 : 100.0 * cpuNanos / nanos();
  }
}

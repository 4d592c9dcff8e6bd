package dev.joule.io.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The meter's sustained write rate against simulated devices, on a simulated clock: a run writer
 * that fills 1 MiB buffers (two in flight and one being filled), waits for a run's last writes and
 * sorts the next run meanwhile nothing is written, and a write-behind thread that writes the
 * buffers in turn. A rate-limited device (the kernel's block throttle: an allowance granted at the
 * start of every 100 ms slice, a write beyond it stalled to the next slice) must be measured at its
 * rate though its busy rate says several times more; a device whose calls take its time, fast or
 * slow, at its busy rate.
 */
class DeviceMeterTest {
  private static final long MS = 1_000_000L;
  private static final int BLOCK = 1 << 20;

  /** When a write that starts at {@code start} ends on a simulated device. */
  private interface Device {
    long end(long start, long bytes);
  }

  /** The block throttle: {@code rate} bytes/s granted per slice, unused allowance not kept. */
  private static final class Throttle implements Device {
    final double rate;
    final long slice;
    long sliceEnd;
    double credit;

    Throttle(double rate, long slice) {
      this.rate = rate;
      this.slice = slice;
    }

    @Override
    public long end(long start, long bytes) {
      long t = start;
      while (true) {
        if (t >= sliceEnd) {
          sliceEnd = t - (t - sliceEnd) % slice + slice; // the slice t falls in
          credit = rate * slice / 1e9;
        }
        if (bytes <= credit) {
          credit -= bytes;
          return t + 300_000; // the transfer itself, at memory speed
        }
        t = sliceEnd; // stalled to the next slice
      }
    }
  }

  /** A device whose write calls take its time: {@code rate} bytes/s, one write at a time. */
  private static Device paced(double rate) {
    return (start, bytes) -> start + (long) (bytes * 1e9 / rate);
  }

  /** One instant of the simulation: its time, and what the meter is told then. */
  private record Event(long time, int order, Runnable action) {}

  /**
   * Runs {@code runs} runs of {@code runBlocks} writes of 1 MiB through {@code device}: each run's
   * blocks filled at {@code fillRate} bytes/s, then its last writes waited for (BlockWriter's
   * finish), then {@code gapNanos} with nothing to write (the next run being sorted). Returns the
   * meter that saw them.
   */
  private static DeviceMeter simulate(
      Device device, double fillRate, int runs, int runBlocks, long gapNanos) {
    long[] clock = {0};
    DeviceMeter meter = new DeviceMeter(() -> clock[0]);
    int inFlight = 2; // BlockWriter's buffers queued or being written, besides the one filled
    long fill = (long) (BLOCK * 1e9 / fillRate);
    int blocks = runs * runBlocks;
    long[] done = new long[blocks];
    List<Event> events = new ArrayList<>();
    long producer = 0;
    for (int i = 0; i < blocks; i++) {
      long free = i % runBlocks > inFlight ? done[i - inFlight - 1] : 0; // this block's buffer
      producer = waitUntil(events, meter, producer, free);
      long ready = producer + fill;
      producer = ready;
      long start = Math.max(ready, i > 0 ? done[i - 1] : 0);
      done[i] = device.end(start, BLOCK);
      long[] began = new long[1];
      events.add(new Event(start, 1, () -> began[0] = meter.start()));
      events.add(new Event(done[i], 2, () -> meter.wrote(BLOCK, began[0])));
      if (i % runBlocks == runBlocks - 1) {
        producer = waitUntil(events, meter, producer, done[i]) + gapNanos;
      }
    }
    events.sort(Comparator.comparingLong(Event::time).thenComparingInt(Event::order));
    for (Event e : events) {
      clock[0] = e.time();
      e.action().run();
    }
    return meter;
  }

  /** The producer, free at {@code now}, waits for the device until {@code until}. */
  private static long waitUntil(List<Event> events, DeviceMeter meter, long now, long until) {
    if (until <= now) {
      return now;
    }
    long waited = until - now;
    events.add(new Event(until, 0, () -> meter.writeWaited(waited)));
    return until;
  }

  @Test
  void aThrottledDeviceIsMeasuredAtItsRateThoughItsCallsAreQuick() {
    double rate = 100e6;
    DeviceMeter m = simulate(new Throttle(rate, 100 * MS), 1e9, 30, 14, 50 * MS);
    assertTrue(m.writeRate() > 1.5 * rate, () -> "busy rate " + m.writeRate());
    assertEquals(rate, m.sustainedWriteRate(), 0.1 * rate, "sustained");
    assertTrue(m.boundNanos() > 2_000 * MS, () -> "bound for " + m.boundNanos() + " ns");
  }

  @Test
  void aThrottledDeviceTheWriterDoesNotFillIsNotBound() {
    DeviceMeter m = simulate(new Throttle(100e6, 100 * MS), 50e6, 1, 300, 0);
    assertEquals(0, m.boundNanos(), "bound windows");
    assertEquals(m.writeRate(), m.sustainedWriteRate(), "sustained");
  }

  @Test
  void aFastDeviceIsMeasuredByItsCalls() {
    DeviceMeter m = simulate(paced(1e9), 1e9, 30, 14, 50 * MS);
    assertEquals(0, m.boundNanos(), "bound windows");
    assertEquals(1e9, m.sustainedWriteRate(), 0.01e9, "sustained");
  }

  /**
   * A device whose calls take its time binds a writer faster than it too; its windows then count
   * the writer's pauses between runs as well (a quarter of the time here), so the sustained rate
   * may read lower than the device's, never higher.
   */
  @Test
  void aSlowDeviceWhoseCallsTakeItsTimeIsMeasuredAtThatRateOrBelow() {
    double rate = 100e6;
    DeviceMeter m = simulate(paced(rate), 1e9, 30, 14, 50 * MS);
    assertTrue(m.boundNanos() > 2_000 * MS, () -> "bound for " + m.boundNanos() + " ns");
    assertEquals(rate, m.writeRate(), 0.01 * rate, "busy");
    double sustained = m.sustainedWriteRate();
    assertTrue(
        sustained > 0.6 * rate && sustained <= m.writeRate(), () -> "sustained " + sustained);
  }

  @Test
  void aThrottledDeviceWithoutPausesIsMeasuredAtItsRate() {
    double rate = 100e6;
    DeviceMeter m = simulate(new Throttle(rate, 100 * MS), 400e6, 1, 400, 0);
    assertEquals(rate, m.sustainedWriteRate(), 0.1 * rate, "sustained");
  }
}

package dev.joule.io.pipeline;

import dev.joule.io.block.DeviceMeter;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.DeviceSample;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.config.SortConfig;
import dev.joule.io.config.TimelineListener;
import dev.joule.io.config.TimelineSample;
import dev.joule.io.report.PhaseClock;
import dev.joule.io.report.PhaseReport;
import dev.joule.io.report.PhaseSpan;
import dev.joule.io.report.Timeline;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Takes a file sort's {@link Timeline}: a thread ({@code joule-timeline}, or the caller's) wakes
 * once per interval, reads every registered {@link DeviceMeter} and the process's CPU clock, turns
 * the differences since the last sample into a {@link TimelineSample}, keeps it and hands it to the
 * {@link TimelineListener}. {@link #finish()} makes the thread take a last sample covering the rest
 * of the sort and joins it, so the samples add up to the meters' totals.
 *
 * <p>Ticks are on a fixed grid from the start (a late wake-up shortens the next interval rather
 * than shifting all later ones), and a sample reads a handful of atomics per device: the overhead
 * is one wake-up per interval. With a zero interval nothing is started and {@link #finish()}
 * returns {@link Timeline#NONE}.
 *
 * <p>{@link #device} and {@link #phase} may be called from the sort's thread while sampling runs;
 * {@link #phaseEnded} and {@link #finish()} from the owner only.
 */
final class TimelineSampler implements AutoCloseable {
  private final long intervalNanos;
  private final TimelineListener listener;
  private final NoticeSink notices;
  private final long t0 = System.nanoTime();
  private final List<Device> devices = new CopyOnWriteArrayList<>();
  private final List<TimelineSample> samples = new ArrayList<>(); // sampler thread, then owner
  private final List<PhaseSpan> spans = new ArrayList<>(); // owner only
  private final Object lock = new Object();
  private final Thread thread; // null: no timeline
  private volatile String phase = "plan";
  private boolean stopping; // guarded by lock
  private long lastCpu;
  private volatile long samplerCpu;
  private long lastTick;
  private boolean listening = true;

  private TimelineSampler(SortConfig config, SortThreads threads, NoticeSink notices) {
    this.intervalNanos = config.timelineInterval().toNanos();
    this.listener = config.timelineListener();
    this.notices = notices;
    this.lastCpu = PhaseClock.processCpuNanos();
    this.lastTick = t0;
    this.thread = intervalNanos == 0 ? null : threads.start("timeline", this::run);
  }

  /**
   * Starts sampling per {@code config}'s interval on a thread from {@code threads}.
   *
   * @throws java.util.concurrent.RejectedExecutionException if {@code threads} has none to give
   */
  static TimelineSampler start(SortConfig config, SortThreads threads, NoticeSink notices) {
    return new TimelineSampler(config, threads, notices);
  }

  /**
   * A counting meter for a new device named {@code name} ("input", "temp 0", "output"), sampled
   * from the next tick on; {@link DeviceMeter#NONE} when there is no timeline, so that an untimed
   * sort pays nothing for it.
   */
  DeviceMeter newDevice(String name, String path) {
    if (thread == null) {
      return DeviceMeter.NONE;
    }
    DeviceMeter m = new DeviceMeter();
    device(name, path, m);
    return m;
  }

  /** Samples {@code meter} (which already exists, e.g. a temp stripe's) as device {@code name}. */
  void device(String name, String path, DeviceMeter meter) {
    if (thread != null && meter.counting()) {
      devices.add(new Device(name, path, meter));
    }
  }

  /** The phase that starts now: later samples carry its name. */
  void phase(String name) {
    phase = name;
  }

  /**
   * Records when the phase {@code p} just reported ran (it ended now and lasted its wall time); the
   * phase in progress from now on is {@code next} (null: unchanged).
   */
  void phaseEnded(PhaseReport p, String next) {
    long end = System.nanoTime() - t0;
    spans.add(new PhaseSpan(p.name(), Math.max(0, end - p.wallNanos()), end));
    if (next != null) {
      phase = next;
    }
  }

  /** Stops sampling after a last sample and returns the timeline ({@link Timeline#NONE} if off). */
  Timeline finish() {
    if (thread == null) {
      return Timeline.NONE;
    }
    stop();
    return new Timeline(intervalNanos, samples, spans, samplerCpu);
  }

  /** Stops and joins the sampler thread (idempotent): the sort's failure path. */
  @Override
  public void close() {
    if (thread != null) {
      stop();
    }
  }

  private void stop() {
    synchronized (lock) {
      stopping = true;
      lock.notifyAll();
    }
    SortThreads.joinUninterruptibly(List.of(thread));
  }

  private void run() {
    boolean interrupted = false;
    long tick = t0;
    while (true) {
      boolean last;
      synchronized (lock) {
        tick += intervalNanos;
        long now = System.nanoTime();
        if (tick <= now) {
          tick = now + intervalNanos - Math.floorMod(now - t0, intervalNanos); // skip missed ticks
        }
        long wait;
        while (!stopping && (wait = tick - System.nanoTime()) > 0) {
          try {
            TimeUnit.NANOSECONDS.timedWait(lock, wait);
          } catch (InterruptedException e) {
            interrupted = true; // not ours to act on; the sort stops this thread with finish()
          }
        }
        last = stopping;
      }
      take();
      if (last) {
        break;
      }
    }
    samplerCpu = PhaseClock.currentThreadCpuNanos(); // read by finish() after the join
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** One sample, from the last tick to now; on the sampler thread only. */
  private void take() {
    long now = System.nanoTime();
    long cpu = PhaseClock.processCpuNanos();
    List<DeviceSample> list = new ArrayList<>(devices.size());
    for (Device d : devices) {
      list.add(d.sample());
    }
    TimelineSample s = new TimelineSample(lastTick - t0, now - t0, phase, cpu - lastCpu, list);
    lastTick = now;
    lastCpu = cpu;
    samples.add(s);
    if (listening) {
      try {
        listener.sample(s);
      } catch (RuntimeException e) {
        listening = false;
        notices.notice("the timeline listener failed and gets no more samples: " + e);
      }
    }
  }

  /** A sampled device and its counters at the last sample; touched by the sampler thread only. */
  private static final class Device {
    private final String name;
    private final String path;
    private final DeviceMeter meter;
    private long read;
    private long written;
    private long busy;
    private long waited;

    Device(String name, String path, DeviceMeter meter) {
      this.name = name;
      this.path = path;
      this.meter = meter;
    }

    DeviceSample sample() {
      long r = meter.bytesRead();
      long w = meter.bytesWritten();
      long b = meter.readNanos() + meter.writeNanos();
      long q = meter.waitNanos();
      DeviceSample s =
          new DeviceSample(
              name, path, r - read, w - written, meter.inFlight(), b - busy, q - waited);
      read = r;
      written = w;
      busy = b;
      waited = q;
      return s;
    }
  }
}

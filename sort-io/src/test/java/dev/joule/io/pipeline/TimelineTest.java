package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.DeviceSample;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.config.TimelineSample;
import dev.joule.io.report.DeviceReport;
import dev.joule.io.report.PhaseReport;
import dev.joule.io.report.PhaseSpan;
import dev.joule.io.report.SortReport;
import dev.joule.io.report.Timeline;
import dev.joule.io.testing.PipelineTestSupport;
import dev.joule.io.testing.TestHooks;
import dev.joule.testing.TestSeed;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * The timeline of a file sort: its samples tile the sort without gaps, add up to every device's
 * totals exactly and, within the samples that straddle a phase's start or end, to each phase's
 * bytes; the listener sees the report's samples on the sampler thread; a zero interval takes none;
 * a failing listener does not fail the sort.
 */
class TimelineTest {
  static final long SEED = TestSeed.of(TimelineTest.class, 0x71AE_11EL);
  static final FixedLengthFormat GENSORT = RecordFormat.gensort();

  @TempDir Path dir;
  List<Path> stripes;
  String name;

  @BeforeEach
  void setUp(TestInfo info) throws IOException {
    name = info.getDisplayName();
    stripes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      stripes.add(Files.createDirectories(dir.resolve("s" + i)));
    }
  }

  @AfterEach
  void leaks() throws Exception {
    PipelineTestSupport.assertNoLeaks(name, stripes);
  }

  /** Two passes over 4 stripes: several runs, intermediate merges (fan-in 3), a final merge. */
  SortConfig.Builder fourStripes(Duration interval) {
    SortConfig.Builder b =
        SortConfig.builder()
            .memoryBudget(DataSize.ofMiB(16))
            .tempDirs(stripes)
            .fanIn(3)
            .transferSize(FileKind.TEMP, DataSize.ofKiB(16))
            .transferSize(FileKind.INPUT, DataSize.ofKiB(64))
            .transferSize(FileKind.OUTPUT, DataSize.ofKiB(64))
            .timelineInterval(interval);
    return TestHooks.runRecordsLimit(b, 8 * 1024);
  }

  @Test
  void theTimelineAddsUpToTheDeviceAndPhaseTotals() throws IOException {
    byte[] data = PipelineTestSupport.records(SEED, 80_000, GENSORT, 0);
    Path in = dir.resolve("in");
    Path out = dir.resolve("out");
    Files.write(in, data);
    List<TimelineSample> heard = new CopyOnWriteArrayList<>();
    Set<String> listenerThreads = ConcurrentHashMap.newKeySet();
    SortConfig c =
        fourStripes(Duration.ofMillis(5))
            .timelineListener(
                s -> {
                  heard.add(s);
                  listenerThreads.add(Thread.currentThread().getName().replaceAll("-\\d+$", ""));
                })
            .build();
    SortReport r = ExternalSorter.sort(in, out, c);
    assertArrayEquals(PipelineTestSupport.reference(data, GENSORT), Files.readAllBytes(out));
    Timeline t = r.timeline();
    String context = "seed " + SEED + ", " + t.samples().size() + " samples";

    assertEquals(Duration.ofMillis(5).toNanos(), t.intervalNanos());
    assertTrue(t.samples().size() >= 3, context);
    assertEquals(t.samples(), heard, "the listener heard the report's samples");
    assertEquals(Set.of("joule-timeline"), listenerThreads);

    // The samples tile the sort: no gap, no overlap, so nothing happens outside all of them.
    long at = 0;
    for (TimelineSample s : t.samples()) {
      assertEquals(at, s.startNanos(), context);
      assertTrue(s.endNanos() >= s.startNanos(), context);
      at = s.endNanos();
    }

    assertEquals(
        List.of("input", "temp 0", "temp 1", "temp 2", "temp 3", "output"),
        List.copyOf(t.devices().keySet()),
        context);
    // Every byte a stripe moved is in exactly one sample.
    for (int i = 0; i < 4; i++) {
      DeviceReport d = r.devices().get(i);
      String dev = "temp " + i;
      assertTrue(d.bytesWritten() > 0, dev + " wrote nothing");
      assertEquals(d.bytesWritten(), sum(t, dev, DeviceSample::bytesWritten), dev + ", " + context);
      assertEquals(d.bytesRead(), sum(t, dev, DeviceSample::bytesRead), dev + ", " + context);
    }
    assertEquals(data.length, sum(t, "input", DeviceSample::bytesRead), context);
    assertEquals(0, sum(t, "input", DeviceSample::bytesWritten), context);
    long outWritten = sum(t, "output", DeviceSample::bytesWritten);
    // Direct writes of the output's tail are padded to the 4096-byte page, then cut.
    assertTrue(outWritten >= data.length && outWritten < data.length + 4096L * 8, context);
    for (TimelineSample s : t.samples()) {
      for (DeviceSample d : s.devices()) {
        assertTrue(d.inFlight() >= 0 && d.waitNanos() >= 0 && d.busyNanos() >= 0, d.toString());
      }
    }
    assertTrue(sum(t, "input", DeviceSample::waitNanos) > 0, "the sort never waited for input?");

    // Per phase: its bytes lie in the samples that overlap its band, and include every sample
    // entirely inside it: the timeline is right to within one interval at each end.
    assertEquals(
        r.phases().stream().map(PhaseReport::name).toList(),
        t.phases().stream().map(PhaseSpan::name).toList());
    assertTrue(r.mergePasses() >= 2, "intermediate merges expected: " + r.mergePasses());
    for (int p = 0; p < r.phases().size(); p++) {
      PhaseReport phase = r.phases().get(p);
      PhaseSpan span = t.phases().get(p);
      assertTrue(span.endNanos() >= span.startNanos() && span.endNanos() <= t.endNanos());
      boolean first = p == 0;
      boolean last = p == r.phases().size() - 1;
      List<String> readFrom = first ? List.of("input") : temps();
      List<String> writtenTo = last ? List.of("output") : temps();
      long[] read = bounds(t, span, readFrom, DeviceSample::bytesRead);
      long[] written = bounds(t, span, writtenTo, DeviceSample::bytesWritten);
      String where = phase.name() + ", " + context;
      // A parallel final merge reads more than its runs' bytes: the splitters probe blocks for
      // keys and neighbouring parts both read the block their cut falls in. The timeline shows
      // those device reads, which the phase's file volume leaves out.
      // Opening a run also reads its header and footer once more (less than a temp transfer).
      boolean probes = last && !phase.name().endsWith("1 part)");
      long metadata = first ? 0 : phase.runsIn() * 16L * 1024;
      assertTrue(
          (probes || read[0] <= phase.bytesRead() + metadata) && phase.bytesRead() <= read[1],
          where + ": read " + phase.bytesRead() + " not in " + read[0] + ".." + read[1]);
      if (!last) { // the output's padding is not in the phase's bytes
        assertTrue(
            written[0] <= phase.bytesWritten() && phase.bytesWritten() <= written[1],
            where
                + ": wrote "
                + phase.bytesWritten()
                + " not in "
                + written[0]
                + ".."
                + written[1]);
      }
    }

    // The CPU of all phases happened within the samples, which cover the whole sort.
    long sampledCpu = t.samples().stream().mapToLong(TimelineSample::cpuNanos).sum();
    if (sampledCpu > 0) { // 0: this JVM cannot read the process CPU clock
      assertTrue(sampledCpu >= r.cpuNanos() - 20_000_000L, sampledCpu + " < " + r.cpuNanos());
    }
    String json = r.toJson();
    assertTrue(json.contains("\"timeline\"") && json.contains("\"temp 3\""), json);
  }

  @Test
  void aZeroIntervalTakesNoTimelineAndStartsNoThread() throws IOException {
    byte[] data = PipelineTestSupport.records(SEED + 1, 30_000, GENSORT, 0);
    Path in = dir.resolve("in");
    Files.write(in, data);
    List<TimelineSample> heard = new CopyOnWriteArrayList<>();
    SortConfig c = fourStripes(Duration.ZERO).timelineListener(heard::add).build();
    Set<String> roles = ConcurrentHashMap.newKeySet();
    SortConfig watched =
        c.toBuilder()
            .progress(
                (phase, done, total) -> {
                  for (Thread th : Thread.getAllStackTraces().keySet()) {
                    roles.add(th.getName().replaceAll("-\\d+$", ""));
                  }
                })
            .build();
    SortReport r = ExternalSorter.sort(in, dir.resolve("out"), watched);
    assertSame(Timeline.NONE, r.timeline());
    assertEquals(List.of(), heard);
    assertFalse(roles.contains("joule-timeline"), roles.toString());
    assertTrue(roles.contains("joule-write"), "the watch saw the sort's threads: " + roles);
  }

  @Test
  void aFailingListenerIsDroppedWithANoticeAndTheSortSucceeds() throws IOException {
    byte[] data = PipelineTestSupport.records(SEED + 2, 60_000, GENSORT, 0);
    Path in = dir.resolve("in");
    Path out = dir.resolve("out");
    Files.write(in, data);
    List<String> notices = new CopyOnWriteArrayList<>();
    List<TimelineSample> heard = new CopyOnWriteArrayList<>();
    SortConfig c =
        fourStripes(Duration.ofMillis(2))
            .notices(notices::add)
            .timelineListener(
                s -> {
                  heard.add(s);
                  throw new IllegalStateException("metrics backend down");
                })
            .build();
    SortReport r = ExternalSorter.sort(in, out, c);
    assertArrayEquals(PipelineTestSupport.reference(data, GENSORT), Files.readAllBytes(out));
    assertEquals(1, heard.size(), "called again after it threw");
    assertTrue(r.timeline().samples().size() >= 1);
    assertTrue(
        notices.stream().anyMatch(n -> n.contains("timeline listener") && n.contains("down")),
        notices.toString());
  }

  static List<String> temps() {
    return List.of("temp 0", "temp 1", "temp 2", "temp 3");
  }

  static long sum(Timeline t, String device, ToLongFunction<DeviceSample> f) {
    return t.of(device).stream().mapToLong(f).sum();
  }

  /**
   * {bytes of the samples lying inside {@code span}, bytes of the samples overlapping it} over
   * {@code devices}; the span is widened by a millisecond, since its ends are taken a moment after
   * the phase's own clock.
   */
  static long[] bounds(
      Timeline t, PhaseSpan span, List<String> devices, ToLongFunction<DeviceSample> f) {
    long slack = 1_000_000L;
    long from = span.startNanos() - slack;
    long to = span.endNanos() + slack;
    long inside = 0;
    long overlapping = 0;
    for (TimelineSample s : t.samples()) {
      long bytes = 0;
      for (DeviceSample d : s.devices()) {
        if (devices.contains(d.device())) {
          bytes += f.applyAsLong(d);
        }
      }
      if (s.startNanos() >= span.startNanos() && s.endNanos() <= span.endNanos()) {
        inside += bytes;
      }
      if (s.endNanos() > from && s.startNanos() < to) {
        overlapping += bytes;
      }
    }
    return new long[] {inside, overlapping};
  }
}

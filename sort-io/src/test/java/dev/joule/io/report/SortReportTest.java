package dev.joule.io.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SortReportTest {
  private static SortReport sample() {
    return new SortReport(
        1000,
        100_000,
        2,
        1,
        true,
        3,
        1,
        3,
        1 << 20,
        List.of(
            new PhaseReport(
                "run formation", 2_000_000_000L, 3_000_000_000L, 100_000, 100_000, 0, 3, 0),
            new PhaseReport(
                "merge pass 1 \"final\"", 1_000_000_000L, 500_000_000L, 100_000, 100_000, 3, 1, 3)),
        new DataSummary(1000, "1ea6370b955", 0, false),
        new DataSummary(1000, "1ea6370b955", 0, true));
  }

  @Test
  void totalsAddUpPhases() {
    SortReport r = sample();
    assertEquals(3_000_000_000L, r.wallNanos());
    assertEquals(3_500_000_000L, r.cpuNanos());
    assertEquals(150.0, r.phases().get(0).cpuPercent(), 1e-9);
    assertEquals(0.05, r.phases().get(0).megabytesPerSecond(), 1e-9);
  }

  @Test
  void jsonIsWellFormedAndEscaped() {
    String json = sample().toJson();
    assertTrue(json.startsWith("{\n  \"records\": 1000,"), json);
    assertTrue(json.contains("\"name\": \"merge pass 1 \\\"final\\\"\""), json);
    assertTrue(json.contains("\"output\": {\n    \"records\": 1000,"), json);
    assertTrue(json.contains("\"checksumKind\": \"crc32\","), json);
    assertTrue(json.endsWith("\n}"), json);
    // brackets balance and no trailing commas
    int depth = 0;
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      depth += (c == '{' || c == '[') ? 1 : (c == '}' || c == ']') ? -1 : 0;
    }
    assertEquals(0, depth);
    assertTrue(!json.matches("(?s).*,\\s*[}\\]].*"), json);
  }

  /** The merges' prefetch figures go into the JSON as an object of their own. */
  @Test
  void prefetchFiguresAreInTheJson() {
    SortReport s = sample();
    SortReport r = with(s, s.phases(), new PrefetchReport(40, 3, 1, 2_500_000));
    String json = r.toJson();
    assertTrue(
        json.contains(
            "\"prefetch\": {\n    \"blocks\": 40,\n    \"waited\": 3,\n    \"selfRead\": 1,"),
        json);
    assertTrue(json.contains("\"waitSeconds\": 0.0025"), json);
    assertEquals(PrefetchReport.NONE, s.prefetch());
    assertEquals(
        new PrefetchReport(41, 5, 4, 7),
        r.prefetch().plus(new PrefetchReport(1, 2, 3, -2_499_993)));
  }

  /** The report keeps its own copy of the phase list: a caller's later change does not leak in. */
  @Test
  void phasesAreCopied() {
    SortReport s = sample();
    List<PhaseReport> phases = new java.util.ArrayList<>(s.phases());
    SortReport r = with(s, phases, s.prefetch());
    phases.clear();
    assertEquals(2, r.phases().size());
  }

  /** {@code s} with other phases and prefetch figures. */
  private static SortReport with(SortReport s, List<PhaseReport> phases, PrefetchReport prefetch) {
    return new SortReport(
        s.records(),
        s.bytes(),
        s.threads(),
        s.stripes(),
        s.directIo(),
        s.runs(),
        s.mergePasses(),
        s.fanIn(),
        s.peakMemoryBytes(),
        phases,
        s.input(),
        s.output(),
        s.devices(),
        s.timeline(),
        prefetch,
        s.compression());
  }
}

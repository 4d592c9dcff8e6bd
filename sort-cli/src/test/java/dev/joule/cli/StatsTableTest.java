package dev.joule.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.io.report.CompressionReport;
import dev.joule.io.report.DataSummary;
import dev.joule.io.report.PhaseReport;
import dev.joule.io.report.PrefetchReport;
import dev.joule.io.report.SortReport;
import dev.joule.io.report.Timeline;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The --stats lines about compressed temp runs: there with a codec, absent without. */
class StatsTableTest {
  /** A two-pass sort's report (StubEngine's phases) with {@code z} as its compression. */
  static SortReport with(CompressionReport z) {
    List<PhaseReport> phases = StubEngine.REPORT.phases();
    DataSummary sum = StubEngine.REPORT.input();
    return new SortReport(
        1000,
        100_000,
        2,
        1,
        true,
        3,
        1,
        3,
        8L << 20,
        phases,
        sum,
        sum,
        List.of(),
        Timeline.NONE,
        PrefetchReport.NONE,
        z);
  }

  @Test
  void aCodecGetsALineWithItsFigures() {
    CompressionReport z =
        new CompressionReport(
            "auto",
            "lz4",
            400_000_000,
            250_000_000,
            800,
            600,
            300_000_000,
            940_000_000,
            130_000_000,
            131_500_000);
    List<String> lines = StatsTable.lines(with(z));
    String line = lines.stream().filter(l -> l.startsWith("compression")).findFirst().orElseThrow();
    assertEquals(
        "compression lz4 (policy auto): run blocks of 400.0 MB stored in 250.0 MB (63 %), 150.0 MB"
            + " of temp I/O saved; 600 of 800 blocks compressed; 0.94 CPU-s compressing (319 MB/s"
            + " per core), 0.13 s decompressing; a run read back at 131.5 MB/s (the devices as a"
            + " merge will read them)",
        line);
  }

  @Test
  void noCodecNoLine() {
    assertTrue(
        StatsTable.lines(with(CompressionReport.NONE)).stream()
            .noneMatch(l -> l.startsWith("compression")));
    CompressionReport off =
        new CompressionReport("off", "none", 400_000_000, 400_000_000, 800, 0, 0, 0, 0, 0);
    assertTrue(StatsTable.lines(with(off)).stream().noneMatch(l -> l.startsWith("compression")));
  }
}

package dev.joule.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class BenchRowTest {
  @Test
  void tableHasPerRunRowsAndAColumnwiseMedian() {
    List<BenchRow> rows =
        List.of(
            new BenchRow("1", 10_000_000, 1_000_000_000, 4.0, 6.0, Double.NaN),
            new BenchRow("2", 10_000_000, 1_000_000_000, 2.0, 5.0, Double.NaN),
            new BenchRow("3", 10_000_000, 1_000_000_000, 5.0, 4.0, Double.NaN));
    List<String> t = BenchRow.table(rows, false);
    assertEquals(5, t.size());
    assertEquals(
        "run        wall s     CPU s      MB/s    records/s   CPU-s/GB   energy J   records/J",
        t.get(0));
    assertEquals(
        "2           2.000     5.000     500.0    5,000,000       5.00        n/a         n/a",
        t.get(2));
    assertEquals(
        "median      4.000     5.000     250.0    2,500,000       5.00        n/a         n/a",
        t.get(4));
  }

  @Test
  void energyColumnsWhenMeasured() {
    BenchRow r = new BenchRow("1", 1_000_000, 100_000_000, 1.0, 2.0, 50.0);
    assertEquals(20_000, r.recordsPerJoule(), 1e-9);
    assertEquals(
        "1           1.000     2.000     100.0    1,000,000      20.00       50.0      20,000",
        r.line(true));
    assertEquals(
        3.0, BenchRow.median(List.of(r, new BenchRow("2", 1, 1, 5.0, 1, 1))).wallSeconds(), 1e-9);
  }
}

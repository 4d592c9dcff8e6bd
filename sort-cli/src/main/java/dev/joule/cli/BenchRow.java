package dev.joule.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * One timed sort of {@code joule bench}, and the table of all of them with a median row. MB and GB
 * are 10^6 and 10^9 bytes. Immutable.
 *
 * @param label the run number, or "median"
 * @param records records sorted
 * @param bytes bytes sorted
 * @param wallSeconds elapsed time of the sort
 * @param cpuSeconds CPU time of the whole process (all threads, user + system) during the sort
 * @param joules energy of all CPU packages during the sort, or NaN when not measured
 */
record BenchRow(
    String label, long records, long bytes, double wallSeconds, double cpuSeconds, double joules) {
  private static final String FORMAT = "%-7s %9s %9s %9s %12s %10s %10s %11s";

  double megabytesPerSecond() {
    return bytes / 1e6 / wallSeconds;
  }

  double recordsPerSecond() {
    return records / wallSeconds;
  }

  double cpuSecondsPerGigabyte() {
    return cpuSeconds / (bytes / 1e9);
  }

  double recordsPerJoule() {
    return records / joules;
  }

  /** The header, one line per row, and the median of every column. */
  static List<String> table(List<BenchRow> rows, boolean energy) {
    List<String> out = new ArrayList<>();
    out.add(
        String.format(
            Locale.ROOT,
            FORMAT,
            "run",
            "wall s",
            "CPU s",
            "MB/s",
            "records/s",
            "CPU-s/GB",
            "energy J",
            "records/J"));
    rows.forEach(r -> out.add(r.line(energy)));
    if (rows.size() > 1) {
      out.add(median(rows).line(energy));
    }
    return out;
  }

  /** A row whose every column is the median of that column over {@code rows}. */
  static BenchRow median(List<BenchRow> rows) {
    BenchRow first = rows.get(0);
    return new BenchRow(
        "median",
        first.records,
        first.bytes,
        median(rows, BenchRow::wallSeconds),
        median(rows, BenchRow::cpuSeconds),
        median(rows, BenchRow::joules));
  }

  static double median(List<BenchRow> rows, ToDoubleFunction<BenchRow> column) {
    double[] v = rows.stream().mapToDouble(column).sorted().toArray();
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  String line(boolean energy) {
    boolean e = energy && !Double.isNaN(joules);
    return String.format(
        Locale.ROOT,
        FORMAT,
        label,
        f(wallSeconds, 3),
        f(cpuSeconds, 3),
        f(megabytesPerSecond(), 1),
        String.format(Locale.ROOT, "%,.0f", recordsPerSecond()),
        f(cpuSecondsPerGigabyte(), 2),
        e ? f(joules, 1) : "n/a",
        e ? String.format(Locale.ROOT, "%,.0f", recordsPerJoule()) : "n/a");
  }

  private static String f(double v, int decimals) {
    return String.format(Locale.ROOT, "%." + decimals + "f", v);
  }

  @Override
  public String toString() {
    return Arrays.toString(new Object[] {label, wallSeconds, cpuSeconds, joules});
  }
}

package dev.joule.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Energy from the Linux RAPL counters ({@code /sys/class/powercap/intel-rapl:N/energy_uj}, one per
 * CPU package; sub-zones such as {@code intel-rapl:0:0} are parts of the package and are not added
 * again). Each counter wraps at its {@code max_energy_range_uj}; a reading lower than the previous
 * one counts as one wrap, which holds while a measured interval is shorter than a wrap period (tens
 * of minutes at full power).
 *
 * <p>Most virtual machines expose no RAPL zones, and since Linux 5.10 the counters are readable by
 * root only; {@link #open} then says why in {@link #unavailableReason}. Not thread-safe.
 */
final class RaplMeter {
  static final Path POWERCAP = Path.of("/sys/class/powercap");

  private final List<Path> zones;
  private final long[] ranges;
  private final String unavailableReason;

  private RaplMeter(List<Path> zones, long[] ranges, String unavailableReason) {
    this.zones = zones;
    this.ranges = ranges;
    this.unavailableReason = unavailableReason;
  }

  /** The package zones under {@code powercap}, or a meter that says why there are none usable. */
  static RaplMeter open(Path powercap) {
    List<Path> zones = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(powercap, "intel-rapl:*")) {
      for (Path z : ds) {
        if (z.getFileName().toString().matches("intel-rapl:\\d+")) {
          zones.add(z);
        }
      }
    } catch (IOException e) {
      // no powercap directory at all
    }
    if (zones.isEmpty()) {
      return new RaplMeter(
          List.of(),
          new long[0],
          "this host exposes no RAPL energy counters ("
              + powercap
              + "/intel-rapl:* is absent, as on most virtual machines)");
    }
    zones.sort(null);
    long[] ranges = new long[zones.size()];
    try {
      for (int i = 0; i < zones.size(); i++) {
        ranges[i] = readLong(zones.get(i).resolve("max_energy_range_uj"));
        readLong(zones.get(i).resolve("energy_uj"));
      }
    } catch (IOException | NumberFormatException e) {
      return new RaplMeter(
          List.of(),
          new long[0],
          "the RAPL energy counters under "
              + powercap
              + " are not readable ("
              + e.getMessage()
              + "; since Linux 5.10 they need root)");
    }
    return new RaplMeter(List.copyOf(zones), ranges, null);
  }

  boolean available() {
    return unavailableReason == null;
  }

  /** Why energy cannot be measured, or null when it can. */
  String unavailableReason() {
    return unavailableReason;
  }

  /** The current counter of every zone, in microjoules. */
  long[] read() throws IOException {
    long[] v = new long[zones.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = readLong(zones.get(i).resolve("energy_uj"));
    }
    return v;
  }

  /** Joules used by all packages between two {@link #read()}s, allowing one wrap per counter. */
  double joulesBetween(long[] before, long[] after) {
    long uj = 0;
    for (int i = 0; i < before.length; i++) {
      long d = after[i] - before[i];
      if (d < 0) {
        d += ranges[i];
      }
      uj += d;
    }
    return uj / 1e6;
  }

  private static long readLong(Path f) throws IOException {
    return Long.parseLong(new String(Files.readAllBytes(f), StandardCharsets.US_ASCII).trim());
  }
}

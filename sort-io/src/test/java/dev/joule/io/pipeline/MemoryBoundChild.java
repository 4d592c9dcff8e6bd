package dev.joule.io.pipeline;

import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.SortConfig;
import dev.joule.io.report.SortReport;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A child JVM for {@link MemoryBoundTest}: sorts {@code args[0]} (length-prefixed rows) into {@code
 * args[1]} with temp runs in {@code args[2]} and a budget of {@code args[3]} MiB, after warming the
 * engine up on a small sort, and prints one line of {@code key=value} pairs: the resident set
 * before the big sort ({@code baseKiB}), its peak during the big sort ({@code hwmKiB}, VmHWM: the
 * kernel's own high water mark, reset after the warm-up, so no sample can miss a peak), the
 * resident set and the direct memory in use right after the sort ({@code afterKiB}, {@code
 * directAfter}), and the report's figures.
 */
public final class MemoryBoundChild {
  private MemoryBoundChild() {}

  public static void main(String[] args) throws IOException {
    Path in = Path.of(args[0]);
    Path out = Path.of(args[1]);
    Path temp = Path.of(args[2]);
    long budgetMiB = Long.parseLong(args[3]);
    SortConfig config =
        SortConfig.builder()
            .format(RecordFormat.lengthPrefixed())
            .memoryBudget(DataSize.ofMiB(budgetMiB))
            .threads(2)
            .tempDirs(List.of(temp))
            .build();
    warmUp(in, out, config);
    long direct0 = directBytesInUse();
    // Writing 5 resets VmHWM to the current RSS (Linux 4.0+), so the peak is the big sort's own.
    Files.writeString(Path.of("/proc/self/clear_refs"), "5");
    long base = status("VmRSS:");
    SortReport r = ExternalSorter.sort(in, out, config);
    long hwm = status("VmHWM:");
    long after = status("VmRSS:");
    System.out.println(
        "baseKiB="
            + base
            + " hwmKiB="
            + hwm
            + " afterKiB="
            + after
            + " directBefore="
            + direct0
            + " directAfter="
            + directBytesInUse()
            + " peakCounted="
            + r.peakMemoryBytes()
            + " runs="
            + r.runs()
            + " passes="
            + r.mergePasses()
            + " records="
            + r.records()
            + " wallMs="
            + r.wallNanos() / 1_000_000
            + " cpuMs="
            + r.cpuNanos() / 1_000_000);
  }

  /** The first 8 MiB of the input, sorted in a few runs: loads and compiles the engine's code. */
  private static void warmUp(Path in, Path out, SortConfig config) throws IOException {
    Path small = out.resolveSibling("warm-in");
    byte[] head = new byte[8 << 20];
    int n;
    try (var ch = Files.newInputStream(in)) {
      n = ch.readNBytes(head, 0, head.length);
    }
    int end = 0;
    while (end + 4 <= n) {
      int len =
          ((head[end] & 0xff) << 24)
              | ((head[end + 1] & 0xff) << 16)
              | ((head[end + 2] & 0xff) << 8)
              | (head[end + 3] & 0xff);
      if (end + 4 + len > n) {
        break;
      }
      end += 4 + len;
    }
    Files.write(small, java.util.Arrays.copyOf(head, end));
    ExternalSorter.sort(small, out, config.toBuilder().memoryBudget(SortConfig.MIN_MEMORY).build());
    Files.delete(small);
    Files.delete(out);
  }

  private static long directBytesInUse() {
    long sum = 0;
    for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if (b.getName().equals("direct")) {
        sum += b.getMemoryUsed();
      }
    }
    return sum;
  }

  /** A line of /proc/self/status in KiB. */
  private static long status(String field) throws IOException {
    for (String line :
        Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
      if (line.startsWith(field)) {
        return Long.parseLong(line.substring(field.length()).trim().split("\\s+", -1)[0]);
      }
    }
    throw new IOException("no " + field + " in /proc/self/status");
  }
}

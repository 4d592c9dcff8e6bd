package dev.joule.cli;

import dev.joule.io.config.DataSize;
import dev.joule.io.report.CompressionReport;
import dev.joule.io.report.DeviceReport;
import dev.joule.io.report.PhaseReport;
import dev.joule.io.report.PrefetchReport;
import dev.joule.io.report.SortReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code joule sort --stats}: the report as an Nsort-style table, one row per phase and a total:
 * wall and CPU time, CPU % of one core, MB read and written, MB/s, runs in and out and fan-in; then
 * one summary line; then, when temp files were written, one line per temp directory with its bytes
 * and its busy MB/s (bytes per second of its own transfer time: what weighted striping deals by).
 * MB are 10^6 bytes, as disk rates are quoted. Stateless.
 */
final class StatsTable {
  private static final String ROW = "%-Ns %8s %8s %6s %10s %10s %8s %7s %8s %6s";

  private StatsTable() {}

  static List<String> lines(SortReport r) {
    int width = "phase".length();
    for (PhaseReport p : r.phases()) {
      width = Math.max(width, p.name().length());
    }
    String row = ROW.replace("N", Integer.toString(width));
    List<String> out = new ArrayList<>();
    out.add(
        String.format(
            Locale.ROOT,
            row,
            "phase",
            "wall s",
            "CPU s",
            "CPU %",
            "read MB",
            "written MB",
            "MB/s",
            "runs in",
            "runs out",
            "fan-in"));
    long read = 0;
    long written = 0;
    for (PhaseReport p : r.phases()) {
      out.add(
          row(
              row,
              p.name(),
              p.wallNanos(),
              p.cpuNanos(),
              p.bytesRead(),
              p.bytesWritten(),
              String.valueOf(p.runsIn()),
              String.valueOf(p.runsOut()),
              String.valueOf(p.fanIn())));
      read += p.bytesRead();
      written += p.bytesWritten();
    }
    out.add(row(row, "total", r.wallNanos(), r.cpuNanos(), read, written, "", "", ""));
    out.add(
        String.format(
            Locale.ROOT,
            "%,d records, %.1f MB, %.1f MB/s end to end; runs %d, merge passes %d, fan-in %d;"
                + " threads %d, stripes %d, direct I/O %s, peak memory %s",
            r.records(),
            r.bytes() / 1e6,
            mbPerSecond(r.bytes(), r.wallNanos()),
            r.runs(),
            r.mergePasses(),
            r.fanIn(),
            r.threads(),
            r.stripes(),
            r.directIo() ? "on" : "off",
            DataSize.ofBytes(r.peakMemoryBytes() & ~((1L << 20) - 1))));
    if (!r.timeline().samples().isEmpty()) {
      out.add(
          String.format(
              Locale.ROOT,
              "timeline: %d samples every %s s; the sampler used %.1f ms of CPU (%.3f %% of the"
                  + " sort's)",
              r.timeline().samples().size(),
              r.timeline().intervalNanos() / 1e9,
              r.timeline().samplerCpuNanos() / 1e6,
              r.cpuNanos() == 0 ? 0 : 100.0 * r.timeline().samplerCpuNanos() / r.cpuNanos()));
    }
    PrefetchReport p = r.prefetch();
    if (p.blocks() > 0) {
      out.add(
          String.format(
              Locale.ROOT,
              "prefetch: the merges took %d blocks; %d (%.1f %%) waited for a read in flight,"
                  + " %.3f s in all; %d (%.1f %%) were read by the merge itself",
              p.blocks(),
              p.waited(),
              100.0 * p.waited() / p.blocks(),
              p.waitNanos() / 1e9,
              p.selfRead(),
              100.0 * p.selfRead() / p.blocks()));
    }
    CompressionReport z = r.compression();
    if (z.tried()) {
      String line =
          String.format(
              Locale.ROOT,
              "compression %s (policy %s): run blocks of %.1f MB stored in %.1f MB (%.0f %%), %.1f"
                  + " MB of temp I/O saved; %d of %d blocks compressed; %.2f CPU-s compressing"
                  + " (%.0f MB/s per core), %.2f s decompressing",
              z.codec(),
              z.policy(),
              z.rawBytes() / 1e6,
              z.storedBytes() / 1e6,
              100 * z.ratio(),
              z.savedBytes() / 1e6,
              z.compressedBlocks(),
              z.blocks(),
              z.compressNanos() / 1e9,
              z.compressMegabytesPerCpuSecond(),
              z.decompressNanos() / 1e9);
      if (z.probedReadRate() > 0) {
        line +=
            String.format(
                Locale.ROOT,
                "; a run read back at %.1f MB/s (the devices as a merge will read them)",
                z.probedReadRate() / 1e6);
      }
      out.add(line);
    }
    for (DeviceReport d : r.devices()) {
      String bound =
          d.boundNanos() <= 0
              ? ""
              : String.format(
                  Locale.ROOT,
                  " (%.1f MB/s over %.1f s in which the writers waited for it)",
                  d.boundWriteMegabytesPerSecond(),
                  d.boundNanos() / 1e9);
      out.add(
          String.format(
              Locale.ROOT,
              "temp %s: written %.1f MB at %.1f MB/s busy%s, read %.1f MB at %.1f MB/s busy;"
                  + " writers waited %.2f s",
              d.dir(),
              d.bytesWritten() / 1e6,
              d.writeMegabytesPerSecond(),
              bound,
              d.bytesRead() / 1e6,
              d.readMegabytesPerSecond(),
              d.writeWaitNanos() / 1e9));
    }
    return out;
  }

  private static String row(
      String format,
      String name,
      long wall,
      long cpu,
      long read,
      long written,
      String runsIn,
      String runsOut,
      String fanIn) {
    return String.format(
            Locale.ROOT,
            format,
            name,
            f3(wall / 1e9),
            f3(cpu / 1e9),
            String.format(Locale.ROOT, "%.0f", wall == 0 ? 0 : 100.0 * cpu / wall),
            f1(read / 1e6),
            f1(written / 1e6),
            f1(mbPerSecond(Math.max(read, written), wall)),
            runsIn,
            runsOut,
            fanIn)
        .stripTrailing();
  }

  static double mbPerSecond(long bytes, long nanos) {
    return nanos == 0 ? 0 : bytes * 1e3 / nanos;
  }

  private static String f3(double v) {
    return String.format(Locale.ROOT, "%.3f", v);
  }

  private static String f1(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }
}

package dev.joule.cli;

import dev.joule.io.config.DeviceSample;
import dev.joule.io.config.TimelineSample;
import dev.joule.io.report.PhaseSpan;
import dev.joule.io.report.SortReport;
import dev.joule.io.report.Timeline;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code joule sort --report-html}: the report as one self-contained HTML page. Two inline SVG
 * charts share the time axis, with the phases as shaded bands behind both: MB/s per device (reads
 * plus writes, one line each: the input, every temp stripe, the output) and the process's CPU use
 * in % of one core; below them the {@code --stats} table. Nothing is loaded from anywhere (no
 * script, font, style sheet or image), so the page can be mailed or attached to an issue as it is.
 *
 * <p>Each device's line is a {@code <polyline class="device" data-device="NAME">}, so a test (or a
 * reader with the page source) can find the line of a stripe. Stateless.
 */
final class HtmlReport {
  private static final int WIDTH = 960;
  private static final int LEFT = 64;
  private static final int RIGHT = 16;
  private static final int PLOT_W = WIDTH - LEFT - RIGHT;
  private static final String[] COLOURS = {
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
    "#7f7f7f", "#bcbd22"
  };
  private static final String[] BANDS = {"#eef3fb", "#fbf3e6", "#eef8ee", "#f6eef8"};

  private HtmlReport() {}

  /** The page of {@code r}, titled {@code title} (e.g. the input's name). */
  static String page(SortReport r, String title) {
    StringBuilder h = new StringBuilder(64 * 1024);
    head(h, title);
    body(h, r, "h2");
    return h.append("</body>\n</html>\n").toString();
  }

  /**
   * The page of a {@code joule bench}: the table of its runs ({@code table}, as printed), then for
   * each run of {@code reports} the sections of {@link #page}.
   */
  static String benchPage(List<SortReport> reports, List<String> table, String title) {
    StringBuilder h = new StringBuilder(64 * 1024 * Math.max(1, reports.size()));
    head(h, title);
    h.append("<h2>Runs</h2>\n<pre class=\"runs\">");
    for (String line : table) {
      h.append(esc(line)).append('\n');
    }
    h.append("</pre>\n");
    for (int i = 0; i < reports.size(); i++) {
      h.append("<h2>Run ").append(i + 1).append("</h2>\n");
      body(h, reports.get(i), "h3");
    }
    return h.append("</body>\n</html>\n").toString();
  }

  private static void head(StringBuilder h, String title) {
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<title>joule sort: ")
        .append(esc(title))
        .append("</title>\n<style>\n")
        .append("body{font-family:sans-serif;margin:24px;color:#222}")
        .append("svg text{font-size:11px;fill:#333}")
        .append(".axis{stroke:#999;stroke-width:1}.grid{stroke:#e4e4e4;stroke-width:1}")
        .append("polyline{fill:none;stroke-width:1.6}")
        .append("pre{font-size:12px;background:#f7f7f7;padding:8px;overflow-x:auto}")
        .append("\n</style>\n</head>\n<body>\n<h1>joule sort: ")
        .append(esc(title))
        .append("</h1>\n");
  }

  /** The summary line, the charts and the stats table of {@code r}, under {@code heading}s. */
  private static void body(StringBuilder h, SortReport r, String heading) {
    Timeline t = r.timeline();
    h.append("<p>")
        .append(
            String.format(
                Locale.ROOT,
                "%,d records, %.1f MB in %.2f s; %d temp stripe%s; %d run%s, %d merge pass%s.",
                r.records(),
                r.bytes() / 1e6,
                r.wallNanos() / 1e9,
                r.stripes(),
                r.stripes() == 1 ? "" : "s",
                r.runs(),
                r.runs() == 1 ? "" : "s",
                r.mergePasses(),
                r.mergePasses() == 1 ? "" : "es"))
        .append("</p>\n");
    String open = "<" + heading + ">";
    String close = "</" + heading + ">\n";
    if (t.samples().isEmpty()) {
      h.append("<p>No timeline was taken (--timeline-interval 0).</p>\n");
    } else {
      h.append(open).append("Throughput per device").append(close);
      throughput(h, t);
      h.append(open).append("CPU").append(close);
      cpu(h, t);
    }
    h.append(open).append("Phases").append(close).append("<pre class=\"stats\">");
    for (String line : StatsTable.lines(r)) {
      h.append(esc(line)).append('\n');
    }
    h.append("</pre>\n");
  }

  private static void throughput(StringBuilder h, Timeline t) {
    Map<String, String> devices = t.devices();
    List<String> names = new ArrayList<>(devices.keySet());
    double max = 1;
    for (TimelineSample s : t.samples()) {
      for (DeviceSample d : s.devices()) {
        max = Math.max(max, mbps(d, s));
      }
    }
    Chart c = new Chart(t, 300, niceCeiling(max), "MB/s");
    c.open(h);
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      List<DeviceSample> series = t.of(name);
      h.append("<polyline class=\"device\" data-device=\"")
          .append(esc(name))
          .append("\" stroke=\"")
          .append(COLOURS[i % COLOURS.length])
          .append("\" points=\"");
      for (int k = 0; k < series.size(); k++) {
        TimelineSample s = t.samples().get(k);
        c.point(h, s, mbps(series.get(k), s));
      }
      h.append("\"><title>")
          .append(esc(name + ": " + devices.get(name)))
          .append("</title></polyline>\n");
    }
    c.close(h);
    legend(h, names, devices);
  }

  private static void cpu(StringBuilder h, Timeline t) {
    double max = 100;
    for (TimelineSample s : t.samples()) {
      max = Math.max(max, s.cpuPercent());
    }
    Chart c = new Chart(t, 160, niceCeiling(max), "CPU %");
    c.open(h);
    h.append("<polyline class=\"cpu\" stroke=\"#444\" points=\"");
    for (TimelineSample s : t.samples()) {
      c.point(h, s, s.cpuPercent());
    }
    h.append("\"><title>process CPU, % of one core</title></polyline>\n");
    c.close(h);
  }

  private static void legend(StringBuilder h, List<String> names, Map<String, String> devices) {
    h.append("<p class=\"legend\">");
    for (int i = 0; i < names.size(); i++) {
      h.append("<span style=\"color:")
          .append(COLOURS[i % COLOURS.length])
          .append("\">&#9632;</span> ")
          .append(esc(names.get(i)))
          .append(" <small>")
          .append(esc(devices.get(names.get(i))))
          .append("</small>&nbsp;&nbsp; ");
    }
    h.append("</p>\n");
  }

  /** A device's reads plus writes in the sample, in MB (10^6 bytes) per second. */
  static double mbps(DeviceSample d, TimelineSample s) {
    return s.nanos() <= 0 ? 0 : (d.bytesRead() + d.bytesWritten()) * 1e3 / s.nanos();
  }

  /** 1, 2 or 5 times a power of ten, at least {@code v}: a readable top for an axis. */
  static double niceCeiling(double v) {
    double p = Math.pow(10, Math.floor(Math.log10(Math.max(v, 1e-9))));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * p >= v) {
        return m * p;
      }
    }
    return 10 * p;
  }

  /** One chart: time on x (the whole sort), {@code top} at the top of y; bands for the phases. */
  private static final class Chart {
    private final Timeline t;
    private final int plotH;
    private final double top;
    private final String unit;
    private final double end;

    Chart(Timeline t, int plotH, double top, String unit) {
      this.t = t;
      this.plotH = plotH;
      this.top = top;
      this.unit = unit;
      this.end = Math.max(1, t.endNanos());
    }

    double x(long nanos) {
      return LEFT + PLOT_W * (nanos / end);
    }

    double y(double v) {
      return 8 + plotH * (1 - Math.min(v, top) / top);
    }

    /** Plots a sample's value at the middle of its interval. */
    void point(StringBuilder h, TimelineSample s, double v) {
      h.append(fmt(x((s.startNanos() + s.endNanos()) / 2)))
          .append(',')
          .append(fmt(y(v)))
          .append(' ');
    }

    void open(StringBuilder h) {
      int height = plotH + 40;
      h.append("<svg width=\"")
          .append(WIDTH)
          .append("\" height=\"")
          .append(height)
          .append("\" viewBox=\"0 0 ")
          .append(WIDTH)
          .append(' ')
          .append(height)
          .append("\" role=\"img\" aria-label=\"")
          .append(esc(unit))
          .append(" over time\">\n");
      List<PhaseSpan> phases = t.phases();
      for (int i = 0; i < phases.size(); i++) {
        PhaseSpan p = phases.get(i);
        double x0 = x(p.startNanos());
        double w = Math.max(0.5, x(p.endNanos()) - x0);
        h.append("<rect class=\"phase\" x=\"")
            .append(fmt(x0))
            .append("\" y=\"8\" width=\"")
            .append(fmt(w))
            .append("\" height=\"")
            .append(plotH)
            .append("\" fill=\"")
            .append(BANDS[i % BANDS.length])
            .append("\"><title>")
            .append(esc(p.name()))
            .append("</title></rect>\n");
        h.append("<text x=\"")
            .append(fmt(x0 + 3))
            .append("\" y=\"20\">")
            .append(esc(p.name()))
            .append("</text>\n");
      }
      for (int k = 0; k <= 4; k++) {
        double v = top * k / 4;
        double yy = y(v);
        h.append("<line class=\"grid\" x1=\"")
            .append(LEFT)
            .append("\" x2=\"")
            .append(LEFT + PLOT_W)
            .append("\" y1=\"")
            .append(fmt(yy))
            .append("\" y2=\"")
            .append(fmt(yy))
            .append("\"/>\n<text x=\"")
            .append(LEFT - 6)
            .append("\" y=\"")
            .append(fmt(yy + 4))
            .append("\" text-anchor=\"end\">")
            .append(fmt(v))
            .append("</text>\n");
      }
      double seconds = end / 1e9;
      double step = niceCeiling(seconds / 8);
      for (double s = 0; s <= seconds + 1e-9; s += step) {
        double xx = x((long) (s * 1e9));
        h.append("<text x=\"")
            .append(fmt(xx))
            .append("\" y=\"")
            .append(plotH + 24)
            .append("\" text-anchor=\"middle\">")
            .append(fmt(s))
            .append(" s</text>\n");
      }
      h.append("<line class=\"axis\" x1=\"")
          .append(LEFT)
          .append("\" x2=\"")
          .append(LEFT + PLOT_W)
          .append("\" y1=\"")
          .append(plotH + 8)
          .append("\" y2=\"")
          .append(plotH + 8)
          .append("\"/>\n<text x=\"4\" y=\"14\">")
          .append(esc(unit))
          .append("</text>\n");
    }

    void close(StringBuilder h) {
      h.append("</svg>\n");
    }
  }

  private static String fmt(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e12) {
      return Long.toString((long) v);
    }
    return String.format(Locale.ROOT, "%.1f", v);
  }

  static String esc(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }
}

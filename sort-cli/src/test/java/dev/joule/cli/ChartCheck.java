package dev.joule.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks that the charts of a {@code --report-html} page draw the timeline's samples, read from the
 * sort's {@code --report-json}: each device's line has one point per sample, at the middle of the
 * sample's interval, at its reads plus writes in MB (10^6 bytes) per second of the interval; the
 * CPU line at the sample's CPU seconds per second, in %. The page is read as a reader of the chart
 * would: values through the y axis's grid labels (0 and the top), times through the x axis line and
 * the sort's end. A wrong scale (MiB, per sample instead of per second), a swapped series or a
 * point off its interval fails.
 */
final class ChartCheck {
  private static final Pattern GRID =
      Pattern.compile(
          "<line class=\"grid\" x1=\"[^\"]*\" x2=\"[^\"]*\" y1=\"([^\"]+)\" y2=\"[^\"]+\"/>\\n"
              + "<text [^>]*text-anchor=\"end\">([^<]+)</text>");
  private static final Pattern AXIS =
      Pattern.compile("<line class=\"axis\" x1=\"([^\"]+)\" x2=\"([^\"]+)\"");
  private static final Pattern POLYLINE =
      Pattern.compile(
          "<polyline class=\"(device|cpu)\"(?: data-device=\"([^\"]+)\")?[^>]*"
              + " points=\"([^\"]*)\"");

  private ChartCheck() {}

  /** One chart's axes: value at a y, and the x of a time. */
  private record Axes(double y0, double yTop, double top, double x0, double x1, double end) {
    double value(double y) {
      return top * (y0 - y) / (y0 - yTop);
    }

    /**
     * How far a drawn value may be from {@code expected}, the rate of something counted over {@code
     * seconds} ({@code full} per second at most): half a tenth of a pixel (the page rounds y to
     * that), plus what the JSON's rounding of times and CPU seconds to microseconds does to the
     * rate of a short interval.
     */
    double valueTolerance(double expected, double full, double seconds) {
      return 0.051 * top / (y0 - yTop) + (Math.abs(expected) + full) * 1.01e-6 / seconds + 1e-9;
    }

    double x(double seconds) {
      return x0 + (x1 - x0) * seconds / end;
    }
  }

  /**
   * Asserts that the throughput and CPU charts of {@code html} draw the samples of {@code json}.
   */
  static void assertChartsDrawTheSamples(String html, String json) {
    Object timeline = MiniJson.object(MiniJson.parse(json), "timeline");
    List<Object> samples = MiniJson.array(timeline, "samples");
    assertTrue(samples.size() >= 3, "too few samples to check the charts: " + samples.size());
    double end = MiniJson.number(samples.get(samples.size() - 1), "endSeconds");
    List<String> charts = svgs(html);
    assertEquals(2, charts.size(), "the throughput and the CPU chart");
    Axes mbps = axes(charts.get(0), end);
    Axes cpu = axes(charts.get(1), end);
    int lines = 0;
    Matcher m = POLYLINE.matcher(charts.get(0));
    while (m.find()) {
      assertEquals("device", m.group(1), "the throughput chart's lines are devices'");
      String device = m.group(2);
      List<Double> expected = new ArrayList<>();
      for (Object s : samples) {
        double bytes = 0;
        for (Object d : MiniJson.array(s, "devices")) {
          if (device.equals(MiniJson.string(d, "device"))) {
            bytes = MiniJson.number(d, "bytesRead") + MiniJson.number(d, "bytesWritten");
          }
        }
        expected.add(bytes / seconds(s) / 1e6);
      }
      assertPoints("MB/s of " + device, m.group(3), mbps, samples, expected, 0);
      lines++;
    }
    assertTrue(lines >= 1, "no device line");
    Matcher c = POLYLINE.matcher(charts.get(1));
    assertTrue(c.find() && c.group(1).equals("cpu"), "the CPU chart's line");
    List<Double> expected = new ArrayList<>();
    for (Object s : samples) {
      expected.add(MiniJson.number(s, "cpuSeconds") / seconds(s) * 100);
    }
    assertPoints("CPU %", c.group(3), cpu, samples, expected, 100);
  }

  private static double seconds(Object sample) {
    return MiniJson.number(sample, "endSeconds") - MiniJson.number(sample, "startSeconds");
  }

  private static void assertPoints(
      String what,
      String points,
      Axes a,
      List<Object> samples,
      List<Double> expected,
      double full) {
    String[] p = points.strip().split(" ", -1);
    assertEquals(samples.size(), p.length, what + ": one point per sample");
    for (int k = 0; k < p.length; k++) {
      String[] xy = p[k].split(",", -1);
      double x = Double.parseDouble(xy[0]);
      double y = Double.parseDouble(xy[1]);
      Object s = samples.get(k);
      double mid = (MiniJson.number(s, "startSeconds") + MiniJson.number(s, "endSeconds")) / 2;
      String at = what + ", sample " + k;
      assertEquals(a.x(mid), x, 0.051 + 1e-6 * a.x1, at + ": x of the interval's middle");
      double want = Math.min(expected.get(k), a.top);
      assertEquals(want, a.value(y), a.valueTolerance(want, full, seconds(s)), at + ": the value");
    }
  }

  /** The {@code <svg>} elements of the page, in order. */
  private static List<String> svgs(String html) {
    List<String> all = new ArrayList<>();
    for (int at = html.indexOf("<svg"); at >= 0; at = html.indexOf("<svg", at + 1)) {
      all.add(html.substring(at, html.indexOf("</svg>", at)));
    }
    return all;
  }

  /** The chart's axes: its grid lines for 0 and the top value, its x axis for the time span. */
  private static Axes axes(String svg, double end) {
    Matcher g = GRID.matcher(svg);
    double y0 = Double.NaN;
    double yTop = Double.NaN;
    double top = 0;
    while (g.find()) {
      double y = Double.parseDouble(g.group(1));
      double v = Double.parseDouble(g.group(2));
      if (v == 0) {
        y0 = y;
      } else if (v > top) {
        top = v;
        yTop = y;
      }
    }
    assertTrue(top > 0 && !Double.isNaN(y0) && y0 > yTop, "no y axis labels of 0 and a top");
    Matcher x = AXIS.matcher(svg);
    assertTrue(x.find(), "no x axis");
    return new Axes(
        y0, yTop, top, Double.parseDouble(x.group(1)), Double.parseDouble(x.group(2)), end);
  }
}

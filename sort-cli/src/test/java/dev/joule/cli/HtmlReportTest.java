package dev.joule.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.gensort.GensortGenerator;
import dev.joule.core.gensort.GensortMode;
import dev.joule.core.gensort.Uint128;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code joule sort --report-html}: a two-pass sort over 4 temp dirs writes a page that needs
 * nothing from outside (no script, no URL), has one line per device (so one per stripe), whose
 * charts draw the timeline's samples (checked against the JSON report's, {@link ChartCheck}), and
 * which opens in headless Chromium without a message in its console, the browser's DOM still
 * holding every line. The Chromium test is skipped, with the reason printed, where no Chromium is
 * installed.
 */
class HtmlReportTest {
  private static final Pattern LINE =
      Pattern.compile("<polyline class=\"device\" data-device=\"([^\"]+)\"");

  @TempDir Path dir;

  @Test
  void aBenchPageHasTheTableOfRunsAndEachRunsCharts() throws Exception {
    Path page = dir.resolve("bench.html");
    List<String> args = new ArrayList<>(List.of("bench", "--records", "100000", "--repeat", "2"));
    args.addAll(List.of("-S", "8M", "--timeline-interval", "10ms", "--dir", dir.toString()));
    for (int i = 0; i < 2; i++) {
      args.add("-T");
      args.add(Files.createDirectories(dir.resolve("b" + i)).toString());
    }
    args.addAll(List.of("--report-html", page.toString()));
    CliRun r = CliRun.run(args.toArray(String[]::new));
    assertEquals(0, r.exitCode, r::toString);
    String html = Files.readString(page);
    assertTrue(html.contains("<h2>Runs</h2>") && html.contains("<h2>Run 1</h2>"), html);
    assertTrue(html.contains("<h2>Run 2</h2>") && !html.contains("<h2>Run 3</h2>"), html);
    // input, 2 temp dirs and output in each of the two runs; one CPU line each
    assertEquals(2 * 4, count(html, "<polyline class=\"device\""), "one line per device and run");
    assertEquals(2, count(html, "<polyline class=\"cpu\""));
    for (String line : r.out.lines().toList()) {
      if (line.startsWith("run ") || line.startsWith("median")) {
        assertTrue(
            html.contains(HtmlReport.esc(line)), "the printed table is on the page: " + line);
      }
    }
    assertFalse(html.contains("<script") || html.contains("http"), "self-contained");
  }

  /** A two-pass sort over 4 temp dirs with a timeline: its page and its JSON report. */
  private record FourStripeSort(CliRun run, String html, String json) {}

  private FourStripeSort fourStripeSort() throws IOException {
    Path in = dir.resolve("in");
    ByteBuffer b = ByteBuffer.allocate(200_000 * 100);
    new GensortGenerator(GensortMode.ASCII).seek(Uint128.ofUnsigned(7)).generate(b, 200_000);
    Files.write(in, b.array());
    List<String> args =
        new ArrayList<>(
            List.of("sort", "--gensort", "-S", "8M", "--timeline-interval", "20ms", "--stats"));
    for (int i = 0; i < 4; i++) {
      args.add("-T");
      args.add(Files.createDirectories(dir.resolve("t" + i)).toString());
    }
    Path page = dir.resolve("report.html");
    Path json = dir.resolve("report.json");
    args.addAll(
        List.of(
            "--report-html",
            page.toString(),
            "--report-json",
            json.toString(),
            "-o",
            dir.resolve("out").toString(),
            in.toString()));
    CliRun r = CliRun.run(args.toArray(String[]::new));
    assertEquals(0, r.exitCode, r::toString);
    return new FourStripeSort(r, Files.readString(page), Files.readString(json));
  }

  @Test
  void aFourStripeSortsPageHasOneLinePerStripeAndChartsItsSamples() throws Exception {
    FourStripeSort sort = fourStripeSort();
    CliRun r = sort.run();
    String html = sort.html();
    assertTrue(r.err.contains("run formation"), r::toString);
    assertTrue(
        r.err.matches("(?s).*\\nprefetch: the merges took [1-9]\\d* blocks; .*"),
        "the merges' prefetch line: " + r.err);

    assertEquals(
        Set.of("input", "temp 0", "temp 1", "temp 2", "temp 3", "output"),
        devices(html),
        "one line per device");
    assertEquals(6, count(html, "<polyline class=\"device\""), "no device drawn twice");
    assertEquals(1, count(html, "<polyline class=\"cpu\""));
    assertTrue(count(html, "<rect class=\"phase\"") >= 2 * 2, "phase bands in both charts");
    assertTrue(html.contains("merge pass") && html.contains("CPU s"), "the --stats table");
    assertFalse(html.contains("<script"), "no script");
    assertFalse(html.contains("http:") || html.contains("https:") || html.contains("url("));
    ChartCheck.assertChartsDrawTheSamples(html, sort.json());
  }

  /**
   * The page opens in headless Chromium without a message in its console, the browser's DOM still
   * holding every device's line. Skipped, with the reason printed, where no Chromium is installed
   * (the checks of the page itself are the test above).
   */
  @Test
  void theFourStripePageOpensCleanlyInChromium() throws Exception {
    String chromium = chromium();
    if (chromium == null) {
      System.out.println("HtmlReportTest: no chromium on PATH; skipping the browser check");
      Assumptions.assumeTrue(false, "no chromium binary (apt-get install chromium)");
    }
    // The console check must be able to see an error: a page that logs one is caught.
    Path bad = dir.resolve("bad.html");
    Files.writeString(
        bad, "<!DOCTYPE html><html><body><script>console.error('marker')</script></body></html>");
    assertFalse(open(chromium, bad).console().isEmpty(), "a console error went unseen");

    String html = fourStripeSort().html();
    Path page = dir.resolve("report.html");
    Browser opened = open(chromium, page);
    assertEquals(List.of(), opened.console(), "console of " + page);
    assertEquals(devices(html), devices(opened.dom()), "lines in the browser's DOM");
    assertTrue(opened.dom().contains("<svg"), opened.dom());
  }

  private record Browser(String dom, List<String> console) {}

  /** Opens {@code page} in headless Chromium: the DOM it built, and its console's messages. */
  private Browser open(String chromium, Path page) throws IOException, InterruptedException {
    Path out = dir.resolve("dom.txt");
    Path err = dir.resolve("chromium.log");
    Process p =
        new ProcessBuilder(
                chromium,
                "--headless",
                "--disable-gpu",
                "--no-sandbox",
                "--enable-logging=stderr",
                "--v=0",
                "--user-data-dir=" + dir.resolve("profile"),
                "--dump-dom",
                page.toUri().toString())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("chromium did not finish within 120 s");
    }
    assertEquals(0, p.exitValue(), () -> "chromium failed: " + read(err));
    List<String> console =
        read(err).lines().filter(l -> l.contains(":CONSOLE")).collect(Collectors.toList());
    return new Browser(read(out), console);
  }

  private static String read(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static String chromium() {
    for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
      for (String d : System.getenv().getOrDefault("PATH", "").split(":", -1)) {
        Path c = Path.of(d.isEmpty() ? "." : d, name);
        if (Files.isExecutable(c)) {
          return c.toString();
        }
      }
    }
    return null;
  }

  private static Set<String> devices(String html) {
    Set<String> seen = new TreeSet<>();
    Matcher m = LINE.matcher(html);
    while (m.find()) {
      seen.add(m.group(1));
    }
    return seen;
  }

  private static int count(String s, String what) {
    int n = 0;
    for (int at = s.indexOf(what); at >= 0; at = s.indexOf(what, at + 1)) {
      n++;
    }
    return n;
  }
}

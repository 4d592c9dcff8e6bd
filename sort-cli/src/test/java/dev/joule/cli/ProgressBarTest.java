package dev.joule.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressBarTest {
  @Test
  void lineShowsPhaseFractionBytesRateAndEta() {
    String l = ProgressBar.line("merge pass 1", 250_000_000, 1_000_000_000, 2_500_000_000L);
    assertEquals(
        "merge pass 1   [######..................]  25% 250/1,000 MB  100.0 MB/s ETA 00:08", l);
    assertTrue(ProgressBar.line("run formation", 0, 100, 0).endsWith("ETA --:--"));
    assertEquals("1:01:01", ProgressBar.formatSeconds(3661));
  }

  @Test
  void redrawsAtMostFiveTimesASecondButAlwaysOnPhaseChangeAndCompletion() {
    StringWriter s = new StringWriter();
    AtomicLong now = new AtomicLong();
    ProgressBar bar = new ProgressBar(new PrintWriter(s), now::get);
    bar.update("run formation", 0, 100);
    for (int i = 1; i < 100; i++) {
      now.addAndGet(1_000_000); // 1 ms apart: throttled
      bar.update("run formation", i, 100);
    }
    bar.update("run formation", 100, 100);
    bar.update("merge pass 1", 0, 100);
    bar.finish();
    bar.finish(); // idempotent
    String out = s.toString();
    assertEquals(3, out.chars().filter(c -> c == '\r').count(), out);
    assertTrue(out.endsWith("\n") && !out.endsWith("\n\n"), out);
  }
}

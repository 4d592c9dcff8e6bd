package dev.joule.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
  void showsNothingForItsFirstSecondThenRedrawsAtMostFiveTimesASecond() {
    StringWriter s = new StringWriter();
    AtomicLong now = new AtomicLong();
    ProgressBar bar = new ProgressBar(new PrintWriter(s), now::get);
    bar.update("run formation", 0, 100);
    for (int i = 1; i < 100; i++) {
      now.addAndGet(9_000_000); // 0.9 s in all: a short sort shows no bar
      bar.update("run formation", i, 100);
    }
    bar.update("merge pass 1", 0, 100);
    bar.update("merge pass 1", 100, 100);
    assertEquals("", s.toString(), "drawn within the first second");
    bar.complete();
    assertEquals("", s.toString(), "a bar that never showed is not completed either");

    now.addAndGet(200_000_000); // past the first second
    for (int i = 0; i < 100; i++) {
      now.addAndGet(1_000_000); // 1 ms apart: throttled after the first
      bar.update("merge pass 2", i, 100);
    }
    bar.update("merge pass 2", 100, 100); // the end of a phase is always drawn
    bar.update("write", 0, 100); // and the start of the next
    bar.complete();
    bar.complete(); // idempotent
    String out = s.toString();
    assertEquals(4, out.chars().filter(c -> c == '\r').count(), out);
    assertTrue(out.endsWith("\n") && !out.endsWith("\n\n"), out);
  }

  @Test
  void endsAtOneHundredPercentOrIsClearedOrHasItsLineEndedBySignal() {
    StringWriter s = new StringWriter();
    AtomicLong now = new AtomicLong();
    ProgressBar bar = new ProgressBar(new PrintWriter(s), now::get);
    now.set(2_000_000_000L);
    bar.update("merge pass 1", 89, 100);
    bar.complete();
    String done = s.toString();
    assertTrue(done.endsWith("\n"), done);
    String last = done.substring(done.lastIndexOf('\r') + 1);
    assertTrue(last.contains("[########################] 100%"), last);

    s.getBuffer().setLength(0);
    now.addAndGet(1_000_000_000L);
    bar.update("merge pass 1", 50, 100);
    int drawn = s.toString().length() - 1;
    bar.clear();
    assertEquals("\r" + " ".repeat(drawn) + "\r", s.toString().substring(drawn + 1));
    bar.complete();
    assertFalse(s.toString().endsWith("\n"), "a cleared bar is not drawn again at its end");

    s.getBuffer().setLength(0);
    now.addAndGet(1_000_000_000L);
    bar.update("merge pass 1", 60, 100);
    bar.interrupt();
    assertTrue(s.toString().endsWith("\n"), s.toString());
    int length = s.toString().length();
    now.addAndGet(1_000_000_000L);
    bar.update("merge pass 1", 70, 100);
    bar.complete();
    assertEquals(length, s.toString().length(), "nothing drawn after a signal");
  }
}

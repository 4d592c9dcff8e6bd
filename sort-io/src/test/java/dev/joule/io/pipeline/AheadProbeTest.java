package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link AheadProbe} on a simulated clock: each cursor call takes {@code cursor} ns and the caller
 * {@code caller} ns between two calls. The merge should go ahead exactly when the caller takes at
 * least {@link AheadProbe#CALLER_SHARE} times as long as the cursor, and then at the end of the
 * first window after the warm-up period; otherwise never, however long the stream.
 */
class AheadProbeTest {
  private long now = 1_000_000_000L;

  @ParameterizedTest
  @CsvSource({
    "200, 1000, true", // a caller that works on each record
    "200, 400, true", // at the share: twice the merge's time
    "200, 380, false", // just below it
    "200, 200, false", // as long as the merge
    "200, 50, false", // a caller that hashes its records
    "200, 0, false"
  })
  void goesAheadWhenTheCallerTakesTwiceTheCursorsTime(long cursor, long caller, boolean ahead) {
    AheadProbe p = new AheadProbe(() -> now);
    long firstAhead = -1;
    long entries = 10L * AheadProbe.PERIOD;
    for (long e = 0; e < entries && firstAhead < 0; e++) {
      long t = p.enter();
      now += cursor;
      if (p.leave(t)) {
        firstAhead = e;
      }
      now += caller;
    }
    long endOfFirstWindow = AheadProbe.PERIOD + AheadProbe.WINDOW - AheadProbe.SAMPLE;
    assertEquals(ahead ? endOfFirstWindow : -1, firstAhead, "the entry after which it went ahead");
    assertEquals(ahead ? 1 : 9, p.windows(), "windows measured");
  }

  /**
   * A caller whose work comes in bursts between windows (a write every so many records) is judged
   * by the windows it falls into: a window with the burst decides, one without does not.
   */
  @ParameterizedTest
  @CsvSource({"0, false", "1, true"})
  void aBurstCountsInTheWindowItFallsInto(int burstsPerWindow, boolean ahead) {
    AheadProbe p = new AheadProbe(() -> now);
    long cursor = 200;
    long burstAt = AheadProbe.PERIOD + AheadProbe.WINDOW / 2; // inside the first window
    boolean went = false;
    for (long e = 0; e < AheadProbe.PERIOD + AheadProbe.WINDOW && !went; e++) {
      long t = p.enter();
      now += cursor;
      went = p.leave(t);
      now += 10;
      if (burstsPerWindow > 0 && e == burstAt) {
        now += 3 * cursor * AheadProbe.WINDOW; // one long write, three times the window's merging
      }
    }
    assertEquals(ahead, went);
  }
}

package dev.joule.io.pipeline;

import java.util.function.LongSupplier;

/**
 * Decides whether a session's final merge should move ahead of its cursor ({@link MergeAhead}),
 * from the cursor's own calls. In windows of {@link #WINDOW} entries, one every {@link #PERIOD}
 * after the first period (which warms the JIT up), it times the window and one call of the cursor's
 * {@code next()} in {@link #SAMPLE}: the calls are the merge's step and the output check, the part
 * a thread ahead would take over; the rest of the window is the caller's work on its records, which
 * that thread would overlap. Once a window's caller time reaches {@link #CALLER_SHARE} of its
 * cursor time, the merge should go ahead.
 *
 * <p>Two clock reads per timed call, on one entry in {@value #SAMPLE} of one window in {@value
 * #PERIOD_OVER_WINDOW}. Not thread-safe: the cursor's.
 */
final class AheadProbe {
  /** Entries per window: a few tens of ms of merging, over which a caller's pace is steady. */
  static final int WINDOW = 1 << 17;

  /** Windows take one period in this many. */
  static final int PERIOD_OVER_WINDOW = 4;

  /** A window starts every this many entries. */
  static final int PERIOD = WINDOW * PERIOD_OVER_WINDOW;

  /** One call in this many is timed. */
  static final int SAMPLE = 8;

  /** The cursor's calls a window's time spans: from its first timed call to its last. */
  private static final int CALLS = WINDOW - SAMPLE + 1;

  /**
   * The caller's time per record in a window against the cursor's per call, from which the merge
   * goes ahead: the caller must take twice as long as the merge, for the overlap to be worth the
   * copy, the hand-off and the entries crossing cores. Measured by forcing the merge ahead on and
   * off (1 GB, 2-core VM shared with other work, alternating rounds, medians; sort-bench/README.md,
   * "The merge ahead, when the caller is busy"): the embedding race's caller, which copies each
   * pair to arrays and hashes it (0.7-0.8 of the cursor's time per record), ran 3-9 % slower with
   * it and took 11-17 % more CPU; session-vs-file.sh's, which writes each record to a file (0.7,
   * then 1.8 once the page cache throttles its writes), 2 % faster in 8 rounds for 6 % more CPU;
   * that caller spinning 300 ns more per record (about 3), 6 % faster in its final phase for 10 %
   * more CPU.
   */
  static final double CALLER_SHARE = 2.0;

  private final LongSupplier clock;
  private long entries;
  private long windowStart;
  private long sampled; // the timed calls' time in this window
  private int windows;

  AheadProbe() {
    this(System::nanoTime);
  }

  AheadProbe(LongSupplier clock) {
    this.clock = clock;
  }

  /** At the start of the cursor's call: a time to hand to {@link #leave}, 0 if not timed. */
  long enter() {
    long n = entries++;
    long k = n % PERIOD;
    if (n < PERIOD || k >= WINDOW || k % SAMPLE != 0) {
      return 0;
    }
    long now = clock.getAsLong();
    if (k == 0) {
      windowStart = now;
    }
    return now;
  }

  /**
   * At the end of the cursor's call that {@link #enter} timed as {@code t}: whether the merge
   * should go ahead from the next call on.
   */
  boolean leave(long t) {
    if (t == 0) {
      return false;
    }
    long now = clock.getAsLong();
    sampled += now - t;
    if ((entries - 1) % PERIOD != WINDOW - SAMPLE) {
      return false;
    }
    // From the first call's start to the last one's end: CALLS calls, one gap fewer between them.
    long cursor = sampled * CALLS / (WINDOW / SAMPLE);
    long caller = now - windowStart - cursor;
    sampled = 0;
    windows++;
    return (double) caller / (CALLS - 1) >= CALLER_SHARE * cursor / CALLS;
  }

  /** Windows measured so far. */
  int windows() {
    return windows;
  }
}

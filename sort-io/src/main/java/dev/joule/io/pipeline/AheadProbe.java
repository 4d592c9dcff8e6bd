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
   * goes ahead: the caller must take at least as long as the merge. Measured with both on (every
   * call timed, and the merge ahead forced on and off: sort-bench/README.md, "The merge ahead, when
   * the caller is busy"): session-vs-file.sh's caller, which writes each record to a file, took
   * 0.7-1.8 times the cursor's time, and the merge ahead took 9 % off its wall time; the embedding
   * race's, which copies each pair to arrays and hashes it, 0.7-0.8, and the merge ahead made it
   * 3-10 % slower, with 10-17 % more CPU (the entries cross cores, and the JIT compiles the merge's
   * loop again in its new caller).
   */
  static final double CALLER_SHARE = 1.0;

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

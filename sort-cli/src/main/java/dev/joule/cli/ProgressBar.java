package dev.joule.cli;

import dev.joule.io.config.ProgressListener;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A one-line progress bar on stderr, redrawn in place with {@code \r}: phase, percentage, bytes,
 * rate and ETA of the current phase. Redraws at most every {@link #REDRAW_NANOS} (and when a phase
 * starts or ends), so the sort's threads pay one volatile read per update in between.
 *
 * <p>Thread-safe: updates come from the sort's threads; drawing is serialised on this object.
 */
final class ProgressBar implements ProgressListener {
  /** 5 redraws a second: smooth enough to read, and a negligible cost for a terminal. */
  static final long REDRAW_NANOS = 200_000_000L;

  private static final int WIDTH = 24;

  private final PrintWriter err;
  private final LongSupplier clock;
  private volatile long nextDraw;
  private String phase;
  private long phaseStart;
  private int lastLength;

  ProgressBar(PrintWriter err, LongSupplier clock) {
    this.err = err;
    this.clock = clock;
  }

  @Override
  public void update(String phaseName, long done, long total) {
    long now = clock.getAsLong();
    boolean newPhase = !phaseName.equals(phase); // racy read is fine: rechecked under the lock
    if (now < nextDraw && !newPhase && done < total) {
      return;
    }
    synchronized (this) {
      if (!phaseName.equals(phase)) {
        phase = phaseName;
        phaseStart = now;
      }
      nextDraw = now + REDRAW_NANOS;
      draw(line(phaseName, done, total, now - phaseStart));
    }
  }

  /** The bar's text for {@code done} of {@code total} bytes after {@code elapsedNanos}. */
  static String line(String phase, long done, long total, long elapsedNanos) {
    double frac = total <= 0 ? 1 : Math.min(1, (double) done / total);
    int filled = (int) (frac * WIDTH);
    double secs = elapsedNanos / 1e9;
    double rate = secs > 0 ? done / 1e6 / secs : 0;
    String eta = rate > 0 && done < total ? formatSeconds((total - done) / 1e6 / rate) : "--:--";
    return String.format(
        Locale.ROOT,
        "%-14s [%s%s] %3.0f%% %,.0f/%,.0f MB %6.1f MB/s ETA %s",
        phase,
        "#".repeat(filled),
        ".".repeat(WIDTH - filled),
        frac * 100,
        done / 1e6,
        total / 1e6,
        rate,
        eta);
  }

  static String formatSeconds(double s) {
    long t = Math.round(s);
    return t >= 3600
        ? String.format(Locale.ROOT, "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60)
        : String.format(Locale.ROOT, "%02d:%02d", t / 60, t % 60);
  }

  private void draw(String text) {
    int pad = Math.max(0, lastLength - text.length());
    err.print("\r" + text + " ".repeat(pad));
    err.flush();
    lastLength = text.length();
  }

  /** Ends the bar's line, so that what follows starts on a fresh one. */
  synchronized void finish() {
    if (lastLength > 0) {
      err.println();
      err.flush();
      lastLength = 0;
    }
  }
}

package dev.joule.cli;

import dev.joule.io.config.ProgressListener;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A one-line progress bar on stderr, redrawn in place with {@code \r}: phase, percentage, bytes,
 * rate and ETA of the current phase. It first shows once the sort has run for {@link #DELAY_NANOS}
 * (a short sort shows none), then redraws at most every {@link #REDRAW_NANOS} (and when a phase
 * starts or ends), so the sort's threads pay one volatile read per update in between. It ends at
 * 100 % ({@link #complete}), or is taken off its line ({@link #clear}: a notice or a failure), or,
 * after a signal, has its line ended so that the shell's prompt starts on a line of its own ({@link
 * #interrupt}).
 *
 * <p>Thread-safe: updates come from the sort's threads; drawing is serialised on this object.
 */
final class ProgressBar implements ProgressListener {
  /** 5 redraws a second: smooth enough to read, and a negligible cost for a terminal. */
  static final long REDRAW_NANOS = 200_000_000L;

  /** No bar for a sort this short: it would flash and vanish, or stay as clutter. */
  static final long DELAY_NANOS = 1_000_000_000L;

  private static final int WIDTH = 24;

  private final PrintWriter err;
  private final LongSupplier clock;
  private volatile long nextDraw;
  private volatile String phase;
  private long phaseStart;
  private long lastTotal;
  private long lastElapsed;
  private int lastLength;
  private boolean interrupted;

  private Thread hook;

  ProgressBar(PrintWriter err, LongSupplier clock) {
    this.err = err;
    this.clock = clock;
    this.nextDraw = clock.getAsLong() + DELAY_NANOS;
  }

  /**
   * A bar on {@code err} for a sort starting now, whose line a signal ends ({@link #interrupt},
   * from a shutdown hook that {@link #end} removes).
   */
  static ProgressBar onTerminal(PrintWriter err) {
    ProgressBar bar = new ProgressBar(err, System::nanoTime);
    bar.hook = new Thread(bar::interrupt, "joule-progress-end");
    Runtime.getRuntime().addShutdownHook(bar.hook);
    return bar;
  }

  /**
   * Ends {@code bar} (may be null): {@link #complete} if the sort succeeded, else {@link #clear}.
   */
  static void end(ProgressBar bar, boolean succeeded) {
    if (bar == null) {
      return;
    }
    if (succeeded) {
      bar.complete();
    } else {
      bar.clear();
    }
    if (bar.hook != null) {
      try {
        Runtime.getRuntime().removeShutdownHook(bar.hook);
      } catch (IllegalStateException e) {
        // shutting down already: the hook ends the line
      }
      bar.hook = null;
    }
  }

  @Override
  public void update(String phaseName, long done, long total) {
    long now = clock.getAsLong();
    boolean newPhase = !phaseName.equals(phase); // racy read is fine: rechecked under the lock
    if (now < nextDraw && !newPhase && (done < total || lastLength == 0)) {
      return;
    }
    synchronized (this) {
      if (!phaseName.equals(phase)) {
        phase = phaseName;
        phaseStart = now;
      }
      if (interrupted || (now < nextDraw && lastLength == 0)) {
        return; // a new phase before the first draw: only its start is noted
      }
      nextDraw = now + REDRAW_NANOS;
      lastTotal = total;
      lastElapsed = now - phaseStart;
      draw(line(phaseName, done, total, lastElapsed));
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

  /** The sort is done: the last phase is drawn at 100 % and the line ended (if the bar showed). */
  synchronized void complete() {
    if (lastLength > 0 && !interrupted) {
      draw(line(phase, lastTotal, lastTotal, lastElapsed));
      err.println();
      err.flush();
      lastLength = 0;
    }
  }

  /** Takes the bar off its line, for a message or at a failure; an update draws it again. */
  synchronized void clear() {
    if (lastLength > 0) {
      err.print("\r" + " ".repeat(lastLength) + "\r");
      err.flush();
      lastLength = 0;
    }
  }

  /** A signal ends the process: the bar's line is ended, and nothing is drawn any more. */
  synchronized void interrupt() {
    interrupted = true;
    if (lastLength > 0) {
      err.println();
      err.flush();
      lastLength = 0;
    }
  }
}

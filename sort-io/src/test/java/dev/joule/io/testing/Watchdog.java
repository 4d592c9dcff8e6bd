package dev.joule.io.testing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Turns a hung sort into a failing test instead of a stuck build: interrupts the thread that
 * started it once {@code limit} has passed (the sort then ends with a {@code
 * SortCancelledException}, which the fault tests do not accept), and says so through {@link
 * #fired()}. Close it when the sort has returned.
 */
public final class Watchdog implements AutoCloseable {
  private final Thread target = Thread.currentThread();
  private final Thread timer;
  private volatile boolean fired;
  private volatile boolean closed;

  private Watchdog(Duration limit) {
    timer =
        new Thread(
            () -> {
              long deadline = System.nanoTime() + limit.toNanos();
              synchronized (this) {
                long left;
                while (!closed && (left = deadline - System.nanoTime()) > 0) {
                  try {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
                if (!closed) {
                  fired = true;
                  target.interrupt();
                }
              }
            },
            "test-watchdog");
    timer.setDaemon(true);
    timer.start();
  }

  /** Starts watching the current thread. */
  public static Watchdog start(Duration limit) {
    return new Watchdog(limit);
  }

  /** Whether the limit passed and the thread was interrupted. */
  public boolean fired() {
    return fired;
  }

  /** Stops watching; clears an interrupt this watchdog delivered. */
  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      notifyAll();
    }
    boolean interrupted = false;
    while (timer.isAlive()) {
      try {
        timer.join();
      } catch (InterruptedException e) {
        interrupted = true; // ours if the watchdog fired; kept otherwise
      }
    }
    if (fired) {
      Thread.interrupted();
    } else if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}

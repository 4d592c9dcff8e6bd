package dev.joule.io.merge;

import dev.joule.io.config.ProgressListener;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Progress of the current merge pass, summed over its merges and parts, which report from their own
 * threads. Thread-safe.
 */
final class MergeProgress {
  private final ProgressListener listener;
  private final AtomicLong done = new AtomicLong();
  private volatile String name = "merge";
  private volatile long total;

  MergeProgress(ProgressListener listener) {
    this.listener = listener;
  }

  /** Names the pass the following merges belong to, for progress out of {@code bytes}. */
  void startPass(String pass, long bytes) {
    name = pass;
    total = bytes;
    done.set(0);
  }

  /**
   * Adds {@code bytes} and reports the sum. Synchronized: a listener must never see the sum go back
   * (one thread adding after another but reporting before it).
   */
  synchronized void report(long bytes) {
    listener.update(name, done.addAndGet(bytes), total);
  }

  /** Adds {@code bytes} without reporting (the end of a merge: the next report includes them). */
  void add(long bytes) {
    done.addAndGet(bytes);
  }
}

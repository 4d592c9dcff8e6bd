package dev.joule.io.config;

/**
 * Receives a sort's progress, for progress bars and logs. Called from the sort's threads, at most a
 * few times per transfer block; implementations must be thread-safe and cheap.
 */
@FunctionalInterface
public interface ProgressListener {
  /** A listener that ignores progress. */
  ProgressListener NONE = (phase, done, total) -> {};

  /**
   * The phase named {@code phase} (e.g. "run formation", "merge pass 1") has processed {@code done}
   * of {@code total} bytes.
   */
  void update(String phase, long done, long total);
}

package dev.joule.io.config;

/**
 * Where one-line notices go (for example "direct I/O not supported on ..., using buffered I/O").
 * The library never prints to {@code System.out} or {@code System.err}; the CLI routes notices to
 * stderr and embedders to their logger. Implementations must be thread-safe: notices may come from
 * I/O threads.
 */
@FunctionalInterface
public interface NoticeSink {
  /** A sink that drops every notice. */
  NoticeSink IGNORE = line -> {};

  /** Reports one line of text without a trailing newline. */
  void notice(String line);

  /**
   * A sink that forwards each distinct line to {@code target} once and drops repeats; a sort wraps
   * its sink with this so that, e.g., the direct-I/O fallback of a directory is reported once, not
   * once per run file. Thread-safe; remembers every distinct line (notices are few).
   */
  static NoticeSink distinct(NoticeSink target) {
    java.util.Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
    return line -> {
      if (seen.add(line)) {
        target.notice(line);
      }
    };
  }
}

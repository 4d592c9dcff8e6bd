package dev.joule.io.fs;

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
}

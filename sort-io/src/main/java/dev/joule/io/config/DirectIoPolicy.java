package dev.joule.io.config;

/**
 * Whether files are opened with {@code com.sun.nio.file.ExtendedOpenOption.DIRECT} (O_DIRECT).
 *
 * <p>Direct I/O bypasses the page cache: on the project's VMs page-cache I/O costs up to 1.5 CPU-s
 * per GB against about 0.04 with O_DIRECT (docs/decisions/D3). The unaligned tail of a file is
 * always read or written through a second, buffered channel, whatever the policy.
 */
public enum DirectIoPolicy {
  /** Try DIRECT; where the file system refuses it, use buffered I/O and report one notice. */
  AUTO,
  /** Require DIRECT; a file system that refuses it is an error naming the file. */
  ON,
  /** Never use DIRECT. */
  OFF
}

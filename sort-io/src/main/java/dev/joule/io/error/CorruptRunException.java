package dev.joule.io.error;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A run file failed verification: a checksum mismatch, a bad magic or version, or an impossible
 * length. The message names the file, the byte offset of the damaged field and, for checksums, the
 * expected and actual values.
 *
 * <p>It is an {@link IOException} (checked) because it arrives through the same call paths as I/O
 * errors and every caller already handles those; it is deliberately <em>not</em> a {@code
 * SortIOException}, so callers can map it to its own exit status (3, "corruption detected").
 * Immutable.
 */
public final class CorruptRunException extends IOException {
  private final transient Path file;
  private final long offset;

  /** A checksum mismatch of the field at {@code offset} of {@code file}. */
  public CorruptRunException(Path file, long offset, String what, long expected, long actual) {
    super(
        "corrupt run file "
            + file
            + " at offset "
            + offset
            + ": "
            + what
            + " mismatch (expected 0x"
            + Long.toHexString(expected)
            + ", actual 0x"
            + Long.toHexString(actual)
            + ")");
    this.file = file;
    this.offset = offset;
  }

  /** A structural problem ({@code detail}) at {@code offset} of {@code file}. */
  public CorruptRunException(Path file, long offset, String detail) {
    super("corrupt run file " + file + " at offset " + offset + ": " + detail);
    this.file = file;
    this.offset = offset;
  }

  /** The damaged run file. */
  public Path file() {
    return file;
  }

  /** Byte offset in the file of the field that failed verification. */
  public long offset() {
    return offset;
  }
}

package dev.joule.core.record;

/**
 * Text lines: each record is the bytes before a delimiter byte ({@code '\n'}, or {@code 0} for
 * NUL-terminated lines), which belongs to no record. The input's last line may lack its delimiter;
 * the output always ends every line with one (GNU sort does the same). Empty lines are records. A
 * line longer than {@link #maxRecordLength()} is an error naming the file and its offset, never
 * split.
 *
 * <p>Immutable and thread-safe.
 */
public final class LineFormat implements RecordFormat {
  private final byte delimiter;
  private final int maxLength;

  LineFormat(byte delimiter, int maxLength) {
    if (maxLength < DEFAULT_MAX_RECORD_LENGTH || maxLength > MAX_RECORD_LENGTH_LIMIT) {
      throw new IllegalArgumentException(
          "line length limit "
              + maxLength
              + " is outside "
              + DEFAULT_MAX_RECORD_LENGTH
              + ".."
              + MAX_RECORD_LENGTH_LIMIT);
    }
    this.delimiter = delimiter;
    this.maxLength = maxLength;
  }

  /** The byte that ends every line. */
  public byte delimiter() {
    return delimiter;
  }

  /** This format with another line length limit (64 MiB to 256 MiB). */
  public LineFormat withMaxRecordLength(int bytes) {
    return new LineFormat(delimiter, bytes);
  }

  @Override
  public int maxRecordLength() {
    return maxLength;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LineFormat f && f.delimiter == delimiter && f.maxLength == maxLength;
  }

  @Override
  public int hashCode() {
    return delimiter * 31 + maxLength;
  }

  @Override
  public String toString() {
    return "lines("
        + (delimiter == '\n'
            ? "\\n"
            : delimiter == 0 ? "\\0" : "0x" + Integer.toHexString(delimiter & 0xFF))
        + ")";
  }
}

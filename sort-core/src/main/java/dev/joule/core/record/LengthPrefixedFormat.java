package dev.joule.core.record;

/**
 * Binary rows: each record is preceded by its length as a 4-byte big-endian unsigned int (network
 * order, as in Hadoop's and Spark's serialized rows), so any byte may occur in a record. A length
 * above {@link #maxRecordLength()}, or a file that ends inside a row, is an error naming the file
 * and its offset.
 *
 * <p>Immutable and thread-safe.
 */
public final class LengthPrefixedFormat implements RecordFormat {
  /** Bytes of the length in front of every record. */
  public static final int LENGTH_BYTES = 4;

  private final int maxLength;

  LengthPrefixedFormat(int maxLength) {
    if (maxLength < DEFAULT_MAX_RECORD_LENGTH || maxLength > MAX_RECORD_LENGTH_LIMIT) {
      throw new IllegalArgumentException(
          "row length limit "
              + maxLength
              + " is outside "
              + DEFAULT_MAX_RECORD_LENGTH
              + ".."
              + MAX_RECORD_LENGTH_LIMIT);
    }
    this.maxLength = maxLength;
  }

  /** This format with another row length limit (64 MiB to 256 MiB). */
  public LengthPrefixedFormat withMaxRecordLength(int bytes) {
    return new LengthPrefixedFormat(bytes);
  }

  @Override
  public int maxRecordLength() {
    return maxLength;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LengthPrefixedFormat f && f.maxLength == maxLength;
  }

  @Override
  public int hashCode() {
    return maxLength;
  }

  @Override
  public String toString() {
    return "length-prefixed";
  }
}

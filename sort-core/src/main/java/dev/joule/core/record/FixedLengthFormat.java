package dev.joule.core.record;

/**
 * Records of one fixed size (1..65535 bytes) with the key at a fixed position inside each record.
 *
 * <p>Immutable and thread-safe.
 */
public final class FixedLengthFormat implements RecordFormat {
  private final int recordSize;
  private final KeySpec key;

  FixedLengthFormat(int recordSize, KeySpec key) {
    if (recordSize < 1 || recordSize > MAX_RECORD_SIZE) {
      throw new IllegalArgumentException(
          "record size " + recordSize + " is outside 1.." + MAX_RECORD_SIZE);
    }
    if (key.end() > recordSize) {
      throw new IllegalArgumentException(
          "key " + key + " does not fit in a record of " + recordSize + " bytes");
    }
    this.recordSize = recordSize;
    this.key = key;
  }

  /** Bytes per record. */
  public int recordSize() {
    return recordSize;
  }

  /** The key's position inside each record (the default key of fixed records). */
  public KeySpec key() {
    return key;
  }

  @Override
  public int maxRecordLength() {
    return recordSize;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FixedLengthFormat f && f.recordSize == recordSize && f.key.equals(key);
  }

  @Override
  public int hashCode() {
    return 31 * recordSize + key.hashCode();
  }

  @Override
  public String toString() {
    return "fixed(" + recordSize + ", " + key + ")";
  }
}

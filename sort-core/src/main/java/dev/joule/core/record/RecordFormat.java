package dev.joule.core.record;

/**
 * The shape of the records being sorted: how long each one is and where its key sits.
 *
 * <p>Only fixed-length records exist today ({@link #fixed}). The sort index stores an offset and a
 * length per entry, so a line-oriented format can be added as another implementation without
 * touching the sorter.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface RecordFormat {
  /** Largest fixed record size: record lengths are stored in 16 bits. */
  int MAX_RECORD_SIZE = 65_535;

  /** Fixed-size records of {@code recordSize} bytes with the given key. */
  static FixedLengthFormat fixed(int recordSize, KeySpec key) {
    return new FixedLengthFormat(recordSize, key);
  }

  /** The gensort layout: 100-byte records, 10-byte key at offset 0. */
  static FixedLengthFormat gensort() {
    return new FixedLengthFormat(100, KeySpec.gensort());
  }

  /** The key's position inside each record. */
  KeySpec key();
}

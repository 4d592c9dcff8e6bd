package dev.joule.core.record;

/**
 * The shape of the records being sorted, as they are in the input and the output files:
 *
 * <ul>
 *   <li>{@link FixedLengthFormat}: records of one size, concatenated (gensort's 100 bytes);
 *   <li>{@link LineFormat}: text lines ending with a delimiter byte ({@code '\n'}, or {@code '\0'}
 *       as GNU sort's {@code -z}); a last line without one is a line too, and the output gives it
 *       its delimiter;
 *   <li>{@link LengthPrefixedFormat}: binary rows, each a 4-byte big-endian length and that many
 *       bytes, the format data platforms hand over.
 * </ul>
 *
 * The record is what the sort moves and checksums; for lines it is the line without its delimiter,
 * for length-prefixed rows the bytes after the length. What the records are sorted by is the sort's
 * key, configured apart from the format.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public sealed interface RecordFormat permits FixedLengthFormat, LineFormat, LengthPrefixedFormat {
  /** Largest fixed record size. */
  int MAX_RECORD_SIZE = 65_535;

  /** Default and smallest allowed limit of a variable-length record: 64 MiB. */
  int DEFAULT_MAX_RECORD_LENGTH = 64 << 20;

  /** Largest limit a variable-length format accepts: 256 MiB. */
  int MAX_RECORD_LENGTH_LIMIT = 256 << 20;

  /** Fixed-size records of {@code recordSize} bytes with the given key. */
  static FixedLengthFormat fixed(int recordSize, KeySpec key) {
    return new FixedLengthFormat(recordSize, key);
  }

  /** The gensort layout: 100-byte records, 10-byte key at offset 0. */
  static FixedLengthFormat gensort() {
    return new FixedLengthFormat(100, KeySpec.gensort());
  }

  /** Text lines ending with {@code '\n'}, up to {@value #DEFAULT_MAX_RECORD_LENGTH} bytes each. */
  static LineFormat lines() {
    return new LineFormat((byte) '\n', DEFAULT_MAX_RECORD_LENGTH);
  }

  /** Lines ending with {@code delimiter} ({@code 0} for NUL-terminated lines). */
  static LineFormat lines(byte delimiter) {
    return new LineFormat(delimiter, DEFAULT_MAX_RECORD_LENGTH);
  }

  /** Rows of a 4-byte big-endian length and that many bytes, up to 64 MiB each. */
  static LengthPrefixedFormat lengthPrefixed() {
    return new LengthPrefixedFormat(DEFAULT_MAX_RECORD_LENGTH);
  }

  /** The longest record of this format, in bytes. */
  int maxRecordLength();

  /** Whether all records have one size. */
  default boolean fixedSize() {
    return this instanceof FixedLengthFormat;
  }
}

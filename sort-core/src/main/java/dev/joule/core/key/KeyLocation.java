package dev.joule.core.key;

import java.util.Objects;

/**
 * Which bytes of a record a key field reads: the whole record, a byte range, or a GNU text position
 * ({@link TextPosition}, for lines).
 *
 * <p>A byte range of fixed {@code length} requires records of at least {@code offset + length}
 * bytes ({@link KeyNormalizer#encode} rejects shorter ones); {@link #bytesFrom(int)} runs to the
 * record's end and is empty when the record is shorter than its offset.
 *
 * <p>Immutable and thread-safe.
 */
public final class KeyLocation {
  /** The shapes of locations. */
  public enum Kind {
    /** Every byte of the record. */
    WHOLE_RECORD,
    /** {@code length} bytes at {@code offset}, or every byte from {@code offset} on. */
    BYTE_RANGE,
    /** A GNU {@code -k} position in a line. */
    TEXT
  }

  /** {@link #length()} of a range that runs to the end of the record. */
  public static final int TO_END = -1;

  private static final KeyLocation WHOLE = new KeyLocation(Kind.WHOLE_RECORD, 0, TO_END, null);

  private final Kind kind;
  private final int offset;
  private final int length;
  private final TextPosition position;

  private KeyLocation(Kind kind, int offset, int length, TextPosition position) {
    this.kind = kind;
    this.offset = offset;
    this.length = length;
    this.position = position;
  }

  /** The whole record (GNU's default key). */
  public static KeyLocation wholeRecord() {
    return WHOLE;
  }

  /** {@code length} bytes at {@code offset}; every record must hold them. */
  public static KeyLocation bytes(int offset, int length) {
    if (offset < 0 || length < 1 || (long) offset + length > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("invalid byte range " + offset + "+" + length);
    }
    return new KeyLocation(Kind.BYTE_RANGE, offset, length, null);
  }

  /** Every byte from {@code offset} to the end of the record (none if the record is shorter). */
  public static KeyLocation bytesFrom(int offset) {
    if (offset < 0) {
      throw new IllegalArgumentException("negative offset " + offset);
    }
    return offset == 0 ? WHOLE : new KeyLocation(Kind.BYTE_RANGE, offset, TO_END, null);
  }

  /** A GNU text position. */
  public static KeyLocation text(TextPosition position) {
    return new KeyLocation(Kind.TEXT, 0, TO_END, Objects.requireNonNull(position, "position"));
  }

  /** The shape. */
  public Kind kind() {
    return kind;
  }

  /** First byte of a {@link Kind#BYTE_RANGE}; 0 otherwise. */
  public int offset() {
    return offset;
  }

  /** Bytes of a fixed {@link Kind#BYTE_RANGE}, else {@link #TO_END}. */
  public int length() {
    return length;
  }

  /** The position of a {@link Kind#TEXT} location; null otherwise. */
  public TextPosition position() {
    return position;
  }

  /** True when every record's field has the same length ({@link #length()}). */
  public boolean fixedLength() {
    return length != TO_END;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyLocation l
        && l.kind == kind
        && l.offset == offset
        && l.length == length
        && Objects.equals(l.position, position);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, offset, length, position);
  }

  @Override
  public String toString() {
    switch (kind) {
      case WHOLE_RECORD:
        return "record";
      case BYTE_RANGE:
        return length == TO_END
            ? "bytes[" + offset + "..]"
            : "bytes[" + offset + "+" + length + "]";
      default:
        return "-k " + position;
    }
  }
}

package dev.joule.core.key;

import java.util.Objects;

/**
 * One field of a {@link SortKey}: where it is ({@link KeyLocation}), how its bytes order ({@link
 * KeyType}) and whether that order is reversed (GNU's per-key {@code r}).
 *
 * <p>Binary integers and floats need a fixed byte range of exactly their width.
 *
 * <p>Immutable and thread-safe.
 */
public final class KeyField {
  private final KeyLocation location;
  private final KeyType type;
  private final boolean descending;

  private KeyField(KeyLocation location, KeyType type, boolean descending) {
    this.location = Objects.requireNonNull(location, "location");
    this.type = Objects.requireNonNull(type, "type");
    this.descending = descending;
    if ((type.kind() == KeyType.Kind.INTEGER || type.kind() == KeyType.Kind.FLOAT)
        && (location.kind() != KeyLocation.Kind.BYTE_RANGE || location.length() != type.width())) {
      throw new IllegalArgumentException(
          type + " needs a byte range of exactly " + type.width() + " bytes, not " + location);
    }
  }

  /** An ascending field. */
  public static KeyField of(KeyLocation location, KeyType type) {
    return new KeyField(location, type, false);
  }

  /** A field of {@code type} over GNU text position {@code position}, ascending. */
  public static KeyField text(TextPosition position, KeyType type) {
    return new KeyField(KeyLocation.text(position), type, false);
  }

  /**
   * A binary integer of {@code type} (see {@link KeyType#integer}) at byte {@code offset},
   * ascending.
   */
  public static KeyField binary(int offset, KeyType type) {
    return new KeyField(KeyLocation.bytes(offset, Math.max(1, type.width())), type, false);
  }

  /** The same field in descending order. */
  public KeyField reversed() {
    return new KeyField(location, type, !descending);
  }

  /** The same field with the given direction. */
  public KeyField withDescending(boolean descending) {
    return descending == this.descending ? this : new KeyField(location, type, descending);
  }

  /** Where the field is. */
  public KeyLocation location() {
    return location;
  }

  /** How the field orders. */
  public KeyType type() {
    return type;
  }

  /** True when the field's order is reversed. */
  public boolean descending() {
    return descending;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyField f
        && f.location.equals(location)
        && f.type.equals(type)
        && f.descending == descending;
  }

  @Override
  public int hashCode() {
    return Objects.hash(location, type, descending);
  }

  @Override
  public String toString() {
    return location + " " + type + (descending ? " desc" : "");
  }
}

package dev.joule.core.key;

import java.util.List;

/**
 * What records are sorted by: an ordered list of {@link KeyField}s, compared field by field, the
 * first difference deciding. Ties on every field are left to the caller (GNU sort's last-resort
 * whole-line comparison, {@code -s}, {@code -u} are the engine's and the command line's).
 *
 * <p>Immutable and thread-safe.
 */
public final class SortKey {
  private static final SortKey WHOLE =
      new SortKey(List.of(KeyField.of(KeyLocation.wholeRecord(), KeyType.bytes())));

  private final List<KeyField> fields;

  private SortKey(List<KeyField> fields) {
    if (fields.isEmpty()) {
      throw new IllegalArgumentException("a sort key needs at least one field");
    }
    this.fields = fields;
  }

  /** The fields in order. */
  public static SortKey of(KeyField... fields) {
    return new SortKey(List.of(fields));
  }

  /** The fields in order. */
  public static SortKey of(List<KeyField> fields) {
    return new SortKey(List.copyOf(fields));
  }

  /** The whole record as ascending unsigned bytes: GNU sort's default, and gensort's shape. */
  public static SortKey wholeRecord() {
    return WHOLE;
  }

  /** The fields, unmodifiable. */
  public List<KeyField> fields() {
    return fields;
  }

  /**
   * Whether a field is text in a locale's collation ({@link KeyType#collated}, a locale other than
   * C, POSIX and C.UTF-8): its key is the C library's transform of the text, which costs more than
   * the rest of the sort does per line (docs/decisions/D33).
   */
  public boolean collated() {
    for (KeyField f : fields) {
      if (f.type().kind() == KeyType.Kind.COLLATED) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SortKey k && k.fields.equals(fields);
  }

  @Override
  public int hashCode() {
    return fields.hashCode();
  }

  @Override
  public String toString() {
    return "SortKey" + fields;
  }
}

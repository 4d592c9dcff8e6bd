package dev.joule.core.record;

/**
 * Where the sort key sits inside a record: {@code length} bytes starting at {@code offset},
 * compared as unsigned bytes in lexicographic order (memcmp order).
 *
 * <p>Immutable and thread-safe.
 */
public final class KeySpec {
  private final int offset;
  private final int length;

  private KeySpec(int offset, int length) {
    if (offset < 0) {
      throw new IllegalArgumentException("key offset " + offset + " is negative");
    }
    if (length < 1) {
      throw new IllegalArgumentException("key length " + length + " must be at least 1");
    }
    this.offset = offset;
    this.length = length;
  }

  /** A key of {@code length} bytes at {@code offset}, compared as unsigned bytes. */
  public static KeySpec bytes(int offset, int length) {
    return new KeySpec(offset, length);
  }

  /** The gensort key: bytes 0..9 of a 100-byte record. */
  public static KeySpec gensort() {
    return new KeySpec(0, 10);
  }

  /** Offset of the key's first byte in the record. */
  public int offset() {
    return offset;
  }

  /** Bytes of the key. */
  public int length() {
    return length;
  }

  /** The first byte after the key. */
  public int end() {
    return offset + length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeySpec k && k.offset == offset && k.length == length;
  }

  @Override
  public int hashCode() {
    return 31 * offset + length;
  }

  @Override
  public String toString() {
    return "key[" + offset + ".." + end() + ")";
  }
}

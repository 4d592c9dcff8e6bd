package dev.joule.core.key;

import java.nio.ByteOrder;
import java.util.Objects;

/**
 * How a key field's bytes are ordered: unsigned bytes, text with GNU sort's options, fixed-width
 * binary numbers, or one of GNU sort's text number and month orders. {@link KeyNormalizer}
 * documents each type's normalized byte layout; {@link #exact()} tells whether one exists.
 *
 * <p>GNU's {@code -f} changes nothing for {@code -n -g -h -M} (folding touches no byte they read),
 * and GNU rejects {@code -d}/{@code -i} with them, so those types take no text options.
 *
 * <p>Immutable and thread-safe.
 */
public final class KeyType {
  /** The families of types. */
  public enum Kind {
    /** Unsigned bytes, lexicographic, shorter first: GNU's default key order in the C locale. */
    BYTES,
    /** Text with {@code -f} and/or {@code -d}/{@code -i}: filtered, folded, then as bytes. */
    TEXT,
    /** A two's complement or unsigned binary integer of 1, 2, 4 or 8 bytes. */
    INTEGER,
    /** An IEEE 754 binary32 or binary64 in its totalOrder. */
    FLOAT,
    /** GNU {@code -n}. */
    GNU_NUMERIC,
    /** GNU {@code -h}. */
    GNU_HUMAN_NUMERIC,
    /** GNU {@code -M}. */
    GNU_MONTH,
    /** GNU {@code -g}. */
    GNU_GENERAL_NUMERIC,
    /** GNU {@code -V}: no exact normalized key; compared by {@link KeyNormalizer#compareTail}. */
    GNU_VERSION
  }

  /** Which bytes a text key drops before comparing. */
  public enum Ignore {
    /** Keep every byte. */
    NONE,
    /** GNU {@code -d}: keep only letters, digits and blanks. */
    NONDICTIONARY,
    /** GNU {@code -i}: keep only printable bytes 0x20..0x7E. */
    NONPRINTING
  }

  /**
   * How {@code -g} orders NaNs among themselves (they sort after conversion errors and before all
   * numbers either way).
   */
  public enum NanOrder {
    /**
     * By the text {@code printf("%Lf")} gives, so every {@code -nan} before every {@code nan},
     * payloads ignored: GNU coreutils after 9.1.
     */
    TEXT,
    /**
     * By {@code memcmp} of the x87 80-bit value as stored on x86-64: the mantissa from its least
     * significant byte up (the payload decides first), then the sign (positive first): GNU
     * coreutils up to 9.1.
     */
    BIT_PATTERN
  }

  private static final KeyType BYTES = new KeyType(Kind.BYTES, 0, false, null, false, null, null);

  private final Kind kind;
  private final int width;
  private final boolean signed;
  private final ByteOrder order;
  private final boolean foldCase;
  private final Ignore ignore;
  private final NanOrder nanOrder;

  private KeyType(
      Kind kind,
      int width,
      boolean signed,
      ByteOrder order,
      boolean foldCase,
      Ignore ignore,
      NanOrder nanOrder) {
    this.kind = kind;
    this.width = width;
    this.signed = signed;
    this.order = order;
    this.foldCase = foldCase;
    this.ignore = ignore == null ? Ignore.NONE : ignore;
    this.nanOrder = nanOrder;
  }

  /** Unsigned bytes (GNU's key order with no options). */
  public static KeyType bytes() {
    return BYTES;
  }

  /**
   * Text with GNU {@code -f} ({@code foldCase}: a..z compare as A..Z) and {@code -d} or {@code -i}
   * ({@code ignore}); with neither it is {@link #bytes()}.
   */
  public static KeyType text(boolean foldCase, Ignore ignore) {
    Objects.requireNonNull(ignore, "ignore");
    if (!foldCase && ignore == Ignore.NONE) {
      return BYTES;
    }
    return new KeyType(Kind.TEXT, 0, false, null, foldCase, ignore, null);
  }

  /**
   * A binary integer of {@code width} bytes (1, 2, 4 or 8), two's complement if {@code signed},
   * stored in byte order {@code order}.
   */
  public static KeyType integer(int width, boolean signed, ByteOrder order) {
    if (width != 1 && width != 2 && width != 4 && width != 8) {
      throw new IllegalArgumentException("integer width must be 1, 2, 4 or 8 bytes: " + width);
    }
    return new KeyType(
        Kind.INTEGER, width, signed, Objects.requireNonNull(order, "order"), false, null, null);
  }

  /** An IEEE binary32 stored in byte order {@code order}, in totalOrder. */
  public static KeyType float32(ByteOrder order) {
    return new KeyType(
        Kind.FLOAT, 4, true, Objects.requireNonNull(order, "order"), false, null, null);
  }

  /** An IEEE binary64 stored in byte order {@code order}, in totalOrder. */
  public static KeyType float64(ByteOrder order) {
    return new KeyType(
        Kind.FLOAT, 8, true, Objects.requireNonNull(order, "order"), false, null, null);
  }

  /** GNU {@code -n}. */
  public static KeyType gnuNumeric() {
    return new KeyType(Kind.GNU_NUMERIC, 0, false, null, false, null, null);
  }

  /** GNU {@code -h}. */
  public static KeyType gnuHumanNumeric() {
    return new KeyType(Kind.GNU_HUMAN_NUMERIC, 0, false, null, false, null, null);
  }

  /** GNU {@code -M}. */
  public static KeyType gnuMonth() {
    return new KeyType(Kind.GNU_MONTH, 0, false, null, false, null, null);
  }

  /** GNU {@code -g} with the NaN order of current GNU coreutils ({@link NanOrder#TEXT}). */
  public static KeyType gnuGeneralNumeric() {
    return gnuGeneralNumeric(NanOrder.TEXT);
  }

  /** GNU {@code -g} with the given NaN order. */
  public static KeyType gnuGeneralNumeric(NanOrder nanOrder) {
    return new KeyType(
        Kind.GNU_GENERAL_NUMERIC,
        0,
        false,
        null,
        false,
        null,
        Objects.requireNonNull(nanOrder, "nanOrder"));
  }

  /** GNU {@code -V}. */
  public static KeyType gnuVersion() {
    return gnuVersion(false, Ignore.NONE);
  }

  /** GNU {@code -V} with {@code -f} and {@code -d}/{@code -i} applied to the key first. */
  public static KeyType gnuVersion(boolean foldCase, Ignore ignore) {
    return new KeyType(
        Kind.GNU_VERSION, 0, false, null, foldCase, Objects.requireNonNull(ignore, "ignore"), null);
  }

  /** The family. */
  public Kind kind() {
    return kind;
  }

  /** Bytes of an {@link Kind#INTEGER} or {@link Kind#FLOAT}; 0 for the others. */
  public int width() {
    return width;
  }

  /** Whether an {@link Kind#INTEGER} is two's complement (true for floats). */
  public boolean signed() {
    return signed;
  }

  /** Byte order of an {@link Kind#INTEGER} or {@link Kind#FLOAT}; null for the others. */
  public ByteOrder byteOrder() {
    return order;
  }

  /** {@code -f} of {@link Kind#TEXT} and {@link Kind#GNU_VERSION}. */
  public boolean foldCase() {
    return foldCase;
  }

  /** {@code -d}/{@code -i} of {@link Kind#TEXT} and {@link Kind#GNU_VERSION}. */
  public Ignore ignore() {
    return ignore;
  }

  /** NaN order of {@link Kind#GNU_GENERAL_NUMERIC}; null for the others. */
  public NanOrder nanOrder() {
    return nanOrder;
  }

  /** True when the normalized key alone decides the order (every type but {@code -V}). */
  public boolean exact() {
    return kind != Kind.GNU_VERSION;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyType t
        && t.kind == kind
        && t.width == width
        && t.signed == signed
        && Objects.equals(t.order, order)
        && t.foldCase == foldCase
        && t.ignore == ignore
        && t.nanOrder == nanOrder;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, width, signed, order, foldCase, ignore, nanOrder);
  }

  @Override
  public String toString() {
    switch (kind) {
      case INTEGER:
        return (signed ? "int" : "uint")
            + (8 * width)
            + (order == ByteOrder.BIG_ENDIAN ? "be" : "le");
      case FLOAT:
        return "float" + (8 * width) + (order == ByteOrder.BIG_ENDIAN ? "be" : "le");
      case TEXT:
      case GNU_VERSION:
        return kind.name().toLowerCase(java.util.Locale.ROOT)
            + (foldCase ? "[f]" : "")
            + (ignore == Ignore.NONDICTIONARY ? "[d]" : ignore == Ignore.NONPRINTING ? "[i]" : "");
      case GNU_GENERAL_NUMERIC:
        return "gnu_general_numeric[" + nanOrder + "]";
      default:
        return kind.name().toLowerCase(java.util.Locale.ROOT);
    }
  }
}

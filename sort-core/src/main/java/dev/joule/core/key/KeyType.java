package dev.joule.core.key;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * How a key field's bytes are ordered: unsigned bytes, text with GNU sort's options, fixed-width
 * binary numbers, or one of GNU sort's text number and month orders. {@link KeyNormalizer}
 * documents each type's normalized byte layout; {@link #exact()} tells whether one exists.
 *
 * <p>GNU's {@code -f} changes nothing for {@code -n -g -M} (folding touches no byte whose meaning
 * it changes), but for {@code -h} it turns a lowercase letter after the number into a unit ({@code
 * 5e} is 5 exa); GNU rejects {@code -d}/{@code -i} with all four.
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
    GNU_VERSION,
    /**
     * GNU {@code -R}: the MD5 digest of a salt and the (filtered, folded) key, then the key itself
     * for the rare tie of two digests.
     */
    GNU_RANDOM
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

  /** Which GNU coreutils release's quirks the GNU types follow where releases differ (C locale). */
  public enum GnuRelease {
    /**
     * coreutils 9.1 (Debian 12): {@code -n}/{@code -h} skip byte 0x80 among the leading zeros and
     * after integer digits as if it were a thousands separator (its strnumcmp reads bytes unsigned
     * and the C locale's "no separator" value is 128), though {@code -h}'s unit scan stops at it;
     * {@code -h} knows units up to Y only; {@code -g} orders NaNs by {@code memcmp} of the x87
     * value (significand bytes least significant first, so the payload decides, then positive
     * before negative); a {@code -V} file suffix may be the whole string ({@code ".a~"} before
     * {@code ".1"}).
     */
    COREUTILS_9_1,
    /**
     * Current coreutils and gnulib: no separator byte; units up to Q; {@code -g} NaNs by their
     * {@code printf("%Lf")} text (every {@code -nan} before every {@code nan}, payloads ignored); a
     * {@code -V} suffix leaves at least the first byte.
     */
    CURRENT
  }

  private static final KeyType BYTES = new KeyType(Kind.BYTES, 0, false, null, false, null, null);

  private final Kind kind;
  private final int width;
  private final boolean signed;
  private final ByteOrder order;
  private final boolean foldCase;
  private final Ignore ignore;
  private final GnuRelease release;
  private final byte[] salt;

  private KeyType(
      Kind kind,
      int width,
      boolean signed,
      ByteOrder order,
      boolean foldCase,
      Ignore ignore,
      GnuRelease release) {
    this.kind = kind;
    this.width = width;
    this.signed = signed;
    this.order = order;
    this.foldCase = foldCase;
    this.ignore = ignore == null ? Ignore.NONE : ignore;
    this.release = release;
    this.salt = null;
  }

  private KeyType(byte[] salt, boolean foldCase, Ignore ignore) {
    this.kind = Kind.GNU_RANDOM;
    this.width = 0;
    this.signed = false;
    this.order = null;
    this.foldCase = foldCase;
    this.ignore = Objects.requireNonNull(ignore, "ignore");
    this.release = GnuRelease.CURRENT;
    this.salt = salt.clone();
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

  /** GNU {@code -n} of current coreutils. */
  public static KeyType gnuNumeric() {
    return gnuNumeric(GnuRelease.CURRENT);
  }

  /** GNU {@code -n} as {@code release} does it. */
  public static KeyType gnuNumeric(GnuRelease release) {
    return gnu(Kind.GNU_NUMERIC, false, Ignore.NONE, release);
  }

  /** GNU {@code -h} of current coreutils. */
  public static KeyType gnuHumanNumeric() {
    return gnuHumanNumeric(false, GnuRelease.CURRENT);
  }

  /** GNU {@code -h} with {@code -f} if {@code foldCase}, as {@code release} does it. */
  public static KeyType gnuHumanNumeric(boolean foldCase, GnuRelease release) {
    return gnu(Kind.GNU_HUMAN_NUMERIC, foldCase, Ignore.NONE, release);
  }

  /** GNU {@code -M} (the same in every release). */
  public static KeyType gnuMonth() {
    return gnu(Kind.GNU_MONTH, false, Ignore.NONE, GnuRelease.CURRENT);
  }

  /** GNU {@code -g} of current coreutils. */
  public static KeyType gnuGeneralNumeric() {
    return gnuGeneralNumeric(GnuRelease.CURRENT);
  }

  /** GNU {@code -g} as {@code release} does it. */
  public static KeyType gnuGeneralNumeric(GnuRelease release) {
    return gnu(Kind.GNU_GENERAL_NUMERIC, false, Ignore.NONE, release);
  }

  /** GNU {@code -V} of current coreutils. */
  public static KeyType gnuVersion() {
    return gnuVersion(false, Ignore.NONE, GnuRelease.CURRENT);
  }

  /**
   * GNU {@code -V} with {@code -f} and {@code -d}/{@code -i} applied to the key first, as {@code
   * release} does it.
   */
  public static KeyType gnuVersion(boolean foldCase, Ignore ignore, GnuRelease release) {
    return gnu(Kind.GNU_VERSION, foldCase, ignore, release);
  }

  /**
   * GNU {@code -R} with {@code -f} and {@code -d}/{@code -i} applied to the key first: keys in the
   * order of the MD5 digests of {@code salt} followed by the key's bytes, equal keys together, and
   * ties of two digests broken by the keys' bytes (shorter first). GNU sort reads its 16 bytes of
   * salt from {@code --random-source=FILE} (or the system's random generator), so the same source
   * gives GNU's own order.
   */
  public static KeyType gnuRandom(byte[] salt, boolean foldCase, Ignore ignore) {
    return new KeyType(Objects.requireNonNull(salt, "salt"), foldCase, ignore);
  }

  private static KeyType gnu(Kind kind, boolean foldCase, Ignore ignore, GnuRelease release) {
    return new KeyType(
        kind,
        0,
        false,
        null,
        foldCase,
        Objects.requireNonNull(ignore, "ignore"),
        Objects.requireNonNull(release, "release"));
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

  /**
   * {@code -f} of {@link Kind#TEXT}, {@link Kind#GNU_VERSION} and {@link Kind#GNU_HUMAN_NUMERIC}.
   */
  public boolean foldCase() {
    return foldCase;
  }

  /** The salt of a {@link Kind#GNU_RANDOM} (a copy); null for the other kinds. */
  public byte[] salt() {
    return salt == null ? null : salt.clone();
  }

  /**
   * {@code -d}/{@code -i} of {@link Kind#TEXT}, {@link Kind#GNU_VERSION} and {@link
   * Kind#GNU_RANDOM}.
   */
  public Ignore ignore() {
    return ignore;
  }

  /** The release whose quirks a GNU type follows; null for the other kinds. */
  public GnuRelease gnuRelease() {
    return release;
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
        && t.release == release
        && Arrays.equals(t.salt, salt);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, width, signed, order, foldCase, ignore, release)
        + 31 * Arrays.hashCode(salt);
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
      default:
        return kind.name().toLowerCase(java.util.Locale.ROOT)
            + (foldCase ? "[f]" : "")
            + (ignore == Ignore.NONDICTIONARY ? "[d]" : ignore == Ignore.NONPRINTING ? "[i]" : "")
            + (release == GnuRelease.COREUTILS_9_1 ? "[9.1]" : "");
    }
  }
}

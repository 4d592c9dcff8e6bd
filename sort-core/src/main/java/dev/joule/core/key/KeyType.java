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
     * Text in a locale's collation ({@code strcoll}), after {@code -f} and {@code -d}/{@code -i} by
     * the locale's classes: the C library's {@code strxfrm_l} of the text, GNU's handling of NUL
     * bytes and empty text ({@link #collated}).
     */
    COLLATED,
    /**
     * GNU {@code -R}: the MD5 digest of a salt and the (filtered, folded) key, then the key itself
     * for the rare tie of two digests; in a locale GNU counts as its own, the key's collation
     * transform stands for the key ({@link #gnuRandom}).
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

  private static final KeyType BYTES =
      new KeyType(Kind.BYTES, 0, false, null, false, null, null, null);

  private final Kind kind;
  private final int width;
  private final boolean signed;
  private final ByteOrder order;
  private final boolean foldCase;
  private final Ignore ignore;
  private final GnuRelease release;
  private final TextLocale locale; // null: the C locale
  private final byte[] salt;

  private KeyType(
      Kind kind,
      int width,
      boolean signed,
      ByteOrder order,
      boolean foldCase,
      Ignore ignore,
      GnuRelease release,
      TextLocale locale) {
    this.kind = kind;
    this.width = width;
    this.signed = signed;
    this.order = order;
    this.foldCase = foldCase;
    this.ignore = ignore == null ? Ignore.NONE : ignore;
    this.release = release;
    this.locale = locale;
    this.salt = null;
  }

  private KeyType(byte[] salt, boolean foldCase, Ignore ignore, TextLocale locale) {
    this.kind = Kind.GNU_RANDOM;
    this.width = 0;
    this.signed = false;
    this.order = null;
    this.foldCase = foldCase;
    this.ignore = Objects.requireNonNull(ignore, "ignore");
    this.release = GnuRelease.CURRENT;
    this.locale = locale;
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
    return new KeyType(Kind.TEXT, 0, false, null, foldCase, ignore, null, null);
  }

  /**
   * Text in {@code locale}'s collation: two keys compare as {@code strcoll} compares them in that
   * locale (the order of GNU sort's keys there), after {@code -f} ({@code foldCase}: each byte
   * through the locale's {@code toupper}) and {@code -d} or {@code -i} ({@code ignore}: bytes
   * dropped by the locale's {@code isalnum}/{@code isblank} or {@code isprint}). As GNU's {@code
   * xmemcoll0}: an empty key sorts before any other, and a key with NUL bytes compares its
   * NUL-separated parts in turn, fewer parts first when all are equal. Keys the collation calls
   * equal are equal, even if their bytes differ.
   *
   * <p>In a locale that collates by bytes (C, POSIX, C.UTF-8) this is {@link #text}, with the
   * locale's classes.
   */
  public static KeyType collated(TextLocale locale, boolean foldCase, Ignore ignore) {
    Objects.requireNonNull(locale, "locale");
    Objects.requireNonNull(ignore, "ignore");
    if (locale.byteCollation()) {
      KeyType t = text(foldCase, ignore);
      return t.kind == Kind.TEXT && !locale.cEquivalent() ? t.with(locale) : t;
    }
    return new KeyType(Kind.COLLATED, 0, false, null, foldCase, ignore, null, locale);
  }

  /** Text in {@code locale}'s collation with no option: {@code collated(locale, false, NONE)}. */
  public static KeyType collated(TextLocale locale) {
    return collated(locale, false, Ignore.NONE);
  }

  /**
   * This GNU ordering as GNU sort has it in {@code locale}: bytes and text collated ({@link
   * #collated}); {@code -n}, {@code -h} with the locale's decimal point and thousands separator;
   * {@code -g} with its decimal point; {@code -M} with its month names; {@code -V} with its {@code
   * -f}/{@code -d}/{@code -i}; {@code -R} with its classes and, where GNU has the collation as its
   * own, hashing the collation transform ({@link #gnuRandom}). Binary types, and every other type
   * in a locale equivalent to C ({@link TextLocale#cEquivalent()}), are returned as they are.
   *
   * @throws IllegalArgumentException for {@code -g} in a locale whose decimal point is not one byte
   */
  public KeyType inLocale(TextLocale l) {
    Objects.requireNonNull(l, "locale");
    if (kind == Kind.GNU_RANDOM) {
      // C.UTF-8 too: it collates by bytes, but GNU hashes its (copying) transform, NULs added.
      return l.cEquivalent() && !l.hardCollation() ? this : new KeyType(salt, foldCase, ignore, l);
    }
    if (l.cEquivalent() || kind == Kind.INTEGER || kind == Kind.FLOAT) {
      return this;
    }
    switch (kind) {
      case BYTES:
      case TEXT:
        return collated(l, foldCase, ignore);
      case COLLATED:
        return collated(l, foldCase, ignore);
      case GNU_GENERAL_NUMERIC:
        if (l.radix.length != 1) {
          throw new IllegalArgumentException(
              "-g in the locale "
                  + l
                  + ": its decimal point is "
                  + l.radix.length
                  + " bytes, and joule reads numbers with a decimal point of one byte");
        }
        return with(l);
      default:
        return with(l);
    }
  }

  private KeyType with(TextLocale l) {
    return new KeyType(kind, width, signed, order, foldCase, ignore, release, l);
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
        Kind.INTEGER,
        width,
        signed,
        Objects.requireNonNull(order, "order"),
        false,
        null,
        null,
        null);
  }

  /** An IEEE binary32 stored in byte order {@code order}, in totalOrder. */
  public static KeyType float32(ByteOrder order) {
    return new KeyType(
        Kind.FLOAT, 4, true, Objects.requireNonNull(order, "order"), false, null, null, null);
  }

  /** An IEEE binary64 stored in byte order {@code order}, in totalOrder. */
  public static KeyType float64(ByteOrder order) {
    return new KeyType(
        Kind.FLOAT, 8, true, Objects.requireNonNull(order, "order"), false, null, null, null);
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
   *
   * <p>In a locale ({@link #inLocale}) whose collation GNU counts as its own ({@link
   * TextLocale#hardCollation()}: any but C and POSIX, C.UTF-8 too), GNU hashes the key's collation
   * transform instead of its bytes, as its {@code compare_random} does: each NUL-separated part's
   * {@code strxfrm} followed by a NUL, the parts in turn; the same bytes break a tie of two
   * digests, and keys whose transforms are equal are equal.
   */
  public static KeyType gnuRandom(byte[] salt, boolean foldCase, Ignore ignore) {
    return new KeyType(Objects.requireNonNull(salt, "salt"), foldCase, ignore, null);
  }

  private static KeyType gnu(Kind kind, boolean foldCase, Ignore ignore, GnuRelease release) {
    return new KeyType(
        kind,
        0,
        false,
        null,
        foldCase,
        Objects.requireNonNull(ignore, "ignore"),
        Objects.requireNonNull(release, "release"),
        null);
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
   * {@code -f} of {@link Kind#TEXT}, {@link Kind#COLLATED}, {@link Kind#GNU_VERSION}, {@link
   * Kind#GNU_RANDOM} and {@link Kind#GNU_HUMAN_NUMERIC}.
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

  /**
   * The locale whose collation, classes, numbers or months this type follows; {@link TextLocale#C}
   * for the C locale's types and for binary types.
   */
  public TextLocale locale() {
    return locale == null ? TextLocale.C : locale;
  }

  /**
   * True when the normalized key alone decides the order: every type but {@code -V} and collated
   * text, whose code is the part of {@code strxfrm} that orders as {@code strcoll} does, ties
   * decided by {@code strcoll} ({@link KeyNormalizer#compareTail}).
   */
  public boolean exact() {
    return kind != Kind.GNU_VERSION && kind != Kind.COLLATED;
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
        && Objects.equals(t.locale, locale)
        && Arrays.equals(t.salt, salt);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, width, signed, order, foldCase, ignore, release, locale)
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
            + (release == GnuRelease.COREUTILS_9_1 ? "[9.1]" : "")
            + (locale != null ? "[" + locale + "]" : "");
    }
  }
}

package dev.joule.core.key;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A locale of the GNU C library, as GNU sort uses one: the collation of text keys ({@code
 * LC_COLLATE}, through {@code strxfrm_l}), the byte classes of {@code -b -d -i} and the upper case
 * of {@code -f} ({@code LC_CTYPE}), the decimal point and thousands separator of {@code -n -h -g}
 * ({@code LC_NUMERIC}), and the month names of {@code -M} ({@code LC_TIME}). {@link #C} is the C
 * locale, built in; any other is loaded from the system with {@code newlocale} (the {@code locales}
 * a machine has installed, or those under {@code LOCPATH}).
 *
 * <p>{@link #fromEnvironment} chooses the locale as {@code setlocale(LC_ALL, "")} does for GNU
 * sort: per category {@code LC_ALL}, then {@code LC_<category>}, then {@code LANG}, each only if
 * set and not empty, else {@code C}; if any category's locale is not installed, none is set and the
 * whole locale stays C ({@link #failed()}), as the C library does.
 *
 * <p>A locale whose collation is byte order and whose classes, numbers and months are the C
 * locale's ({@code C}, {@code POSIX}, glibc's {@code C.UTF-8}: {@link #cEquivalent()}) sorts
 * exactly as {@link #C}, and the key types built for it are the C locale's.
 *
 * <p>Immutable and thread-safe. A loaded locale is kept for the life of the JVM (one per set of
 * names; the C library maps its data files, a few megabytes of shared pages per locale).
 */
public final class TextLocale {
  /** GNU's {@code NON_CHAR}: the thousands separator when the locale has none of one byte. */
  static final int NO_SEPARATOR = -1;

  /** The C locale: byte order, ASCII classes, {@code .} and no thousands separator, JAN..DEC. */
  public static final TextLocale C = cLocale(null);

  // Here, not in LibC: reading them must not bind the C library (a C-locale sort never does).
  /** The categories {@code setlocale(LibC.LC_ALL, "")} sets, with the variable named after each. */
  private static final int[] CATEGORIES = {
    LibC.LC_CTYPE,
    LibC.LC_NUMERIC,
    LibC.LC_TIME,
    LibC.LC_COLLATE,
    LibC.LC_MONETARY,
    LibC.LC_MESSAGES,
    LibC.LC_PAPER,
    LibC.LC_NAME,
    LibC.LC_ADDRESS,
    LibC.LC_TELEPHONE,
    LibC.LC_MEASUREMENT,
    LibC.LC_IDENTIFICATION
  };

  private static final String[] CATEGORY_NAMES = {
    "LC_CTYPE",
    "LC_NUMERIC",
    "LC_TIME",
    "LC_COLLATE",
    "LC_MONETARY",
    "LC_MESSAGES",
    "LC_ALL",
    "LC_PAPER",
    "LC_NAME",
    "LC_ADDRESS",
    "LC_TELEPHONE",
    "LC_MEASUREMENT",
    "LC_IDENTIFICATION"
  };

  private static final Map<String, TextLocale> LOADED = new ConcurrentHashMap<>();

  /** The C library's C.UTF-8, its LC_CTYPE only, once asked for ({@link #ctypeHandle}). */
  private static volatile long cUtf8Ctype;

  private final long handle; // locale_t, 0 for the built-in C locale
  private final String name; // the names per category, as the environment gave them
  private final String collationName;
  private final boolean byteCollation;
  private final boolean utf8;
  final boolean[] nondictionary;
  final boolean[] nonprinting;
  final byte[] upper;
  final byte decimalPoint;
  final int thousandsSeparator;
  final boolean separatorIgnored;
  final byte[] radix;
  final GnuMonths months; // null: the C locale's JAN..DEC

  /**
   * The collation levels whose {@code strxfrm} bytes order as {@code strcoll} does: the primary
   * level only. glibc 2.36's transform disagrees with its {@code strcoll} at the third level too
   * (in de_DE.UTF-8, {@code "+0e1,"} collates after {@code "-0,E1"} and transforms before it), not
   * only at the fourth, its {@code position} level.
   */
  final int trustedLevels;

  private final String failure;

  private TextLocale(
      long handle,
      String name,
      String collationName,
      boolean byteCollation,
      boolean utf8,
      boolean[] nondictionary,
      boolean[] nonprinting,
      byte[] upper,
      byte decimalPoint,
      int thousandsSeparator,
      boolean separatorIgnored,
      byte[] radix,
      GnuMonths months,
      int trustedLevels,
      boolean tablesOwn,
      String failure) {
    this.handle = handle;
    this.name = name;
    this.collationName = collationName;
    this.byteCollation = byteCollation;
    this.utf8 = utf8;
    this.nondictionary = tablesOwn ? nondictionary : CLocale.NONDICTIONARY;
    this.nonprinting = tablesOwn ? nonprinting : CLocale.NONPRINTING;
    this.upper = tablesOwn ? upper : CLocale.UPPER;
    this.decimalPoint = decimalPoint;
    this.thousandsSeparator = thousandsSeparator;
    this.separatorIgnored = separatorIgnored;
    this.radix = radix;
    this.months = months;
    this.trustedLevels = trustedLevels;
    this.failure = failure;
  }

  /**
   * The locale GNU sort would use in an environment with these variables ({@code LC_ALL}, {@code
   * LC_COLLATE}, {@code LC_CTYPE}, {@code LC_NUMERIC}, {@code LC_TIME}, the other {@code LC_*}
   * categories and {@code LANG}): {@link #C} when they name no other, or when one of the locales
   * they name cannot be loaded ({@link #failed()} then says why).
   */
  public static TextLocale fromEnvironment(Map<String, String> environment) {
    Objects.requireNonNull(environment, "environment");
    String[] names = new String[CATEGORY_NAMES.length];
    boolean allC = true;
    for (int category : CATEGORIES) {
      String n = variable(environment, "LC_ALL");
      if (n == null) {
        n = variable(environment, CATEGORY_NAMES[category]);
      }
      if (n == null) {
        n = variable(environment, "LANG");
      }
      names[category] = n == null ? "C" : n;
      allC &= isCName(names[category]);
    }
    if (allC) {
      return C;
    }
    boolean builtIn = true;
    for (int category : CATEGORIES) {
      builtIn &= isCName(names[category]) || isCUtf8(names[category]);
    }
    if (builtIn) {
      // C and glibc's C.UTF-8 only: byte order, C's classes, numbers and months, known without
      // loading the C library's locales (or JNA, which unpacks its stub into the user's cache).
      return cLike(describe(names), names[LibC.LC_COLLATE], isCUtf8(names[LibC.LC_CTYPE]), null);
    }
    String key = String.join(";", Arrays.stream(names).map(String::valueOf).toList());
    return LOADED.computeIfAbsent(key, k -> load(names));
  }

  /**
   * The locale {@code name} for every category (as {@code LC_ALL=name}).
   *
   * @throws IllegalArgumentException if the C library has no such locale, or cannot be reached
   */
  public static TextLocale of(String name) {
    TextLocale l = fromEnvironment(Map.of("LC_ALL", Objects.requireNonNull(name, "name")));
    if (l.failed()) {
      throw new IllegalArgumentException(l.failure());
    }
    return l;
  }

  private static String variable(Map<String, String> env, String name) {
    String v = env.get(name);
    return v == null || v.isEmpty() ? null : v;
  }

  private static boolean isCName(String name) {
    return name.equals("C") || name.equals("POSIX");
  }

  /** glibc's C.UTF-8, however its codeset is spelled (C.UTF-8, C.utf8). */
  private static boolean isCUtf8(String name) {
    return name.startsWith("C.") && name.substring(2).replace("-", "").equalsIgnoreCase("utf8");
  }

  private static TextLocale load(String[] names) {
    String described = describe(names);
    if (LibC.UNAVAILABLE != null) {
      return failedC(described + ": " + LibC.UNAVAILABLE);
    }
    long handle = 0;
    for (int category : CATEGORIES) {
      long next = LibC.newlocale(1 << category, names[category], handle);
      if (next == 0) {
        if (handle != 0) {
          LibC.freelocale(handle);
        }
        return failedC(
            "the locale '"
                + names[category]
                + "' ("
                + CATEGORY_NAMES[category]
                + ") is not installed: sorting as in the C locale, as the C library does");
      }
      handle = next;
    }
    return fromHandle(handle, described, names[LibC.LC_COLLATE]);
  }

  private static TextLocale failedC(String why) {
    return cLocale(why);
  }

  /** The C locale, standing in for the one the environment asked for if {@code failure}. */
  private static TextLocale cLocale(String failure) {
    return cLike("C", "C", false, failure);
  }

  /** A locale with C's collation, classes, numbers and months, not loaded from the C library. */
  private static TextLocale cLike(String name, String collationName, boolean utf8, String failure) {
    return new TextLocale(
        0,
        name,
        collationName,
        true,
        utf8,
        CLocale.NONDICTIONARY,
        CLocale.NONPRINTING,
        CLocale.UPPER,
        (byte) '.',
        NO_SEPARATOR,
        false,
        new byte[] {'.'},
        null,
        0,
        false,
        failure);
  }

  private static String describe(String[] names) {
    String first = names[CATEGORIES[0]];
    boolean same = true;
    for (int c : CATEGORIES) {
      same &= names[c].equals(first);
    }
    if (same) {
      return first;
    }
    StringBuilder b = new StringBuilder();
    for (int c : CATEGORIES) {
      if (b.length() > 0) {
        b.append(';');
      }
      b.append(CATEGORY_NAMES[c]).append('=').append(names[c]);
    }
    return b.toString();
  }

  private static TextLocale fromHandle(long h, String name, String collationName) {
    boolean[] blank = new boolean[256];
    boolean[] nondictionary = new boolean[256];
    boolean[] nonprinting = new boolean[256];
    byte[] upper = new byte[256];
    for (int b = 0; b < 256; b++) {
      // GNU's inittables: blanks are isblank and newline; -d keeps alphanumerics and blanks.
      blank[b] = LibC.isblank_l(b, h) != 0 || b == '\n';
      nonprinting[b] = LibC.isprint_l(b, h) == 0;
      nondictionary[b] = LibC.isalnum_l(b, h) == 0 && !blank[b];
      upper[b] = (byte) LibC.toupper_l(b, h);
    }
    if (!Arrays.equals(blank, CLocale.BLANK)) {
      // Field splitting, -b and the blanks before numbers use the C locale's table throughout.
      throw new IllegalArgumentException(
          "the locale '" + name + "' has blank bytes other than space and tab: not supported");
    }
    boolean ownTables =
        !Arrays.equals(nondictionary, CLocale.NONDICTIONARY)
            || !Arrays.equals(nonprinting, CLocale.NONPRINTING)
            || !Arrays.equals(upper, CLocale.UPPER);
    byte[] radix = langinfo(h, LibC.RADIXCHAR);
    byte[] thousands = langinfo(h, LibC.THOUSEP);
    // GNU sort's reading of localeconv(): a decimal point of more than one byte is '.', a
    // thousands separator of more than one byte is none (and --debug says it is not supported).
    byte point = radix.length == 1 ? radix[0] : (byte) '.';
    int separator = thousands.length == 1 ? thousands[0] & 0xFF : NO_SEPARATOR;
    boolean ignored = thousands.length > 1;
    String codeset = new String(langinfo(h, LibC.CODESET), StandardCharsets.ISO_8859_1);
    boolean utf8 = codeset.replace("-", "").toLowerCase(Locale.ROOT).equals("utf8");
    GnuMonths months = GnuMonths.of(h, blank, upper);
    boolean byteCollation = isCName(collationName) || isCodePointCollation(h, collationName);
    return new TextLocale(
        h,
        name,
        collationName,
        byteCollation,
        utf8,
        nondictionary,
        nonprinting,
        upper,
        point,
        separator,
        ignored,
        radix.length == 0 ? new byte[] {'.'} : radix,
        months.isC() ? null : months,
        1,
        ownTables,
        null);
  }

  /**
   * glibc's {@code C.UTF-8} collates by code point, which is byte order for UTF-8 (its {@code
   * strxfrm} copies): checked on probes, so that a locale of that name that does otherwise takes
   * the {@code strxfrm} path.
   */
  private static boolean isCodePointCollation(long h, String collationName) {
    if (!collationName.startsWith("C.")) {
      return false;
    }
    byte[][] probes = {
      "a".getBytes(StandardCharsets.ISO_8859_1),
      "Zz\u0001~".getBytes(StandardCharsets.ISO_8859_1),
      {(byte) 0xC3, (byte) 0xA9, 'A', (byte) 0xFF, (byte) 0x80, 'b'},
      {(byte) 0xE6, (byte) 0x97, (byte) 0xA5, ' ', '9'}
    };
    for (byte[] p : probes) {
      if (!Arrays.equals(Strxfrm.transform(h, p), p)) {
        return false;
      }
    }
    return true;
  }

  private static byte[] langinfo(long h, int item) {
    long s = LibC.nl_langinfo_l(item, h);
    return s == 0 ? new byte[0] : Strxfrm.bytesAt(s, (int) LibC.strlen(s));
  }

  /** The {@code locale_t} handle; 0 for the C locale. */
  long handle() {
    return handle;
  }

  /**
   * The {@code locale_t} whose {@code LC_CTYPE} reads characters (GNU's {@code --debug} widths):
   * {@link #handle()}, or, for glibc's C.UTF-8 known without the C library, its C.UTF-8 loaded now,
   * so that only a sort that prints widths loads JNA; 0 for the C locale or where there is no C
   * library to load it from.
   */
  long ctypeHandle() {
    if (handle != 0 || !utf8) {
      return handle;
    }
    long h = cUtf8Ctype;
    if (h == 0 && LibC.UNAVAILABLE == null) {
      synchronized (TextLocale.class) {
        h = cUtf8Ctype;
        if (h == 0) {
          h = LibC.newlocale(1 << LibC.LC_CTYPE, "C.UTF-8", 0);
          cUtf8Ctype = h;
        }
      }
    }
    return h;
  }

  /**
   * Whether this locale orders and classifies text as the C locale does: its collation is byte
   * order (C, POSIX, C.UTF-8), its classes and upper case are ASCII's, its decimal point is {@code
   * .} with no thousands separator, and its month names are JAN to DEC.
   */
  public boolean cEquivalent() {
    return byteCollation
        && nondictionary == CLocale.NONDICTIONARY
        && decimalPoint == '.'
        && thousandsSeparator == NO_SEPARATOR
        && !separatorIgnored
        && Arrays.equals(radix, new byte[] {'.'})
        && months == null;
  }

  /** Whether text keys are ordered by bytes (LC_COLLATE is C, POSIX or C.UTF-8). */
  public boolean byteCollation() {
    return byteCollation;
  }

  /**
   * The name of the collation's locale ({@code LC_COLLATE}) as the environment gave it, for GNU's
   * "text ordering performed using ... sorting rules"; GNU prints "simple byte comparison" where
   * this is C or POSIX ({@link #hardCollation()} false).
   */
  public String collationName() {
    return collationName;
  }

  /**
   * Whether GNU sort counts the collation's locale as one of its own ({@code hard_locale}): any
   * name but C and POSIX, even C.UTF-8, which collates by bytes.
   */
  public boolean hardCollation() {
    return !isCName(collationName);
  }

  /** Whether the character set ({@code LC_CTYPE}) is UTF-8, where GNU quotes with ‘ and ’. */
  public boolean utf8() {
    return utf8;
  }

  /**
   * Whether the environment asked for a locale that could not be loaded, and this C locale stands
   * in for it (GNU's {@code --debug} then says "failed to set locale").
   */
  public boolean failed() {
    return failure != null;
  }

  /**
   * Whether the locale the environment asked for could not be loaded because this system has no GNU
   * C library to load it from (not Linux), rather than because it is not installed: GNU sort would
   * have sorted in it.
   */
  public boolean unsupported() {
    return failure != null && LibC.UNAVAILABLE != null;
  }

  /** Why the locale the environment asked for could not be loaded, or null. */
  public String failure() {
    return failure;
  }

  /**
   * The locale's {@code strxfrm} of {@code text}: bytes whose unsigned order is {@code strcoll}'s
   * order of the texts; {@code text} itself for a locale that collates by bytes. {@code text} must
   * not hold a NUL byte (C strings end there).
   *
   * @throws IllegalArgumentException if {@code text} holds a NUL byte
   */
  public byte[] transform(byte[] text) {
    for (byte b : text) {
      if (b == 0) {
        throw new IllegalArgumentException("a C string holds no NUL byte");
      }
    }
    return byteCollation ? text.clone() : Strxfrm.transform(handle, text);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TextLocale l
        && l.handle == handle
        && l.name.equals(name)
        && Objects.equals(l.failure, failure);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(handle) * 31 + name.hashCode();
  }

  /** The locale's names: one for all categories, or each category's. */
  @Override
  public String toString() {
    return name;
  }
}

package dev.joule.core.key;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns GNU sort's ordering options into a {@link SortKey}, as GNU does: each {@code -k
 * POS1[,POS2]} is a field; a key that carries no option letter of its own takes all the global ones
 * ({@code -b} then applies to both positions); with no {@code -k}, the global options (if any
 * besides {@code -r}) make one key over the whole line. {@code -t} sets every position's separator.
 *
 * <p>GNU rejects, and so does this, a key with more than one of {@code n g h M} and {@code V}/
 * {@code d}/{@code i} ({@code d} wins over {@code i}), a zero field number or POS1 character, and
 * stray characters. {@code -R} orders by GNU's salted MD5 of the key ({@link KeyType#gnuRandom}):
 * the caller reads the salt from the random source only when {@link #random} says a key needs it.
 *
 * <p>Left to the caller: the last-resort whole-line comparison (reversed by a global {@code -r})
 * unless {@code -s}; {@code -u}. With {@code -r} alone the returned key is the whole line
 * descending, which orders like GNU's reversed last resort.
 *
 * <p>Stateless and thread-safe.
 */
public final class GnuSortKeys {
  private static final String ORDERING = "bdfghiMnRrV";

  private GnuSortKeys() {}

  /**
   * The key of {@code sort [globalOptions] [-t separator] -k keys...} in the C locale, as current
   * GNU coreutils orders ({@link KeyType.GnuRelease#CURRENT}).
   *
   * @param globalOptions ordering letters given outside {@code -k}, e.g. {@code "nr"}
   * @param separator the {@code -t} byte, or {@link TextPosition#BLANK_SEPARATED}
   * @param keys the {@code -k} arguments in order, e.g. {@code "2,2n"}
   * @throws IllegalArgumentException as GNU would reject the options
   */
  public static SortKey parse(String globalOptions, int separator, List<String> keys) {
    return parse(globalOptions, separator, KeyType.GnuRelease.CURRENT, keys);
  }

  /** {@link #parse(String, int, List)} with the quirks of the given GNU release. */
  public static SortKey parse(
      String globalOptions, int separator, KeyType.GnuRelease release, List<String> keys) {
    return parse(globalOptions, separator, release, keys, null);
  }

  /**
   * {@link #parse(String, int, List)} where {@code -R} keys hash with {@code randomSalt}: the bytes
   * GNU reads from its random source (16 of them, from {@code --random-source=FILE} or the system's
   * random generator). It may be null when {@link #random} is false.
   */
  public static SortKey parse(
      String globalOptions,
      int separator,
      KeyType.GnuRelease release,
      List<String> keys,
      byte[] randomSalt) {
    Options global = global(globalOptions);
    List<KeyField> fields = new ArrayList<>();
    for (String spec : keys) {
      ParsedKey k = parseKey(spec, global, separator);
      fields.add(
          KeyField.of(KeyLocation.text(k.position()), k.letters().type(release, randomSalt))
              .withDescending(k.letters().reverse));
    }
    if (fields.isEmpty()) {
      TextPosition line = TextPosition.of(1, 1, global.skipStart, 0, 0, false);
      if (separator != TextPosition.BLANK_SEPARATED) {
        line = line.withSeparator(separator);
      }
      global.checkCompatible();
      KeyType type = global.type(release, randomSalt);
      KeyLocation where = global.skipStart ? KeyLocation.text(line) : KeyLocation.wholeRecord();
      fields.add(KeyField.of(where, type).withDescending(global.reverse));
    }
    return SortKey.of(fields);
  }

  /**
   * The order of {@code sort [globalOptions] [-t separator] -k keys... [-s] [-u]} in {@code
   * locale}, including GNU's last resort, for a sort that keeps equal lines in input order ({@code
   * LastResort.NONE}, a stable sort): each key's type as GNU has it in the locale ({@link
   * KeyType#inLocale}, {@code -R} hashing with {@code randomSalt} as in {@link #parse(String, int,
   * KeyType.GnuRelease, List, byte[])}); then, unless {@code stable} or {@code unique} (and always
   * when GNU has no key: no {@code -k} and no global letter but {@code -r}), the whole line
   * collated in the locale, descending under a global {@code -r}. Lines the collation calls equal,
   * as GNU's {@code xmemcoll0} can, stay in input order, as in GNU's stable merge sort.
   *
   * <p>In a locale that collates by bytes the last resort is the engine's ({@code
   * LastResort.ASCENDING} or {@code DESCENDING}, D23), and this is {@link #parse(String, int,
   * KeyType.GnuRelease, List, byte[])} with the locale's types.
   *
   * @throws IllegalArgumentException as GNU would reject the options
   */
  public static SortKey parse(
      String globalOptions,
      int separator,
      KeyType.GnuRelease release,
      List<String> keys,
      byte[] randomSalt,
      TextLocale locale,
      boolean stable,
      boolean unique) {
    Options global = global(globalOptions);
    boolean keyList = !keys.isEmpty() || global.ordersOwnWay();
    List<KeyField> fields = new ArrayList<>();
    if (keyList || locale.byteCollation()) {
      for (KeyField f : parse(globalOptions, separator, release, keys, randomSalt).fields()) {
        fields.add(
            KeyField.of(f.location(), f.type().inLocale(locale)).withDescending(f.descending()));
      }
    }
    if (!locale.byteCollation() && (!keyList || !(stable || unique))) {
      fields.add(
          KeyField.of(KeyLocation.wholeRecord(), KeyType.collated(locale))
              .withDescending(global.reverse));
    }
    return SortKey.of(fields);
  }

  /**
   * Whether any key of these options orders by {@code -R} (its own letter, or the global one it
   * inherits): then, and only then, GNU reads its random source.
   *
   * @throws IllegalArgumentException as {@link #parse} would for a bad key
   */
  public static boolean random(String globalOptions, int separator, List<String> keys) {
    Options global = global(globalOptions);
    if (keys.isEmpty()) {
      return global.random;
    }
    for (String spec : keys) {
      if (parseKey(spec, global, separator).letters().random) {
        return true;
      }
    }
    return false;
  }

  /** The global ordering letters, e.g. {@code "nr"}, as options. */
  static Options global(String globalOptions) {
    Options global = new Options();
    for (int i = 0; i < globalOptions.length(); i++) {
      char c = globalOptions.charAt(i);
      if (ORDERING.indexOf(c) < 0) {
        throw new IllegalArgumentException("unsupported ordering option -" + c);
      }
      global.set(c, true, true);
    }
    return global;
  }

  /**
   * A {@code -k} key as GNU holds it: where it is (with {@code -t} applied), and its letters: its
   * own, or all the global ones when it has none.
   */
  record ParsedKey(TextPosition position, Options letters) {}

  static ParsedKey parseKey(String spec, Options global, int separator) {
    Cursor c = new Cursor(spec);
    int startField = c.number("invalid number at field start");
    if (startField == 0) {
      throw bad(spec, "field number is zero");
    }
    int startChar = 1;
    if (c.peek() == '.') {
      c.next();
      startChar = c.number("invalid number after '.'");
      if (startChar == 0) {
        throw bad(spec, "character offset is zero");
      }
    }
    Options own = new Options();
    c.options(own, true);
    int endField = 0;
    int endChar = 0;
    if (c.peek() == ',') {
      c.next();
      endField = c.number("invalid number after ','");
      if (endField == 0) {
        throw bad(spec, "field number is zero");
      }
      if (c.peek() == '.') {
        c.next();
        endChar = c.number("invalid number after '.'");
      }
      c.options(own, false);
    }
    if (!c.done()) {
      throw bad(spec, "stray character in field spec");
    }
    Options o = own.any ? own : global;
    o.checkCompatible();
    TextPosition pos =
        TextPosition.of(
            startField, startChar, o.skipStart, endField, endChar, o.skipEnd && endField != 0);
    if (separator != TextPosition.BLANK_SEPARATED) {
      pos = pos.withSeparator(separator);
    }
    return new ParsedKey(pos, o);
  }

  private static IllegalArgumentException bad(String spec, String why) {
    return new IllegalArgumentException(why + ": invalid field specification '" + spec + "'");
  }

  /** The ordering letters of one key, or the global ones. */
  static final class Options {
    boolean any;
    boolean skipStart;
    boolean skipEnd;
    boolean dictionary;
    boolean nonprinting;
    boolean fold;
    boolean numeric;
    boolean general;
    boolean human;
    boolean month;
    boolean version;
    boolean random;
    boolean reverse;

    void set(char c, boolean start, boolean end) {
      any = true;
      switch (c) {
        case 'b':
          skipStart |= start;
          skipEnd |= end;
          break;
        case 'd':
          dictionary = true;
          break;
        case 'i':
          nonprinting = true;
          break;
        case 'f':
          fold = true;
          break;
        case 'n':
          numeric = true;
          break;
        case 'g':
          general = true;
          break;
        case 'h':
          human = true;
          break;
        case 'M':
          month = true;
          break;
        case 'V':
          version = true;
          break;
        case 'R':
          random = true;
          break;
        case 'r':
          reverse = true;
          break;
        default:
          throw new AssertionError(c);
      }
    }

    void checkCompatible() {
      int kinds =
          (numeric ? 1 : 0)
              + (general ? 1 : 0)
              + (human ? 1 : 0)
              + (month ? 1 : 0)
              + (version || random || dictionary || nonprinting ? 1 : 0);
      if (kinds > 1) {
        // GNU's message lists the key's letters in its own order, without b and r.
        StringBuilder o = new StringBuilder();
        o.append(dictionary ? "d" : "").append(fold ? "f" : "").append(general ? "g" : "");
        o.append(human ? "h" : "").append(nonprinting && !dictionary ? "i" : "");
        o.append(month ? "M" : "").append(numeric ? "n" : "").append(random ? "R" : "");
        o.append(version ? "V" : "");
        throw new IllegalArgumentException("options '-" + o + "' are incompatible");
      }
    }

    /** Whether any letter but {@code r} is set: GNU's key that is not its default comparison. */
    boolean ordersOwnWay() {
      return skipStart
          || skipEnd
          || dictionary
          || nonprinting
          || fold
          || numeric
          || general
          || human
          || month
          || random
          || version;
    }

    /** Numeric: {@code -n}, {@code -g} or {@code -h}. */
    boolean numericKind() {
      return numeric || general || human;
    }

    KeyType.Ignore ignore() {
      return dictionary
          ? KeyType.Ignore.NONDICTIONARY
          : nonprinting ? KeyType.Ignore.NONPRINTING : KeyType.Ignore.NONE;
    }

    KeyType type(KeyType.GnuRelease release, byte[] randomSalt) {
      if (numeric) {
        return KeyType.gnuNumeric(release);
      }
      if (general) {
        return KeyType.gnuGeneralNumeric(release);
      }
      if (human) {
        return KeyType.gnuHumanNumeric(fold, release);
      }
      if (month) {
        return KeyType.gnuMonth();
      }
      if (version) {
        return KeyType.gnuVersion(fold, ignore(), release);
      }
      if (random) {
        if (randomSalt == null) {
          throw new IllegalArgumentException("-R needs the random source's salt");
        }
        return KeyType.gnuRandom(randomSalt, fold, ignore());
      }
      return KeyType.text(fold, ignore());
    }
  }

  private static final class Cursor {
    private final String s;
    private int i;

    Cursor(String s) {
      this.s = s;
    }

    char peek() {
      return i < s.length() ? s.charAt(i) : 0;
    }

    void next() {
      i++;
    }

    boolean done() {
      return i == s.length();
    }

    int number(String why) {
      int start = i;
      long v = 0;
      while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
        // GNU saturates huge counts; so does this, at a value no line reaches.
        v = Math.min(Integer.MAX_VALUE, v * 10 + s.charAt(i) - '0');
        i++;
      }
      if (i == start) {
        throw new IllegalArgumentException(
            why + ": invalid count at start of '" + s.substring(start) + "'");
      }
      return (int) v;
    }

    void options(Options o, boolean start) {
      while (i < s.length() && ORDERING.indexOf(s.charAt(i)) >= 0) {
        o.set(s.charAt(i), start, !start);
        i++;
      }
    }
  }
}

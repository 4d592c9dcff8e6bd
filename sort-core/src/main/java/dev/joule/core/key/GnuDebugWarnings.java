package dev.joule.core.key;

import java.util.ArrayList;
import java.util.List;

/**
 * The warnings of GNU sort's {@code --debug} about its options, in the C locale and in GNU's order
 * (coreutils 9.1's wording, without the program name): the collation; per key a zero width, leading
 * blanks that count, a numeric key over several fields; a field separator that is part of numbers;
 * the decimal point; global letters that no key uses; a global {@code -r} that only reverses the
 * last resort. Stateless.
 */
final class GnuDebugWarnings {
  private GnuDebugWarnings() {}

  /**
   * The warnings for the keys at {@code positions} (null: the whole line, a key of the global
   * letters alone) with their letters.
   *
   * @param globalOnly the one key is the global letters' (no {@code -k})
   * @param noLastResort {@code -s} or {@code -u}
   */
  static List<String> of(
      List<TextPosition> positions,
      List<GnuSortKeys.Options> letters,
      GnuSortKeys.Options global,
      int separator,
      boolean globalOnly,
      boolean noLastResort,
      TextLocale locale) {
    List<String> w = new ArrayList<>();
    if (locale.failed()) {
      w.add("failed to set locale");
    }
    w.add(
        locale.hardCollation()
            ? "text ordering performed using "
                + quote(locale, locale.collationName())
                + " sorting rules"
            : "text ordering performed using simple byte comparison");
    boolean basic = false;
    boolean general = false;
    boolean basicSpan = false;
    boolean generalSpan = false;
    Unused unused = new Unused(global);
    for (int i = 0; i < positions.size(); i++) {
      TextPosition pos = positions.get(i);
      GnuSortKeys.Options o = letters.get(i);
      int number = i + 1;
      if (o.numericKind()) {
        basic |= !o.general;
        general |= o.general;
      }
      boolean fromLineStart = pos == null || (pos.startField() == 1 && pos.startChar() == 1);
      boolean zeroWidth =
          !fromLineStart && pos.endField() != 0 && pos.endField() < pos.startField();
      if (zeroWidth) {
        w.add("key " + number + " has zero width and will be ignored");
      }
      if (!zeroWidth && !globalOnly && separator == TextPosition.BLANK_SEPARATED) {
        boolean lineOffset = pos.endField() == 1 && pos.endChar() != 0; // -k1.x,1.y
        boolean implicitSkip = o.numericKind() || o.month;
        if (!lineOffset
            && ((!o.skipStart && (!implicitSkip || pos.startChar() > 1))
                || (!o.skipEnd && pos.endChar() != 0))) {
          w.add(
              "leading blanks are significant in key " + number + "; consider also specifying 'b'");
        }
      }
      if (!globalOnly
          && o.numericKind()
          && (pos.endField() == 0 || pos.startField() < pos.endField())) {
        w.add("key " + number + " is numeric and spans multiple fields");
        generalSpan |= o.general;
        basicSpan |= !o.general;
      }
      unused.usedBy(o);
    }
    // GNU's tab (an int: the -t byte, or TAB_DEFAULT) against the locale's decimal point (a char)
    // and thousands separator (a char, or NON_CHAR when the locale has none of one byte).
    int point = locale.decimalPoint;
    int thousands = locale.thousandsSeparator;
    boolean blankSeparated = separator == TextPosition.BLANK_SEPARATED;
    boolean pointWarned = false;
    if (basicSpan
        && (blankSeparated
            ? thousands != TextLocale.NO_SEPARATOR && isBlank(thousands)
            : separator == thousands)) {
      w.add(
          "field separator "
              + quote(locale, (char) thousands)
              + " is treated as a group separator in numbers");
      pointWarned = true;
    }
    if (basicSpan || generalSpan) {
      // GNU tests the thousands separator's existence here too, then the point's blankness.
      if (blankSeparated
          ? thousands != TextLocale.NO_SEPARATOR && isBlank(point)
          : separator == point) {
        w.add(
            "field separator "
                + quote(locale, (char) point)
                + " is treated as a decimal point in numbers");
        pointWarned = true;
      } else if (separator == '-') {
        w.add("field separator " + quote(locale, '-') + " is treated as a minus sign in numbers");
      } else if (generalSpan && separator == '+') {
        w.add("field separator " + quote(locale, '+') + " is treated as a plus sign in numbers");
      }
    }
    if ((basic || general) && !pointWarned) {
      // Not a note where the separator is the decimal point: then it is the thing to know.
      w.add(
          (separator == point ? "" : "note ")
              + "numbers use "
              + quote(locale, (char) point)
              + " as a decimal point in this locale");
    }
    if (basic && locale.separatorIgnored) {
      w.add("the multi-byte number group separator in this locale is not supported");
    }
    boolean keys = !positions.isEmpty();
    if (unused.any() || (unused.reverse && noLastResort && keys)) {
      String opts = unused.letters(noLastResort);
      w.add(
          opts.length() == 1
              ? "option '-" + opts + "' is ignored"
              : "options '-" + opts + "' are ignored");
    }
    if (unused.reverse && !noLastResort && keys) {
      w.add("option '-r' only applies to last-resort comparison");
    }
    return List.copyOf(w);
  }

  /** C {@code isblank}: space and tab (the same in every locale of the GNU C library). */
  private static boolean isBlank(int c) {
    return c == ' ' || c == '\t';
  }

  /**
   * GNU's {@code quote}: in single quotes, or in ‘ and ’ where the locale's character set is UTF-8.
   */
  static String quote(TextLocale locale, String s) {
    return locale.utf8() ? "\u2018" + s + "\u2019" : "'" + s + "'";
  }

  private static String quote(TextLocale locale, char c) {
    return quote(locale, String.valueOf(c));
  }

  /** The global letters that no key has taken or has of its own. */
  private static final class Unused {
    boolean skipStart;
    boolean skipEnd;
    KeyType.Ignore ignore;
    boolean fold;
    boolean general;
    boolean human;
    boolean month;
    boolean numeric;
    boolean random;
    boolean reverse;
    boolean version;

    Unused(GnuSortKeys.Options g) {
      skipStart = g.skipStart;
      skipEnd = g.skipEnd;
      ignore = g.ignore();
      fold = g.fold;
      general = g.general;
      human = g.human;
      month = g.month;
      numeric = g.numeric;
      random = g.random;
      reverse = g.reverse;
      version = g.version;
    }

    void usedBy(GnuSortKeys.Options k) {
      if (ignore != KeyType.Ignore.NONE && ignore == k.ignore()) {
        ignore = KeyType.Ignore.NONE;
      }
      fold &= !k.fold;
      skipStart &= !k.skipStart;
      skipEnd &= !k.skipEnd;
      month &= !k.month;
      numeric &= !k.numeric;
      general &= !k.general;
      human &= !k.human;
      random &= !k.random;
      version &= !k.version;
      reverse &= !k.reverse;
    }

    /** Any letter but {@code r}. */
    boolean any() {
      return skipStart
          || skipEnd
          || ignore != KeyType.Ignore.NONE
          || fold
          || general
          || human
          || month
          || numeric
          || random
          || version;
    }

    /** GNU's spelling of the letters, in its order; {@code r} only if {@code withReverse}. */
    String letters(boolean withReverse) {
      StringBuilder b = new StringBuilder();
      b.append(skipStart || skipEnd ? "b" : "");
      b.append(ignore == KeyType.Ignore.NONDICTIONARY ? "d" : "");
      b.append(fold ? "f" : "").append(general ? "g" : "").append(human ? "h" : "");
      b.append(ignore == KeyType.Ignore.NONPRINTING ? "i" : "");
      b.append(month ? "M" : "").append(numeric ? "n" : "").append(random ? "R" : "");
      b.append(reverse && withReverse ? "r" : "").append(version ? "V" : "");
      return b.toString();
    }
  }
}

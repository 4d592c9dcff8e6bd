package dev.joule.core.key;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * GNU sort's {@code --debug} in the C locale: the warnings it prints about the options before
 * sorting, and the annotation it prints under each output line, which marks the extent of every key
 * and of the last-resort comparison.
 *
 * <p>A key is marked by spaces up to where it starts and underscores as wide as it is, or by {@code
 * ^ no match for key} where it starts when it is empty. Widths are display columns: printable bytes
 * and bytes from 0x80 take one, other control bytes none, and a tab one (the line itself is shown
 * with each tab as {@code >}). A key's extent is GNU's: from its start field to its end field
 * ({@link TextFields}); for numeric and month keys, and for {@code b} on a key from the start of
 * the line, only what the comparison reads: after the leading blanks, the number (with a sign, a
 * fraction, the unit of {@code -h}; what {@code strtold} accepts for {@code -g}), or the month's
 * three letters. After the keys, unless {@code -s} or {@code -u}, the whole line is marked for the
 * last-resort comparison; with no key at all, only the whole line.
 *
 * <p>Immutable and thread-safe.
 */
public final class GnuDebug {
  private static final byte[] NO_MATCH = "^ no match for key\n".getBytes(StandardCharsets.US_ASCII);

  private final List<Marked> keys;
  private final boolean lastResort;
  private final List<String> warnings;
  private final TextLocale locale;

  /** One key to mark: its position, or null for the whole line (a key of global letters). */
  private record Marked(TextPosition position, GnuSortKeys.Options letters) {}

  private GnuDebug(
      List<Marked> keys, boolean lastResort, List<String> warnings, TextLocale locale) {
    this.keys = keys;
    this.lastResort = lastResort;
    this.warnings = warnings;
    this.locale = locale;
  }

  /**
   * The debug view of {@code sort [globalOptions] [-t separator] -k keys... [-s] [-u]}.
   *
   * @throws IllegalArgumentException as {@link GnuSortKeys#parse} would
   */
  public static GnuDebug of(
      String globalOptions, int separator, List<String> keySpecs, boolean stable, boolean unique) {
    return of(globalOptions, separator, keySpecs, stable, unique, TextLocale.C);
  }

  /**
   * The debug view of those options in {@code locale}: its collation named, its decimal point and
   * thousands separator in the warnings, its numbers, months and display widths in the marks.
   *
   * @throws IllegalArgumentException as {@link GnuSortKeys#parse} would
   */
  public static GnuDebug of(
      String globalOptions,
      int separator,
      List<String> keySpecs,
      boolean stable,
      boolean unique,
      TextLocale locale) {
    GnuSortKeys.Options global = GnuSortKeys.global(globalOptions);
    List<Marked> keys = new ArrayList<>();
    for (String spec : keySpecs) {
      GnuSortKeys.ParsedKey k = GnuSortKeys.parseKey(spec, global, separator);
      keys.add(new Marked(k.position(), k.letters()));
    }
    boolean globalOnly = keys.isEmpty() && global.ordersOwnWay();
    if (globalOnly) {
      global.checkCompatible();
      keys.add(new Marked(null, global));
    }
    boolean noLastResort = stable || unique;
    List<String> warnings =
        GnuDebugWarnings.of(
            keys.stream().map(Marked::position).toList(),
            keys.stream().map(Marked::letters).toList(),
            global,
            separator,
            globalOnly,
            noLastResort,
            locale);
    return new GnuDebug(List.copyOf(keys), !noLastResort || keys.isEmpty(), warnings, locale);
  }

  /**
   * What GNU prints to standard error before sorting, without its program name: the collation used,
   * then its warnings about keys and options.
   */
  public List<String> warnings() {
    return warnings;
  }

  /**
   * Appends to {@code out} the line of {@code length} bytes at {@code offset} of {@code line}
   * (without its delimiter) as GNU shows it, tabs as {@code >} and ended by a newline whatever the
   * delimiter, then its annotation lines.
   *
   * @throws IOException as {@code out} throws it
   */
  public void annotate(ByteBuffer line, int offset, int length, OutputStream out)
      throws IOException {
    for (int i = 0; i < length; i++) {
      byte b = line.get(offset + i);
      out.write(b == '\t' ? '>' : b);
    }
    out.write('\n');
    for (Marked k : keys) {
      long extent = extent(k, line, offset, length, locale);
      mark(line, offset, (int) (extent >>> 32), (int) extent, out);
    }
    if (lastResort) {
      mark(line, offset, 0, length, out);
    }
  }

  /** GNU's extent of key {@code k} in the line, packed as {@code (start << 32) | end}. */
  private static long extent(Marked k, ByteBuffer line, int offset, int length, TextLocale locale) {
    TextPosition pos = k.position();
    GnuSortKeys.Options o = k.letters();
    boolean fromLineStart = pos == null || (pos.startField() == 1 && pos.startChar() == 1);
    int beg = fromLineStart ? 0 : TextFields.start(line, offset, length, pos);
    int lim =
        pos == null || pos.endField() == 0 ? length : TextFields.limit(line, offset, length, pos);
    if ((o.skipStart && fromLineStart) || o.month || o.numericKind()) {
      // GNU ends the key's text at its limit and skips blanks from its start: past a limit
      // before the start, to the end of the line.
      int stop = lim >= beg ? lim : length;
      while (beg < stop && CLocale.BLANK[line.get(offset + beg) & 0xFF]) {
        beg++;
      }
      if (lim >= beg) {
        lim = tightLimit(o, line, offset, beg, lim, locale);
      }
    }
    return ((long) beg << 32) | Math.max(beg, lim);
  }

  /** The end of what a numeric or month key reads in {@code [beg, lim)}; {@code beg} if nothing. */
  private static int tightLimit(
      GnuSortKeys.Options o, ByteBuffer line, int offset, int beg, int lim, TextLocale locale) {
    if (o.month) {
      if (locale.months != null) {
        long m = locale.months.find(line, offset + beg, offset + lim);
        return (m & 0xFF) != 0 ? (int) (m >>> 8) - offset : beg;
      }
      return GnuNumbers.month(line, offset + beg, offset + lim) != 0 ? beg + 3 : beg;
    }
    if (o.general) {
      return GnuGeneralNumeric.end(line, offset + beg, offset + lim, locale.radix[0]) - offset;
    }
    if (o.numeric || o.human) {
      int from = beg < lim && line.get(offset + beg) == '-' ? beg + 1 : beg;
      GnuNumbers.Conventions numbers = GnuNumbers.Conventions.of(locale, false, false);
      int p = GnuNumbers.digitsEnd(line, offset + from, offset + lim, numbers) - offset;
      boolean digits = false;
      for (int i = from; i < p && !digits; i++) {
        digits = CLocale.isDigit(line.get(offset + i));
      }
      if (!digits) {
        return beg;
      }
      return o.human && p < lim && GnuNumbers.unitOrder(line.get(offset + p)) != 0 ? p + 1 : p;
    }
    return lim; // b on a key from the line's start: only the blanks go
  }

  private void mark(ByteBuffer line, int offset, int beg, int end, OutputStream out)
      throws IOException {
    for (int i = DisplayWidth.columns(line, offset, offset + beg, locale); i > 0; i--) {
      out.write(' ');
    }
    int width = DisplayWidth.columns(line, offset + beg, offset + end, locale);
    if (width == 0) {
      out.write(NO_MATCH);
      return;
    }
    for (int i = 0; i < width; i++) {
      out.write('_');
    }
    out.write('\n');
  }
}

package dev.joule.cli;

import dev.joule.core.key.GnuDebug;
import dev.joule.core.key.GnuSortKeys;
import dev.joule.core.key.KeyType;
import dev.joule.core.key.SortKey;
import dev.joule.core.key.TextLocale;
import dev.joule.core.key.TextPosition;
import dev.joule.core.record.LineFormat;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.LastResort;
import dev.joule.io.error.SortIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * GNU sort's ordering options for text lines (a picocli mixin of {@code joule sort}), with GNU's
 * names and meaning in the C locale or the user's, and their translation into a {@link SortKey}, a
 * {@link LastResort} and a line format: the global letters apply to every {@code -k} without
 * letters of its own, GNU's last-resort whole-line comparison (reversed by a global {@code -r})
 * applies unless {@code -s} or {@code -u}, and {@code -u} keeps the first line of each run of equal
 * keys.
 *
 * <p>{@code -R} is GNU's: keys in the order of their salted MD5 digests, equal keys together, the
 * salt read from {@code --random-source} ({@link RandomSource}), so that the same source gives the
 * same order as GNU sort.
 */
public final class GnuOrdering {
  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  /** The command line that set these options: {@link DirectSort}'s, else picocli's model. */
  CommandContext context;

  @Option(
      names = {"-b", "--ignore-leading-blanks"},
      description = "Ignore leading blanks.")
  boolean blanks;

  @Option(
      names = {"-d", "--dictionary-order"},
      description = "Consider only blanks and alphanumeric characters.")
  boolean dictionary;

  @Option(
      names = {"-f", "--ignore-case"},
      description = "Fold lower case to upper case characters.")
  boolean fold;

  @Option(
      names = {"-g", "--general-numeric-sort"},
      description = "Compare according to general numerical value (floating point, as strtod).")
  boolean general;

  @Option(
      names = {"-i", "--ignore-nonprinting"},
      description = "Consider only printable characters.")
  boolean nonprinting;

  @Option(
      names = {"-M", "--month-sort"},
      description = "Compare (unknown) < 'JAN' < ... < 'DEC'.")
  boolean month;

  @Option(
      names = {"-h", "--human-numeric-sort"},
      description = "Compare human readable numbers (e.g., 2K 1G).")
  boolean human;

  @Option(
      names = {"-n", "--numeric-sort"},
      description = "Compare according to string numerical value.")
  boolean numeric;

  @Option(
      names = {"-R", "--random-sort"},
      description =
          "Shuffle, but group identical keys: order by a random hash of the keys. See shuf(1).")
  boolean random;

  @Option(
      names = "--random-source",
      paramLabel = "FILE",
      description =
          "Get random bytes from FILE (its first 16): the same FILE gives the same order, GNU"
              + " sort's own.")
  List<String> randomSources = new ArrayList<>();

  @Option(
      names = {"-r", "--reverse"},
      description = "Reverse the result of comparisons.")
  boolean reverse;

  @Option(
      names = "--sort",
      paramLabel = "WORD",
      description =
          "Sort according to WORD: general-numeric -g, human-numeric -h, month -M, numeric -n,"
              + " random -R, version -V.")
  List<String> sortWords = new ArrayList<>();

  @Option(
      names = {"-V", "--version-sort"},
      description = "Natural sort of (version) numbers within text.")
  boolean version;

  @Option(
      names = {"-k", "--key"},
      paramLabel = "KEYDEF",
      description = {
        "Sort via a key; KEYDEF gives location and type. Repeatable: later keys break ties of"
            + " earlier ones.",
        "KEYDEF is F[.C][OPTS][,F[.C][OPTS]] for start and stop position, where F is a field"
            + " number and C a character position in the field; both are origin 1, and the stop"
            + " position defaults to the line's end. OPTS is one or more single-letter ordering"
            + " options [bdfgiMhnRrV], which override global ordering options for that key."
      })
  List<String> keys = new ArrayList<>();

  @Option(
      names = {"-t", "--field-separator"},
      paramLabel = "SEP",
      description =
          "Use SEP instead of the non-blank to blank transition to split fields; '\\0' is NUL.")
  List<String> separators = new ArrayList<>();

  @Option(
      names = {"-s", "--stable"},
      description = "Stabilize sort by disabling last-resort comparison.")
  boolean stable;

  @Option(
      names = {"-u", "--unique"},
      description =
          "Output only the first of an equal run (with -c, check for strict ordering); also"
              + " disables the last-resort comparison.")
  boolean unique;

  @Option(
      names = {"-z", "--zero-terminated"},
      description = "Line delimiter is NUL, not newline.")
  boolean zeroTerminated;

  /** The line format: newline- or NUL-terminated. */
  LineFormat lineFormat() {
    return RecordFormat.lines(zeroTerminated ? (byte) 0 : (byte) '\n');
  }

  /** The global ordering letters, as GNU collects them (e.g. {@code "nr"}). */
  String globalLetters() {
    StringBuilder b = new StringBuilder();
    flag(b, blanks, 'b');
    flag(b, dictionary, 'd');
    flag(b, fold, 'f');
    flag(b, general, 'g');
    flag(b, human, 'h');
    flag(b, nonprinting, 'i');
    flag(b, month, 'M');
    flag(b, numeric, 'n');
    flag(b, random, 'R');
    flag(b, reverse, 'r');
    flag(b, version, 'V');
    for (String w : sortWords) {
      char c = sortWord(w);
      if (b.indexOf(String.valueOf(c)) < 0) {
        b.append(c);
      }
    }
    return b.toString();
  }

  /** Whether any option that applies to text lines only was given (for fixed records). */
  boolean anyTextOption() {
    return !keys.isEmpty()
        || !separators.isEmpty()
        || !globalLetters().replace("r", "").isEmpty()
        || zeroTerminated;
  }

  /**
   * The key of the lines in {@code locale} (with GNU's last resort in a locale that does not
   * collate by bytes, {@link GnuSortKeys#parse(String, int, KeyType.GnuRelease, List, byte[],
   * TextLocale, boolean, boolean)}); throws a usage error for options GNU would refuse, and reads
   * the salt of {@code -R} from the random source when a key needs it (as GNU does: only then).
   */
  SortKey key(TextLocale locale) throws SortIOException {
    String letters = globalLetters();
    int separator = separator();
    String source = randomSource();
    try {
      byte[] salt = null;
      if (GnuSortKeys.random(letters, separator, keys)) {
        // GNU refuses bad keys before it reads the random source: parse once with a stand-in salt
        parse(letters, separator, new byte[RandomSource.SALT_BYTES], locale);
        salt = RandomSource.salt(source);
      }
      return parse(letters, separator, salt, locale);
    } catch (IllegalArgumentException e) {
      throw context().usage(e.getMessage(), e);
    }
  }

  private SortKey parse(String letters, int separator, byte[] salt, TextLocale locale) {
    return GnuSortKeys.parse(
        letters, separator, KeyType.GnuRelease.CURRENT, keys, salt, locale, stable, unique);
  }

  /** The {@code --random-source} FILE, or null; GNU refuses two different ones. */
  private String randomSource() {
    if (randomSources.stream().distinct().count() > 1) {
      throw usage("multiple random sources specified");
    }
    return randomSources.isEmpty() ? null : randomSources.get(0);
  }

  /** GNU's {@code --debug} view of these options in {@code locale}: warnings and annotation. */
  GnuDebug debug(TextLocale locale) {
    try {
      return GnuDebug.of(globalLetters(), separator(), keys, stable, unique, locale);
    } catch (IllegalArgumentException e) {
      throw context().usage(e.getMessage(), e);
    }
  }

  /**
   * GNU's last resort: none with -s or -u, else the whole line, reversed by a global -r; in a
   * locale that does not collate by bytes it is part of {@link #key} and equal lines keep input
   * order.
   */
  LastResort lastResort(TextLocale locale) {
    if (stable || unique || !locale.byteCollation()) {
      return LastResort.NONE;
    }
    return reverse ? LastResort.DESCENDING : LastResort.ASCENDING;
  }

  /** The -t byte, or BLANK_SEPARATED; GNU's errors for an empty, multi-character or changed SEP. */
  private int separator() {
    int sep = TextPosition.BLANK_SEPARATED;
    for (String t : separators) {
      int c;
      if (t.isEmpty()) {
        throw usage("empty tab");
      } else if (t.equals("\\0")) {
        c = 0;
      } else if (t.length() == 1 && t.charAt(0) < 0x80) {
        c = t.charAt(0);
      } else if (t.length() == 1) {
        // The argument reached Java as a decoded character: its bytes in the file depend on the
        // locale's charset, so there is no one byte to split on (docs: -t takes ASCII).
        throw usage("the field separator must be an ASCII character or '\\0', not '" + t + "'");
      } else {
        throw usage("multi-character tab '" + t + "'");
      }
      if (sep != TextPosition.BLANK_SEPARATED && sep != c) {
        throw usage("incompatible tabs");
      }
      sep = c;
    }
    return sep;
  }

  private char sortWord(String w) {
    switch (w) {
      case "general-numeric":
        return 'g';
      case "human-numeric":
        return 'h';
      case "month":
        return 'M';
      case "numeric":
        return 'n';
      case "version":
        return 'V';
      case "random":
        return 'R';
      default:
        throw usage(
            String.format(
                Locale.ROOT,
                "invalid argument '%s' for '--sort'; valid arguments are 'general-numeric',"
                    + " 'human-numeric', 'month', 'numeric', 'random', 'version'",
                w));
    }
  }

  private RuntimeException usage(String message) {
    return context().usage(message, null);
  }

  private CommandContext context() {
    return context != null ? context : CommandContext.of(mixee);
  }

  private static void flag(StringBuilder b, boolean on, char c) {
    if (on) {
      b.append(c);
    }
  }
}

package dev.joule.cli;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Random {@code sort} invocations for {@link GnuSortDifferentialTest}: an argument list in GNU
 * sort's syntax and the input bytes it reads. Every choice comes from one seed, so a case number
 * and the run's seed are all it takes to replay a case.
 *
 * <p>The options are drawn first and the input second, biased towards the options: a field that a
 * {@code -k ...n} key reads holds numbers most of the time, so that the numeric comparison is what
 * decides the order and not a mismatch between content and key type. Content is drawn from small
 * vocabularies on purpose: ties between keys are where {@code -s}, {@code -u} and the last-resort
 * comparison differ, and random strings would almost never tie.
 */
final class GnuSortCaseGenerator {
  /** Stands for the directory of the side that runs the case; each side has its own copies. */
  static final String DIR = "@D/";

  /** The NUL-separated list of input names that {@code --files0-from} reads, in {@link #DIR}. */
  static final String FILES0 = "files0";

  /** How the input is used. */
  enum Mode {
    SORT,
    MERGE,
    CHECK,
    CHECK_QUIET
  }

  /**
   * Inputs to leave out because GNU coreutils releases order them differently and joule follows the
   * current release ({@code KeyType.GnuRelease.CURRENT}, docs/records-and-keys.md): against an
   * older GNU sort such as 9.1 (Debian 12) they would be documented differences, not bugs. The test
   * probes the GNU sort it runs and sets only what that one lacks.
   *
   * @param unitsRq {@code -h} units R and Q (9.1 knows units up to Y)
   * @param nans NaNs for {@code -g}: 9.1 orders two NaNs by memcmp of their long doubles, padding
   *     bytes included, which are whatever the stack held, so the order of two NaN lines depends on
   *     the other lines sorted with them (seen here: a pair ordered one way alone and the other way
   *     among 20 lines); current coreutils orders every -nan before every nan
   * @param byte80 byte 0x80 (9.1's {@code -n} and {@code -h} skip it among digits)
   * @param versionSuffix a {@code -V} key that is a file suffix as a whole ({@code .a~}), which 9.1
   *     orders differently
   */
  record Avoid(boolean unitsRq, boolean nans, boolean byte80, boolean versionSuffix) {
    static final Avoid NOTHING = new Avoid(false, false, false, false);

    boolean any() {
      return unitsRq || nans || byte80 || versionSuffix;
    }
  }

  /** What a field of a line holds; a key's ordering flag picks the kind of its field. */
  private enum Kind {
    WORD,
    INT,
    DECIMAL,
    FLOAT,
    HUMAN,
    MONTH,
    VERSION,
    ODD_BYTES,
    BLANKS
  }

  /** One generated case (a class, not a record: records should not hold arrays). */
  static final class Case {
    private final List<String> args;
    private final List<byte[]> files;
    private final byte[] stdin;
    private final List<String> ordering;
    private final boolean presort;
    private final Mode mode;
    private final String invalid;
    private final boolean files0;
    private Map<String, String> env = Map.of();

    /**
     * A case.
     *
     * @param args the arguments after {@code sort}, input files named {@code @D/in0},
     *     {@code @D/in1}
     * @param files the contents of {@code in0}, {@code in1}, ...
     * @param stdin what standard input holds (empty when nothing reads it)
     * @param ordering the ordering options alone (keys, flags, {@code -t}, {@code -z}, {@code -u}),
     *     to pre-sort the inputs of a merge or of a check that should pass
     * @param presort whether the inputs are to be pre-sorted with {@code ordering} by GNU sort
     * @param mode what the case does with the input
     * @param invalid what was made invalid on purpose, or null
     * @param files0 whether the inputs are named in {@code @D/files0} (every {@code in<i>}, in
     *     order, each followed by a NUL byte) instead of on the command line
     */
    Case(
        List<String> args,
        List<byte[]> files,
        byte[] stdin,
        List<String> ordering,
        boolean presort,
        Mode mode,
        String invalid,
        boolean files0) {
      this.args = List.copyOf(args);
      this.files = List.copyOf(files);
      this.stdin = stdin.clone();
      this.ordering = List.copyOf(ordering);
      this.presort = presort;
      this.mode = mode;
      this.invalid = invalid;
      this.files0 = files0;
    }

    List<String> args() {
      return args;
    }

    List<byte[]> files() {
      return files;
    }

    byte[] stdin() {
      return stdin.clone();
    }

    List<String> ordering() {
      return ordering;
    }

    boolean presort() {
      return presort;
    }

    Mode mode() {
      return mode;
    }

    String invalid() {
      return invalid;
    }

    boolean files0() {
      return files0;
    }

    /**
     * The locale variables both sides run with ({@code LC_ALL}, {@code LANG}, {@code LC_*}); empty
     * for {@code LC_ALL=C}.
     */
    Map<String, String> env() {
      return env;
    }
  }

  /**
   * A locale the cases are drawn for: its name (built by the test's setup), and what its text looks
   * like to GNU sort, as bytes in chars 0..255: its month abbreviations, decimal point and
   * thousands separator.
   *
   * @param name e.g. {@code de_DE.UTF-8}
   * @param months the twelve abbreviated month names, UTF-8
   * @param point the decimal point, UTF-8
   * @param thousands the thousands separator, UTF-8 (may be empty)
   */
  record LocaleText(String name, List<String> months, String point, String thousands) {}

  /** A file of more than 16 bytes that every JDK has, for {@code --random-source}. */
  private static final String RANDOM_SOURCE =
      java.nio.file.Path.of(System.getProperty("java.home"), "release").toString();

  /** A {@code -k} key: POS1 is {@code f1[.c1]}, POS2 {@code f2[.c2]} when f2 > 0. */
  private record Key(int f1, int c1, String flags1, int f2, int c2, String flags2) {
    /** GNU's obsolete spelling of this key: {@code +POS1 [-POS2]}, both counted from 0. */
    List<String> obsolete() {
      String start = "+" + (f1 - 1) + (c1 > 0 ? "." + (c1 - 1) : "") + flags1;
      if (f2 < 0) {
        return List.of(start);
      }
      String end = c2 > 0 ? "-" + (f2 - 1) + "." + c2 : "-" + f2;
      return List.of(start, end + flags2);
    }

    String spec() {
      StringBuilder s = new StringBuilder().append(f1);
      if (c1 > 0) {
        s.append('.').append(c1);
      }
      s.append(flags1);
      if (f2 >= 0) {
        s.append(',').append(f2);
        if (c2 >= 0) {
          s.append('.').append(c2);
        }
        s.append(flags2);
      }
      return s.toString();
    }

    String flags() {
      return flags1 + flags2;
    }
  }

  private static final String TYPES = "nghMVR";
  private static final List<String> SEPARATE_ARGUMENT =
      List.of("-k", "--key", "-t", "--field-separator", "-o", "--files0-from", "-S", "-T");
  private static final String[] MONTHS = {
    "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"
  };
  private static final String[] MONTH_ODDITIES = {
    "january", "Febr", "SEPT", "sept", "ju", "xjan", "maybe", "DECEMBER", "dec.", "M", ""
  };
  private static final String[] SPECIAL_FLOATS = {
    "nan",
    "NaN",
    "-nan",
    "NAN",
    "inf",
    "-inf",
    "+inf",
    "Inf",
    "infinity",
    "-Infinity",
    "infx",
    "0x1A",
    "0x1p4",
    "-0x.8",
    "0X10",
    "1e",
    "e5",
    "1e400",
    "-1e400",
    "1e-400",
    "0x",
    "+",
    "-"
  };
  private static final String HUMAN_SUFFIXES = "KkMGTPEZYRQ";
  private static final String[] VERSION_SUFFIXES = {
    "", "", "", "a", "b2", "~rc1", "~", "-beta", ".tar.gz", "_1", "+git", "~~", "-", "."
  };
  private static final String[] VERSION_PREFIXES = {"", "", "", "v", "V", "file-", "a", ".", "~"};
  private static final String WORD_CHARS = "aAbBzZ019 -_.,/@'~";
  private static final char[] SEPARATORS = {',', ',', ':', ':', '\t', ' ', '|', 'a', '.', '-'};
  private static final String[] LONG_FLAG = {
    "b", "--ignore-leading-blanks",
    "d", "--dictionary-order",
    "f", "--ignore-case",
    "g", "--general-numeric-sort",
    "h", "--human-numeric-sort",
    "i", "--ignore-nonprinting",
    "M", "--month-sort",
    "n", "--numeric-sort",
    "r", "--reverse",
    "V", "--version-sort",
    "R", "--random-sort",
    "s", "--stable",
    "u", "--unique",
  };

  private final SplittableRandom rnd;
  private final Avoid avoid;
  private final LocaleText locale; // null: the C locale

  /** Whether any ordering option of the case has V (set before the inputs are drawn). */
  private boolean versionSort;

  private GnuSortCaseGenerator(long seed, Avoid avoid, LocaleText locale) {
    this.rnd = new SplittableRandom(seed);
    this.avoid = avoid;
    this.locale = locale;
  }

  static Case generate(long seed, Avoid avoid) {
    return new GnuSortCaseGenerator(seed, avoid, null).build();
  }

  /**
   * A case in {@code locale}: Unicode text (accents, case, punctuation, digits, several scripts,
   * NUL bytes and invalid UTF-8), the locale's numbers and months, and its variables set one of
   * several ways ({@link #localeEnv}).
   */
  static Case generate(long seed, Avoid avoid, LocaleText locale) {
    GnuSortCaseGenerator g = new GnuSortCaseGenerator(seed, avoid, locale);
    Case c = g.build();
    c.env = g.localeEnv(c);
    return c;
  }

  /**
   * How the case's locale is set: {@code LC_ALL}, {@code LANG}, or {@code LC_COLLATE} and the other
   * categories one by one; now and then a locale that is not installed (GNU: the C locale) or
   * C.UTF-8. A case whose standard error is compared ({@code --debug}'s warnings, {@code -c}'s
   * report) keeps GNU's messages untranslated with {@code LC_MESSAGES=C}, which needs {@code
   * LC_ALL} unset.
   */
  private Map<String, String> localeEnv(Case c) {
    String name = locale.name();
    double p = rnd.nextDouble();
    if (p < 0.03) {
      name = "xx_XX.UTF-8"; // not installed: the whole locale is C, silently
    } else if (p < 0.06) {
      name = chance(0.5) ? "C.UTF-8" : "C.utf8";
    }
    boolean messages = c.args().contains("--debug") || c.mode() == Mode.CHECK;
    Map<String, String> env = new LinkedHashMap<>();
    double how = rnd.nextDouble();
    if (!messages && how < 0.4) {
      env.put("LC_ALL", name);
    } else if (how < 0.8) {
      env.put("LANG", name);
    } else {
      env.put("LANG", chance(0.5) ? "C" : "POSIX");
      for (String category : new String[] {"LC_COLLATE", "LC_CTYPE", "LC_NUMERIC", "LC_TIME"}) {
        if (chance(0.7)) {
          env.put(category, name);
        }
      }
      if (chance(0.05)) {
        env.put("LC_MONETARY", "xx_XX.UTF-8"); // one category missing: all of it is C
      }
    }
    if (messages || chance(0.5)) {
      env.put("LC_MESSAGES", "C");
    }
    return env;
  }

  private boolean chance(double p) {
    return rnd.nextDouble() < p;
  }

  private int between(int lo, int hi) {
    return rnd.nextInt(lo, hi + 1);
  }

  private <T> T pick(List<T> from) {
    return from.get(rnd.nextInt(from.size()));
  }

  private String pick(String[] from) {
    return from[rnd.nextInt(from.length)];
  }

  private char pick(String from) {
    return from.charAt(rnd.nextInt(from.length()));
  }

  private Case build() {
    double m = rnd.nextDouble();
    Mode mode =
        m < 0.74 ? Mode.SORT : m < 0.84 ? Mode.MERGE : m < 0.92 ? Mode.CHECK : Mode.CHECK_QUIET;
    boolean zero = chance(0.05);
    char term = zero ? '\0' : '\n';

    // -t: a NUL separator ('\0' on the command line) only in newline mode, so that it cannot be
    // the terminator too.
    Character sep = null;
    if (chance(0.55)) {
      sep = !zero && chance(0.02) ? '\0' : SEPARATORS[rnd.nextInt(SEPARATORS.length)];
    }

    List<Key> keys = new ArrayList<>();
    int nKeys = chance(0.25) ? 0 : between(1, 3);
    for (int i = 0; i < nKeys; i++) {
      keys.add(randomKey());
    }
    StringBuilder global = new StringBuilder();
    String globalType = globalFlags(global, !keys.isEmpty());
    versionSort = "V".equals(globalType) || keys.stream().anyMatch(k -> k.flags().contains("V"));
    if (versionSort && avoid.versionSuffix()) {
      // A key starting inside a field could start at ".tar": whole keys start at field starts.
      keys.replaceAll(k -> new Key(k.f1, 0, k.flags1, k.f2, k.c2, k.flags2));
    }

    // The ordering options first, in a random but valid spelling and order. An option with a
    // separate argument is a group of two words, and groups move as a whole. The keys keep the
    // order they get here, so ordering (which pre-sorts inputs) means what argv means.
    List<List<String>> groups = new ArrayList<>();
    emitFlags(groups, global.toString());
    if (globalType != null) {
      groups.add(emitType(globalType));
    }
    if (sep != null) {
      groups.add(emitSeparator(sep));
    }
    for (Key k : keys) {
      groups.add(chance(0.1) ? k.obsolete() : emitKey(k.spec()));
    }
    if ("R".equals(globalType) || keys.stream().anyMatch(k -> k.spec().contains("R"))) {
      // -R hashes with 16 bytes of this file: both sides read the same, so the order is GNU's
      groups.add(List.of("--random-source=" + RANDOM_SOURCE));
    }
    if (zero) {
      groups.add(List.of(chance(0.5) ? "-z" : "--zero-terminated"));
    }
    Collections.shuffle(groups, new java.util.Random(rnd.nextLong()));
    if (!groups.isEmpty() && chance(0.05)) {
      // GNU takes an option given twice (-r -r, -t, -t,, -k1 -k1) without complaint.
      groups.add(rnd.nextInt(groups.size() + 1), pick(groups));
    }
    List<String> ordering = new ArrayList<>();
    groups.forEach(ordering::addAll);

    // The inputs: files and perhaps standard input.
    Kind[] fieldKinds = fieldKinds(keys, global + (globalType == null ? "" : globalType));
    int nFiles = mode == Mode.SORT || mode == Mode.MERGE ? (chance(0.2) ? between(2, 3) : 1) : 1;
    List<byte[]> files = new ArrayList<>();
    List<String> operands = new ArrayList<>();
    byte[] stdin = new byte[0];
    boolean implicitStdin = chance(0.05);
    int stdinAt = implicitStdin ? -1 : chance(0.15) ? rnd.nextInt(nFiles) : -1;
    for (int i = 0; i < nFiles; i++) {
      byte[] content = input(fieldKinds, sep, term);
      if (implicitStdin) {
        stdin = content; // no operand at all: sort reads standard input
        break;
      }
      if (i == stdinAt) {
        stdin = content;
        operands.add("-");
      } else {
        operands.add(DIR + "in" + files.size());
        files.add(content);
      }
    }

    // The other options go in anywhere between the ordering groups.
    List<List<String>> extra = new ArrayList<>();
    boolean files0 = stdin.length == 0 && !operands.contains("-") && chance(0.04);
    if (files0 && !files.isEmpty()) {
      operands.clear(); // --files0-from allows no file operand
      extra.add(
          chance(0.5)
              ? List.of("--files0-from=" + DIR + FILES0)
              : List.of("--files0-from", DIR + FILES0));
    }
    files0 &= !files.isEmpty();
    switch (mode) {
      case MERGE:
        extra.add(List.of(chance(0.5) ? "-m" : "--merge"));
        break;
      case CHECK:
        extra.add(List.of(pick(new String[] {"-c", "--check", "--check=diagnose-first"})));
        break;
      case CHECK_QUIET:
        extra.add(List.of(pick(new String[] {"-C", "--check=quiet", "--check=silent"})));
        break;
      default:
        break;
    }
    boolean outputFile = mode != Mode.CHECK && mode != Mode.CHECK_QUIET && chance(0.06);
    if (outputFile) {
      // Sometimes onto an input, as GNU allows: its content is read before the output is written.
      String target = !files.isEmpty() && chance(0.3) ? DIR + "in0" : DIR + "out";
      extra.add(chance(0.5) ? List.of("-o", target) : List.of("--output=" + target));
    }
    if (chance(0.12)) {
      extra.add(List.of("--debug")); // annotated output; refused with -o, -c and -C
    }
    if (chance(0.05)) {
      extra.add(List.of("--parallel=" + between(1, 3)));
    }
    if (chance(0.03)) {
      extra.add(List.of("--batch-size=" + between(2, 5)));
    }
    if (chance(0.03)) {
      extra.add(List.of("-S", between(1, 64) + "M")); // a second -S after the harness's
    }
    if (!extra.isEmpty() && chance(0.05)) {
      extra.add(pick(extra));
    }
    for (List<String> g : extra) {
      groups.add(rnd.nextInt(groups.size() + 1), g);
    }

    // Options may follow the operands (GNU permutes them), and "--" ends the options.
    List<String> argv = new ArrayList<>();
    int cut = chance(0.7) ? groups.size() : rnd.nextInt(groups.size() + 1);
    groups.subList(0, cut).forEach(argv::addAll);
    if (cut == groups.size() && chance(0.1)) {
      argv.add("--");
    }
    argv.addAll(operands);
    groups.subList(cut, groups.size()).forEach(argv::addAll);

    String invalid = null;
    if (chance(0.06)) {
      invalid = makeInvalid(argv, keys, sep);
    }
    boolean presort = invalid == null && (mode == Mode.MERGE || (mode != Mode.SORT && chance(0.5)));
    return new Case(argv, files, stdin, ordering, presort, mode, invalid, files0);
  }

  /** A key with valid flags: at most one of n g h M and V-or-d-or-i, as GNU demands. */
  private Key randomKey() {
    int f1 = pickField();
    int c1 = chance(0.2) ? between(1, 4) : 0;
    int f2;
    int c2 = -1;
    double p = rnd.nextDouble();
    if (p < 0.25) {
      f2 = -1; // to the end of the line
    } else if (p < 0.8) {
      f2 = f1;
    } else if (p < 0.95) {
      f2 = f1 + between(1, 2);
    } else {
      f2 = Math.max(1, f1 - 1);
    }
    if (f2 >= 0 && chance(0.2)) {
      c2 = between(0, 4);
    }
    String flags = keyFlags(0.7);
    // Flags may follow POS1 or POS2 (b differs there: leading blanks of the start or the end).
    String flags1 = "";
    String flags2 = "";
    for (int ci = 0; ci < flags.length(); ci++) {
      char c = flags.charAt(ci);
      if (f2 >= 0 && chance(0.35)) {
        flags2 += c;
      } else {
        flags1 += c;
      }
    }
    return new Key(f1, c1, flags1, f2, c2, flags2);
  }

  private int pickField() {
    double p = rnd.nextDouble();
    return p < 0.4 ? 1 : p < 0.7 ? 2 : p < 0.9 ? 3 : between(4, 6);
  }

  /** Per-key flags, empty with probability 1 - pAny. */
  private String keyFlags(double pAny) {
    if (!chance(pAny)) {
      return "";
    }
    StringBuilder f = new StringBuilder();
    String type = typeOrNull(0.7);
    if (type != null) {
      f.append(type);
    }
    if (type == null || type.equals("V") || type.equals("R")) {
      if (chance(0.2)) {
        f.append('d');
      }
      if (chance(0.15)) {
        f.append('i');
      }
    }
    if (chance(0.3)) {
      f.append('b');
    }
    if (chance(0.2)) {
      f.append('f');
    }
    if (chance(0.3)) {
      f.append('r');
    }
    return shuffled(f.toString());
  }

  private String typeOrNull(double p) {
    return chance(p) ? String.valueOf(pick(TYPES)) : null;
  }

  private String shuffled(String s) {
    List<Character> cs = new ArrayList<>();
    for (int ci = 0; ci < s.length(); ci++) {
      char c = s.charAt(ci);
      cs.add(c);
    }
    Collections.shuffle(cs, new java.util.Random(rnd.nextLong()));
    StringBuilder b = new StringBuilder();
    cs.forEach(b::append);
    return b.toString();
  }

  /** Global flags into {@code out}; returns the global type letter or null. */
  private String globalFlags(StringBuilder out, boolean haveKeys) {
    // Without keys the global flags are the whole comparison, so they are likelier then.
    double p = haveKeys ? 0.12 : 0.3;
    String type = typeOrNull(haveKeys ? 0.2 : 0.45);
    for (int ci = 0; ci < "rusfbdi".length(); ci++) {
      char c = "rusfbdi".charAt(ci);
      boolean ordering = c == 'd' || c == 'i';
      if (ordering && type != null && !type.equals("V") && !type.equals("R")) {
        continue;
      }
      if (chance(c == 'r' || c == 'u' || c == 's' ? p * 1.8 : p)) {
        out.append(c);
      }
    }
    return type;
  }

  private void emitFlags(List<List<String>> out, String flags) {
    if (flags.isEmpty()) {
      return;
    }
    if (chance(0.4)) {
      out.add(List.of("-" + shuffled(flags))); // clustered: -rus
      return;
    }
    for (int ci = 0; ci < flags.length(); ci++) {
      char c = flags.charAt(ci);
      out.add(List.of(chance(0.25) ? longFlag(c) : "-" + c));
    }
  }

  private static String longFlag(char c) {
    for (int i = 0; i < LONG_FLAG.length; i += 2) {
      if (LONG_FLAG[i].charAt(0) == c) {
        return LONG_FLAG[i + 1];
      }
    }
    throw new IllegalArgumentException(String.valueOf(c));
  }

  private List<String> emitType(String type) {
    double p = rnd.nextDouble();
    if (p < 0.6) {
      return List.of("-" + type);
    } else if (p < 0.8) {
      return List.of(longFlag(type.charAt(0)));
    } else {
      String word =
          switch (type) {
            case "n" -> "numeric";
            case "g" -> "general-numeric";
            case "h" -> "human-numeric";
            case "M" -> "month";
            case "R" -> "random";
            default -> "version";
          };
      return List.of("--sort=" + word);
    }
  }

  private List<String> emitSeparator(char sep) {
    String s = sep == '\0' ? "\\0" : String.valueOf(sep);
    double p = rnd.nextDouble();
    if (p < 0.5) {
      return List.of("-t" + s);
    } else if (p < 0.8) {
      return List.of("-t", s);
    } else {
      return List.of("--field-separator=" + s);
    }
  }

  private List<String> emitKey(String spec) {
    double p = rnd.nextDouble();
    if (p < 0.5) {
      return List.of("-k" + spec);
    } else if (p < 0.8) {
      return List.of("-k", spec);
    } else {
      return List.of("--key=" + spec);
    }
  }

  /**
   * Breaks the argument list in one of the ways GNU sort refuses with exit 2, so that the exit
   * codes of usage errors are compared too.
   */
  private String makeInvalid(List<String> argv, List<Key> keys, Character sep) {
    // Not right after an option that takes the next word as its argument: "-o -k0,1" is valid
    // (output to a file named -k0,1, relative to the working directory).
    int at = rnd.nextInt(argv.size() + 1);
    while (at > 0 && SEPARATE_ARGUMENT.contains(argv.get(at - 1))) {
      at--;
    }
    String why;
    switch (rnd.nextInt(14)) {
      case 0:
        why = "incompatible key flags";
        String a = String.valueOf(pick(TYPES));
        String b =
            String.valueOf(
                pick((a.equals("V") || a.equals("R") ? "nghM" : "nghMdi").replace(a, "")));
        argv.add(at, "-k" + pickField() + ",3" + a + b);
        break;
      case 1:
        why = "incompatible global flags";
        char t1 = pick(TYPES);
        argv.add(at, "-" + t1 + pick("nghM".replace(String.valueOf(t1), "")));
        break;
      case 2:
        why = "field zero";
        argv.add(at, pick(new String[] {"-k0", "-k0,1", "-k1,0", "-k0.1"}));
        break;
      case 3:
        why = "character offset zero";
        argv.add(at, pick(new String[] {"-k1.0", "-k2.0,3", "-k1.0n"}));
        break;
      case 4:
        why = "bad key spec";
        argv.add(at, pick(new String[] {"-k1,1x", "-ka", "-k1.", "-k,2", "-k1,2.x", "-k1,1Q"}));
        break;
      case 5:
        why = "bad separator";
        argv.add(at, pick(new String[] {"-tab", "-t::", "--field-separator="}));
        break;
      case 6:
        why = "separators differ";
        argv.add(at, sep != null && sep == ',' ? "-t:" : "-t,");
        if (sep == null) {
          argv.add(at, "-t;");
        }
        break;
      case 7:
        // Options unknown to both: exit 2 in both. (An invalid --sort=WORD or --check=WORD exits
        // 1 in both; GnuSyntaxTest compares those.)
        why = "unknown option";
        argv.add(at, pick(new String[] {"--no-such-option", "-j", "-a", "-e"}));
        break;
      case 8:
        why = "missing input file";
        argv.add(at, DIR + "missing");
        break;
      case 9:
        why = "bad buffer size";
        argv.add(
            at, pick(new String[] {"-S", "--buffer-size="}) + pick(new String[] {"10X", "-1"}));
        if (argv.get(at).equals("-S-1")) {
          argv.set(at, "-Sx");
        }
        break;
      case 10:
        why = "bad --parallel or --batch-size";
        argv.add(at, pick(new String[] {"--parallel=0", "--parallel=x", "--batch-size=1"}));
        break;
      case 11:
        why = "check with two files";
        argv.add("-c");
        argv.add(DIR + "in0");
        argv.add(DIR + "in0");
        break;
      case 12:
        why = "-c with -C, or -c with -o";
        argv.add(at, chance(0.5) ? "-cC" : "-c");
        if (argv.get(at).equals("-c")) {
          argv.add(at, "-o" + DIR + "out");
        }
        break;
      default:
        why = "missing option argument";
        argv.add(pick(new String[] {"-k", "-t", "-o", "-T", "-S"}));
        break;
    }
    // Keys are only needed to describe the case; the spec alone reproduces it.
    return why + (keys.isEmpty() ? "" : " (with " + keys.size() + " valid keys)");
  }

  // ---------------------------------------------------------------------- input

  /** The kind of content of fields 1..8, from the types of the keys that read them. */
  private Kind[] fieldKinds(List<Key> keys, String globalFlags) {
    Kind[] kinds = new Kind[9];
    Kind globalKind = kindOf(globalFlags);
    for (int i = 0; i < kinds.length; i++) {
      kinds[i] = globalKind != null && chance(0.7) ? globalKind : randomKind();
    }
    for (Key k : keys) {
      Kind kind = kindOf(k.flags());
      if (kind != null && k.f1 < kinds.length && chance(0.8)) {
        kinds[k.f1] = kind;
      }
    }
    return kinds;
  }

  private static Kind kindOf(String flags) {
    for (int ci = 0; ci < flags.length(); ci++) {
      char c = flags.charAt(ci);
      switch (c) {
        case 'n':
          return Kind.DECIMAL;
        case 'g':
          return Kind.FLOAT;
        case 'h':
          return Kind.HUMAN;
        case 'M':
          return Kind.MONTH;
        case 'V':
          return Kind.VERSION;
        default:
          break;
      }
    }
    return null;
  }

  private Kind randomKind() {
    Kind[] all = Kind.values();
    return all[rnd.nextInt(all.length)];
  }

  /**
   * Thousands of lines drawn from a pool of 1 to 3000: counted on their twins as they are read
   * where equal lines are identical, and at the side's small buffer spilled in runs that write
   * every copy (docs/decisions/D28).
   */
  private byte[] repetitive(Kind[] kinds, Character sep, char term) {
    List<String> pool = new ArrayList<>();
    for (int i = between(1, 3000); i > 0; i--) {
      pool.add(line(kinds, sep, term));
    }
    StringBuilder b = new StringBuilder();
    for (int i = between(3000, 15_000); i > 0; i--) {
      b.append(pick(pool));
      if (i > 1 || !chance(0.15)) {
        b.append(term); // the last line sometimes without
      }
    }
    return bytes(b.toString(), sep);
  }

  /**
   * In a locale, lines whose first fields come from a pool of two to four: a key on them ties in
   * groups of tens to hundreds of different lines, which the sort orders by {@code strcoll} of the
   * rest through a tie group (the radix sorter's GroupTieOrder).
   */
  private byte[] sharedLeads(Kind[] kinds, Character sep, char term) {
    List<String> leads = new ArrayList<>();
    for (int i = between(2, 4); i > 0; i--) {
      leads.add(line(kinds, sep, term));
    }
    StringBuilder b = new StringBuilder();
    for (int i = between(20, 600); i > 0; i--) {
      b.append(pick(leads));
      b.append(sep != null ? String.valueOf(sep.charValue()) : blanks());
      b.append(line(kinds, sep, term));
      if (i > 1 || !chance(0.15)) {
        b.append(term);
      }
    }
    return bytes(b.toString(), sep);
  }

  /** One input: lines of fields, terminated by {@code term}, the last one sometimes not. */
  private byte[] input(Kind[] kinds, Character sep, char term) {
    if (chance(0.04)) {
      return repetitive(kinds, sep, term);
    }
    if (locale != null && chance(0.1)) {
      return sharedLeads(kinds, sep, term);
    }
    double p = rnd.nextDouble();
    int n =
        p < 0.03
            ? 0
            : p < 0.08
                ? 1
                : p < 0.5 ? between(2, 10) : p < 0.98 ? between(11, 60) : between(61, 400);
    List<String> lines = new ArrayList<>();
    boolean longLine = chance(0.03);
    for (int i = 0; i < n; i++) {
      if (!lines.isEmpty() && chance(0.15)) {
        lines.add(pick(lines)); // duplicates: -u, -s and the last resort
      } else if (chance(0.05)) {
        lines.add("");
      } else {
        lines.add(line(kinds, sep, term));
      }
    }
    if (longLine && n > 0) {
      StringBuilder l = new StringBuilder(line(kinds, sep, term));
      // glibc's strcoll and strxfrm take time quadratic in a run of characters that their
      // collation ignores: on one 89 KB line of tab, space, 0xB4, 0x11 repeated, GNU sort spent
      // over 60 CPU-seconds in en_US.UTF-8 (1 s at 16 KB, 0.08 s at 4 KB), and joule 97.
      int target = between(2_000, locale != null ? 4_000 : 120_000);
      String unit = line(kinds, sep, term);
      if (unit.isEmpty()) {
        unit = "x";
      }
      while (l.length() < target) {
        l.append(unit);
      }
      lines.set(rnd.nextInt(lines.size()), l.toString());
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < lines.size(); i++) {
      out.append(lines.get(i));
      if (i < lines.size() - 1 || !chance(0.15)) {
        out.append(term);
      }
    }
    return bytes(out.toString(), sep);
  }

  /** The input's bytes (chars 0..255 stand for bytes), less what the release's quirks avoid. */
  private byte[] bytes(String text, Character sep) {
    if (avoid.byte80()) {
      text = text.replace('\u0080', '\u0081');
    }
    if (versionSort && avoid.versionSuffix()) {
      text = noWholeSuffix(text, sep);
    }
    return text.getBytes(StandardCharsets.ISO_8859_1);
  }

  /**
   * Breaks every "." + letter or "~" that a key could start at (at the start of a line or after a
   * byte that is not a letter or digit, or after the separator): no {@code -V} key is then a file
   * suffix as a whole.
   */
  private static String noWholeSuffix(String text, Character sep) {
    StringBuilder b = new StringBuilder(text);
    for (int i = 0; i + 1 < b.length(); i++) {
      char next = b.charAt(i + 1);
      boolean suffixStart = b.charAt(i) == '.' && (Character.isLetter(next) || next == '~');
      if (!suffixStart || next > 0x7f) {
        continue;
      }
      char prev = i == 0 ? '\n' : b.charAt(i - 1);
      boolean alnum = prev < 0x80 && Character.isLetterOrDigit(prev);
      if (!alnum || (sep != null && prev == sep)) {
        b.setCharAt(i, '_');
      }
    }
    return b.toString();
  }

  private String line(Kind[] kinds, Character sep, char term) {
    int fields = chance(0.1) ? between(0, 8) : between(1, 5);
    StringBuilder l = new StringBuilder();
    if (chance(0.15)) {
      l.append(blanks());
    }
    for (int f = 1; f <= fields; f++) {
      if (f > 1) {
        if (sep != null && !chance(0.03)) {
          l.append(sep.charValue());
        } else {
          l.append(chance(0.8) ? blanks() : String.valueOf(pick(",:;")));
        }
      }
      Kind k = chance(0.85) ? kinds[Math.min(f, kinds.length - 1)] : randomKind();
      if (sep != null && chance(0.15)) {
        l.append(blanks());
      }
      l.append(token(k, sep, term));
      if (chance(0.05)) {
        l.append(blanks());
      }
    }
    if (chance(0.1)) {
      l.append(blanks());
    }
    return l.toString();
  }

  private String blanks() {
    StringBuilder b = new StringBuilder();
    int n = chance(0.7) ? 1 : between(2, 4);
    for (int i = 0; i < n; i++) {
      b.append(chance(0.7) ? ' ' : '\t');
    }
    return b.toString();
  }

  private String token(Kind kind, Character sep, char term) {
    String t =
        switch (kind) {
          case WORD -> word();
          case INT -> integer();
          case DECIMAL -> decimal();
          case FLOAT -> floating();
          case HUMAN -> human();
          case MONTH -> month();
          case VERSION -> version();
          case ODD_BYTES -> oddBytes(term);
          case BLANKS -> chance(0.5) ? "" : blanks();
        };
    // A separator inside a field would change the field count, which is fine and even wanted
    // now and then; the terminator must not appear (it would split the line).
    if (sep != null && chance(0.9)) {
      t = t.replace(sep.charValue(), '_');
    }
    return t.replace(term, '_');
  }

  private String word() {
    if (locale != null && chance(0.7)) {
      return unicodeWord();
    }
    StringBuilder w = new StringBuilder();
    int n = between(0, 6);
    for (int i = 0; i < n; i++) {
      w.append(chance(0.05) ? (char) between(0x80, 0xff) : pick(WORD_CHARS));
    }
    return w.toString();
  }

  /** Pieces of Unicode text for the locale cases, by what a collation makes of them. */
  private static final String[] UNICODE_PIECES = {
    "a", "A", "b", "B", "e", "E", "z", "Z", "o", "O", "s", "S", "i", "I", "l", "ll", "ch", "Ch",
    "aa", "Aa", "é", "É", "è", "ê", "ë", "á", "à", "â", "ä", "Ä", "å", "Å", "ã", "æ", "Æ", "ø", "Ø",
    "ö", "Ö", "ő", "ü", "Ü", "ß", "ẞ", "ñ", "ç", "œ", "ł", "ş", "č", "ž", "ð", "þ", "ı", "İ",
    "e\u0301", "o\u0308", "a\u030a", "ﬁ", "Ａ", "ｚ", "ж", "Ж", "ё", "Ё", "е", "Е", "а", "я", "Я",
    "й", "щ", "ъ", "α", "Ω", "ω", "日本", "語", "ひら", "カタ", "中文", "한", "א", "ب", "0", "1", "5", "9",
    "10", "٣", "-", "'", ".", ",", "_", "/", " ", "  ", "\t", "\u00a0", "\u202f", "\u200d",
    "\u00ad", "😀", "€", "$", "@", "~", "^", "\u0001", "\u007f"
  };

  private static final String[] INVALID_UTF8 = {
    "\u00ff",
    "\u00fe",
    "\u00c3",
    "\u00e2\u0082",
    "\u00c0\u00af",
    "\u0080",
    "\u00bf",
    "\u00ed\u00a0\u0080",
    "\u00f4\u0090\u0080\u0080"
  };

  /** A word of Unicode text as UTF-8 bytes (chars 0..255), now and then with a NUL or bad bytes. */
  private String unicodeWord() {
    StringBuilder w = new StringBuilder();
    int n = between(0, 5);
    for (int i = 0; i < n; i++) {
      double p = rnd.nextDouble();
      if (p < 0.03) {
        w.append(pick(INVALID_UTF8));
      } else if (p < 0.05) {
        w.append('\0');
      } else {
        w.append(utf8(pick(UNICODE_PIECES)));
      }
    }
    return w.toString();
  }

  /** The UTF-8 bytes of {@code s}, each as a char 0..255. */
  static String utf8(String s) {
    return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
  }

  private String digits(int max) {
    StringBuilder d = new StringBuilder();
    int n = between(0, max);
    for (int i = 0; i < n; i++) {
      d.append(chance(0.5) ? pick("019") : pick("0123456789"));
    }
    return d.toString();
  }

  private String sign() {
    double p = rnd.nextDouble();
    return p < 0.6 ? "" : p < 0.88 ? "-" : p < 0.97 ? "+" : pick(new String[] {"--", "-+", "+-"});
  }

  private String integer() {
    if (chance(0.03)) {
      return sign() + "1" + "0".repeat(between(18, 40)) + digits(3); // past any long
    }
    String zeros = chance(0.2) ? "0".repeat(between(1, 3)) : "";
    String d = digits(4);
    if (d.isEmpty() && zeros.isEmpty() && chance(0.8)) {
      d = String.valueOf(pick("0123456789"));
    }
    return sign() + zeros + d;
  }

  private String decimal() {
    double p = rnd.nextDouble();
    if (p < 0.35) {
      return integer();
    }
    String frac = digits(4);
    if (chance(0.2)) {
      frac += "0".repeat(between(1, 3)); // 1.5 vs 1.50
    }
    String intPart = chance(0.15) ? sign() : integer();
    String point = locale != null && chance(0.7) ? locale.point() : ".";
    String s = intPart + point + frac;
    if (chance(0.05)) {
      s += "." + digits(2); // a second point ends the number
    }
    if (chance(0.05)) {
      s = s.replaceFirst("^([-+]?\\d)", "$1,"); // a thousands separator is not one in C
    }
    if (locale != null && chance(0.3)) {
      String sep =
          chance(0.6) && !locale.thousands().isEmpty()
              ? locale.thousands()
              : pick(new String[] {".", ",", " ", utf8("\u202f"), utf8("\u00a0")});
      s = s.replaceFirst("^([-+]?\\d+)(\\d)", "$1" + sep + "$2");
      if (chance(0.2)) {
        s = sep + s; // a leading separator, which strnumcmp skips
      }
    }
    return s;
  }

  private String floating() {
    double p = rnd.nextDouble();
    if (p < 0.25) {
      String special = pick(SPECIAL_FLOATS);
      return avoid.nans() && special.toLowerCase(Locale.ROOT).contains("nan") ? "inf" : special;
    }
    if (p < 0.45) {
      return decimal();
    }
    String mantissa = chance(0.3) ? integer() : decimal();
    return mantissa + pick("eE") + sign() + digits(3);
  }

  private String human() {
    String number = chance(0.6) ? integer() : decimal();
    double p = rnd.nextDouble();
    String suffix =
        p < 0.25
            ? ""
            : p < 0.9
                ? String.valueOf(pick(avoid.unitsRq() ? "KkMGTPEZY" : HUMAN_SUFFIXES))
                : pick(new String[] {"m", "KB", "Ki", "k ", "x", "KM"});
    return number + suffix;
  }

  private String month() {
    if (locale != null && chance(0.6)) {
      String m =
          new String(
              pick(locale.months()).getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
      double p = rnd.nextDouble();
      m = p < 0.3 ? m.toUpperCase(Locale.ROOT) : p < 0.5 ? m.toLowerCase(Locale.ROOT) : m;
      if (chance(0.1)) {
        m = m.substring(0, Math.max(0, m.length() - 1));
      }
      return utf8(m) + (chance(0.1) ? "x" : "");
    }
    String m = chance(0.8) ? pick(MONTHS) : pick(MONTH_ODDITIES);
    double p = rnd.nextDouble();
    if (p < 0.3) {
      m = m.toLowerCase(Locale.ROOT);
    } else if (p < 0.4 && m.length() > 1) {
      m = m.charAt(0) + m.substring(1).toLowerCase(Locale.ROOT);
    }
    if (chance(0.1)) {
      m += pick(new String[] {"UARY", "x", " 1", "."});
    }
    return m;
  }

  private String version() {
    StringBuilder v = new StringBuilder(pick(VERSION_PREFIXES));
    int parts = between(1, 4);
    for (int i = 0; i < parts; i++) {
      if (i > 0) {
        v.append(chance(0.9) ? '.' : pick("-_~"));
      }
      if (chance(0.15)) {
        v.append('0');
      }
      v.append(between(0, 12));
      if (chance(0.1)) {
        v.append(pick("abz"));
      }
    }
    v.append(pick(VERSION_SUFFIXES));
    return v.toString();
  }

  private String oddBytes(char term) {
    StringBuilder b = new StringBuilder();
    int n = between(1, 4);
    for (int i = 0; i < n; i++) {
      double p = rnd.nextDouble();
      char c;
      if (p < 0.5) {
        c = (char) between(0x80, 0xff);
      } else if (p < 0.8) {
        c = (char) between(0x01, 0x1f);
      } else if (p < 0.9) {
        c = (char) 0x7f;
      } else {
        c = term == '\0' ? '\n' : pick("aZ9");
      }
      b.append(c);
    }
    return b.toString();
  }
}

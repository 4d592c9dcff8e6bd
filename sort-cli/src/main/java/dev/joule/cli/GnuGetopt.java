package dev.joule.cli;

import dev.joule.cli.SortOptionTable.Opt;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Stack;
import java.util.function.UnaryOperator;
import picocli.CommandLine.IParameterPreprocessor;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Reads {@code joule sort}'s arguments as GNU sort 9.1 reads its own (glibc's {@code getopt_long}
 * in GNU sort's return-in-order mode, then sort's own rules), and hands picocli one canonical form
 * of them: each option under a full name with its argument, then {@code --} and the operands. A
 * command-level preprocessor. What it reads as GNU does:
 *
 * <ul>
 *   <li>long options abbreviated to any unambiguous prefix, among GNU sort's own options first (so
 *       that {@code --p} stays {@code --parallel}, as in a GNU script), then among joule's; {@code
 *       --check=WORD}, {@code --sort=WORD} and joule's enumerated values abbreviated too (GNU's
 *       argmatch);
 *   <li>short options clustered, an argument attached or next, even when it looks like an option or
 *       is blank ({@code -t ' '}, {@code -o -k1});
 *   <li>the obsolete key {@code +POS1 [-POS2]} ({@link ObsoleteKey}) where GNU takes it: with
 *       {@code -POS2} unless {@code POSIXLY_CORRECT} is set, and alone unless {@code
 *       _POSIX2_VERSION} is 200112 to 200808; otherwise {@code +POS1} is a file;
 *   <li>{@code -y} (Solaris) ignored, with a following all-digit argument;
 *   <li>{@code POSIXLY_CORRECT}: the first operand ends the options, except a later {@code -o FILE}
 *       where the obsolete syntax is on and {@code -c} was not given;
 *   <li>{@code --help} and {@code --version} act at once, as GNU's do.
 * </ul>
 *
 * Its errors are GNU's, with GNU's exit status and "Try ... --help" line ({@link
 * GnuUsageException}). Thread-safe; the environment is read through the function it is given.
 */
final class GnuGetopt implements IParameterPreprocessor {
  /** GNU sort 9.1's long options, in its table's order (which its ambiguity message follows). */
  static final List<String> GNU_LONG_OPTIONS =
      List.of(
          "ignore-leading-blanks",
          "check",
          "compress-program",
          "debug",
          "dictionary-order",
          "ignore-case",
          "files0-from",
          "general-numeric-sort",
          "ignore-nonprinting",
          "key",
          "merge",
          "month-sort",
          "numeric-sort",
          "human-numeric-sort",
          "version-sort",
          "random-sort",
          "random-source",
          "sort",
          "output",
          "reverse",
          "stable",
          "batch-size",
          "buffer-size",
          "field-separator",
          "temporary-directory",
          "unique",
          "zero-terminated",
          "parallel",
          "help",
          "version");

  /** GNU's WORDs of {@code --check}, each with the option it stands for. */
  private static final Map<String, String> CHECK_WORDS =
      words("quiet", "C", "silent", "C", "diagnose-first", "c");

  private static final Map<String, String> SORT_WORDS =
      words(
          "general-numeric", "g",
          "human-numeric", "h",
          "month", "M",
          "numeric", "n",
          "random", "R",
          "version", "V");

  /** The POSIX version GNU assumes when {@code _POSIX2_VERSION} is unset or not a number. */
  private static final int DEFAULT_POSIX2_VERSION = 200809;

  private final UnaryOperator<String> env;

  /** The reader of the process's environment (picocli creates it). */
  GnuGetopt() {
    this(System::getenv);
  }

  GnuGetopt(UnaryOperator<String> env) {
    this.env = env;
  }

  @Override
  public boolean preprocess(
      Stack<String> args, CommandSpec command, ArgSpec arg, Map<String, Object> info) {
    List<String> in = new ArrayList<>();
    while (!args.isEmpty()) {
      in.add(args.pop());
    }
    List<String> out;
    try {
      out = normalize(in);
    } catch (GnuUsageException e) {
      throw e.onCommand(command.commandLine());
    }
    Collections.reverse(out);
    for (String a : out) {
      args.push(a);
    }
    return false;
  }

  /**
   * The canonical arguments of {@code in}, read by {@link SortOptionTable} (which {@code
   * SortOptionTableTest} holds to picocli's model of the command); throws GNU's usage errors.
   */
  List<String> normalize(List<String> in) {
    return new Scan(in).run();
  }

  /** One pass over the arguments, as GNU sort's loop around getopt_long. */
  private final class Scan {
    private final List<String> in;
    private final List<String> options = new ArrayList<>();
    private final List<String> operands = new ArrayList<>();
    private final boolean posixlyCorrect = env.apply("POSIXLY_CORRECT") != null;
    private boolean traditional;
    private boolean checkOnly;
    private int next;

    Scan(List<String> in) {
      this.in = in;
      int version = posix2Version(env.apply("_POSIX2_VERSION"));
      traditional = !(200112 <= version && version < 200809);
    }

    List<String> run() {
      while (next < in.size()) {
        String a = in.get(next);
        if (posixlyCorrect && !operands.isEmpty() && !laterOutput(a)) {
          operands.add(a);
          next++;
        } else if (a.equals("--")) {
          operands.addAll(in.subList(next + 1, in.size()));
          break;
        } else if (a.startsWith("--")) {
          if (longOption(a)) {
            return options;
          }
        } else if (a.startsWith("-") && a.length() > 1) {
          if (shortOptions(a)) {
            return options;
          }
        } else {
          next++;
          operand(a);
        }
      }
      List<String> out = new ArrayList<>(options);
      out.add("--");
      out.addAll(operands);
      return out;
    }

    /** GNU's exception to POSIXLY_CORRECT's "options end at the first operand". */
    private boolean laterOutput(String a) {
      return traditional
          && !checkOnly
          && a.startsWith("-o")
          && (a.length() > 2 || next + 1 != in.size());
    }

    /** A non-option argument: an obsolete key where GNU takes one, else an operand. */
    private void operand(String a) {
      if (a.startsWith("+")) {
        String following = next < in.size() ? in.get(next) : "";
        boolean minusPos =
            following.length() > 1
                && following.charAt(0) == '-'
                && following.charAt(1) >= '0'
                && following.charAt(1) <= '9';
        traditional |= minusPos && !posixlyCorrect;
        if (traditional) {
          String keydef = ObsoleteKey.keydef(a, null);
          if (keydef != null) {
            if (minusPos) {
              keydef = ObsoleteKey.keydef(a, in.get(next++));
            }
            options.add("--key=" + keydef);
            return;
          }
        }
      }
      operands.add(a);
    }

    /** Reads {@code --name[=value]}; true if it was {@code --help} or {@code --version}. */
    private boolean longOption(String a) {
      next++;
      int eq = a.indexOf('=');
      String name = eq < 0 ? a.substring(2) : a.substring(2, eq);
      String value = eq < 0 ? null : a.substring(eq + 1);
      String full = resolve(name, a);
      Opt o = SortOptionTable.find("--" + full);
      if (o.maxArity() == 0) {
        if (value != null) {
          throw usage("option '--" + full + "' doesn't allow an argument");
        }
      } else if (o.minArity() > 0 && value == null) {
        if (next >= in.size()) {
          throw usage("option '--" + full + "' requires an argument");
        }
        value = in.get(next++);
      } else if (value == null && full.equals("check")) {
        value = "diagnose-first"; // GNU's bare --check is -c
      }
      return emit(o, "--" + full, value);
    }

    /** Reads a cluster of short options; true if one was {@code --help}'s or similar. */
    private boolean shortOptions(String a) {
      next++;
      for (int j = 1; j < a.length(); j++) {
        char c = a.charAt(j);
        String attached = a.substring(j + 1);
        if (c == 'y') {
          solarisY(attached);
          return false;
        }
        Opt o = SortOptionTable.find("-" + c);
        if (o == null) {
          throw usage("invalid option -- '" + c + "'");
        }
        if (o.maxArity() == 0) {
          if (emit(o, "-" + c, null)) {
            return true;
          }
          continue;
        }
        String value = attached;
        if (value.isEmpty()) {
          if (next >= in.size()) {
            throw usage("option requires an argument -- '" + c + "'");
          }
          value = in.get(next++);
        }
        return emit(o, "-" + c, value);
      }
      return false;
    }

    /**
     * {@code -y}: ignored with its argument (Solaris 8's: an attached one, or the next if it is all
     * digits; GNU reads any other next argument as usual).
     */
    private void solarisY(String attached) {
      if (!attached.isEmpty()) {
        return;
      }
      if (next >= in.size()) {
        throw usage("option requires an argument -- 'y'");
      }
      if (in.get(next).chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
        next++;
      }
    }

    /** Adds an option in canonical form; true if it was help or version. */
    private boolean emit(Opt o, String name, String value) {
      checkOnly |= name.equals("-c") || name.equals("-C") || name.equals("--check");
      if (o.help() || o.version()) {
        options.clear();
        options.add(o.longest());
        return true;
      }
      String canonical = o.longest();
      if (value == null) {
        options.add(name.startsWith("--") ? name : canonical);
        return false;
      }
      String v = value;
      if (name.equals("--check")) {
        v = argmatch(value, "--check", CHECK_WORDS, ExitCodes.UNORDERED);
      } else if (name.equals("--sort")) {
        v = argmatch(value, "--sort", SORT_WORDS, ExitCodes.UNORDERED);
      } else if (o.words() != null) {
        // picocli took these in any case: so does this
        v =
            argmatch(
                value.toLowerCase(Locale.ROOT), name, enumWords(o.words()), ExitCodes.USAGE_OR_IO);
      }
      String option = name.startsWith("--") ? name : canonical;
      if (v.isBlank()) {
        // picocli drops a blank argument attached with '=', but keeps one on its own
        options.add(option);
        options.add(v);
      } else {
        options.add(option + "=" + v);
      }
      return false;
    }

    /** The full long name {@code name} stands for: exact, or GNU's prefix, or joule's. */
    private String resolve(String name, String typed) {
      if (SortOptionTable.find("--" + name) != null) {
        return name;
      }
      List<String> gnu = new ArrayList<>();
      for (String g : GNU_LONG_OPTIONS) {
        if (g.startsWith(name)) {
          gnu.add(g);
        }
      }
      if (gnu.size() == 1) {
        return gnu.get(0);
      }
      if (gnu.size() > 1) {
        throw ambiguous(typed, gnu);
      }
      Map<Opt, String> joule = new LinkedHashMap<>();
      for (Opt o : SortOptionTable.OPTIONS) {
        for (String n : o.names()) {
          if (n.startsWith("--" + name) && !o.hidden()) {
            joule.putIfAbsent(o, n.substring(2));
          }
        }
      }
      if (joule.size() == 1) {
        return joule.values().iterator().next();
      }
      if (joule.isEmpty()) {
        throw usage("unrecognized option '" + typed + "'");
      }
      throw ambiguous(typed, new ArrayList<>(joule.values()));
    }

    private GnuUsageException ambiguous(String typed, List<String> names) {
      StringBuilder m = new StringBuilder("option '" + typed + "' is ambiguous; possibilities:");
      for (String n : names) {
        m.append(" '--").append(n).append('\'');
      }
      return usage(m.toString());
    }
  }

  /**
   * GNU's argmatch: {@code value} exactly, or an unambiguous prefix of one of the words (words that
   * stand for the same thing are not ambiguous); the full word, or GNU's error.
   */
  static String argmatch(String value, String option, Map<String, String> words, int exitCode) {
    if (words.containsKey(value)) {
      return value;
    }
    String found = null;
    boolean ambiguous = false;
    for (Map.Entry<String, String> w : words.entrySet()) {
      if (w.getKey().startsWith(value)) {
        if (found == null) {
          found = w.getKey();
        } else if (!words.get(found).equals(w.getValue())) {
          ambiguous = true;
        }
      }
    }
    if (found != null && !ambiguous) {
      return found;
    }
    StringBuilder m = new StringBuilder();
    m.append(ambiguous ? "ambiguous" : "invalid").append(" argument '").append(value);
    m.append("' for '").append(option).append("'\nValid arguments are:");
    String last = null;
    for (Map.Entry<String, String> w : words.entrySet()) {
      boolean same = last != null && words.get(last).equals(w.getValue());
      m.append(same ? ", '" : "\n  - '").append(w.getKey()).append('\'');
      last = w.getKey();
    }
    return throwing(new GnuUsageException(m.toString(), exitCode, true));
  }

  private static String throwing(GnuUsageException e) {
    throw e;
  }

  /** GNU's {@code posix2_version}: the variable if it is a whole number, else 200809. */
  static int posix2Version(String value) {
    if (value == null || value.isEmpty()) {
      return DEFAULT_POSIX2_VERSION;
    }
    try {
      String v0 = value.stripLeading();
      long v = Long.parseLong(v0.startsWith("+") ? v0.substring(1) : v0);
      return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v));
    } catch (NumberFormatException e) {
      return DEFAULT_POSIX2_VERSION;
    }
  }

  private static Map<String, String> words(String... pairs) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put(pairs[i], pairs[i + 1]);
    }
    return m;
  }

  private static Map<String, String> enumWords(Class<?> type) {
    Map<String, String> m = new LinkedHashMap<>();
    for (Object c : type.getEnumConstants()) {
      String name = ((Enum<?>) c).name().toLowerCase(Locale.ROOT);
      m.put(name, name);
    }
    return m;
  }

  private static GnuUsageException usage(String message) {
    return new GnuUsageException(message, ExitCodes.USAGE_OR_IO, true);
  }
}

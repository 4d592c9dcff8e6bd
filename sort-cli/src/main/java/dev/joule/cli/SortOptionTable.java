package dev.joule.cli;

import dev.joule.cli.SortOptions.ProgressMode;
import dev.joule.io.config.DirectIoPolicy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The options of {@code joule sort} as data: each one's names, whether it takes an argument, and
 * the words of an enumerated value, in the order of picocli's model of the command. {@link
 * GnuGetopt} reads the arguments by it and {@link DirectSort} binds them by it, neither building
 * picocli's model, which is made by reflection over the annotations and cost a 1 KB sort about 100
 * ms of its main thread (sort-bench/README.md, "Start-up"). The annotations stay the source of the
 * help text; {@code SortOptionTableTest} fails when the two disagree.
 */
final class SortOptionTable {
  /**
   * One option.
   *
   * @param names its names, in the annotation's order
   * @param minArity how many arguments it needs (0 or 1)
   * @param maxArity how many it takes (0 or 1)
   * @param help whether it is {@code --help}
   * @param version whether it is {@code --version}
   * @param hidden whether {@code --help} leaves it out (and abbreviations do not reach it)
   * @param words the enumerated type whose constants it takes, or null
   */
  record Opt(
      List<String> names,
      int minArity,
      int maxArity,
      boolean help,
      boolean version,
      boolean hidden,
      Class<? extends Enum<?>> words) {
    /** picocli's canonical name: the longest, the first of equally long ones. */
    String longest() {
      String l = names.get(0);
      for (String n : names) {
        if (n.length() > l.length()) {
          l = n;
        }
      }
      return l;
    }
  }

  static final List<Opt> OPTIONS =
      List.of(
          flag("-b", "--ignore-leading-blanks"),
          flag("-d", "--dictionary-order"),
          flag("-f", "--ignore-case"),
          flag("-g", "--general-numeric-sort"),
          flag("-i", "--ignore-nonprinting"),
          flag("-M", "--month-sort"),
          flag("-h", "--human-numeric-sort"),
          flag("-n", "--numeric-sort"),
          flag("-R", "--random-sort"),
          valued("--random-source"),
          flag("-r", "--reverse"),
          valued("--sort"),
          flag("-V", "--version-sort"),
          valued("-k", "--key"),
          valued("-t", "--field-separator"),
          flag("-s", "--stable"),
          flag("-u", "--unique"),
          flag("-z", "--zero-terminated"),
          flag("-c"),
          new Opt(List.of("--check"), 0, 1, false, false, false, null),
          flag("-C"),
          flag("-m", "--merge"),
          valued("-o", "--output"),
          valued("--files0-from"),
          flag("--gensort"),
          valued("--record-size"),
          valued("--key-offset"),
          valued("--key-size"),
          valued("--binary-key"),
          valued("-S", "--buffer-size", "--memory"),
          valued("--parallel", "--threads"),
          valued("-T", "--temporary-directory", "--temp"),
          valued("--timeline-interval"),
          enumerated(DirectIoPolicy.class, "--direct"),
          valued("--compress"),
          valued("--transfer-in"),
          valued("--transfer-out"),
          valued("--transfer-temp"),
          valued("--batch-size", "--fan-in"),
          enumerated(ProgressMode.class, "--progress"),
          flag("-q", "--quiet"),
          flag("--stack-trace"),
          flag("--stats"),
          valued("--report-json"),
          valued("--report-html"),
          flag("--explain"),
          flag("--debug"),
          valued("--compress-program"),
          new Opt(List.of("--help"), 0, 0, true, false, false, null),
          new Opt(List.of("--version"), 0, 0, false, true, false, null));

  private static final Map<String, Opt> BY_NAME = index();

  private SortOptionTable() {}

  /** The option one of whose names is {@code name} ({@code -k}, {@code --key}), or null. */
  static Opt find(String name) {
    return BY_NAME.get(name);
  }

  private static Opt flag(String... names) {
    return new Opt(List.of(names), 0, 0, false, false, false, null);
  }

  private static Opt valued(String... names) {
    return new Opt(List.of(names), 1, 1, false, false, false, null);
  }

  private static Opt enumerated(Class<? extends Enum<?>> words, String... names) {
    return new Opt(List.of(names), 1, 1, false, false, false, words);
  }

  private static Map<String, Opt> index() {
    Map<String, Opt> m = new HashMap<>();
    for (Opt o : OPTIONS) {
      for (String n : o.names()) {
        if (m.put(n, o) != null) {
          throw new IllegalStateException("option name " + n + " given twice");
        }
      }
    }
    return m;
  }
}

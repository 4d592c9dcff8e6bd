package dev.joule.cli;

import dev.joule.cli.SortOptionTable.Opt;
import dev.joule.cli.SortOptions.ProgressMode;
import dev.joule.io.config.DirectIoPolicy;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code joule sort} without picocli's model of the command: the arguments read by {@link
 * GnuGetopt} through {@link SortOptionTable}, bound to a {@link SortCommand} here, and the command
 * run. picocli's model is built by reflection over the annotations of four classes and its 178
 * classes are Java 5 class files, which the start-up archive cannot hold: a 1 KB sort spent about
 * 100 ms of its main thread and most of its JIT work on it (sort-bench/README.md, "Start-up").
 *
 * <p>This path takes only arguments it can bind: help, version, any usage error while reading them
 * and any value that does not convert are left to picocli's path ({@link #run} returns null), which
 * reads them again from the start and reports them as it always has. Binding has no effect outside
 * the new command, so that retry is exact. Errors once the command runs are reported here, by the
 * same code as on picocli's path ({@link ExitCodeMapper}). {@code DirectSortTest} holds the binding
 * to picocli's, option by option.
 */
final class DirectSort implements CommandContext {
  private final PrintWriter out;
  private final PrintWriter err;
  private final Map<String, String> typed = new HashMap<>(); // by longest name: what was given

  DirectSort(PrintWriter out, PrintWriter err) {
    this.out = out;
    this.err = err;
  }

  /**
   * Runs {@code joule sort args}, with {@code out} and {@code err} as picocli's writers; the exit
   * status, or null when picocli's path must take these arguments.
   */
  static Integer run(CliEnvironment env, List<String> args, PrintWriter out, PrintWriter err) {
    DirectSort context = new DirectSort(out, err);
    SortCommand command = context.bind(env, args);
    if (command == null) {
      return null;
    }
    try {
      return command.call();
    } catch (GnuUsageException e) {
      return ExitCodeMapper.reportUsage(
          err,
          e.getMessage(),
          e.tryHelp() ? TopLevelUsage.tryHelp("joule sort") : null,
          e.exitCode());
    } catch (Exception e) {
      return ExitCodeMapper.reportFailure(e, err, command.options.stackTrace);
    }
  }

  /** A command set from {@code args}, or null if picocli's path must read them. */
  SortCommand bind(CliEnvironment env, List<String> args) {
    List<String> canonical;
    try {
      canonical = new GnuGetopt(System::getenv).normalize(args);
    } catch (GnuUsageException e) {
      return null;
    }
    SortCommand c = new SortCommand(env);
    c.context = this;
    c.ordering = new GnuOrdering();
    c.ordering.context = this;
    c.fixed = new FixedRecordOptions();
    c.fixed.context = this;
    c.options = new SortOptions();
    c.options.context = this;
    try {
      for (int i = 0; i < canonical.size(); i++) {
        String a = canonical.get(i);
        if (a.equals("--")) {
          c.files.addAll(canonical.subList(i + 1, canonical.size()));
          return c;
        }
        int eq = a.startsWith("--") ? a.indexOf('=') : -1;
        Opt o = SortOptionTable.find(eq < 0 ? a : a.substring(0, eq));
        if (o == null) {
          return null;
        }
        String value = eq < 0 ? null : a.substring(eq + 1);
        if (o.minArity() > 0 && value == null && i + 1 < canonical.size()) {
          value = canonical.get(++i); // a blank value comes on its own
        }
        if ((value == null) != (o.maxArity() == 0) || !set(c, o.longest(), value)) {
          return null;
        }
        typed.put(o.longest(), value != null ? value : "true"); // a flag's, as picocli has it
      }
    } catch (RuntimeException e) {
      return null; // a value that does not convert: picocli's path reports it
    }
    return null; // GnuGetopt always ends the options with "--"
  }

  /** Sets option {@code name} (its longest name) to {@code v}; false for help and version. */
  private static boolean set(SortCommand c, String name, String v) {
    GnuOrdering g = c.ordering;
    FixedRecordOptions f = c.fixed;
    SortOptions s = c.options;
    switch (name) {
      case "--ignore-leading-blanks" -> g.blanks = true;
      case "--dictionary-order" -> g.dictionary = true;
      case "--ignore-case" -> g.fold = true;
      case "--general-numeric-sort" -> g.general = true;
      case "--ignore-nonprinting" -> g.nonprinting = true;
      case "--month-sort" -> g.month = true;
      case "--human-numeric-sort" -> g.human = true;
      case "--numeric-sort" -> g.numeric = true;
      case "--random-sort" -> g.random = true;
      case "--random-source" -> g.randomSources.add(v);
      case "--reverse" -> g.reverse = true;
      case "--sort" -> g.sortWords.add(v);
      case "--version-sort" -> g.version = true;
      case "--key" -> g.keys.add(v);
      case "--field-separator" -> g.separators.add(v);
      case "--stable" -> g.stable = true;
      case "--unique" -> g.unique = true;
      case "--zero-terminated" -> g.zeroTerminated = true;
      case "-c" -> c.checkDiagnose = true;
      case "--check" -> c.check.add(v);
      case "-C" -> c.checkQuiet = true;
      case "--merge" -> c.merge = true;
      case "--output" -> c.outputs.add(v);
      case "--files0-from" -> c.files0From = v;
      case "--gensort" -> f.gensort = true;
      case "--record-size" -> f.recordSize = Integer.valueOf(v);
      case "--key-offset" -> f.keyOffset = Integer.valueOf(v);
      case "--key-size" -> f.keySize = Integer.valueOf(v);
      case "--binary-key" -> f.binaryKeys.add(v);
      case "--buffer-size" -> s.memory = new GnuSizeConverter().convert(v);
      case "--parallel" -> s.threads = new SortOptions.ThreadCount().convert(v);
      case "--temporary-directory" -> s.tempDirs.add(Path.of(v));
      case "--timeline-interval" -> s.timelineInterval = v;
      case "--direct" -> s.direct = DirectIoPolicy.valueOf(v.toUpperCase(Locale.ROOT));
      case "--compress" -> s.compress = v;
      case "--transfer-in" -> s.transferIn = new DataSizeConverter().convert(v);
      case "--transfer-out" -> s.transferOut = new DataSizeConverter().convert(v);
      case "--transfer-temp" -> s.transferTemp = new DataSizeConverter().convert(v);
      case "--batch-size" -> s.fanIn = new SortOptions.FanIn().convert(v);
      case "--progress" -> s.progress = ProgressMode.valueOf(v.toUpperCase(Locale.ROOT));
      case "--quiet" -> s.quiet = true;
      case "--stack-trace" -> s.stackTrace = true;
      case "--stats" -> c.stats = true;
      case "--report-json" -> c.reportJson = Path.of(v);
      case "--report-html" -> c.reportHtml = Path.of(v);
      case "--explain" -> c.explain = true;
      case "--debug" -> c.gnuDebug = true;
      case "--compress-program" -> c.compressPrograms.add(v);
      default -> {
        return false; // --help, --version
      }
    }
    return true;
  }

  @Override
  public PrintWriter out() {
    return out;
  }

  @Override
  public PrintWriter err() {
    return err;
  }

  @Override
  public boolean matched(String option) {
    Opt o = SortOptionTable.find(option);
    return o != null && typed.containsKey(o.longest());
  }

  @Override
  public String typed(String option) {
    Opt o = SortOptionTable.find(option);
    return o == null ? null : typed.get(o.longest());
  }

  @Override
  public RuntimeException usage(String message, Throwable cause) {
    return new GnuUsageException(message, ExitCodes.USAGE_OR_IO, false, cause);
  }

  @Override
  public RuntimeException usage(GnuUsageException e) {
    return e;
  }
}

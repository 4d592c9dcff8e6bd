package dev.joule.cli;

import dev.joule.io.config.Compression;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.config.ProgressListener;
import dev.joule.io.config.SortConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * The engine options of a sort (memory, threads, temp stripes, I/O), shared by {@code joule sort}
 * and {@code joule bench} (a picocli mixin) under GNU sort's names and joule's, and their
 * translation into a {@link SortConfig}. Every argument error names its option.
 */
public final class SortOptions {
  /** When to draw the progress bar on stderr. */
  enum ProgressMode {
    AUTO,
    ALWAYS,
    NEVER
  }

  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  /** The command line that set these options: {@link DirectSort}'s, else picocli's model. */
  CommandContext context;

  @Option(
      names = {"-S", "--buffer-size", "--memory"},
      paramLabel = "SIZE",
      converter = GnuSizeConverter.class,
      description = {
        "Memory budget for records, index and I/O buffers, as GNU sort's -S: a number with suffix"
            + " b, K, M, G, T, P, E (powers of 1024) or %% of physical memory; a bare number is"
            + " KiB. Budgets under 8M are raised to 8M. Larger budgets mean fewer, longer runs and"
            + " fewer merge passes.",
        "Default: min(1/4 of physical RAM, JVM max direct memory - 64m);"
            + " here ${sys:joule.default.memory}."
      })
  DataSize memory;

  @Option(
      names = {"--parallel", "--threads"},
      paramLabel = "N",
      converter = ThreadCount.class,
      description =
          "Worker threads for sorting and merging, 1..256; a sort of lines that fits in"
              + " memory also splits and parses them on up to 8 of them. Default: the"
              + " processors (${DEFAULT-VALUE}).")
  int threads = MachineDefaults.threads();

  @Option(
      names = {"-T", "--temporary-directory", "--temp"},
      paramLabel = "DIR",
      description = {
        "Temp directory for sorted runs; repeat it for one stripe per directory (runs are spread"
            + " round-robin). Put stripes on separate disks. Default: $TMPDIR, else"
            + " java.io.tmpdir (${sys:java.io.tmpdir})."
      })
  List<Path> tempDirs = new ArrayList<>();

  @Option(
      names = "--timeline-interval",
      paramLabel = "TIME",
      description =
          "How often the timeline of --report-json and --report-html samples each device and the"
              + " CPU: 500ms, 1s, 2 (seconds); 0 takes none. Default: ${DEFAULT-VALUE}.",
      defaultValue = "1s")
  String timelineInterval = "1s";

  @Option(
      names = "--direct",
      paramLabel = "auto|on|off",
      description = {
        "O_DIRECT for input and temp files: auto tries it and falls back to buffered I/O with one"
            + " notice per directory (e.g. on tmpfs); on makes a refusal an error; off never uses"
            + " it. Default: auto."
      })
  DirectIoPolicy direct = DirectIoPolicy.AUTO;

  @Option(
      names = "--compress",
      paramLabel = "auto|off|lz4|zstd[:LEVEL]",
      description = {
        "Compress the blocks of temp runs: auto compresses with LZ4 while the codec is faster than"
            + " the temp disks and shrinks the blocks (measured during the sort: a slow disk and"
            + " text gain, a fast disk or random bytes stay raw), and with zstd where the disk"
            + " is slower than LZ4 and zstd moves more; lz4 and zstd always try"
            + " (zstd:LEVEL, -7 to 22, default 1); off never. A block that does not shrink is"
            + " stored raw. Default: auto."
      })
  String compress = "auto";

  @Option(
      names = "--transfer-in",
      paramLabel = "SIZE",
      converter = DataSizeConverter.class,
      description = "Bytes per read of the input; a multiple of 4k. Default: 4m.")
  DataSize transferIn;

  @Option(
      names = "--transfer-out",
      paramLabel = "SIZE",
      converter = DataSizeConverter.class,
      description = "Bytes per write of the output; a multiple of 4k. Default: 4m.")
  DataSize transferOut;

  @Option(
      names = "--transfer-temp",
      paramLabel = "SIZE",
      converter = DataSizeConverter.class,
      description = "Bytes per read or write of a temp run; a multiple of 4k. Default: 4m.")
  DataSize transferTemp;

  @Option(
      names = {"--batch-size", "--fan-in"},
      paramLabel = "N",
      converter = FanIn.class,
      description =
          "Most runs merged at once, at least 2 (GNU's --batch-size). Default: derived from the"
              + " memory budget and the open-file limit.")
  Integer fanIn;

  @Option(
      names = "--progress",
      paramLabel = "auto|always|never",
      description =
          "Progress bar on stderr (phase, bytes, rate, ETA): auto draws it when a"
              + " terminal is attached to stderr. Default: auto.")
  ProgressMode progress = ProgressMode.AUTO;

  @Option(
      names = {"-q", "--quiet"},
      description = "No notices and no progress bar; errors still print.")
  boolean quiet;

  @Option(names = "--stack-trace", description = "Print the stack trace of an error.")
  boolean stackTrace;

  /**
   * --parallel, checked as each occurrence is parsed: GNU refuses {@code --parallel=0
   * --parallel=2}, although the last value wins.
   */
  static final class ThreadCount implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      int n = parseInt(value);
      if (n < 1 || n > SortConfig.MAX_THREADS) {
        throw new TypeConversionException(
            "'" + value + "': threads " + n + " is outside 1.." + SortConfig.MAX_THREADS);
      }
      return n;
    }
  }

  /** --batch-size, checked as each occurrence is parsed (as GNU does). */
  static final class FanIn implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      int n = parseInt(value);
      if (n < 2) {
        throw new TypeConversionException("'" + value + "': a merge needs at least 2 inputs");
      }
      return n;
    }
  }

  private static int parseInt(String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new TypeConversionException("'" + value + "' is not an int");
    }
  }

  /** The budget to use: --memory, or the machine's default. */
  DataSize memoryBudget() {
    if (memory == null) {
      return MachineDefaults.memory();
    }
    return memory.bytes() < SortConfig.MIN_MEMORY.bytes() ? SortConfig.MIN_MEMORY : memory;
  }

  /**
   * Whether to draw a progress bar: {@code auto} draws it when standard error is a terminal and the
   * sorted output does not go to one ({@code toStdout}: the output is standard output), where the
   * bar's line would mix with the sorted lines.
   */
  boolean showProgress(boolean toStdout) {
    if (quiet) {
      return false;
    }
    switch (progress) {
      case ALWAYS:
        return true;
      case NEVER:
        return false;
      default:
        return stderrIsTerminal() && !(toStdout && isTerminal(Path.of("/proc/self/fd/1")));
    }
  }

  /**
   * Whether standard error is a terminal: on Linux, where {@code /proc/self/fd/2} points (a {@code
   * /dev/pts/N} or {@code /dev/ttyN}); elsewhere {@code System.console() != null}, which looks at
   * stdin and stdout, and since JDK 22 is non-null even when they are redirected.
   */
  static boolean stderrIsTerminal() {
    return isTerminal(Path.of("/proc/self/fd/2"));
  }

  /** Whether the descriptor behind {@code fd} (a {@code /proc/self/fd/N}) is a terminal. */
  private static boolean isTerminal(Path fd) {
    try {
      String target = java.nio.file.Files.readSymbolicLink(fd).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (java.io.IOException | UnsupportedOperationException e) {
      return isTerminal(System.console());
    }
  }

  /**
   * A builder of the configuration these options describe (records default to gensort's; {@code
   * joule sort} sets its own). Throws a usage error naming the option for any value the engine
   * refuses; touches no file.
   */
  SortConfig.Builder toBuilder(NoticeSink notices, ProgressListener listener) {
    SortConfig.Builder b = SortConfig.builder();
    Duration interval = interval(timelineInterval);
    check("--timeline-interval", () -> b.timelineInterval(interval));
    DataSize budget = memoryBudget();
    check("--buffer-size", () -> b.memoryBudget(budget));
    if (budget.bytes() > MachineDefaults.maxDirectMemory()) {
      throw invalid(
          "--buffer-size",
          "above the JVM's direct-memory limit "
              + DataSize.ofBytes(MachineDefaults.maxDirectMemory())
              + " (raise it with JOULE_JAVA_OPTS=-XX:MaxDirectMemorySize=...)");
    }
    check("--parallel", () -> b.threads(threads));
    b.tempDirs(tempDirs.isEmpty() ? defaultTempDirs() : tempDirs);
    b.directIo(direct);
    Compression compression;
    try {
      String program = compressProgram();
      compression = program != null ? Compression.program(program) : Compression.parse(compress);
    } catch (IllegalArgumentException e) {
      throw invalid("--compress", e.getMessage());
    }
    b.compression(compression);
    transfer(b, "--transfer-in", FileKind.INPUT, transferIn);
    transfer(b, "--transfer-out", FileKind.OUTPUT, transferOut);
    transfer(b, "--transfer-temp", FileKind.TEMP, transferTemp);
    if (fanIn != null) {
      if (fanIn < 2) {
        throw invalid("--batch-size", "a merge needs at least 2 inputs");
      }
      check("--batch-size", () -> b.fanIn(fanIn));
    }
    b.notices(quiet ? NoticeSink.IGNORE : notices);
    b.progress(listener);
    return b;
  }

  /**
   * The program {@code --compress} names, or null when it names a codec of joule's: GNU reads
   * {@code --compress=PROG} as its {@code --compress-program} abbreviated, so a value that is no
   * codec and looks like a program name is one ({@code zstd:x} stays a bad level).
   */
  String compressProgram() {
    try {
      Compression.parse(compress);
      return null;
    } catch (IllegalArgumentException e) {
      boolean program = compress.matches("[A-Za-z0-9_./+-]+") && !compress.matches("(?i)zstd:.*");
      return program ? compress : null;
    }
  }

  /** A time as {@code --timeline-interval} takes it: 500ms, 1s, 2 (seconds), 0. */
  private Duration interval(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    long scale = 1_000_000_000L;
    if (v.endsWith("ms")) {
      scale = 1_000_000L;
      v = v.substring(0, v.length() - 2);
    } else if (v.endsWith("s")) {
      v = v.substring(0, v.length() - 1);
    }
    try {
      double n = Double.parseDouble(v.trim());
      if (!(n >= 0) || n * scale > Long.MAX_VALUE / 2.0) {
        throw new NumberFormatException();
      }
      return Duration.ofNanos(Math.round(n * scale));
    } catch (NumberFormatException e) {
      throw invalid("--timeline-interval", "not a time (use e.g. 500ms, 1s, 2, or 0 for none)");
    }
  }

  /** {@link #toBuilder}, built: gensort records. */
  SortConfig toConfig(NoticeSink notices, ProgressListener listener) {
    return toBuilder(notices, listener).build();
  }

  /** GNU sort's default temp directory: $TMPDIR if set and not empty, else java.io.tmpdir. */
  static List<Path> defaultTempDirs() {
    String tmpdir = System.getenv("TMPDIR");
    if (tmpdir != null && !tmpdir.isEmpty()) {
      return List.of(Path.of(tmpdir));
    }
    return List.of(SortConfig.defaultTempDir());
  }

  private void transfer(SortConfig.Builder b, String option, FileKind kind, DataSize size) {
    if (size != null) {
      check(option, () -> b.transferSize(kind, size));
    }
  }

  <T> T check(String option, java.util.function.Supplier<T> step) {
    try {
      return step.get();
    } catch (IllegalArgumentException e) {
      throw invalid(option, e.getMessage());
    }
  }

  /** A usage error naming {@code option} and the value the user typed. */
  RuntimeException invalid(String option, String reason) {
    CommandContext c = context != null ? context : CommandContext.of(mixee);
    String value = c.typed(option);
    String typed = value != null ? "'" + value + "': " : "";
    return c.usage("invalid value for " + option + ": " + typed + reason, null);
  }

  /**
   * Whether {@code console} is a terminal: on JDK 22+ {@code System.console()} is never null, so
   * {@code Console.isTerminal()} (called reflectively, absent on 17) decides there.
   */
  private static boolean isTerminal(java.io.Console console) {
    if (console == null) {
      return false;
    }
    try {
      return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
    } catch (ReflectiveOperationException e) {
      return true; // JDK 17..21: a non-null console is a terminal
    }
  }
}

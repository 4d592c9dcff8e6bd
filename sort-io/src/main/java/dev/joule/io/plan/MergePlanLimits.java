package dev.joule.io.plan;

import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.OptionalLong;

/**
 * The fan-in bound of a {@link MergePlan}: how many runs one merge may read at once, limited by
 * memory (every input needs two transfer-size buffers so that one is read while the other is
 * merged, and the output needs two for write-behind) and by open files (one per input plus the
 * output, two each with direct I/O, under {@code RLIMIT_NOFILE} minus a reserve for everything else
 * the JVM keeps open).
 *
 * <p>Stateless and thread-safe.
 */
public final class MergePlanLimits {
  /**
   * Open-file limit assumed when {@code /proc/self/limits} cannot be read or parsed (not Linux, or
   * a restricted {@code /proc}): 1024, the usual Linux soft default of {@code ulimit -n}, so a plan
   * made under the fallback stays safe where the real limit is unknown.
   */
  public static final long FALLBACK_OPEN_FILES = 1024;

  /**
   * Descriptors left for everything but the merge's inputs and output: the JVM's jars and shared
   * libraries, stdio, the input file, sockets of an embedding platform. A JDK 17 JVM holds about
   * 30; the rest is headroom for the embedder.
   */
  public static final int DEFAULT_RESERVE = 64;

  /**
   * Headroom over the descriptors open at planning time when the limit is small ({@link #reserve}).
   * Measured (docs/decisions/D15): at the merge's peak a sort held 1 to 2 descriptors beyond those
   * open at planning, its stripes' locks and its merge files (two each with direct I/O), which the
   * planner counts itself; 8 leaves room for a directory fsync or the JDK opening a file lazily. 16
   * made {@code ulimit -n 32} refuse sorts that fit.
   */
  static final int SMALL_LIMIT_HEADROOM = 8;

  /**
   * The reserve for this process under {@code openFileLimit}: {@link #DEFAULT_RESERVE}, except
   * under a small limit ({@code ulimit -n 32}, below 4 x the default), where a fixed 64 would leave
   * no inputs at all: there it is the descriptors open now plus {@link #SMALL_LIMIT_HEADROOM} (the
   * JDK's random source for the temp dirs' names, a directory fsync, the stale-dir sweep; the
   * planner adds the stripes' locks), at most the default. A smaller fan-in then adds merge passes
   * instead of failing (docs/reliability.md I9, GNU sort-merge-fdlimit).
   */
  public static int reserve(long openFileLimit) {
    if (openFileLimit >= 4L * DEFAULT_RESERVE) {
      return DEFAULT_RESERVE;
    }
    long open;
    try (java.util.stream.Stream<Path> fds = Files.list(Paths.get("/proc/self/fd"))) {
      open = fds.count();
    } catch (IOException | UncheckedIOException | SecurityException e) {
      return DEFAULT_RESERVE;
    }
    return (int) Math.min(DEFAULT_RESERVE, open + SMALL_LIMIT_HEADROOM);
  }

  /**
   * Descriptors run compression may open after the plan counted what is open: the jars of lz4-java
   * and zstd-jni, which the class loader opens when the codecs first load (an embedder has them on
   * its class path as separate jars; in joule's own shaded jar they cost none). Under {@code ulimit
   * -n 32} a plan that did not count them failed with "Too many open files" (FdLimitTest, once
   * {@code auto} became the default).
   */
  public static final int CODEC_DESCRIPTORS = 2;

  private static final Path PROC_LIMITS = Paths.get("/proc/self/limits");
  private static final String OPEN_FILES_ROW = "Max open files";

  private MergePlanLimits() {}

  /**
   * This process's soft open-file limit ({@code RLIMIT_NOFILE}), read from {@code
   * /proc/self/limits} on Linux; {@link Long#MAX_VALUE} if it is unlimited, {@link
   * #FALLBACK_OPEN_FILES} if it cannot be read.
   */
  public static long openFileLimit() {
    return openFileLimit(PROC_LIMITS);
  }

  /** As {@link #openFileLimit()}, reading a file in the {@code /proc/<pid>/limits} layout. */
  static long openFileLimit(Path limitsFile) {
    try {
      return parseOpenFileLimit(Files.readAllLines(limitsFile, StandardCharsets.UTF_8))
          .orElse(FALLBACK_OPEN_FILES);
    } catch (IOException | SecurityException e) {
      return FALLBACK_OPEN_FILES;
    }
  }

  /**
   * The soft limit from the {@code Max open files} row of {@code /proc/<pid>/limits} lines ({@code
   * "Max open files 1024 524288 files"}), or empty if no such row parses.
   */
  static OptionalLong parseOpenFileLimit(List<String> lines) {
    for (String line : lines) {
      if (!line.startsWith(OPEN_FILES_ROW)) {
        continue;
      }
      String[] fields = line.substring(OPEN_FILES_ROW.length()).trim().split("\\s+", -1);
      if (fields.length == 0 || fields[0].isEmpty()) {
        return OptionalLong.empty();
      }
      if (fields[0].equals("unlimited")) {
        return OptionalLong.of(Long.MAX_VALUE);
      }
      try {
        long soft = Long.parseLong(fields[0]);
        return soft >= 0 ? OptionalLong.of(soft) : OptionalLong.empty();
      } catch (NumberFormatException e) {
        return OptionalLong.empty();
      }
    }
    return OptionalLong.empty();
  }

  /**
   * Descriptors one merge input or output may hold under {@code policy}: with direct I/O its
   * O_DIRECT channel and the buffered one that {@code BlockFile} opens, and keeps, for its first
   * unaligned read or write (a run's header and footer, an output's last page); 1 without.
   */
  public static int descriptorsPerFile(DirectIoPolicy policy) {
    return policy == DirectIoPolicy.OFF ? 1 : 2;
  }

  /**
   * The fan-in that the descriptors allow: {@code (openFileLimit - reserve - perFile) / perFile},
   * the inputs and the merge's output each taking {@code perFile} descriptors, capped at {@link
   * Integer#MAX_VALUE}; below 2 means no merge can run.
   */
  public static long fanInByFiles(long openFileLimit, int reserve, int perFile) {
    if (openFileLimit == Long.MAX_VALUE) {
      return Integer.MAX_VALUE;
    }
    return Math.min(Integer.MAX_VALUE, (openFileLimit - reserve - perFile) / perFile);
  }

  /**
   * The refusal of a sort that must merge when {@link #fanInByFiles} is below 2: a {@link
   * SortIOException} (an environment error, exit 2) for op {@code "plan merge"} on {@code tempDir},
   * the directory the runs would be in, naming {@code ulimit -n}, the smallest limit that would do
   * and the other way out.
   */
  public static SortIOException tooFewDescriptors(
      long openFileLimit, int reserve, int perFile, Path tempDir) {
    long enough = reserve + 3L * perFile;
    return new SortIOException(
        "plan merge",
        tempDir.toAbsolutePath(),
        "the open-file limit of "
            + openFileLimit
            + " (ulimit -n) leaves fewer than 2 merge inputs: "
            + reserve
            + " descriptors are open or reserved and each merge file takes "
            + perFile
            + "; raise it to at least "
            + enough
            + " (ulimit -n "
            + enough
            + "), or give a memory budget that holds the whole input (one pass, no merge)");
  }

  /**
   * The largest fan-in that the memory and descriptor budgets allow.
   *
   * @param mergeMemoryBytes memory for the merge's I/O buffers
   * @param transferSize bytes per read or write (one buffer)
   * @param openFileLimit the process's open-file limit, e.g. {@link #openFileLimit()}
   * @param reserve descriptors kept for everything else, e.g. {@link #DEFAULT_RESERVE}
   * @return {@code min((memory / (2 * transfer)) - 1, openFileLimit - reserve - 1)}, the {@code
   *     -1}s being the output's buffers and file, capped at {@link Integer#MAX_VALUE}
   * @throws IllegalArgumentException if the result would be below 2: such a sort cannot merge
   */
  public static int maxFanIn(
      long mergeMemoryBytes, int transferSize, long openFileLimit, int reserve) {
    return maxFanIn(mergeMemoryBytes, transferSize, openFileLimit, reserve, 1);
  }

  /**
   * As {@link #maxFanIn(long, int, long, int)}, each input and the output taking {@code perFile}
   * descriptors ({@link #descriptorsPerFile}).
   */
  public static int maxFanIn(
      long mergeMemoryBytes, int transferSize, long openFileLimit, int reserve, int perFile) {
    if (transferSize < 1 || mergeMemoryBytes < 0 || reserve < 0 || perFile < 1) {
      throw new IllegalArgumentException(
          "memory "
              + mergeMemoryBytes
              + ", transfer "
              + transferSize
              + ", reserve "
              + reserve
              + ", descriptors per file "
              + perFile);
    }
    long byMemory = mergeMemoryBytes / (2L * transferSize) - 1;
    long byFiles = fanInByFiles(openFileLimit, reserve, perFile);
    long fanIn = Math.min(Math.min(byMemory, byFiles), Integer.MAX_VALUE);
    if (fanIn < 2) {
      throw new IllegalArgumentException(
          byMemory <= byFiles
              ? "merge memory of "
                  + mergeMemoryBytes
                  + " bytes holds fewer than 2 inputs of two "
                  + transferSize
                  + "-byte buffers (plus the output's two)"
              : "the open-file limit of "
                  + openFileLimit
                  + " (ulimit -n) minus "
                  + reserve
                  + " descriptors open or reserved leaves fewer than 2 merge inputs plus the"
                  + " output: raise the limit, or give a memory budget that holds the whole"
                  + " input (one pass, no merge)");
    }
    return (int) fanIn;
  }
}

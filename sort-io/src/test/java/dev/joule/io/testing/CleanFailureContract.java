package dev.joule.io.testing;

import dev.joule.core.memory.ArenaTracker;
import dev.joule.io.error.CorruptRunException;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.error.SortIOException;
import dev.joule.io.error.SortValidationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The clean-failure contract (docs/reliability.md, "CFC") for the embedded API, as one reusable
 * assertion: take a {@link #before} snapshot, run the sort, then call {@link
 * Snapshot#assertCleanFailure} on the exception (or {@link Snapshot#assertNoLeftovers} after a
 * success). Checked:
 *
 * <ol>
 *   <li>a typed exception: {@link SortIOException} (op and path set), {@link CorruptRunException},
 *       {@link SortValidationException} or (only if allowed) {@link SortCancelledException};
 *   <li>one line of message naming the operation, the exact path and the reason, matched by {@link
 *       #SORT_IO_MESSAGE} / {@link #CORRUPT_MESSAGE}; the reason matches the expected errno text
 *       and an underlying exception, if any, is chained as the cause;
 *   <li>the output is absent, or byte-identical to its previous content (sha256);
 *   <li>no {@code joule-*} entry in any stripe dir, no {@code .<name>.*.tmp} or {@code joule-*} in
 *       the output dir;
 *   <li>open fds back to the baseline ({@code /proc/self/fd}), {@link
 *       ArenaTracker#liveDirectBytes()} 0, no live thread named {@code joule-*};
 *   <li>the failure arrived within 10 s of the start.
 * </ol>
 *
 * Every assertion message starts with the caller's context (which should carry the seed).
 */
public final class CleanFailureContract {
  /** {@code "<op> failed: <absolute path>: <reason>"}: op lower case, one line. */
  public static final Pattern SORT_IO_MESSAGE =
      Pattern.compile("([a-z][a-z ()/-]*) failed: (/\\S*): ([^\\n]+)");

  /** {@code "corrupt run file <path> at offset <n>: <what>"}. */
  public static final Pattern CORRUPT_MESSAGE =
      Pattern.compile("corrupt run file (/\\S+) at offset (\\d+): ([^\\n]+)");

  /**
   * errno texts of the faults the tests inject: such a failure must chain the original exception.
   */
  static final Pattern OS_ERRNO =
      Pattern.compile("Input/output error|No space left on device|File too large");

  static final long TIME_LIMIT_NANOS = 10_000_000_000L;

  private CleanFailureContract() {}

  /**
   * Records the baseline before a sort writing {@code output} with temp space on {@code stripes}.
   */
  public static Snapshot before(Path output, List<Path> stripes) throws IOException {
    return new Snapshot(output, stripes);
  }

  /** The state before a sort, and the assertions after it. */
  public static final class Snapshot {
    private final Path output;
    private final List<Path> stripes;
    private final String outputSha;
    private final int fds;
    private final long start = System.nanoTime();

    private Snapshot(Path output, List<Path> stripes) throws IOException {
      this.output = real(output);
      this.stripes = stripes.stream().map(CleanFailureContract::real).toList();
      this.outputSha =
          Files.exists(this.output, LinkOption.NOFOLLOW_LINKS) ? sha256(this.output) : null;
      this.fds = openFds();
    }

    /**
     * Asserts the whole contract for the failure {@code e}; {@code reason} is a regex the
     * SortIOException reason must match (null: any). Returns the exception's category: "io",
     * "corrupt", "validation" or "cancelled".
     */
    public String assertCleanFailure(
        Throwable e, String reason, boolean cancelAllowed, String context)
        throws IOException, InterruptedException {
      long elapsed = System.nanoTime() - start;
      check(elapsed < TIME_LIMIT_NANOS, context, "failure took " + elapsed / 1_000_000 + " ms", e);
      String m = String.valueOf(e.getMessage());
      check(!m.contains("\n"), context, "message is not one line: " + m, e);
      String category;
      if (e instanceof CorruptRunException c) {
        Matcher mm = CORRUPT_MESSAGE.matcher(m);
        check(
            mm.matches(),
            context,
            "corruption message does not match " + CORRUPT_MESSAGE + ": " + m,
            e);
        check(
            mm.group(1).equals(String.valueOf(c.file())),
            context,
            "message names " + mm.group(1) + ", file() is " + c.file(),
            e);
        category = "corrupt";
      } else if (e instanceof SortIOException s) {
        Matcher mm = SORT_IO_MESSAGE.matcher(m);
        check(mm.matches(), context, "message does not match " + SORT_IO_MESSAGE + ": " + m, e);
        check(
            s.op() != null && mm.group(1).equals(s.op()),
            context,
            "op " + s.op() + " vs message " + m,
            e);
        check(
            s.path() != null && mm.group(2).equals(s.path().toString()),
            context,
            "path " + s.path() + " vs message " + m,
            e);
        check(
            reason == null || Pattern.compile(reason).matcher(s.reason()).find(),
            context,
            "reason '" + s.reason() + "' does not match " + reason,
            e);
        if (s.getCause() == null && OS_ERRNO.matcher(s.reason()).find()) {
          // an injected or OS fault must stay reachable as the cause (Lucene style); conditions the
          // sorter detects itself (input changed, bad size) have none
          check(false, context, "no cause chained to " + m, e);
        }
        category = "io";
      } else if (e instanceof SortValidationException) {
        category = "validation";
      } else if (e instanceof SortCancelledException && cancelAllowed) {
        category = "cancelled";
      } else {
        throw new AssertionError(context + ": not a typed sort failure: " + e, e);
      }
      assertNoLeftovers(context, e);
      return category;
    }

    /** Output absent or unchanged, no temps, no leaked fds, arenas or threads (after a failure). */
    public void assertNoLeftovers(String context, Throwable e)
        throws IOException, InterruptedException {
      if (outputSha == null) {
        check(
            !Files.exists(output, LinkOption.NOFOLLOW_LINKS),
            context,
            "output " + output + " exists after a failure",
            e);
      } else {
        check(
            outputSha.equals(sha256(output)), context, "previous output " + output + " changed", e);
      }
      assertNoTempsOrLeaks(context, e);
    }

    /** No temps, fds, arenas or threads left (after a success as after a failure). */
    public void assertNoTempsOrLeaks(String context, Throwable e)
        throws IOException, InterruptedException {
      List<String> left = new ArrayList<>();
      for (Path s : stripes) {
        left.addAll(list(s, n -> n.startsWith("joule-")));
      }
      String name = output.getFileName().toString();
      left.addAll(
          list(
              output.getParent(),
              n ->
                  n.startsWith("joule-")
                      || (n.startsWith("." + name + ".") && n.endsWith(".tmp"))));
      check(left.isEmpty(), context, "temp files left: " + left, e);
      check(
          ArenaTracker.liveDirectBytes() == 0,
          context,
          "direct bytes live: "
              + ArenaTracker.liveDirectBytes()
              + " "
              + ArenaTracker.liveAllocationSites(),
          e);
      long deadline = System.nanoTime() + 3_000_000_000L;
      int nowFds;
      List<String> threads;
      while (true) {
        nowFds = openFds();
        threads = jouleThreads();
        if ((nowFds <= fds && threads.isEmpty()) || System.nanoTime() > deadline) {
          break;
        }
        Thread.sleep(5);
      }
      check(threads.isEmpty(), context, "threads alive: " + threads, e);
      check(
          nowFds <= fds,
          context,
          "open fds " + nowFds + " > baseline " + fds + ": " + fdTargets(),
          e);
    }
  }

  private static Path real(Path p) {
    return (p instanceof FaultPath ? FaultFileSystemProvider.unwrap(p) : p).toAbsolutePath();
  }

  /** Live threads named {@code joule-*} (the shutdown hooks, never started here, do not count). */
  public static List<String> jouleThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(
            t ->
                t.isAlive()
                    && t.getName().startsWith("joule-")
                    && !t.getName().startsWith("joule-temp-cleanup"))
        .map(Thread::getName)
        .sorted()
        .collect(Collectors.toList());
  }

  /** Number of open file descriptors of this JVM. */
  public static int openFds() throws IOException {
    try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
      return (int) s.count();
    }
  }

  private static List<String> fdTargets() {
    List<String> r = new ArrayList<>();
    try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
      for (Path p : s.toList()) {
        try {
          r.add(Files.readSymbolicLink(p).toString());
        } catch (IOException e) {
          // closed meanwhile
        }
      }
    } catch (IOException e) {
      r.add(e.toString());
    }
    return r;
  }

  private static List<String> list(Path dir, java.util.function.Predicate<String> ours)
      throws IOException {
    if (dir == null || !Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.toString())
          .filter(p -> ours.test(Path.of(p).getFileName().toString()))
          .sorted()
          .toList();
    }
  }

  private static void check(boolean ok, String context, String what, Throwable e) {
    if (!ok) {
      throw new AssertionError(context + ": " + what, e);
    }
  }

  /** Hex SHA-256 of a file. */
  public static String sha256(Path p) throws IOException {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }
}

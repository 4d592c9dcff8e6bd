package dev.joule.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The clean-failure contract (docs/reliability.md, "CFC") for the CLI, as one reusable assertion:
 * {@link #before} snapshots the output (sha256 or absent) and the dirs to watch (stripes, output
 * dir); {@link Snapshot#assertCleanFailure} checks the exit code, that the last stderr line is the
 * one error line and matches the expected pattern (operation, path, errno text), that the output is
 * absent or byte-identical, that no {@code joule-*} entry and no {@code .<name>.*.tmp} is left in
 * any watched dir, and the time bound. Also runs the launcher and mounts tmpfs for the tests.
 */
final class CliContract {
  /** {@code joule: <op> failed: <path>: <reason>}. */
  static final String IO_ERROR = "joule: [a-z][a-z ()/-]* failed: %s: %s";

  private CliContract() {}

  /** Exit code, stdout, stderr and wall time of one launcher run. */
  record Run(int exit, String out, String err, long millis) {
    String lastErrLine() {
      String[] l = err.strip().split("\n", -1);
      return l[l.length - 1];
    }
  }

  static String launcher() {
    String root = System.getProperty("joule.root");
    assertTrue(root != null, "system property joule.root (the repository root) is not set");
    return Path.of(root, "joule").toAbsolutePath().normalize().toString();
  }

  /** {@code prefix} (e.g. {@code prlimit --fsize=...}) then the launcher and {@code args}. */
  static List<String> command(List<String> prefix, String... args) {
    List<String> cmd = new ArrayList<>(prefix);
    cmd.add(launcher());
    cmd.addAll(List.of(args));
    return cmd;
  }

  /**
   * Starts the launcher in {@code cwd}; stdout and stderr go to files in {@code cwd}. Through
   * {@code env --default-signal}: a signal ignored when a process starts stays ignored (the JVM,
   * like GNU sort, installs no handler for it), and the tests may run under nohup or as a
   * background job of a non-interactive shell, which ignore HUP and INT; the signal tests need the
   * defaults. {@code env} execs the command, so the process's pid is the launcher's (which execs
   * the JVM).
   */
  static Process start(Path cwd, List<String> cmd) throws IOException {
    List<String> withDefaults = new ArrayList<>(List.of("env", "--default-signal=HUP,INT,TERM"));
    withDefaults.addAll(cmd);
    ProcessBuilder pb =
        new ProcessBuilder(withDefaults)
            .directory(cwd.toFile())
            .redirectOutput(cwd.resolve("stdout.txt").toFile())
            .redirectError(cwd.resolve("stderr.txt").toFile());
    pb.environment().put("LC_ALL", "C"); // joule sorts in its environment's locale, as GNU does
    return pb.start();
  }

  /**
   * Generates {@code records} binary gensort records as {@code dir/in.dat} through the launcher.
   */
  static Path gensortInput(Path dir, String records) throws IOException, InterruptedException {
    Run r = joule(dir, "gensort", "-t2", records, "in.dat");
    assertEquals(0, r.exit(), r::toString);
    return dir.resolve("in.dat");
  }

  /** Waits (at most 120 s) for a started run and collects its result. */
  static Run finish(Path cwd, Process p, long startNanos) throws IOException, InterruptedException {
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + p.info().commandLine().orElse("?"));
    }
    long ms = (System.nanoTime() - startNanos) / 1_000_000;
    return new Run(
        p.exitValue(),
        Files.readString(cwd.resolve("stdout.txt"), StandardCharsets.UTF_8),
        Files.readString(cwd.resolve("stderr.txt"), StandardCharsets.UTF_8),
        ms);
  }

  static Run run(Path cwd, List<String> prefix, String... args)
      throws IOException, InterruptedException {
    long t0 = System.nanoTime();
    return finish(cwd, start(cwd, command(prefix, args)), t0);
  }

  static Run joule(Path cwd, String... args) throws IOException, InterruptedException {
    return run(cwd, List.of(), args);
  }

  static Snapshot before(Path output, Path... watched) throws IOException {
    return new Snapshot(output, List.of(watched));
  }

  /** The state before a run, and the assertions after it. */
  static final class Snapshot {
    final Path output;
    final List<Path> watched;
    final String sha;

    private Snapshot(Path output, List<Path> watched) throws IOException {
      this.output = output;
      this.watched = new ArrayList<>(watched);
      this.watched.add(output.toAbsolutePath().getParent());
      this.sha = Files.exists(output, LinkOption.NOFOLLOW_LINKS) ? sha256(output) : null;
    }

    /**
     * Exit {@code exit} within {@code limitMillis} of the fault, the last stderr line matching
     * {@code message} (a regex), output absent or unchanged, no temps.
     */
    void assertCleanFailure(Run r, int exit, String message, long limitMillis, String ctx)
        throws IOException {
      assertEquals(exit, r.exit(), () -> ctx + ": exit code; stderr:\n" + r.err());
      if (message != null) {
        assertTrue(
            Pattern.compile(message).matcher(r.lastErrLine()).matches(),
            () -> ctx + ": stderr's last line does not match " + message + ":\n" + r.err());
      }
      assertTrue(
          r.millis() <= limitMillis, () -> ctx + ": took " + r.millis() + " ms > " + limitMillis);
      assertOutputUnchanged(ctx);
      assertNoTemps(ctx);
    }

    void assertOutputUnchanged(String ctx) throws IOException {
      if (sha == null) {
        assertTrue(
            !Files.exists(output, LinkOption.NOFOLLOW_LINKS),
            () -> ctx + ": output " + output + " exists");
      } else {
        assertEquals(sha, sha256(output), () -> ctx + ": previous output " + output + " changed");
      }
    }

    void assertNoTemps(String ctx) throws IOException {
      String name = output.getFileName().toString();
      List<String> left = new ArrayList<>();
      for (Path d : watched) {
        if (!Files.isDirectory(d)) {
          continue;
        }
        try (Stream<Path> s = Files.list(d)) {
          s.map(p -> p.getFileName().toString())
              .filter(
                  n ->
                      n.startsWith("joule-")
                          || (n.startsWith("." + name + ".") && n.endsWith(".tmp")))
              .forEach(n -> left.add(d.resolve(n).toString()));
        }
      }
      assertEquals(List.of(), left, () -> ctx + ": temps left");
    }
  }

  static String sha256(Path p) throws IOException {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Whether this JVM runs with effective user id 0: what mount, mknod and setpriv need (a user
   * named root need not have it, and uid 0 need not be named root). Read from /proc/self/status,
   * else from {@code id -u}.
   */
  static boolean isRoot() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Uid:")) {
          return line.strip().split("\\s+", -1)[2].equals("0"); // real, effective, saved, fs
        }
      }
    } catch (IOException e) {
      // no /proc: ask id(1)
    }
    try {
      Process p = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
      String uid = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      return p.waitFor() == 0 && uid.equals("0");
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  static int sh(String... cmd) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return -1;
    }
    return p.exitValue();
  }

  /**
   * A tmpfs of {@code size} mounted on a new dir; skips the test (assumption) if it cannot mount.
   */
  static final class Tmpfs implements AutoCloseable {
    final Path dir;

    Tmpfs(Path dir, String size) throws IOException, InterruptedException {
      assumeTrue(isRoot(), "not root: cannot mount a tmpfs (skipped)");
      this.dir = Files.createDirectories(dir);
      int rc =
          sh("mount", "-t", "tmpfs", "-o", "size=" + size + ",mode=0755", "tmpfs", dir.toString());
      assumeTrue(rc == 0, "mount -t tmpfs failed (exit " + rc + "): skipped");
    }

    /** Unmounts (lazily if busy); an interrupt is kept as the thread's flag. */
    @Override
    public void close() throws IOException {
      try {
        if (sh("umount", dir.toString()) != 0) {
          sh("umount", "-l", dir.toString());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while unmounting " + dir);
      }
    }
  }

  /** Nothing of ours is still mounted (findmnt lists no mount under {@code base}). */
  static void assertNoMountsUnder(Path base) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder("findmnt", "-rn", "-o", "TARGET").redirectErrorStream(true).start();
    String all = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    for (String line : all.split("\n", -1)) {
      assertTrue(!line.startsWith(base.toString()), "still mounted: " + line);
    }
  }
}

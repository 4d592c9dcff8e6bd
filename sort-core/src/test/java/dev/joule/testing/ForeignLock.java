package dev.joule.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Whether another process could take the POSIX lock on a file right now: python's {@code lockf}
 * takes the same kind of lock as {@code FileChannel.lock} on Linux, and the kernel answers for
 * every process, which a check from inside the JVM cannot ask (the JVM's own table answers first).
 * Skips the calling test where python3 is missing.
 */
public final class ForeignLock {
  private static final String TRY_LOCK =
      """
      import fcntl, sys
      f = open(sys.argv[1], 'r+')
      try:
          fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
      except OSError:
          sys.exit(3)
      """;

  private ForeignLock() {}

  /** Whether a child process can lock {@code file}: false while a live owner holds its lock. */
  public static boolean canBeTaken(Path file) throws IOException, InterruptedException {
    Assumptions.assumeTrue(
        new ProcessBuilder("python3", "-c", "pass").start().waitFor() == 0, "python3 not here");
    Process p =
        new ProcessBuilder("python3", "-c", TRY_LOCK, file.toString())
            .redirectErrorStream(true)
            .start();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException("python3 lockf of " + file + " did not end in 30 s");
    }
    if (p.exitValue() != 0 && p.exitValue() != 3) {
      throw new IllegalStateException(
          "python3 lockf of "
              + file
              + " failed: "
              + new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }
    return p.exitValue() == 0;
  }
}

package dev.joule.io.stripe;

import dev.joule.io.config.NoticeSink;
import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Removes private directories ({@code joule-*}) that sorts killed by SIGKILL or power loss left in
 * a stripe. A directory is stale when nobody holds its {@code owner.lock} ({@code tryLock}
 * succeeds: the kernel released the dead owner's lock) and it has not changed for {@link #GRACE};
 * the grace period covers a sort that has just created its directory but not yet locked it. A live
 * sort's directory (lock held by another process, or by this JVM) is never touched.
 *
 * <p>Failures to remove a stale directory are reported through the notice sink and do not fail the
 * sort: the directory belongs to a dead sort, not to this one. Stateless and thread-safe.
 */
public final class StaleDirSweeper {
  /** Minimum age of a stale directory's last change before it is removed. */
  public static final Duration GRACE = Duration.ofSeconds(10);

  private StaleDirSweeper() {}

  /** Removes the stale private directories in {@code stripeDir}; returns the ones removed. */
  public static List<Path> sweep(Path stripeDir, NoticeSink notices) {
    List<Path> removed = new ArrayList<>();
    try (DirectoryStream<Path> dirs =
        Files.newDirectoryStream(stripeDir, Stripe.PRIVATE_PREFIX + "*")) {
      for (Path d : dirs) {
        if (!Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS) || !isOldEnough(d)) {
          continue;
        }
        if (removeIfStale(d, notices)) {
          removed.add(d);
        }
      }
    } catch (IOException e) {
      notices.notice(
          "could not scan temp dir "
              + stripeDir
              + " for stale files: "
              + SortIOException.reasonOf(e));
    }
    return removed;
  }

  private static boolean isOldEnough(Path d) throws IOException {
    Instant changed = Files.getLastModifiedTime(d, LinkOption.NOFOLLOW_LINKS).toInstant();
    return changed.plus(GRACE).isBefore(Instant.now());
  }

  private static boolean removeIfStale(Path d, NoticeSink notices) {
    Path lockFile = d.resolve(Stripe.LOCK_FILE);
    FileChannel ch = null;
    FileLock lock = null;
    try {
      if (Files.exists(lockFile, LinkOption.NOFOLLOW_LINKS)) {
        ch =
            FileChannel.open(lockFile, Set.of(StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS));
        try {
          lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
          return false; // held by a live sort in this JVM
        }
        if (lock == null) {
          return false; // held by a live sort in another process
        }
      }
      SortIOException err = TreeDeleter.deleteTree(d);
      if (err != null) {
        notices.notice("could not remove stale temp dir " + d + ": " + err.getMessage());
        return false;
      }
      return true;
    } catch (IOException e) {
      notices.notice("could not check stale temp dir " + d + ": " + SortIOException.reasonOf(e));
      return false;
    } finally {
      try {
        if (lock != null) {
          lock.release();
        }
        if (ch != null) {
          ch.close();
        }
      } catch (IOException e) {
        notices.notice("could not unlock " + lockFile + ": " + SortIOException.reasonOf(e));
      }
    }
  }
}

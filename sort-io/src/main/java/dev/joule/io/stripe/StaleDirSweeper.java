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
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Removes private directories that sorts killed by SIGKILL or power loss left in a stripe. A stripe
 * is often a shared directory ({@code /tmp}), so a directory is removed only when everything about
 * it is what a dead joule process leaves behind, and otherwise left alone whatever its name
 * suggests: its name is {@code joule-<uuid>} (a sort's, {@link Stripe#open}) or {@code
 * joule-<tag>-<uuid>} (the CLI's, {@code joule bench}'s data), with a random UUID in its canonical
 * form; it is a directory (not a link) of mode 0700; it holds nothing but regular files with the
 * names those give ({@code owner.lock}, a sort's {@code <kind>-<number>}, the CLI's {@code
 * <name>.dat} and their output temporaries {@code .<name>.dat.<random>[.old].tmp}): no directory,
 * link or other name, so nothing on another file system mounted inside and nothing a person put
 * there; and nobody holds its {@code owner.lock} ({@code tryLock} succeeds: the kernel released the
 * dead owner's lock). A directory without {@code owner.lock} is removed only when empty (a process
 * killed between creating it and its lock). It must also not have changed for {@link #GRACE}, which
 * covers a sort that has just created its directory but not yet locked it. A live sort's directory
 * (lock held by another process, or by this JVM) is never touched.
 *
 * <p>Failures to remove a stale directory, and a directory that looks like a sort's but holds
 * something else, are reported through the notice sink and do not fail the sort. Stateless and
 * thread-safe.
 */
public final class StaleDirSweeper {
  /** Minimum age of a stale directory's last change before it is removed. */
  public static final Duration GRACE = Duration.ofSeconds(10);

  /**
   * {@link Stripe#PRIVATE_PREFIX}, for the CLI's directories a tag, and a random UUID as {@link
   * java.util.UUID#toString()} gives it.
   */
  private static final Pattern PRIVATE_NAME =
      Pattern.compile(
          Pattern.quote(Stripe.PRIVATE_PREFIX)
              + "(?:[a-z]{1,16}-)?"
              + "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");

  /**
   * The files a private directory holds: the lock, a sort's temp files ({@code
   * TempSpace.nextName}), the CLI's data files and their output temporaries ({@code AtomicOutput}).
   */
  private static final Pattern OWN_FILE_NAME =
      Pattern.compile(
          Pattern.quote(Stripe.LOCK_FILE)
              + "|[a-z]{1,16}-[0-9]{6,19}"
              + "|[a-z]{1,16}\\.dat"
              + "|\\.[a-z]{1,16}\\.dat\\.[0-9a-z]{1,13}(?:\\.old)?\\.tmp");

  private static final Set<PosixFilePermission> MODE_0700 =
      PosixFilePermissions.fromString("rwx------");

  private StaleDirSweeper() {}

  /** Removes the stale private directories in {@code stripeDir}; returns the ones removed. */
  public static List<Path> sweep(Path stripeDir, NoticeSink notices) {
    List<Path> removed = new ArrayList<>();
    try (DirectoryStream<Path> dirs =
        Files.newDirectoryStream(stripeDir, Stripe.PRIVATE_PREFIX + "*")) {
      for (Path d : dirs) {
        if (!PRIVATE_NAME.matcher(d.getFileName().toString()).matches()
            || !Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)
            || !isPrivate(d)
            || !isOldEnough(d)) {
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

  /** Mode 0700, as {@link Stripe#open} creates it (a file system without modes: yes). */
  private static boolean isPrivate(Path d) throws IOException {
    try {
      return Files.getPosixFilePermissions(d, LinkOption.NOFOLLOW_LINKS).equals(MODE_0700);
    } catch (UnsupportedOperationException e) {
      return true;
    }
  }

  private static boolean isOldEnough(Path d) throws IOException {
    Instant changed = Files.getLastModifiedTime(d, LinkOption.NOFOLLOW_LINKS).toInstant();
    return changed.plus(GRACE).isBefore(Instant.now());
  }

  /**
   * The entries of {@code d} if every one is a regular file with a name a sort gives, else null
   * (and a notice naming the first other entry).
   */
  private static List<Path> sortFiles(Path d, NoticeSink notices) throws IOException {
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(d)) {
      for (Path e : entries) {
        String name = e.getFileName().toString();
        if (!OWN_FILE_NAME.matcher(name).matches()
            || !Files.isRegularFile(e, LinkOption.NOFOLLOW_LINKS)) {
          notices.notice(
              "left "
                  + d
                  + " alone: it looks like a stale sort's temp dir but holds "
                  + e
                  + ", which joule does not write");
          return null;
        }
        files.add(e);
      }
    }
    return files;
  }

  private static boolean removeIfStale(Path d, NoticeSink notices) {
    Path lockFile = d.resolve(Stripe.LOCK_FILE);
    FileChannel ch = null;
    FileLock lock = null;
    try {
      List<Path> files = sortFiles(d, notices);
      if (files == null) {
        return false;
      }
      if (!files.contains(lockFile)) {
        if (!files.isEmpty()) {
          return false; // not a state a sort leaves: it locks before it creates any file
        }
      } else {
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
      SortIOException err = null;
      for (Path f : files) {
        if (!f.equals(lockFile)) {
          err = TreeDeleter.add(err, delete(f));
        }
      }
      err = TreeDeleter.add(err, delete(lockFile));
      err = TreeDeleter.add(err, delete(d)); // fails, leaving it, if a file appeared meanwhile
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

  private static SortIOException delete(Path p) {
    try {
      Files.deleteIfExists(p);
      return null;
    } catch (IOException e) {
      return new SortIOException("delete", p, SortIOException.reasonOf(e), e);
    }
  }
}

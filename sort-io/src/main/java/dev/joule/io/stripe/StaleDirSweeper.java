package dev.joule.io.stripe;

import dev.joule.io.config.NoticeSink;
import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Removes private directories that joule processes killed by SIGKILL or power loss left in a
 * stripe. A stripe is often a shared directory ({@code /tmp}), so a directory is removed only when
 * everything about it is what a dead joule process leaves behind, and otherwise left alone whatever
 * its name suggests:
 *
 * <ul>
 *   <li>its name is {@code joule-<uuid>} (a sort's, {@link Stripe#open}) or {@code
 *       joule-<tag>-<uuid>} (the CLI's, {@code joule bench}'s data), a random UUID in its canonical
 *       form;
 *   <li>it is a directory (not a link), owned by this process's user, of mode 0700, unchanged for
 *       {@link #GRACE} (which covers a sort that has just created it but not yet its lock);
 *   <li>it holds nothing but regular files with the names joule gives ({@code owner.lock}, a sort's
 *       {@code <kind>-<number>}, the CLI's {@code <name>.dat} and their output temporaries {@code
 *       .<name>.dat.<random>[.old].tmp}): no directory, link or other name, so nothing on another
 *       file system mounted inside and nothing a person put there;
 *   <li>it is not one of this JVM's live directories ({@link #live}), and nobody holds its {@code
 *       owner.lock} ({@code tryLock} succeeds: the kernel released the dead owner's lock). Without
 *       {@code owner.lock} (a process killed between creating the directory and its lock, or while
 *       its cleanup was deleting) the other conditions decide.
 * </ul>
 *
 * <p>Everything is done relative to the opened directories ({@link SecureDirectoryStream}: {@code
 * openat}, {@code unlinkat}), so a directory swapped for a link after it was checked is never
 * followed. Where the JDK offers no such stream nothing is swept. This JVM's own directories are
 * skipped before their lock file is opened: closing any channel of a file drops every POSIX lock
 * the process holds on it, so merely probing a live sibling's lock would let another process sweep
 * it.
 *
 * <p>Failures to remove a stale directory, and a directory that looks like joule's but holds
 * something else, are reported through the notice sink and do not fail the sort. Thread-safe.
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

  /** This JVM's private directories from creation to removal (absolute, normalized). */
  private static final Set<Path> LIVE = ConcurrentHashMap.newKeySet();

  private StaleDirSweeper() {}

  /**
   * Marks {@code dir} as a live private directory of this JVM until {@link #ended}: the sweep never
   * opens its lock file. Call before its lock file is created.
   */
  public static void live(Path dir) {
    LIVE.add(dir.toAbsolutePath().normalize());
  }

  /** Ends {@link #live} for {@code dir}, once it has been removed (or given up). */
  public static void ended(Path dir) {
    LIVE.remove(dir.toAbsolutePath().normalize());
  }

  /** Removes the stale private directories in {@code stripeDir}; returns the ones removed. */
  public static List<Path> sweep(Path stripeDir, NoticeSink notices) {
    List<Path> removed = new ArrayList<>();
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(stripeDir)) {
      if (!(dirs instanceof SecureDirectoryStream)) {
        return removed; // no openat here: checks on paths could be raced, so nothing is swept
      }
      SecureDirectoryStream<Path> stripe = (SecureDirectoryStream<Path>) dirs;
      for (Path d : dirs) {
        Path name = d.getFileName();
        if (PRIVATE_NAME.matcher(name.toString()).matches()
            && !LIVE.contains(d.toAbsolutePath().normalize())
            && removeIfStale(stripe, d, name, notices)) {
          removed.add(d);
        }
      }
    } catch (IOException | DirectoryIteratorException e) {
      IOException cause =
          e instanceof DirectoryIteratorException i ? i.getCause() : (IOException) e;
      notices.notice(
          "could not scan temp dir "
              + stripeDir
              + " for stale files: "
              + SortIOException.reasonOf(cause));
    }
    return removed;
  }

  private static boolean removeIfStale(
      SecureDirectoryStream<Path> stripe, Path d, Path name, NoticeSink notices) {
    SecureDirectoryStream<Path> dir;
    try {
      dir = stripe.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      return false; // not a directory (a link, a file), or gone
    }
    try (dir) {
      PosixFileAttributes a =
          dir.getFileAttributeView(PosixFileAttributeView.class).readAttributes();
      if (!a.permissions().equals(MODE_0700)
          || !isOurs(a)
          || !a.lastModifiedTime().toInstant().plus(GRACE).isBefore(Instant.now())) {
        return false;
      }
      List<Path> files = ownFiles(dir, d, notices);
      if (files == null) {
        return false;
      }
      Path lockName = d.getFileSystem().getPath(Stripe.LOCK_FILE);
      if (!files.remove(lockName)) {
        return remove(stripe, dir, d, name, files, notices);
      }
      files.add(lockName); // deleted last: while files remain, the next sweep can still tell
      return removeUnderLock(stripe, dir, d, name, lockName, files, notices);
    } catch (IOException e) {
      notices.notice("could not check stale temp dir " + d + ": " + SortIOException.reasonOf(e));
      return false;
    }
  }

  private static boolean removeUnderLock(
      SecureDirectoryStream<Path> stripe,
      SecureDirectoryStream<Path> dir,
      Path d,
      Path name,
      Path lockName,
      List<Path> files,
      NoticeSink notices)
      throws IOException {
    Set<OpenOption> options = Set.of(StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    try (SeekableByteChannel ch = dir.newByteChannel(lockName, options)) {
      if (!(ch instanceof FileChannel fc)) {
        return false; // cannot be locked: cannot tell a live owner from a dead one
      }
      FileLock lock;
      try {
        lock = fc.tryLock();
      } catch (OverlappingFileLockException e) {
        return false; // held in this JVM (not marked live: a caller outside this package)
      }
      if (lock == null) {
        return false; // held by a live process
      }
      try {
        return remove(stripe, dir, d, name, files, notices);
      } finally {
        lock.release();
      }
    }
  }

  /** Deletes {@code files} in their order, then the directory. */
  private static boolean remove(
      SecureDirectoryStream<Path> stripe,
      SecureDirectoryStream<Path> dir,
      Path d,
      Path name,
      List<Path> files,
      NoticeSink notices) {
    SortIOException err = null;
    for (Path f : files) {
      try {
        dir.deleteFile(f);
      } catch (NoSuchFileException e) {
        // another sweep took it
      } catch (IOException e) {
        err =
            TreeDeleter.add(
                err, new SortIOException("delete", d.resolve(f), SortIOException.reasonOf(e), e));
      }
    }
    try {
      stripe.deleteDirectory(name); // fails, leaving it, if a file appeared meanwhile
    } catch (NoSuchFileException e) {
      // another sweep took it
    } catch (IOException e) {
      err = TreeDeleter.add(err, new SortIOException("delete", d, SortIOException.reasonOf(e), e));
    }
    if (err != null) {
      notices.notice("could not remove stale temp dir " + d + ": " + err.getMessage());
      return false;
    }
    return true;
  }

  /**
   * The names of the entries of {@code dir} if every one is a regular file with a name joule gives,
   * else null (and a notice naming the first other entry).
   */
  private static List<Path> ownFiles(SecureDirectoryStream<Path> dir, Path d, NoticeSink notices)
      throws IOException {
    List<Path> files = new ArrayList<>();
    for (Path e : dir) {
      Path name = e.getFileName();
      boolean regular;
      try {
        regular =
            dir.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                .readAttributes()
                .isRegularFile();
      } catch (NoSuchFileException gone) {
        continue;
      }
      if (!regular || !OWN_FILE_NAME.matcher(name.toString()).matches()) {
        notices.notice(
            "left "
                + d
                + " alone: it looks like a stale temp dir of joule but holds "
                + d.resolve(name)
                + ", which joule does not write");
        return null;
      }
      files.add(name);
    }
    return files;
  }

  /** This process's user, or null where it cannot be had (then the owner's name decides). */
  private static final UserPrincipal OWN_USER = ownUser();

  private static UserPrincipal ownUser() {
    try {
      return Files.getOwner(Path.of("/proc/self"));
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static boolean isOurs(PosixFileAttributes a) {
    if (OWN_USER != null) {
      return OWN_USER.equals(a.owner());
    }
    String user = System.getProperty("user.name");
    return user != null && user.equals(a.owner().getName());
  }
}

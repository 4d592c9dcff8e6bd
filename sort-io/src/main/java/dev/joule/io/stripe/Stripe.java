package dev.joule.io.stripe;

import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * One temp directory in use by one sort: the stripe directory itself, checked for safety at start,
 * and this sort's private directory {@code joule-<uuid>} inside it (mode 0700) holding {@code
 * owner.lock}, locked with {@link FileChannel#lock()} for the sort's life and containing the
 * owner's pid. A sort killed with SIGKILL leaves the directory behind, but the kernel drops its
 * lock, which is how the next sort's {@link StaleDirSweeper} tells it from a live one.
 *
 * <p>Memory: a few objects and one open lock channel. Thread-safety: {@link #checkUsable(long)} may
 * be called concurrently; {@link #release()} once by the owner.
 */
public final class Stripe {
  /** Name prefix of private directories; the rest is a random UUID. */
  public static final String PRIVATE_PREFIX = "joule-";

  /** Lock file inside the private directory. */
  public static final String LOCK_FILE = "owner.lock";

  static final FileAttribute<Set<PosixFilePermission>> DIR_0700 =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
  static final FileAttribute<Set<PosixFilePermission>> FILE_0600 =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

  /** The sticky bit in {@code unix:mode}: S_ISVTX. */
  private static final int STICKY = 01000;

  /** "Other" write permission in {@code unix:mode}: S_IWOTH. */
  private static final int OTHERS_WRITE = 0002;

  private final Path dir;
  private final Object fileSystemId;
  private final Path privateDir;
  private FileChannel lockChannel;
  private FileLock lock;

  private Stripe(Path dir, Object fileSystemId, Path privateDir) {
    this.dir = dir;
    this.fileSystemId = fileSystemId;
    this.privateDir = privateDir;
  }

  /**
   * Refuses an unusable or unsafe stripe directory, before any input is read: missing, not a
   * directory, world-writable without the sticky bit, read-only or not writable.
   *
   * @throws SortIOException op {@code "use temp dir"}, naming {@code dir} and the reason
   */
  public static void validate(Path dir) throws SortIOException {
    String op = "use temp dir";
    if (!Files.exists(dir)) {
      throw new SortIOException(op, dir, "No such file or directory");
    }
    if (!Files.isDirectory(dir)) {
      throw new SortIOException(op, dir, "Not a directory");
    }
    try {
      Object mode = Files.getAttribute(dir, "unix:mode");
      int m = (Integer) mode;
      if ((m & OTHERS_WRITE) != 0 && (m & STICKY) == 0) {
        throw new SortIOException(op, dir, "world-writable without the sticky bit");
      }
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      // no unix view on this file system: nothing to check
    } catch (SortIOException e) {
      throw e;
    } catch (IOException e) {
      throw new SortIOException(op, dir, SortIOException.reasonOf(e), e);
    }
    try {
      if (Files.getFileStore(dir).isReadOnly()) {
        throw new SortIOException(op, dir, "Read-only file system");
      }
    } catch (SortIOException e) {
      throw e;
    } catch (IOException e) {
      throw new SortIOException(op, dir, SortIOException.reasonOf(e), e);
    }
    if (!Files.isWritable(dir)) {
      throw new SortIOException(op, dir, "Permission denied (not writable)");
    }
  }

  /**
   * The file-system identity of {@code dir}: {@code unix:dev} where available, else the FileStore.
   */
  static Object fileSystemId(Path dir) throws IOException {
    try {
      return Files.getAttribute(dir, "unix:dev");
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      FileStore store = Files.getFileStore(dir);
      return store.name() + "|" + store.type() + "|" + store;
    }
  }

  /**
   * Validates {@code dir}, creates this sort's private directory in it (0700, set at creation so
   * the umask cannot widen it) and takes its lock.
   */
  static Stripe open(Path dir, String uuid) throws SortIOException {
    validate(dir);
    Object id;
    try {
      id = fileSystemId(dir);
    } catch (IOException e) {
      throw new SortIOException("stat", dir, SortIOException.reasonOf(e), e);
    }
    Path priv = dir.resolve(PRIVATE_PREFIX + uuid);
    StaleDirSweeper.live(priv); // before its lock exists: no sweep in this JVM may probe the lock
    try {
      Files.createDirectory(priv, DIR_0700);
    } catch (IOException e) {
      StaleDirSweeper.ended(priv);
      throw new SortIOException("create directory", priv, SortIOException.reasonOf(e), e);
    }
    Stripe s = new Stripe(dir, id, priv);
    Path lockFile = priv.resolve(LOCK_FILE);
    try {
      s.lockChannel =
          FileChannel.open(
              lockFile,
              Set.of(
                  StandardOpenOption.CREATE_NEW,
                  StandardOpenOption.WRITE,
                  LinkOption.NOFOLLOW_LINKS),
              FILE_0600);
      s.lock = s.lockChannel.lock();
      s.lockChannel.write(
          ByteBuffer.wrap(
              (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)));
    } catch (IOException e) {
      SortIOException err = new SortIOException("lock", lockFile, SortIOException.reasonOf(e), e);
      try {
        s.release();
      } catch (SortIOException cleanup) {
        err.addSuppressed(cleanup);
      }
      throw err;
    }
    return s;
  }

  /** The stripe directory as configured. */
  public Path dir() {
    return dir;
  }

  /** This sort's private directory inside the stripe. */
  public Path privateDir() {
    return privateDir;
  }

  /**
   * Checks, before a new file is written here, that the stripe is still the file system it was at
   * start (a lazily unmounted stripe would otherwise silently fill its parent file system) and that
   * at least {@code bytes} are usable.
   *
   * @throws SortIOException naming the stripe directory
   */
  public void checkUsable(long bytes) throws SortIOException {
    Object now;
    try {
      now = fileSystemId(dir);
    } catch (IOException e) {
      throw new SortIOException("stat", dir, SortIOException.reasonOf(e), e);
    }
    if (!fileSystemId.equals(now) || !Files.isDirectory(privateDir, LinkOption.NOFOLLOW_LINKS)) {
      throw new SortIOException(
          "create", privateDir, "temp dir " + dir + " is no longer on the same file system");
    }
    long usable;
    try {
      usable = Files.getFileStore(privateDir).getUsableSpace();
    } catch (IOException e) {
      throw new SortIOException("statfs", dir, SortIOException.reasonOf(e), e);
    }
    if (usable < bytes) {
      throw new SortIOException(
          "reserve space",
          dir,
          "No space left on device (need " + bytes + " bytes, " + usable + " usable)");
    }
  }

  /**
   * Deletes the private directory and everything in it (without following links), then releases the
   * lock. Every entry is attempted; the first error is thrown with the others suppressed.
   */
  void release() throws SortIOException {
    SortIOException first = TreeDeleter.deleteContents(privateDir, LOCK_FILE);
    try {
      Files.deleteIfExists(privateDir.resolve(LOCK_FILE));
    } catch (IOException e) {
      first =
          TreeDeleter.add(
              first,
              new SortIOException(
                  "delete", privateDir.resolve(LOCK_FILE), SortIOException.reasonOf(e), e));
    }
    try {
      if (lock != null) {
        lock.release();
      }
      if (lockChannel != null) {
        lockChannel.close();
      }
    } catch (IOException e) {
      first =
          TreeDeleter.add(
              first,
              new SortIOException(
                  "unlock", privateDir.resolve(LOCK_FILE), SortIOException.reasonOf(e), e));
    } finally {
      lock = null;
      lockChannel = null;
    }
    try {
      Files.deleteIfExists(privateDir);
    } catch (IOException e) {
      first =
          TreeDeleter.add(
              first, new SortIOException("delete", privateDir, SortIOException.reasonOf(e), e));
    }
    StaleDirSweeper.ended(privateDir); // what is left (after an error) is the next sweep's
    if (first != null) {
      throw first;
    }
  }

  @Override
  public String toString() {
    return dir.toString();
  }
}

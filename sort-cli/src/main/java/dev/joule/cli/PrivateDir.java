package dev.joule.cli;

import dev.joule.io.fs.SortIOException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.UUID;

/**
 * A private directory of the CLI ({@code joule-<tag>-<uuid>}, mode 0700) inside a temp or bench
 * directory: where {@code joule sort - -} spools standard input and stages the output, and where
 * {@code joule bench} keeps its data. It holds a locked {@code owner.lock}, the convention of the
 * engine's stripe directories, so a later sort's stale-directory sweep removes it after a SIGKILL
 * but never while this process lives. Deleted by {@link #close()}, or by a shutdown hook when the
 * JVM is ended by a signal first.
 *
 * <p>Not thread-safe; one owner.
 */
final class PrivateDir implements AutoCloseable {
  private final Path dir;
  private final FileChannel lockChannel;
  private final Thread hook;
  private boolean closed;

  private PrivateDir(Path dir, FileChannel lockChannel) {
    this.dir = dir;
    this.lockChannel = lockChannel;
    this.hook = new Thread(this::deleteQuietly, "joule-cli-cleanup");
  }

  /** Creates the directory in {@code parent} and registers its cleanup hook first. */
  static PrivateDir create(Path parent, String tag) throws SortIOException {
    Path d = parent.resolve("joule-" + tag + "-" + UUID.randomUUID());
    try {
      Files.createDirectory(d, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (IOException e) {
      throw new SortIOException("create directory", d, SortIOException.reasonOf(e), e);
    }
    Path lockFile = d.resolve("owner.lock");
    FileChannel ch = null;
    try {
      ch = FileChannel.open(lockFile, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      FileLock lock = ch.tryLock();
      if (lock == null) {
        throw new IOException("locked by another process");
      }
    } catch (IOException e) {
      closeQuietly(ch);
      deleteTree(d);
      throw new SortIOException("lock", lockFile, SortIOException.reasonOf(e), e);
    }
    PrivateDir p = new PrivateDir(d, ch);
    Runtime.getRuntime().addShutdownHook(p.hook);
    return p;
  }

  /** A path inside the directory. */
  Path resolve(String name) {
    return dir.resolve(name);
  }

  Path path() {
    return dir;
  }

  /** Creates an empty file with mode 0600 inside the directory. */
  Path newFile(String name) throws SortIOException {
    Path f = dir.resolve(name);
    try {
      return Files.createFile(f, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (IOException e) {
      throw new SortIOException("create", f, SortIOException.reasonOf(e), e);
    }
  }

  /** Deletes the directory and everything in it. */
  @Override
  public void close() throws SortIOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook is running or will run and deletes the directory
      return;
    }
    closeQuietly(lockChannel);
    IOException failure = deleteTree(dir);
    if (failure != null) {
      throw new SortIOException("delete", dir, SortIOException.reasonOf(failure), failure);
    }
  }

  private void deleteQuietly() {
    closeQuietly(lockChannel);
    deleteTree(dir);
  }

  private static void closeQuietly(FileChannel ch) {
    if (ch != null) {
      try {
        ch.close();
      } catch (IOException e) {
        // only a lock's channel: nothing was written through it
      }
    }
  }

  /** Deletes {@code root} recursively without following links; returns the first failure. */
  private static IOException deleteTree(Path root) {
    try {
      Files.walkFileTree(root, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
          Files.deleteIfExists(f);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
          if (e != null) {
            throw e;
          }
          Files.deleteIfExists(d);
          return FileVisitResult.CONTINUE;
        }
      });
      return null;
    } catch (java.nio.file.NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      return e;
    }
  }
}

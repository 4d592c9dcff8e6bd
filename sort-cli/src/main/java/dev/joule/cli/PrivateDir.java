package dev.joule.cli;

import dev.joule.io.error.SortIOException;
import dev.joule.io.stripe.StaleDirSweeper;
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
 * A private directory of the CLI ({@code joule-<tag>-<uuid>}, mode 0700) inside a bench directory,
 * where {@code joule bench} keeps its data. It holds a locked {@code owner.lock}, the convention of
 * the engine's stripe directories, so a later sort's stale-directory sweep removes it after a
 * SIGKILL but never while this process lives. Deleted by {@link #close()}, or by a shutdown hook
 * when the JVM is ended by a signal first.
 *
 * <p>Not thread-safe; one owner.
 */
final class PrivateDir implements AutoCloseable {
  private final Path dir;
  private final Thread hook;
  private volatile FileChannel lockChannel;

  /**
   * Set once the directory exists: the hook never deletes a directory this object did not create.
   */
  private volatile boolean created;

  private boolean closed;

  private PrivateDir(Path dir) {
    this.dir = dir;
    this.hook = new Thread(this::deleteQuietly, "joule-cli-cleanup");
  }

  /**
   * Creates the directory in {@code parent}. The cleanup hook is registered before the directory
   * exists (FLINK-15010), so a signal at any moment leaves nothing behind.
   */
  static PrivateDir create(Path parent, String tag) throws SortIOException {
    PrivateDir p = new PrivateDir(parent.resolve("joule-" + tag + "-" + UUID.randomUUID()));
    Runtime.getRuntime().addShutdownHook(p.hook);
    try {
      p.createAndLock();
    } catch (SortIOException e) {
      p.deleteQuietly();
      Runtime.getRuntime().removeShutdownHook(p.hook);
      throw e;
    }
    return p;
  }

  private void createAndLock() throws SortIOException {
    StaleDirSweeper.live(dir); // a sort of this JVM that sweeps here must not probe our lock
    try {
      Files.createDirectory(
          dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (IOException e) {
      throw new SortIOException("create directory", dir, SortIOException.reasonOf(e), e);
    }
    created = true;
    Path lockFile = dir.resolve("owner.lock");
    try {
      lockChannel =
          FileChannel.open(lockFile, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      FileLock lock = lockChannel.tryLock();
      if (lock == null) {
        throw new IOException("locked by another process");
      }
    } catch (IOException e) {
      throw new SortIOException("lock", lockFile, SortIOException.reasonOf(e), e);
    }
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
      return Files.createFile(
          f, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
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
    StaleDirSweeper.ended(dir);
    if (failure != null) {
      throw new SortIOException("delete", dir, SortIOException.reasonOf(failure), failure);
    }
  }

  private void deleteQuietly() {
    closeQuietly(lockChannel);
    if (created) {
      deleteTree(dir);
    }
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
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
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

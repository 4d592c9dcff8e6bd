package dev.joule.io.output;

import dev.joule.io.block.BlockFile;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.BlockWriter;
import dev.joule.io.block.DeviceMeter;
import dev.joule.io.block.FileParts;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.error.SortIOException;
import dev.joule.io.fs.Durability;
import dev.joule.io.fs.RandomNames;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;

/**
 * Writes the output under {@code .<name>.<random>.tmp} in the output's own directory (so the
 * publish is never a cross-file-system rename) and publishes it with {@link #commit()}:
 * write-behind drained, file forced, {@code ATOMIC_MOVE} over the final name, directory fsynced.
 * Until the rename, the final name is untouched, so sorting a file onto itself works (the input is
 * replaced only at the rename) and any failure leaves an existing output byte-identical. {@link
 * #close()} without a successful commit deletes the temporary.
 *
 * <p>Choices: an output path that is a symbolic link is written through, i.e. its target is
 * replaced (GNU sort's behaviour). The published file's mode is that of the file it replaces, or
 * for a new file the OS default for creation, {@code 0666 & ~umask} (GNU's {@code MODE_RW_UGO}). A
 * failed fsync is never retried (fsyncgate, see {@link BlockFile#force()}). A previous output is
 * hard-linked as {@code .<name>.<random>.old.tmp} before the rename; if the directory fsync after
 * the rename fails, that link is renamed back (a new output is deleted), so the failure still
 * leaves the final name as it was (docs/reliability.md CFC 3). Without hard links the new output
 * stays in place then.
 *
 * <p>Memory: the {@link BlockWriter}'s pool buffers. Not thread-safe: one owner thread.
 */
public final class AtomicOutput implements AutoCloseable {
  /** Attempts at finding an unused temporary name before giving up. */
  private static final int NAME_ATTEMPTS = 16;

  private final Path target;
  private final Path temp;
  private final BlockFile file;
  private final BlockWriter writer;
  private final SortThreads threads;
  private boolean committed;
  private boolean closed;

  /**
   * Deletes the temporary (and a previous version's link) if the JVM is shut down by a signal
   * before the commit: registered at creation, removed by the commit or close (docs/reliability.md
   * P1).
   */
  private final Thread hook;

  private volatile Path backupLink;

  private AtomicOutput(
      Path target, Path temp, BlockFile file, BlockWriter writer, SortThreads threads) {
    this.hook = new Thread(this::deleteOnShutdown, "joule-output-cleanup");
    Runtime.getRuntime().addShutdownHook(hook);
    this.target = target;
    this.temp = temp;
    this.file = file;
    this.writer = writer;
    this.threads = threads;
  }

  /**
   * Checks, before any input is read, that an output can be created at {@code target}: its
   * directory exists and is writable.
   *
   * @throws SortIOException op {@code "create"} naming {@code target}
   */
  public static void checkDirectory(Path target) throws SortIOException {
    Path dir = target.toAbsolutePath().getParent();
    if (dir == null || !Files.isDirectory(dir)) {
      throw new SortIOException("create", target, "No such file or directory");
    }
    if (!Files.isWritable(dir)) {
      throw new SortIOException("create", target, "Permission denied");
    }
  }

  /**
   * Creates the temporary file for {@code target} and a write-behind writer into it using {@code
   * pool}'s buffers; its writers' threads, and those of its {@link #regionWriter region writers},
   * come from {@code threads}.
   *
   * @throws SortIOException op {@code "create"} naming the temporary (e.g. the directory is
   *     missing)
   */
  public static AtomicOutput create(
      Path target,
      DirectIoPolicy policy,
      NoticeSink notices,
      BlockPool pool,
      int maxInFlight,
      SortThreads threads)
      throws IOException {
    return create(target, policy, notices, pool, maxInFlight, threads, DeviceMeter.NONE);
  }

  /**
   * As {@link #create(Path, DirectIoPolicy, NoticeSink, BlockPool, int, SortThreads)}, counting
   * every transfer of the temporary on {@code meter} (the sort's timeline).
   *
   * @throws SortIOException op {@code "create"} naming the temporary
   */
  public static AtomicOutput create(
      Path target,
      DirectIoPolicy policy,
      NoticeSink notices,
      BlockPool pool,
      int maxInFlight,
      SortThreads threads,
      DeviceMeter meter)
      throws IOException {
    Path resolved = target;
    if (Files.isSymbolicLink(target)) {
      try {
        resolved = target.toRealPath();
      } catch (IOException e) {
        throw new SortIOException("resolve", target, SortIOException.reasonOf(e), e);
      }
    }
    Path dir = resolved.toAbsolutePath().getParent();
    String name = resolved.getFileName().toString();
    BlockFile file = null;
    Path temp = null;
    for (int attempt = 0; file == null; attempt++) {
      temp =
          dir.resolve(
              "." + name + "." + Long.toUnsignedString(RandomNames.nextLong(), 36) + ".tmp");
      try {
        file = BlockFile.createNew(FileParts.single(temp, 0, meter), policy, notices, p -> {});
      } catch (SortIOException e) {
        if (!(e.getCause() instanceof FileAlreadyExistsException) || attempt + 1 >= NAME_ATTEMPTS) {
          throw e;
        }
      }
    }
    try {
      copyMode(resolved, temp);
      return new AtomicOutput(
          resolved, temp, file, new BlockWriter(file, pool, maxInFlight, threads), threads);
    } catch (IOException | RuntimeException e) {
      abort(file, temp, e);
      throw e;
    }
  }

  private static void copyMode(Path from, Path to) throws SortIOException {
    PosixFileAttributeView view = Files.getFileAttributeView(from, PosixFileAttributeView.class);
    if (view == null || !Files.exists(from)) {
      return;
    }
    try {
      Files.setPosixFilePermissions(to, view.readAttributes().permissions());
    } catch (IOException e) {
      throw new SortIOException("chmod", to, SortIOException.reasonOf(e), e);
    }
  }

  /** The final path (a symbolic link given as output is resolved to its target). */
  public Path target() {
    return target;
  }

  /** The hidden temporary being written. */
  public Path temporaryPath() {
    return temp;
  }

  /** The writer of the output's bytes; owned by this object. */
  public BlockWriter writer() {
    return writer;
  }

  /**
   * A positional write-behind writer for the temporary's bytes from {@code offset} on (a multiple
   * of 4096 for DIRECT transfers), for a parallel merge whose threads each write a disjoint region.
   * The caller finishes it with {@link BlockWriter#finishRegion()} and closes it before {@link
   * #commitRegions(long)}; it must be closed before this output is closed after a failure.
   */
  public BlockWriter regionWriter(long offset, BlockPool pool, int maxInFlight) {
    if (committed || closed) {
      throw new IllegalStateException("output " + target + " already committed or closed");
    }
    return new BlockWriter(file, pool, maxInFlight, offset, threads);
  }

  /**
   * Publishes a temporary written through {@link #regionWriter region writers} (the main {@link
   * #writer()} unused): cuts it to {@code length}, then as {@link #commit()}.
   */
  public void commitRegions(long length) throws IOException {
    if (writer.position() != 0) {
      throw new IllegalStateException("the main writer was used; call commit()");
    }
    publish(length);
  }

  /**
   * Publishes the output: drains and forces the data, closes the file, renames it atomically over
   * the final name and fsyncs the directory. On failure the temporary is deleted (by this method)
   * and the exception names the step and path.
   */
  public void commit() throws IOException {
    publish(-1);
  }

  private void publish(long regionsLength) throws IOException {
    if (committed || closed) {
      throw new IllegalStateException("output " + target + " already committed or closed");
    }
    Path backup = null;
    try {
      if (regionsLength < 0) {
        writer.finish(true);
        writer.close();
      } else {
        writer.close();
        file.truncate(regionsLength);
        file.force();
      }
      file.close();
      backup = linkPrevious();
      backupLink = backup;
      try {
        Files.move(
            temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException e) {
        throw new SortIOException(
            "rename", temp, SortIOException.reasonOf(e) + " (to " + target + ")", e);
      }
      committed = true;
    } catch (IOException | RuntimeException e) {
      closed = true;
      try {
        writer.close(); // first: its thread must stop writing before the file is closed and deleted
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      abort(file, temp, e);
      deleteQuietly(backup, e);
      unhook();
      throw e;
    }
    closed = true;
    try {
      Durability.forceDirectory(target.toAbsolutePath().getParent());
      if (backup != null) {
        try {
          Files.delete(backup);
        } catch (IOException e) {
          throw new SortIOException("delete", backup, SortIOException.reasonOf(e), e);
        }
      }
    } catch (IOException | RuntimeException e) {
      rollBack(backup, e);
      throw e;
    } finally {
      unhook();
    }
  }

  private void deleteOnShutdown() {
    try {
      Files.deleteIfExists(temp);
      Path b = backupLink;
      if (b != null) {
        Files.deleteIfExists(b);
      }
    } catch (IOException e) {
      // the JVM is going down: nobody left to report to
    }
  }

  private void unhook() {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // shutting down: the hook is running or has run
    }
  }

  /**
   * A hard link {@code .<name>.<random>.old.tmp} to the output being replaced, so that a failure
   * after the rename (the directory fsync) can put the previous version back; null if there is no
   * previous version or the file system has no hard links (then such a failure leaves the new,
   * complete output in place).
   */
  private Path linkPrevious() throws SortIOException {
    if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
      return null;
    }
    Path link =
        temp.resolveSibling(temp.getFileName().toString().replaceFirst("\\.tmp$", ".old.tmp"));
    try {
      Files.createLink(link, target);
      return link;
    } catch (UnsupportedOperationException e) {
      return null;
    } catch (IOException e) {
      throw new SortIOException(
          "link", link, SortIOException.reasonOf(e) + " (to " + target + ")", e);
    }
  }

  /** After a failure past the rename: the previous version back (or the new output removed). */
  private void rollBack(Path backup, Throwable primary) {
    try {
      if (backup != null) {
        Files.move(
            backup, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } else {
        Files.deleteIfExists(target);
      }
    } catch (IOException e) {
      primary.addSuppressed(
          new SortIOException("roll back", target, SortIOException.reasonOf(e), e));
    }
  }

  private static void deleteQuietly(Path p, Throwable primary) {
    if (p == null) {
      return;
    }
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      primary.addSuppressed(new SortIOException("delete", p, SortIOException.reasonOf(e), e));
    }
  }

  private static void abort(BlockFile file, Path temp, Throwable primary) {
    try {
      file.close();
    } catch (IOException e) {
      primary.addSuppressed(e);
    }
    try {
      Files.deleteIfExists(temp);
    } catch (IOException e) {
      primary.addSuppressed(new SortIOException("delete", temp, SortIOException.reasonOf(e), e));
    }
  }

  /**
   * Without a successful {@link #commit()}: stops the writer, closes and deletes the temporary; the
   * final name is untouched. After a commit: nothing. Idempotent.
   */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    unhook();
    IOException primary = null;
    try {
      writer.close();
    } catch (IOException e) {
      primary = e;
    }
    try {
      file.close();
    } catch (IOException e) {
      if (primary == null) {
        primary = e;
      } else {
        primary.addSuppressed(e);
      }
    }
    try {
      Files.deleteIfExists(temp);
    } catch (IOException e) {
      SortIOException d = new SortIOException("delete", temp, SortIOException.reasonOf(e), e);
      if (primary == null) {
        primary = d;
      } else {
        primary.addSuppressed(d);
      }
    }
    if (primary != null) {
      throw primary;
    }
  }
}

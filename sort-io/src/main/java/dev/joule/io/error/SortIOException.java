package dev.joule.io.error;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.nio.file.Path;

/**
 * An I/O failure that names the operation and the exact path: the message is always {@code "<op>
 * failed: <path>: <reason>"}, where the reason is the operating system's errno text (for example
 * {@code "No space left on device"}) when one is known. The original exception is the cause.
 *
 * <p>Every {@link IOException} that leaves {@code dev.joule.io} is either this or {@link
 * CorruptRunException}. Immutable.
 */
public class SortIOException extends IOException {
  private final String op;
  private final transient Path path;
  private final String reason;

  /**
   * A failure of {@code op} on {@code path} for {@code reason}, caused by {@code cause} (may be
   * null).
   */
  public SortIOException(String op, Path path, String reason, Throwable cause) {
    super(op + " failed: " + path + ": " + reason, cause);
    this.op = op;
    this.path = path;
    this.reason = reason;
  }

  /**
   * A failure of {@code op} on {@code path} for {@code reason} whose message is {@code message}
   * rather than the usual form (a subclass that reports as another tool does).
   */
  protected SortIOException(String message, String op, Path path, String reason, Throwable cause) {
    super(message, cause);
    this.op = op;
    this.path = path;
    this.reason = reason;
  }

  /** A failure of {@code op} on {@code path} for {@code reason}, with no underlying exception. */
  public SortIOException(String op, Path path, String reason) {
    this(op, path, reason, null);
  }

  /**
   * Wraps {@code e} so that it names {@code op} and {@code path}. An exception that already names
   * an operation and a path ({@code SortIOException} or a subclass) is returned unchanged, so
   * wrapping twice does not bury the first, more precise, operation.
   */
  public static IOException wrap(String op, Path path, IOException e) {
    if (e instanceof SortIOException || e instanceof CorruptRunException) {
      return e;
    }
    return new SortIOException(op, path, reasonOf(e), e);
  }

  /**
   * The errno text of {@code e}: {@link FileSystemException#getReason()} when present, the strerror
   * text implied by the JDK's typed exceptions (which carry no reason), else the message.
   */
  public static String reasonOf(IOException e) {
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getReason();
    }
    if (e instanceof NoSuchFileException) {
      return "No such file or directory";
    }
    if (e instanceof FileAlreadyExistsException) {
      return "File exists";
    }
    if (e instanceof AccessDeniedException) {
      return "Permission denied";
    }
    if (e instanceof NotDirectoryException) {
      return "Not a directory";
    }
    if (e instanceof DirectoryNotEmptyException) {
      return "Directory not empty";
    }
    if (e instanceof NotLinkException) {
      return "Not a symbolic link";
    }
    if (e instanceof FileSystemLoopException) {
      return "Too many levels of symbolic links";
    }
    String m = e.getMessage();
    return m == null ? e.getClass().getSimpleName() : m;
  }

  /** The operation that failed, for example {@code "write"}, {@code "open"}, {@code "rename"}. */
  public String op() {
    return op;
  }

  /** The file or directory the operation was applied to. */
  public Path path() {
    return path;
  }

  /** The errno text or other reason, without the op and path. */
  public String reason() {
    return reason;
  }
}

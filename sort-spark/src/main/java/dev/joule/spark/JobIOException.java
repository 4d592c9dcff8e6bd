package dev.joule.spark;

import java.io.IOException;

/**
 * An I/O failure of the Spark sort that names the operation and the path (a Hadoop path or URI):
 * the message is always {@code "<op> failed: <path>: <reason>"}, as joule's own I/O errors.
 * Serializable, so a task's failure reaches the driver with its message intact.
 */
public class JobIOException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String op;
  private final String path;
  private final String reason;

  public JobIOException(String op, String path, String reason, Throwable cause) {
    super(op + " failed: " + path + ": " + reason, cause);
    this.op = op;
    this.path = path;
    this.reason = reason;
  }

  public JobIOException(String op, String path, String reason) {
    this(op, path, reason, null);
  }

  /**
   * Wraps {@code e} so that it names {@code op} and {@code path}, unless it already is a {@code
   * JobIOException}.
   */
  public static JobIOException wrap(String op, Object path, IOException e) {
    if (e instanceof JobIOException j) {
      return j;
    }
    return new JobIOException(op, String.valueOf(path), reasonOf(e), e);
  }

  /** The operating system's or the file system's reason, without the exception class. */
  public static String reasonOf(IOException e) {
    if (e instanceof java.io.FileNotFoundException) {
      return "No such file or directory";
    }
    if (e instanceof java.io.EOFException) {
      return "unexpected end of file (did the input change during the sort?)";
    }
    if (e instanceof java.nio.file.AccessDeniedException
        || e instanceof org.apache.hadoop.security.AccessControlException) {
      return "Permission denied";
    }
    String m = e.getMessage();
    return m == null || m.isEmpty() ? e.getClass().getSimpleName() : m;
  }

  public String op() {
    return op;
  }

  public String path() {
    return path;
  }

  public String reason() {
    return reason;
  }
}

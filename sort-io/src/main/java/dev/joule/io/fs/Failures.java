package dev.joule.io.fs;

import dev.joule.io.error.SortCancelledException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.Iterator;

/**
 * The one way the sort turns what went wrong into what its caller sees, and closes what it opened:
 *
 * <ul>
 *   <li>{@link #translate}: an interrupt (any {@link InterruptedIOException} that is not already a
 *       {@link SortCancelledException}) becomes a {@code SortCancelledException} with the thread's
 *       interrupt flag set again; an {@link UncheckedIOException} (how cursors, which cannot throw
 *       checked exceptions, report I/O errors) gives up its cause; other I/O exceptions pass
 *       unchanged; unchecked throwables are rethrown as they are.
 *   <li>{@link #checkCancelled}: the cancellation point between blocks.
 *   <li>{@link #closeAll} and {@link #closeAllAfter}: close every resource even when some fail; the
 *       first failure wins and the others are attached to it as suppressed exceptions (Lucene's
 *       {@code IOUtils} discipline), so no cleanup error hides the original cause.
 * </ul>
 *
 * <p>Stateless and thread-safe.
 */
public final class Failures {
  private Failures() {}

  /**
   * The exception to throw for {@code e}: see the class documentation. Returns checked exceptions
   * (always an {@link IOException}); throws unchecked ones.
   */
  public static IOException translate(Throwable e) {
    Throwable t = e;
    if (t instanceof UncheckedIOException && t.getCause() != null) {
      IOException cause = ((UncheckedIOException) t).getCause();
      for (Throwable s : t.getSuppressed()) {
        cause.addSuppressed(s);
      }
      t = cause;
    }
    if (t instanceof InterruptedIOException && !(t instanceof SortCancelledException)) {
      Thread.currentThread().interrupt();
      SortCancelledException c = new SortCancelledException("sort cancelled: " + t.getMessage());
      c.initCause(t);
      return c;
    }
    if (t instanceof IOException) {
      return (IOException) t;
    }
    if (t instanceof RuntimeException) {
      throw (RuntimeException) t;
    }
    if (t instanceof Error) {
      throw (Error) t;
    }
    throw new IllegalStateException(t);
  }

  /**
   * Throws {@link SortCancelledException} if the current thread was interrupted; the interrupt flag
   * stays set, so that every later blocking call of the failing sort also returns at once.
   */
  public static void checkCancelled() throws SortCancelledException {
    if (Thread.currentThread().isInterrupted()) {
      throw new SortCancelledException("sort cancelled (thread interrupted)");
    }
  }

  /**
   * Closes every resource of {@code resources} (nulls are skipped) in iteration order. Throws the
   * first failure after all were attempted, with the later ones suppressed; checked exceptions that
   * are not I/O exceptions are wrapped in {@link IOException}.
   */
  public static void closeAll(Iterable<? extends AutoCloseable> resources) throws IOException {
    Throwable first = null;
    for (Iterator<? extends AutoCloseable> it = resources.iterator(); it.hasNext(); ) {
      AutoCloseable r = it.next();
      if (r == null) {
        continue;
      }
      try {
        r.close();
      } catch (Exception | Error e) {
        if (first == null) {
          first = e;
        } else if (first != e) {
          first.addSuppressed(e);
        }
      }
    }
    if (first == null) {
      return;
    }
    if (first instanceof IOException) {
      throw (IOException) first;
    }
    if (first instanceof RuntimeException) {
      throw (RuntimeException) first;
    }
    if (first instanceof Error) {
      throw (Error) first;
    }
    throw new IOException("close failed: " + first, first);
  }

  /**
   * Closes every resource of {@code resources} (nulls are skipped) in iteration order after {@code
   * primary} ended the work; every close failure is added to {@code primary} as suppressed. Never
   * throws.
   */
  public static void closeAllAfter(Throwable primary, Iterable<? extends AutoCloseable> resources) {
    for (AutoCloseable r : resources) {
      if (r == null) {
        continue;
      }
      try {
        r.close();
      } catch (Exception | Error e) {
        if (e != primary) {
          primary.addSuppressed(e);
        }
      }
    }
  }
}

package dev.joule.io.fs;

import dev.joule.io.error.SortCancelledException;
import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileLockInterruptionException;
import java.util.Iterator;

/**
 * The one way the sort turns what went wrong into what its caller sees, and closes what it opened:
 *
 * <ul>
 *   <li>{@link #translate}: an interrupt becomes a {@code SortCancelledException} (the original
 *       exception its cause) with the thread's interrupt flag set again. An interrupt is an I/O
 *       exception thrown while the current thread's interrupt flag is set, or one with an {@link
 *       InterruptedIOException}, {@link ClosedByInterruptException}, {@link
 *       FileLockInterruptionException} or {@link InterruptedException} in its cause chain: an
 *       interrupt that lands inside a {@code FileChannel} call closes the channel and surfaces as
 *       the {@code SortIOException} of that call (open, read, write, fsync, lock), and one that
 *       lands in another thread's shared channel as its {@link
 *       java.nio.channels.ClosedChannelException}. An {@link UncheckedIOException} (how cursors,
 *       which cannot throw checked exceptions, report I/O errors) gives up its cause; other I/O
 *       exceptions pass unchanged; unchecked throwables are rethrown as they are.
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
    if (t instanceof SortCancelledException c) {
      return c;
    }
    if (t instanceof IOException io) {
      if (Thread.currentThread().isInterrupted() || interruptIn(io)) {
        Thread.currentThread().interrupt();
        SortCancelledException c = new SortCancelledException(cancelledMessage(io));
        c.initCause(io);
        return c;
      }
      return io;
    }
    if (t instanceof RuntimeException) {
      throw (RuntimeException) t;
    }
    if (t instanceof Error) {
      throw (Error) t;
    }
    throw new IllegalStateException(t);
  }

  /** Whether {@code e} or an exception in its cause chain is how an interrupt is reported. */
  private static boolean interruptIn(Throwable e) {
    // Bounded: a cause chain may be cyclic (initCause only refuses a cause that is the exception).
    Throwable t = e;
    for (int depth = 0; t != null && depth < 64; depth++, t = t.getCause()) {
      if (t instanceof InterruptedIOException
          || t instanceof ClosedByInterruptException
          || t instanceof FileLockInterruptionException
          || t instanceof InterruptedException) {
        return true;
      }
    }
    return false;
  }

  /**
   * One line saying the sort was cancelled and what it was doing: an interrupt's own message names
   * the wait it cut short; a failed operation's names the operation and its file.
   */
  private static String cancelledMessage(IOException e) {
    if (e instanceof InterruptedIOException) {
      return "sort cancelled: " + (e.getMessage() == null ? "thread interrupted" : e.getMessage());
    }
    if (e instanceof SortIOException s) {
      return "sort cancelled (thread interrupted) during " + s.op() + " of " + s.path();
    }
    return "sort cancelled (thread interrupted): " + SortIOException.reasonOf(e);
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

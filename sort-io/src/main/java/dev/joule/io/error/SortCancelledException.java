package dev.joule.io.error;

import java.io.InterruptedIOException;

/**
 * The sort was cancelled by interrupting its thread: checked between blocks; everything the sort
 * opened is closed and deleted before this is thrown, and the thread's interrupt flag is set again.
 * An {@link InterruptedIOException}, hence an {@link java.io.IOException}.
 */
public class SortCancelledException extends InterruptedIOException {
  private static final long serialVersionUID = 1L;

  /** A cancellation described by {@code message}. */
  public SortCancelledException(String message) {
    super(message);
  }
}

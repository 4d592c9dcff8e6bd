package dev.joule.io.error;

import java.io.IOException;

/**
 * The sort's self-validation failed: the output's record count, checksum or order does not match
 * the input (a bug or silent corruption, never a user error). Nothing was published. The CLI maps
 * it to exit 3, like {@code CorruptRunException}.
 */
public class SortValidationException extends IOException {
  private static final long serialVersionUID = 1L;

  /** A failed self-validation described by {@code message}. */
  public SortValidationException(String message) {
    super(message);
  }
}

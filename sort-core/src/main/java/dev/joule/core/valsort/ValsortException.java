package dev.joule.core.valsort;

/**
 * A fatal validation error that the reference valsort reports and exits 1 for; the message is the
 * reference's exact text (e.g. {@code partial record found at end}).
 */
public final class ValsortException extends Exception {
  /** The reference's message for an input without records. */
  public static final String NO_RECORDS = "there must be at least one record to be validated";

  /** The reference's message for a trailing partial record. */
  public static final String PARTIAL_RECORD = "partial record found at end";

  /** The reference's message for a trailing partial summary under {@code -s}. */
  public static final String PARTIAL_SUMMARY = "partial partition summary found at end";

  /** An exception with the given reference message. */
  public ValsortException(String message) {
    super(message);
  }
}

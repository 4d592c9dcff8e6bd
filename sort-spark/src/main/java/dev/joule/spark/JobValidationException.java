package dev.joule.spark;

import java.io.IOException;

/**
 * The sorted parts disagree with the input (record count, checksum) or are not in order across the
 * parts. Nothing was published.
 */
public class JobValidationException extends IOException {
  private static final long serialVersionUID = 1L;

  public JobValidationException(String message) {
    super(message);
  }
}

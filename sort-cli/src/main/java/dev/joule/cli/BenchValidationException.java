package dev.joule.cli;

import java.io.IOException;

/** {@code joule bench}: the sorted output failed validation against the generator (exit 3). */
final class BenchValidationException extends IOException {
  BenchValidationException(String message) {
    super(message);
  }
}

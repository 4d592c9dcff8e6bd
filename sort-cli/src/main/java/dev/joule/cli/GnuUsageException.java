package dev.joule.cli;

import picocli.CommandLine.ParameterException;

/**
 * A usage error found while reading the arguments as GNU getopt would ({@link GnuGetopt}), with
 * GNU's exit status and whether GNU follows its message with "Try '... --help' for more
 * information." (it does for getopt's errors and an invalid WORD, not for a bad key or tab). The
 * command line is attached by the reader once it knows it; {@link ExitCodeMapper} prints it.
 */
final class GnuUsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int exitCode;
  private final boolean tryHelp;

  GnuUsageException(String message, int exitCode, boolean tryHelp) {
    this(message, exitCode, tryHelp, null);
  }

  GnuUsageException(String message, int exitCode, boolean tryHelp, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
    this.tryHelp = tryHelp;
  }

  int exitCode() {
    return exitCode;
  }

  boolean tryHelp() {
    return tryHelp;
  }

  /** This error as picocli's exception of {@code cl}, so that picocli hands it to the mapper. */
  ParameterException onCommand(picocli.CommandLine cl) {
    return new ParameterException(cl, getMessage(), this);
  }
}

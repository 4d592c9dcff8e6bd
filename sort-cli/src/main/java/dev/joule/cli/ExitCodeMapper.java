package dev.joule.cli;

import dev.joule.io.error.CorruptRunException;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.error.SortIOException;
import dev.joule.io.error.SortValidationException;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IExitCodeExceptionMapper;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.TypeConversionException;

/**
 * Maps failures of {@code joule sort} and {@code joule bench} to one stderr line and an exit code
 * from {@link ExitCodes}: {@code joule: <operation> failed: <path>: <reason>} for I/O errors,
 * {@code joule: invalid value for --option: 'value': <reason>} for bad options. The stack trace is
 * printed only with {@code --stack-trace}. Commands that keep the reference tools' own error format
 * (gensort, valsort) get picocli's default handling. Stateless.
 */
final class ExitCodeMapper
    implements IExitCodeExceptionMapper, IParameterExceptionHandler, IExecutionExceptionHandler {
  private final IParameterExceptionHandler fallback;

  ExitCodeMapper(IParameterExceptionHandler fallback) {
    this.fallback = fallback;
  }

  @Override
  public int getExitCode(Throwable t) {
    return exitCode(t);
  }

  private static int exitCode(Throwable t) {
    if (t instanceof CorruptRunException
        || t instanceof SortValidationException
        || t instanceof BenchValidationException) {
      return ExitCodes.CORRUPT;
    }
    return ExitCodes.USAGE_OR_IO; // I/O, environment, bad arguments, and anything unexpected
  }

  @Override
  public int handleParseException(ParameterException ex, String[] args) throws Exception {
    CommandLine cl = ex.getCommandLine();
    if (cl.getCommand() instanceof JouleCommand) {
      return TopLevelUsage.report(ex, cl);
    }
    if (!usesOneLineErrors(cl)) {
      return fallback.handleParseException(ex, args);
    }
    int code = ExitCodes.USAGE_OR_IO;
    boolean tryHelp =
        ex instanceof CommandLine.UnmatchedArgumentException
            || ex instanceof CommandLine.MissingParameterException;
    if (ex.getCause() instanceof GnuUsageException g) {
      code = g.exitCode();
      tryHelp = g.tryHelp();
    }
    return reportUsage(
        cl.getErr(), usageMessage(ex), tryHelp ? TopLevelUsage.tryHelp(cl) : null, code);
  }

  /**
   * Prints a usage error, {@code joule: message} (its first letter in lower case, as GNU's are),
   * then {@code tryHelp} unless null; returns {@code code}.
   */
  static int reportUsage(PrintWriter err, String message, String tryHelp, int code) {
    String m = String.valueOf(message);
    err.println(
        "joule: "
            + (m.isEmpty() ? m : m.substring(0, 1).toLowerCase(Locale.ROOT) + m.substring(1)));
    if (tryHelp != null) {
      err.println(tryHelp);
    }
    err.flush();
    return code;
  }

  /** The text after {@code joule: } for a usage error. */
  static String usageMessage(ParameterException ex) {
    if (ex.getCause() instanceof TypeConversionException && ex.getArgSpec() instanceof OptionSpec) {
      String name = ((OptionSpec) ex.getArgSpec()).longestName();
      return "invalid value for " + name + ": " + ex.getCause().getMessage();
    }
    return String.valueOf(ex.getMessage());
  }

  @Override
  public int handleExecutionException(Exception ex, CommandLine cl, ParseResult parsed)
      throws Exception {
    if (!usesOneLineErrors(cl)) {
      throw ex; // picocli's default: stack trace and the command's exitCodeOnExecutionException
    }
    return reportFailure(ex, cl.getErr(), stackTrace(parsed));
  }

  /**
   * Prints a failure while running, {@code joule: <message>} and with {@code stackTrace} the stack
   * trace; returns its exit code.
   */
  static int reportFailure(Exception ex, PrintWriter err, boolean stackTrace) {
    if (shuttingDown()) {
      // A signal: the shutdown hooks are deleting the temp files under the sort's threads, whose
      // errors (a run file that vanished) say nothing about the data; the JVM exits 128 + n.
      return ExitCodes.SIGNAL_BASE;
    }
    err.println("joule: " + message(ex));
    if (stackTrace) {
      ex.printStackTrace(err);
    }
    err.flush();
    return exitCode(ex);
  }

  /** The text after {@code joule: } for a failure while running. */
  static String message(Throwable t) {
    if (t instanceof SortIOException
        || t instanceof CorruptRunException
        || t instanceof SortValidationException
        || t instanceof BenchValidationException) {
      return t.getMessage();
    }
    if (t instanceof SortCancelledException) {
      return "cancelled: " + t.getMessage();
    }
    if (t instanceof IOException io) {
      return SortIOException.reasonOf(io);
    }
    if (t instanceof IllegalArgumentException) {
      return String.valueOf(t.getMessage());
    }
    if (t instanceof InterruptedException) {
      return "interrupted";
    }
    return "internal error: " + t + " (run with --stack-trace for the stack trace)";
  }

  /** Whether the JVM's shutdown has begun: the JDK then refuses new shutdown hooks. */
  static boolean shuttingDown() {
    Thread probe = new Thread(() -> {}, "joule-shutdown-probe");
    try {
      Runtime.getRuntime().addShutdownHook(probe);
      Runtime.getRuntime().removeShutdownHook(probe);
      return false;
    } catch (IllegalStateException e) {
      return true;
    }
  }

  private static boolean usesOneLineErrors(CommandLine cl) {
    Object cmd = cl.getCommand();
    return cmd instanceof SortCommand || cmd instanceof BenchCommand;
  }

  private static boolean stackTrace(ParseResult parsed) {
    ParseResult p = parsed;
    while (p.subcommand() != null) {
      p = p.subcommand();
    }
    return p.hasMatchedOption("--stack-trace");
  }
}

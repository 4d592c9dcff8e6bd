package dev.joule.cli;

import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * What a command and its option groups need from the command line that set them: the writers,
 * whether an option was given and the value typed for it last, and how to raise a usage error. On
 * picocli's path it is the command's model ({@link #of}); {@link DirectSort} gives {@code joule
 * sort} its own, so that an everyday sort never builds that model (sort-bench/README.md,
 * "Start-up").
 */
interface CommandContext {
  PrintWriter out();

  PrintWriter err();

  /** Whether {@code option} (any of its names) was on the command line. */
  boolean matched(String option);

  /**
   * The value last typed for {@code option} (any of its names; {@code true} for a flag), or null if
   * it was not given.
   */
  String typed(String option);

  /** A usage error: {@code joule: message}, exit 2, as a picocli {@code ParameterException} is. */
  RuntimeException usage(String message, Throwable cause);

  /** {@code e} raised on this command line: its message, exit code and "Try ..." line. */
  RuntimeException usage(GnuUsageException e);

  /** picocli's model of a command as its context. */
  static CommandContext of(CommandSpec spec) {
    return new CommandContext() {
      @Override
      public PrintWriter out() {
        return spec.commandLine().getOut();
      }

      @Override
      public PrintWriter err() {
        return spec.commandLine().getErr();
      }

      @Override
      public boolean matched(String option) {
        return spec.commandLine().getParseResult().hasMatchedOption(option);
      }

      @Override
      public String typed(String option) {
        OptionSpec o = spec.findOption(option);
        if (o == null || o.originalStringValues().isEmpty()) {
          return null;
        }
        List<String> v = o.originalStringValues();
        return v.get(v.size() - 1);
      }

      @Override
      public RuntimeException usage(String message, Throwable cause) {
        return new ParameterException(spec.commandLine(), message, cause);
      }

      @Override
      public RuntimeException usage(GnuUsageException e) {
        return e.onCommand(spec.commandLine());
      }
    };
  }
}

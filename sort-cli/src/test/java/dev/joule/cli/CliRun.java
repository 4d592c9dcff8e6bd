package dev.joule.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One in-process run of the joule command line with captured stdout and stderr. */
final class CliRun {
  final int exitCode;
  final String out;
  final String err;

  private CliRun(int exitCode, String out, String err) {
    this.exitCode = exitCode;
    this.out = out;
    this.err = err;
  }

  /**
   * Runs with the process's engine and standard streams in the C locale, whatever locale the shell
   * that started the tests has.
   */
  static CliRun run(String... args) {
    CliEnvironment s = CliEnvironment.system();
    return run(new CliEnvironment(s.engine(), s.stdin(), s.stdout(), s.powercap()), args);
  }

  /**
   * Runs with {@code env}'s engine and standard streams, the command line built as {@code main}
   * builds it (only the subcommand the first argument names).
   */
  static CliRun run(CliEnvironment env, String... args) {
    return run(JouleCommand.newCommandLine(env, args.length > 0 ? args[0] : null), args);
  }

  private static CliRun run(CommandLine cl, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int code = cl.execute(args);
    return new CliRun(code, out.toString(), err.toString());
  }

  @Override
  public String toString() {
    return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
  }
}

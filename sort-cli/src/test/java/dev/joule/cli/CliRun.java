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
   * Runs with {@code env}'s engine and standard streams as {@code main} runs (a {@code sort} around
   * picocli's model where {@link DirectSort} takes it, else only the subcommand the first argument
   * names).
   */
  static CliRun run(CliEnvironment env, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        JouleCommand.execute(env, args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new CliRun(code, out.toString(), err.toString());
  }

  /** Runs through picocli's model only, never {@link DirectSort}: its reference. */
  static CliRun viaPicocli(CliEnvironment env, String... args) {
    CommandLine cl = JouleCommand.newCommandLine(env, args.length > 0 ? args[0] : null);
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

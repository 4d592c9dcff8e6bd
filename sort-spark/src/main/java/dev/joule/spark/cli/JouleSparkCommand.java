package dev.joule.spark.cli;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code joule-spark} command: the sort on Apache Spark. Run by the {@code ./joule-spark}
 * launcher with the Spark jars Maven resolved, or by {@code spark-submit} on a cluster.
 */
@Command(
    name = "joule-spark",
    mixinStandardHelpOptions = true,
    versionProvider = SparkVersionProvider.class,
    description =
        "Sorts fixed-size record files on Apache Spark: sampled range splitters, a shuffle by"
            + " partition id, and joule's off-heap engine inside every partition.",
    subcommands = {SparkSortCommand.class, CommandLine.HelpCommand.class})
public final class JouleSparkCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand");
  }

  /** The command line with the given streams; {@link #main} and the tests use it. */
  public static CommandLine newCommandLine(PrintWriter out, PrintWriter err) {
    CommandLine cl = new CommandLine(new JouleSparkCommand());
    cl.setOut(out);
    cl.setErr(err);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setParameterExceptionHandler(
        (ex, args) -> {
          PrintWriter e = ex.getCommandLine().getErr();
          String m = String.valueOf(ex.getMessage());
          e.println(
              "joule-spark: "
                  + (m.isEmpty() ? m : Character.toLowerCase(m.charAt(0)) + m.substring(1)));
          e.println("Try 'joule-spark " + ex.getCommandLine().getCommandName() + " --help'.");
          e.flush();
          return SparkSortCommand.USAGE_OR_IO;
        });
    return cl;
  }

  public static void main(String[] args) {
    // the terminal's encoding (JDK 17 takes it from the locale), as picocli's own writers do
    Charset cs = Charset.defaultCharset();
    PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, cs), true);
    PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, cs), true);
    System.exit(newCommandLine(out, err).execute(args));
  }
}

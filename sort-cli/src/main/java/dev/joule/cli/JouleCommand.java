package dev.joule.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The top-level {@code joule} command: dispatches to its subcommands. */
@Command(
    name = "joule",
    mixinStandardHelpOptions = true,
    versionProvider = BuildVersionProvider.class,
    description = "An external sort for the JVM with an off-heap engine, and the Sort Benchmark's tools.",
    subcommands = {GensortCommand.class, ValsortCommand.class, CommandLine.HelpCommand.class},
    exitCodeListHeading = "%nExit codes:%n")
public final class JouleCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    // `joule` alone: picocli prints the error and the usage (which lists the subcommands).
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand");
  }

  /** Builds the command line with joule's exit-code conventions; tests call this too. */
  public static CommandLine newCommandLine() {
    CommandLine cl = new CommandLine(new JouleCommand());
    applyExitCodeHelp(cl);
    return cl;
  }

  /** Gives every command the shared exit-code list, unless it declares its own (valsort does). */
  private static void applyExitCodeHelp(CommandLine cl) {
    if (cl.getCommandSpec().usageMessage().exitCodeList().isEmpty()) {
      cl.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n");
      cl.getCommandSpec().usageMessage().exitCodeList(ExitCodes.helpList());
    }
    cl.getSubcommands().values().forEach(JouleCommand::applyExitCodeHelp);
  }

  public static void main(String[] args) {
    System.exit(newCommandLine().execute(args));
  }
}

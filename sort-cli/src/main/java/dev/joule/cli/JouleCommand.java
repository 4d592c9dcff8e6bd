package dev.joule.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IFactory;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The top-level {@code joule} command: dispatches to its subcommands. */
@Command(
    name = "joule",
    mixinStandardHelpOptions = true,
    versionProvider = BuildVersionProvider.class,
    description =
        "An external sort for the JVM with an off-heap engine, and the Sort Benchmark's tools.",
    subcommands = {
      SortCommand.class,
      BenchCommand.class,
      GensortCommand.class,
      ValsortCommand.class,
      CommandLine.HelpCommand.class
    },
    exitCodeListHeading = "%nExit codes:%n")
public final class JouleCommand implements Runnable {
  /** System property behind the --memory default shown in --help. */
  static final String DEFAULT_MEMORY_PROPERTY = "joule.default.memory";

  @Spec CommandSpec spec;

  @Override
  public void run() {
    // `joule` alone: picocli prints the error and the usage (which lists the subcommands).
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand");
  }

  /** Builds the command line with joule's exit-code conventions; tests call this too. */
  public static CommandLine newCommandLine() {
    return newCommandLine(CliEnvironment.system());
  }

  /** The command line with {@code env}'s engine and standard streams (tests pass their own). */
  static CommandLine newCommandLine(CliEnvironment env) {
    System.setProperty(DEFAULT_MEMORY_PROPERTY, MachineDefaults.memory().toString());
    CommandLine cl = new CommandLine(new JouleCommand(), factory(env));
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    ExitCodeMapper mapper = new ExitCodeMapper(cl.getParameterExceptionHandler());
    cl.setParameterExceptionHandler(mapper);
    cl.setExecutionExceptionHandler(mapper);
    applyExitCodeHelp(cl);
    // GNU getopt: an option given twice takes the last value, and an option's argument may look
    // like an option (sort -o -k1 writes a file named -k1).
    CommandLine sort = cl.getSubcommands().get("sort");
    sort.setOverwrittenOptionsAllowed(true);
    sort.setAllowOptionsAsOptionParameters(true);
    return cl;
  }

  private static IFactory factory(CliEnvironment env) {
    IFactory defaults = CommandLine.defaultFactory();
    return new IFactory() {
      @Override
      @SuppressWarnings("unchecked")
      public <K> K create(Class<K> cls) throws Exception {
        if (cls == SortCommand.class) {
          return (K) new SortCommand(env);
        }
        if (cls == BenchCommand.class) {
          return (K) new BenchCommand(env);
        }
        return defaults.create(cls);
      }
    };
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

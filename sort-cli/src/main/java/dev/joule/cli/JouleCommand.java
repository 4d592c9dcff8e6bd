package dev.joule.cli;

import java.io.BufferedWriter;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IFactory;
import picocli.CommandLine.IHelpFactory;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The top-level {@code joule} command: dispatches to its subcommands. */
@Command(
    name = "joule",
    mixinStandardHelpOptions = true,
    versionProvider = BuildVersionProvider.class,
    description =
        "An external sort for the JVM with an off-heap engine, and the Sort Benchmark's tools.",
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

  /** The subcommands, in the order {@code joule --help} lists them. */
  private static final List<Class<?>> SUBCOMMANDS =
      List.of(
          SortCommand.class,
          BenchCommand.class,
          GensortCommand.class,
          ValsortCommand.class,
          CommandLine.HelpCommand.class);

  /** Builds the command line with joule's exit-code conventions; tests call this too. */
  public static CommandLine newCommandLine() {
    return newCommandLine(CliEnvironment.system());
  }

  /** The command line with {@code env}'s engine and standard streams (tests pass their own). */
  static CommandLine newCommandLine(CliEnvironment env) {
    return newCommandLine(env, null);
  }

  /**
   * The command line with every subcommand, or only with {@code only} when that names one (the
   * first argument of a run: picocli's model of a command is built by reflection, and all of them
   * took 50 of a 1 KB sort's 175 ms of setting up; `joule help` needs them all).
   */
  static CommandLine newCommandLine(CliEnvironment env, String only) {
    IFactory factory = factory(env);
    CommandLine cl = new CommandLine(new JouleCommand(), factory);
    boolean one = SUBCOMMANDS.stream().anyMatch(c -> !isHelp(c) && nameOf(c).equals(only));
    for (Class<?> c : SUBCOMMANDS) {
      if (!one || nameOf(c).equals(only)) {
        cl.addSubcommand(nameOf(c), new CommandLine(create(factory, c), factory));
      }
    }
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    // --help shows the default budget, which takes the JVM's management beans to find, and fits
    // the terminal, whose width takes a process to find: only then.
    IHelpFactory help = cl.getHelpFactory();
    cl.setHelpFactory(
        (spec, scheme) -> {
          if (System.getProperty(DEFAULT_MEMORY_PROPERTY) == null) {
            System.setProperty(DEFAULT_MEMORY_PROPERTY, MachineDefaults.memory().toString());
          }
          spec.usageMessage().width(HelpWidth.current());
          return help.create(spec, scheme);
        });
    ExitCodeMapper mapper = new ExitCodeMapper(cl.getParameterExceptionHandler());
    cl.setParameterExceptionHandler(mapper);
    cl.setExecutionExceptionHandler(mapper);
    applyExitCodeHelp(cl);
    // GNU getopt: an option given twice takes the last value, and an option's argument may look
    // like an option (sort -o -k1 writes a file named -k1).
    CommandLine sort = cl.getSubcommands().get("sort");
    if (sort != null) {
      sort.setOverwrittenOptionsAllowed(true);
      sort.setAllowOptionsAsOptionParameters(true);
    }
    return cl;
  }

  private static boolean isHelp(Class<?> c) {
    return c == CommandLine.HelpCommand.class;
  }

  private static String nameOf(Class<?> c) {
    return c.getAnnotation(Command.class).name();
  }

  private static Object create(IFactory factory, Class<?> c) {
    try {
      return factory.create(c);
    } catch (Exception e) {
      throw new IllegalStateException("cannot create the " + nameOf(c) + " command", e);
    }
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
    MachineDefaults.probeInBackground(); // while the arguments are read
    System.exit(execute(CliEnvironment.system(), args, stdout(), stderr()));
  }

  /**
   * Runs the command line {@code args} as the process does, writing text to {@code out} and {@code
   * err}; the exit status. {@code joule sort} goes around picocli's model ({@link DirectSort})
   * unless it needs it (help, version, a usage error while reading the arguments).
   */
  static int execute(CliEnvironment env, String[] args, PrintWriter out, PrintWriter err) {
    if (args.length > 0 && args[0].equals("sort")) {
      Integer code = DirectSort.run(env, Arrays.asList(args).subList(1, args.length), out, err);
      if (code != null) {
        return code;
      }
    }
    CommandLine cl = newCommandLine(env, args.length > 0 ? args[0] : null);
    cl.setOut(out);
    cl.setErr(err);
    return cl.execute(args);
  }

  /** Standard output's writer as picocli makes it: the encoding the JVM chose for the stream. */
  private static PrintWriter stdout() {
    return writer(System.out, System.getProperty("sun.stdout.encoding"));
  }

  private static PrintWriter stderr() {
    return writer(System.err, System.getProperty("sun.stderr.encoding"));
  }

  private static PrintWriter writer(OutputStream stream, String encoding) {
    Charset charset = Charset.defaultCharset();
    if (encoding != null) {
      try {
        charset = Charset.forName(encoding.equalsIgnoreCase("cp65001") ? "UTF-8" : encoding);
      } catch (IllegalArgumentException e) {
        // an unknown encoding: the default, as picocli falls back
      }
    }
    return new PrintWriter(new BufferedWriter(new OutputStreamWriter(stream, charset)), true);
  }
}

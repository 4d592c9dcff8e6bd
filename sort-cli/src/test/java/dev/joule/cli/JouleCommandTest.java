package dev.joule.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The command line as {@code main} builds it: only the subcommand the first argument names. */
class JouleCommandTest {
  private static final Set<String> ALL = Set.of("sort", "bench", "gensort", "valsort", "help");

  @Test
  void onlyTheNamedSubcommandIsBuiltAndOthersGetAll() {
    CliEnvironment env = CliEnvironment.system();
    for (String name : List.of("sort", "bench", "gensort", "valsort")) {
      assertEquals(
          Set.of(name), JouleCommand.newCommandLine(env, name).getSubcommands().keySet(), name);
    }
    for (String first : new String[] {"help", "--help", "--version", "nosuch", "-h"}) {
      assertEquals(ALL, JouleCommand.newCommandLine(env, first).getSubcommands().keySet(), first);
    }
    assertEquals(ALL, JouleCommand.newCommandLine(env, null).getSubcommands().keySet());
  }

  @Test
  void aSubcommandBuiltAloneHasTheSameHelpAndSettings() {
    CliEnvironment env = CliEnvironment.system();
    CommandLine all = JouleCommand.newCommandLine(env);
    for (String name : List.of("sort", "bench", "gensort", "valsort")) {
      CommandLine alone = JouleCommand.newCommandLine(env, name).getSubcommands().get(name);
      CommandLine full = all.getSubcommands().get(name);
      assertEquals(full.getUsageMessage(), alone.getUsageMessage(), name);
      assertEquals(full.isOverwrittenOptionsAllowed(), alone.isOverwrittenOptionsAllowed(), name);
      assertEquals(
          full.isAllowOptionsAsOptionParameters(), alone.isAllowOptionsAsOptionParameters(), name);
      assertEquals(full.getCommandSpec().qualifiedName(), alone.getCommandSpec().qualifiedName());
    }
  }
}

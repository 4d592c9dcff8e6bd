package dev.joule.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.joule.cli.SortOptionTable.Opt;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The table {@link GnuGetopt} and {@link DirectSort} read {@code joule sort}'s arguments by is
 * picocli's model of the command, option for option: names and their order, arity, help and
 * version, hidden, enumerated values, and the canonical (longest) name.
 */
class SortOptionTableTest {
  @Test
  void isPicoclisModelOfTheSortCommand() {
    List<String> model = new ArrayList<>();
    for (OptionSpec o :
        JouleCommand.newCommandLine(CliEnvironment.system(), "sort")
            .getSubcommands()
            .get("sort")
            .getCommandSpec()
            .options()) {
      model.add(
          describe(
              List.of(o.names()),
              o.arity().min(),
              o.arity().max(),
              o.usageHelp(),
              o.versionHelp(),
              o.hidden(),
              o.type().isEnum() ? o.type().getName() : null,
              o.longestName()));
    }
    List<String> table = new ArrayList<>();
    for (Opt o : SortOptionTable.OPTIONS) {
      table.add(
          describe(
              o.names(),
              o.minArity(),
              o.maxArity(),
              o.help(),
              o.version(),
              o.hidden(),
              o.words() != null ? o.words().getName() : null,
              o.longest()));
    }
    assertEquals(String.join("\n", model), String.join("\n", table));
  }

  @Test
  void findsEveryNameOfAnOption() {
    for (Opt o : SortOptionTable.OPTIONS) {
      for (String n : o.names()) {
        assertEquals(o, SortOptionTable.find(n), n);
      }
    }
    assertEquals(null, SortOptionTable.find("--no-such-option"));
  }

  private static String describe(
      List<String> names,
      int min,
      int max,
      boolean help,
      boolean version,
      boolean hidden,
      String words,
      String longest) {
    return names
        + " arity "
        + min
        + ".."
        + max
        + (help ? " help" : "")
        + (version ? " version" : "")
        + (hidden ? " hidden" : "")
        + (words != null ? " words of " + words : "")
        + " canonical "
        + longest;
  }
}

package dev.joule.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** The manual page: troff-safe text, and every visible option of every command in it. */
class ManPageTest {
  @Test
  void textIsSafeForTroff() {
    assertEquals("a\\-b \\ec", ManPage.text("a-b \\c"));
    assertEquals(
        "x\n\\&.TH not a request\n\\&'also not", ManPage.text("x\n.TH not a request\n'also not"));
  }

  @Test
  void everyCommandAndVisibleOptionIsOnThePage() {
    CommandLine root = JouleCommand.newCommandLine();
    String page = ManPage.render(root, "9.9");
    assertTrue(page.startsWith(".TH JOULE 1 \"\" \"joule 9.9\""), page);
    for (CommandLine sub : root.getSubcommands().values()) {
      if (sub.getCommand() instanceof CommandLine.HelpCommand) {
        continue;
      }
      String name = sub.getCommandName();
      assertTrue(
          page.contains(".SH \"JOULE " + name.toUpperCase(java.util.Locale.ROOT) + "\""), name);
      for (OptionSpec o : sub.getCommandSpec().options()) {
        if (!o.hidden()) {
          assertTrue(
              page.contains("\\fB" + ManPage.text(o.longestName()) + "\\fR"),
              name + " " + o.longestName());
        }
      }
    }
  }
}

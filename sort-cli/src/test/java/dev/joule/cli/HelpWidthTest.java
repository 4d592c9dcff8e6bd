package dev.joule.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code --help} fits the terminal: {@code $COLUMNS}, else the terminal's width, else 80. */
class HelpWidthTest {
  @Test
  void columnsThenTheTerminalThenEighty() {
    assertEquals(80, HelpWidth.of(Map.<String, String>of()::get, () -> 0));
    assertEquals(80, HelpWidth.of(Map.of("COLUMNS", "80")::get, () -> 132));
    assertEquals(72, HelpWidth.of(Map.of("COLUMNS", " 72 ")::get, () -> 0));
    assertEquals(90, HelpWidth.of(Map.of("COLUMNS", "wide")::get, () -> 90));
    assertEquals(HelpWidth.MAX, HelpWidth.of(Map.<String, String>of()::get, () -> 250));
    assertEquals(HelpWidth.MIN, HelpWidth.of(Map.of("COLUMNS", "20")::get, () -> 0));
  }

  /**
   * Every command's help, rendered by a JVM of its own with COLUMNS=80 (or none): no longer line.
   */
  @Test
  void noHelpLineIsLongerThanEightyColumns() throws Exception {
    for (String command : List.of("", "sort", "bench", "gensort", "valsort")) {
      String help = help(command, "80");
      assertTrue(help.contains("Usage:"), help);
      for (String line : help.split("\n", -1)) {
        assertTrue(line.length() <= 80, () -> command + ": " + line.length() + ": " + line);
      }
    }
    String wide = help("sort", "100");
    assertTrue(wide.lines().anyMatch(l -> l.length() > 80), "COLUMNS=100 is used:\n" + wide);
    String unknown = help("sort", null);
    assertTrue(unknown.lines().allMatch(l -> l.length() <= 80), "80 without COLUMNS:\n" + unknown);
  }

  private static String help(String command, String columns) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), JouleCommand.class.getName()));
    if (!command.isEmpty()) {
      cmd.add(command);
    }
    cmd.add("--help");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().remove("COLUMNS");
    if (columns != null) {
      pb.environment().put("COLUMNS", columns);
    }
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), out);
    return out;
  }
}

package dev.joule.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bash completion script, driven as bash's programmable completion drives it: {@code
 * COMP_WORDS} and {@code COMP_CWORD} set, the function called, {@code COMPREPLY} read. It runs in a
 * directory with a file, a file with a blank in its name and a directory.
 */
class BashCompletionTest {
  @TempDir Path dir;
  Path script;

  @BeforeEach
  void setUp() throws IOException {
    Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "no bash");
    script =
        Files.writeString(
            dir.resolve("joule_completion"),
            BashCompletion.script(JouleCommand.newCommandLine(CliEnvironment.system())));
    Files.writeString(dir.resolve("data.txt"), "b\na\n");
    Files.writeString(dir.resolve("data two.txt"), "b\na\n");
    Files.createDirectory(dir.resolve("dtmp"));
  }

  @Test
  void completesCommandsOptionsAndLowerCaseValues() throws Exception {
    assertEquals(List.of("sort"), complete("joule", "so"));
    assertEquals(List.of("gensort"), complete("joule", "help", "gen"));
    assertEquals(List.of("--gensort"), complete("joule", "sort", "--gens"));
    assertTrue(complete("joule", "sort", "--tem").contains("--temporary-directory"));
    assertEquals(List.of("auto", "always", "never"), complete("joule", "sort", "--progress", ""));
    assertEquals(List.of("auto", "always"), complete("joule", "sort", "--progress", "a"));
    assertEquals(List.of("on", "off"), complete("joule", "sort", "--direct", "=", "o"));
    assertEquals(List.of(), complete("joule", "sort", "-k", ""), "a KEYDEF has no completion");
  }

  @Test
  void completesFileNamesForOperandsAndPathOptions() throws Exception {
    List<String> both = List.of("data two.txt", "data.txt");
    assertEquals(both, sorted(complete("joule", "sort", "da")));
    assertEquals(both, sorted(complete("joule", "sort", "-n", "da")));
    assertEquals(both, sorted(complete("joule", "sort", "-o", "da")));
    assertEquals(both, sorted(complete("joule", "sort", "--output", "=", "da")));
    assertEquals(both, sorted(complete("joule", "sort", "--files0-from", "da")));
    assertEquals(both, sorted(complete("joule", "sort", "--check", "da")));
    assertEquals(both, sorted(complete("joule", "valsort", "da")));
    assertEquals(List.of("dtmp"), complete("joule", "sort", "-T", "d"), "-T: directories");
    assertEquals(List.of("dtmp"), complete("joule", "bench", "--dir", "d"));
  }

  private static List<String> sorted(List<String> l) {
    List<String> s = new ArrayList<>(l);
    s.sort(null);
    return s;
  }

  /** What the script offers for the last of {@code words}. */
  private List<String> complete(String... words) throws Exception {
    StringBuilder arr = new StringBuilder();
    for (String w : words) {
      arr.append('\'').append(w).append("' ");
    }
    String cmd =
        "source ./joule_completion; COMP_WORDS=("
            + arr
            + "); COMP_CWORD="
            + (words.length - 1)
            + "; _complete_joule; printf '%s\\n' \"${COMPREPLY[@]}\"";
    Process p =
        new ProcessBuilder("/bin/bash", "--norc", "-c", cmd)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(20, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), out);
    List<String> replies = new ArrayList<>();
    out.lines().filter(s -> !s.isEmpty()).forEach(replies::add);
    return replies;
  }
}

package dev.joule.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binary distribution {@code joule-<version>-bin.tar.gz} that {@code mvn package} builds:
 * unpacked elsewhere, its launcher runs the sort (also through a symbolic link), its manual page
 * renders without a troff warning, and its bash completion completes commands and options.
 */
class DistributionIT {
  @TempDir Path dir;
  Path home;

  record Out(int code, String out, String err) {}

  static Out run(Path cwd, List<String> cmd) throws IOException, InterruptedException {
    Path out = cwd.resolve(".out");
    Path err = cwd.resolve(".err");
    Process p =
        new ProcessBuilder(cmd)
            .directory(cwd.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + cmd);
    }
    return new Out(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  static boolean onPath(String tool) throws IOException, InterruptedException {
    Path tmp = Files.createTempDirectory("which");
    try {
      return run(tmp, List.of("sh", "-c", "command -v " + tool)).code() == 0;
    } finally {
      try (var s = Files.list(tmp)) {
        for (Path f : s.toList()) {
          Files.delete(f);
        }
      }
      Files.delete(tmp);
    }
  }

  @BeforeEach
  void unpack() throws Exception {
    String version = LauncherIT.projectVersion();
    Path tarball =
        Path.of(System.getProperty("joule.root"), "sort-cli", "target")
            .resolve("joule-" + version + "-bin.tar.gz");
    assertTrue(Files.isRegularFile(tarball), tarball + " was not built by mvn package");
    Path unpacked = Files.createDirectories(dir.resolve("opt"));
    Out tar = run(unpacked, List.of("tar", "xzf", tarball.toString()));
    assertEquals(0, tar.code(), tar::toString);
    home = unpacked.resolve("joule-" + version);
  }

  @Test
  void theUnpackedLauncherSortsAlsoThroughALink() throws Exception {
    Path launcher = home.resolve("bin/joule");
    assertTrue(
        Files.getPosixFilePermissions(launcher).contains(PosixFilePermission.OWNER_EXECUTE),
        "bin/joule is not executable");
    Path link = Files.createDirectories(dir.resolve("usr/bin")).resolve("joule");
    Files.createSymbolicLink(link, launcher);
    Path work = Files.createDirectories(dir.resolve("work"));
    for (Path j : List.of(launcher, link)) {
      Out v = run(work, List.of(j.toString(), "--version"));
      assertEquals(0, v.code(), v::toString);
      assertTrue(v.out().startsWith("joule " + LauncherIT.projectVersion() + "\n"), v::toString);
    }
    Out gen = run(work, List.of(link.toString(), "gensort", "3000", "in.dat"));
    assertEquals(0, gen.code(), gen::toString);
    Out sort =
        run(
            work,
            List.of(link.toString(), "sort", "--quiet", "--gensort", "-o", "out.dat", "in.dat"));
    assertEquals(0, sort.code(), sort::toString);
    Out val = run(work, List.of(link.toString(), "valsort", "out.dat"));
    assertEquals(0, val.code(), val::toString);
    assertTrue(val.err().contains("SUCCESS - all records are in order"), val::toString);
  }

  @Test
  void theManualPageRendersWithoutWarnings() throws Exception {
    Assumptions.assumeTrue(onPath("groff"), "no groff here: the manual page is not rendered");
    Path page = home.resolve("share/man/man1/joule.1");
    Out r = run(dir, List.of("groff", "-man", "-Tutf8", "-ww", "-rLL=100n", page.toString()));
    assertEquals(0, r.code(), r::toString);
    assertEquals("", r.err(), "troff warnings");
    String text = r.out().replaceAll(".\b", ""); // overstrike (bold) off
    for (String s :
        List.of(
            "NAME",
            "SYNOPSIS",
            "JOULE SORT",
            "JOULE GENSORT",
            "JOULE VALSORT",
            "EXIT STATUS",
            "--gensort")) {
      assertTrue(text.contains(s), "no " + s + " in the page:\n" + text);
    }
  }

  @Test
  void bashCompletesCommandsAndOptions() throws Exception {
    Assumptions.assumeTrue(onPath("bash"), "no bash here: completion is not tried");
    Path script = home.resolve("share/bash-completion/completions/joule");
    assertEquals(List.of("sort"), complete(script, "joule", "so"));
    List<String> options = complete(script, "joule", "sort", "--tem");
    assertTrue(options.contains("--temp"), "options: " + options);
    List<String> gensort = complete(script, "joule", "sort", "--gens");
    assertEquals(List.of("--gensort"), gensort);
  }

  /** What the completion script offers for the last of {@code words}. */
  List<String> complete(Path script, String... words) throws Exception {
    String line = String.join(" ", words);
    StringBuilder arr = new StringBuilder();
    for (String w : words) {
      arr.append('\'').append(w).append("' ");
    }
    String cmd =
        "source '"
            + script
            + "' 2>/dev/null; COMP_WORDS=("
            + arr
            + "); COMP_CWORD="
            + (words.length - 1)
            + "; COMP_LINE='"
            + line
            + "'; COMP_POINT="
            + line.length()
            + "; _complete_joule 2>/dev/null; printf '%s\\n' \"${COMPREPLY[@]}\"";
    Out r = run(dir, List.of("bash", "-c", cmd));
    assertEquals(0, r.code(), r::toString);
    List<String> out = new ArrayList<>();
    r.out().lines().filter(s -> !s.isBlank()).forEach(s -> out.add(s.strip()));
    return out;
  }
}

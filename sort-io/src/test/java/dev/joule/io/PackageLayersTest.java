package dev.joule.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package layout of sort-io reads in pipeline order, and its arrows point one way: a package
 * may use only packages listed before it here (the layers of {@code docs/design.md#packages}), so
 * nothing below the facade calls back into {@code io.pipeline}, and no stage reaches into a later
 * one. Checked on the main sources' imports and fully qualified names.
 */
class PackageLayersTest {
  /** Pipeline order; {@code hooks} is internal to {@code config} (they refer to each other). */
  static final List<String> ORDER =
      List.of(
          "error",
          "config",
          "hooks",
          "report",
          "plan", // vocabulary
          "fs",
          "block",
          "memory", // plumbing
          "input",
          "stripe",
          "run",
          "prefetch",
          "output",
          "merge", // stages
          "pipeline"); // orchestration

  private static final Pattern USE = Pattern.compile("dev\\.joule\\.io\\.([a-z]+)\\.[A-Z]");

  @Test
  void everyPackageUsesOnlyEarlierOnes() throws IOException {
    Path root = Path.of("src/main/java/dev/joule/io");
    List<String> violations = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
        String pkg = root.relativize(f).getName(0).toString();
        int own = ORDER.indexOf(pkg);
        if (own < 0) {
          violations.add(f + ": package " + pkg + " is not in the layer order");
          continue;
        }
        String code = Files.readString(f).replaceAll("(?s)/\\*.*?\\*/|//[^\\n]*", "");
        Matcher m = USE.matcher(code);
        while (m.find()) {
          String used = m.group(1);
          int at = ORDER.indexOf(used);
          boolean hooksCycle = pkg.equals("config") && used.equals("hooks");
          if (!used.equals(pkg) && (at < 0 || at > own) && !hooksCycle) {
            violations.add(f.getFileName() + " (" + pkg + ") uses " + m.group());
          }
        }
      }
    }
    assertEquals(List.of(), violations);
  }
}

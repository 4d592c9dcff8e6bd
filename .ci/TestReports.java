import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * CI's check of what the tests of one stage did, from the surefire and failsafe XML reports under
 * {@code <module>/target/}: fails when a test reported a skip that {@code .ci/allowed-skips} does not
 * allow for the stage (CI's machine has root, loop devices, prlimit, GNU sort, ext4 and fincore, so
 * a suite that needs them must run there, not skip), when a suite that {@code .ci/must-run} names
 * for the stage ran no test (renamed, or dropped from the run), or when fewer integration tests ran
 * than {@code --min-its} asks. Run with {@code java .ci/TestReports.java STAGE [--min-its N]} from
 * the repository root, after the stage's {@code mvn verify}, with the reports of earlier runs
 * deleted before it.
 */
public final class TestReports {
  private record Skip(String test, String message) {}

  public static void main(String[] args) throws Exception {
    String stage = args[0];
    int minIts = args.length > 2 && args[1].equals("--min-its") ? Integer.parseInt(args[2]) : 0;
    Map<String, int[]> suites = new TreeMap<>(); // class -> {tests, skipped}
    List<Skip> skips = new ArrayList<>();
    int its = 0;
    for (Path report : reports()) {
      Element suite =
          DocumentBuilderFactory.newInstance()
              .newDocumentBuilder()
              .parse(report.toFile())
              .getDocumentElement();
      String name = suite.getAttribute("name");
      int tests = Integer.parseInt(suite.getAttribute("tests"));
      int skipped = Integer.parseInt(suite.getAttribute("skipped"));
      int[] t = suites.computeIfAbsent(name, k -> new int[2]);
      t[0] += tests;
      t[1] += skipped;
      if (report.getParent().getFileName().toString().equals("failsafe-reports")) {
        its += tests - skipped;
      }
      NodeList cases = suite.getElementsByTagName("testcase");
      for (int i = 0; i < cases.getLength(); i++) {
        Element c = (Element) cases.item(i);
        NodeList s = c.getElementsByTagName("skipped");
        if (s.getLength() > 0) {
          Element e = (Element) s.item(0);
          String why = e.getAttribute("message");
          if (why.isEmpty()) {
            why = e.getTextContent().lines().findFirst().orElse("");
          }
          skips.add(new Skip(c.getAttribute("classname") + "#" + c.getAttribute("name"), why));
        }
      }
    }
    List<String> problems = new ArrayList<>();
    List<String[]> allowed = rules(".ci/allowed-skips", stage);
    for (Skip s : skips) {
      String rule = allowedBy(allowed, s.test());
      if (rule == null) {
        problems.add("skipped, but must run on CI: " + s.test() + " (" + s.message() + ")");
      } else {
        System.out.println("allowed skip: " + s.test() + " (" + rule + ")");
      }
    }
    for (String[] r : rules(".ci/must-run", stage)) {
      int[] t = suites.get(r[1]);
      if (t == null || t[0] - t[1] == 0) {
        problems.add("ran no test: " + r[1] + " (listed in .ci/must-run for stage " + stage + ")");
      }
    }
    if (its < minIts) {
      problems.add(its + " integration tests ran, at least " + minIts + " must");
    }
    int tests = suites.values().stream().mapToInt(t -> t[0]).sum();
    System.out.printf(
        "test reports (stage %s): %d suites, %d tests, %d skipped, %d integration tests ran%n",
        stage, suites.size(), tests, skips.size(), its);
    if (tests == 0) {
      problems.add("no test reports under */target/surefire-reports or */target/failsafe-reports");
    }
    for (String p : problems) {
      System.out.println("FAIL: " + p);
    }
    System.exit(problems.isEmpty() ? 0 : 1);
  }

  private static List<Path> reports() throws IOException {
    List<Path> all = new ArrayList<>();
    try (Stream<Path> modules = Files.list(Path.of("."))) {
      for (Path m : modules.toList()) {
        for (String kind : List.of("surefire-reports", "failsafe-reports")) {
          Path d = m.resolve("target").resolve(kind);
          if (Files.isDirectory(d)) {
            try (Stream<Path> files = Files.list(d)) {
              files
                  .filter(f -> f.getFileName().toString().matches("TEST-.*\\.xml"))
                  .forEach(all::add);
            }
          }
        }
      }
    }
    return all;
  }

  /** The rules of {@code file} for {@code stage}: the words of each line not blank or a comment. */
  private static List<String[]> rules(String file, String stage) throws IOException {
    List<String[]> r = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of(file))) {
      String l = line.strip();
      if (!l.isEmpty() && !l.startsWith("#")) {
        String[] w = l.split("\\s+");
        if (w[0].equals(stage)) {
          r.add(w);
        }
      }
    }
    return r;
  }

  /**
   * The rule that allows {@code test} ({@code class#name}, a parameterized name's {@code (...)}
   * and {@code [...]} ignored) to skip, or null: {@code STAGE class#method [unless COMMAND]}, the
   * latter allowing it only while COMMAND is not on the PATH.
   */
  private static String allowedBy(List<String[]> rules, String test) {
    String method = test.replaceAll("[(\\[].*", "");
    for (String[] r : rules) {
      if (!r[1].equals(method)) {
        continue;
      }
      if (r.length >= 4 && r[2].equals("unless")) {
        if (onPath(r[3])) {
          continue; // the command is here: the test must run
        }
        return r[3] + " is not installed";
      }
      return "allowed on stage " + r[0];
    }
    return null;
  }

  private static boolean onPath(String command) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":", -1)) {
      if (Files.isExecutable(Path.of(dir.isEmpty() ? "." : dir, command))) {
        return true;
      }
    }
    return false;
  }
}

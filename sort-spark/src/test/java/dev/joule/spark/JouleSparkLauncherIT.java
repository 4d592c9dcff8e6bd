package dev.joule.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./joule-spark} end to end, as a user runs it after {@code mvn -B -DskipTests package}: a
 * separate JVM with the Maven-resolved Spark class path, on the JDK that runs the tests.
 */
class JouleSparkLauncherIT {
  @TempDir Path dir;

  private record Run(int exit, String out, String err) {}

  private Run launch(String... args) throws IOException, InterruptedException {
    String root = System.getProperty("joule.root");
    assertTrue(root != null, "system property joule.root (the repository root) is not set");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(root, "joule-spark").toAbsolutePath().normalize().toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectOutput(dir.resolve("stdout.txt").toFile())
            .redirectError(dir.resolve("stderr.txt").toFile());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    pb.environment().put("JOULE_SPARK_JAVA_OPTS", "-Xmx1g");
    Process p = pb.start();
    if (!p.waitFor(180, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + cmd);
    }
    return new Run(
        p.exitValue(),
        Files.readString(dir.resolve("stdout.txt")),
        Files.readString(dir.resolve("stderr.txt")));
  }

  @Test
  void sortsLikeTheReference() throws Exception {
    // one Spark start costs most of this test; the Spark engine is covered in-process
    Path in = TestData.gensort(dir.resolve("in.dat"), 0, 200_000, true);
    byte[] expected = TestData.reference(List.of(in), 100, 0, 10);
    for (String engine : List.of("joule")) {
      Path out = dir.resolve("out-" + engine);
      Run r =
          launch(
              "sort",
              "--master",
              "local[2]",
              "--partitions",
              "3",
              "--engine",
              engine,
              in.toString(),
              out.toString());
      assertEquals(0, r.exit(), r.err());
      assertTrue(
          r.err().contains("joule-spark: sorted 200000 records from 1 input file(s) into 3 parts"),
          r.err());
      assertTrue(r.err().contains("with the " + engine + " engine"), r.err());
      // the launcher's log4j2 configuration: Spark reports warnings and errors only
      assertFalse(r.err().lines().anyMatch(l -> l.contains(" INFO ")), r.err());
      assertArrayEquals(expected, TestData.concatenatedParts(out), engine);
      ReferenceValsort s = TestData.valsortS(out);
      assertTrue(s.ordered(), s::toString);
      assertEquals(ReferenceValsort.of(expected), s);
    }
  }

  @Test
  void errorsAreOneLineAndComeBeforeSparkStarts() throws Exception {
    Path missing = dir.resolve("missing.dat");
    Run r = launch("sort", missing.toString(), dir.resolve("out").toString());
    assertEquals(2, r.exit());
    assertEquals("joule-spark: open failed: " + missing + ": No such file or directory\n", r.err());
    assertFalse(Files.exists(dir.resolve("out")));
  }

  @Test
  void versionNamesTheSparkOnTheClassPath() throws Exception {
    Run r = launch("--version");
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains("Apache Spark 4.2.0"), r.out());
  }
}

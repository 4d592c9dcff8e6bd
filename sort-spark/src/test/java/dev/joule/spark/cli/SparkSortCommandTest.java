package dev.joule.spark.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code joule-spark sort}'s errors about arguments, inputs and output: one line, exit code 2, and
 * all of them before Spark starts (these tests run no Spark).
 */
class SparkSortCommandTest {
  @TempDir Path dir;

  private record Run(int code, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        JouleSparkCommand.newCommandLine(new PrintWriter(out), new PrintWriter(err)).execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  private Path records(int bytes) throws Exception {
    return Files.write(dir.resolve("in-" + bytes), new byte[bytes]);
  }

  @Test
  void missingInput() {
    Path in = dir.resolve("nope");
    Run r = run("sort", in.toString(), dir.resolve("out").toString());
    assertEquals(2, r.code());
    assertEquals("joule-spark: open failed: " + in + ": No such file or directory\n", r.err());
  }

  @Test
  void recordSizeThatDoesNotDivideTheInput() throws Exception {
    Path in = records(1_000);
    Run r = run("sort", "--record-size", "300", in.toString(), dir.resolve("out").toString());
    assertEquals(2, r.code());
    assertEquals(
        "joule-spark: read failed: file:"
            + in
            + ": input size 1000 is not a multiple of record size 300: 100 trailing bytes at offset"
            + " 900\n",
        r.err());
  }

  @Test
  void existingOutputWithoutOverwrite() throws Exception {
    Path in = records(1_000);
    Path out = Files.createDirectories(dir.resolve("out"));
    Run r = run("sort", in.toString(), out.toString());
    assertEquals(2, r.code());
    assertEquals(
        "joule-spark: create failed: file:"
            + out
            + ": File exists (give --overwrite to replace it)\n",
        r.err());
  }

  @Test
  void badOptions() throws Exception {
    String in = records(1_000).toString();
    String out = dir.resolve("out").toString();
    assertUsage(run("sort", "--memory", "12x", in, out), "invalid value for --memory: '12x'");
    assertUsage(run("sort", "--memory", "1m", in, out), "is below the minimum 8 MiB");
    assertUsage(run("sort", "--partitions", "0", in, out), "--partitions: 0 is outside 1..100000");
    assertUsage(run("sort", "--threads", "0", in, out), "--threads: 0 is outside 1..256");
    assertUsage(
        run("sort", "--key-offset", "95", in, out),
        "invalid record layout: key at offset 95 of length 10 does not fit in a record of 100"
            + " bytes");
    assertUsage(run("sort", "--conf", "novalue", in, out), "--conf: 'novalue': expected KEY=VALUE");
    assertUsage(run("sort", in), "input... output_dir");
    assertUsage(run("sort", "--engine", "gnu", in, out), "--engine");
  }

  private static void assertUsage(Run r, String part) {
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().startsWith("joule-spark: "), r.err());
    assertTrue(r.err().toLowerCase(Locale.ROOT).contains(part.toLowerCase(Locale.ROOT)), r.err());
  }

  @Test
  void helpListsTheOptionsAndExitCodes() {
    Run r = run("sort", "--help");
    assertEquals(0, r.code());
    for (String s :
        new String[] {
          "--master",
          "--partitions",
          "--engine",
          "--memory",
          "--record-size",
          "--overwrite",
          "Exit codes:"
        }) {
      assertTrue(r.out().contains(s), s);
    }
  }
}

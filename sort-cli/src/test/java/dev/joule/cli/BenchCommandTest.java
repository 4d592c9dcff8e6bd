package dev.joule.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code joule bench} through execute(): its options, argument errors and the validation of the
 * output. The successful end-to-end run (a real sort) is in src-it's SortCliIT.
 */
class BenchCommandTest {
  @TempDir Path dir;
  StubEngine engine = new StubEngine();

  private CliRun bench(String... args) {
    String[] a =
        Stream.concat(
                Stream.of("bench", "--dir", dir.toString(), "--temp", dir.toString()),
                Stream.of(args))
            .toArray(String[]::new);
    return CliRun.run(
        engine.env(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream(), dir), a);
  }

  @Test
  void helpTeachesOptionsAndExamples() {
    CliRun r = CliRun.run("bench", "--help");
    assertEquals(0, r.exitCode, r::toString);
    for (String o :
        List.of(
            "--records",
            "--ascii",
            "--skew",
            "--dir",
            "--repeat",
            "--keep",
            "--memory",
            "--temp",
            "--threads",
            "--direct",
            "--fan-in",
            "Examples:",
            "Exit codes:",
            "RAPL")) {
      assertTrue(r.out.contains(o), o);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "--records 0 | invalid value for --records: '0': at least one record is needed",
        "--records -5 | invalid value for --records: '-5': expected a whole non-negative number of"
            + " records",
        "--records 1.5 | invalid value for --records: '1.5': expected a whole non-negative number",
        "--repeat 0 | invalid value for --repeat: '0': at least one run is needed",
        "--record-size 50 | unknown options: '--record-size', '50'",
        "--memory 12x | invalid value for --buffer-size: '12x': unknown suffix 'x'",
        "-S 101% | invalid value for --buffer-size: '101%': more than 100 percent of memory",
        "--fan-in 1 | invalid value for --batch-size: '1': a merge needs at least 2 inputs",
      })
  void badOptionsExitTwoBeforeGenerating(String options, String message) throws IOException {
    CliRun r = bench(options.trim().split(" "));
    assertEquals(2, r.exitCode, r::toString);
    assertTrue(r.err.startsWith("joule: " + message), r::toString);
    assertEquals(0, engine.sorts);
    assertEquals(List.of(), list(dir));
  }

  @Test
  void missingDirExitsTwo() {
    Path gone = dir.resolve("gone");
    CliRun r = CliRun.run(engine.env(), "bench", "--dir", gone.toString(), "--records", "10");
    assertEquals(2, r.exitCode, r::toString);
    assertEquals("joule: use temp dir failed: " + gone + ": No such file or directory\n", r.err);
  }

  @Test
  void anOutputThatFailsValidationExitsThreeAndIsRemoved() throws IOException {
    CliRun r = bench("--records", "1e3", "--repeat", "2");
    assertEquals(3, r.exitCode, r::toString);
    assertEquals(1, engine.sorts); // stopped at the first bad output
    assertTrue(
        r.err.matches("joule: validate failed: \\S+/joule-bench-[-0-9a-f]+/output\\.dat: .*\n"),
        r.err);
    assertEquals(100_000, engine.inputBytes.length);
    assertEquals(List.of(), list(dir));
    assertTrue(r.out.startsWith("joule bench: 1,000 binary records (0.0 GB) in "), r.out);
  }

  @Test
  void keepLeavesTheFiles() throws IOException {
    CliRun r = bench("--records", "100", "--keep", "--ascii", "--skew");
    assertEquals(3, r.exitCode, r::toString); // the stub's output is not sorted
    List<Path> left = list(dir);
    assertEquals(1, left.size(), left::toString);
    assertTrue(Files.exists(left.get(0).resolve("input.dat")));
    assertTrue(r.out.contains("100 ASCII skewed records"), r.out);
  }

  @Test
  void engineFailureExitsWithItsCode() {
    engine.failure =
        new dev.joule.io.error.SortIOException(
            "write", dir.resolve("r"), "No space left on device");
    CliRun r = bench("--records", "10");
    assertEquals(2, r.exitCode, r::toString);
    assertEquals("joule: write failed: " + dir.resolve("r") + ": No space left on device\n", r.err);
  }

  private static List<Path> list(Path d) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.toList();
    }
  }
}

package dev.joule.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A signal while {@code joule sort -o OUT} spools standard input (no FILE): the JVM exits 128 + the
 * signal's number, the CLI's shutdown hook removes the private spool directory, and an existing
 * output is untouched. Over gensort records ({@code --gensort}) and text lines (the default).
 * (SortCliIT covers a signal in the middle of the engine's work.)
 */
class SignalIT {
  @TempDir Path dir;

  @ParameterizedTest(name = "{2}: SIG{0} -> {1}")
  @CsvSource({"TERM, 143, gensort", "INT, 130, gensort", "HUP, 129, gensort", "TERM, 143, lines"})
  void signalWhileSpoolingStdinExits128PlusNAndLeavesNothing(
      String signal, int expected, String format) throws Exception {
    Path tmp = Files.createDirectory(dir.resolve("tmp"));
    Path out = dir.resolve("out.dat");
    byte[] previous = "previous\n".getBytes(StandardCharsets.US_ASCII);
    Files.write(out, previous);
    List<String> cmd =
        new ArrayList<>(
            List.of(
                // A signal ignored when the process starts stays ignored (the JVM, like GNU sort,
                // installs no handler for it), and CI may run under nohup or as a background job of
                // a non-interactive shell, which ignore HUP and INT: restore the defaults first.
                "env",
                "--default-signal=HUP,INT,TERM",
                Path.of(System.getProperty("joule.root"), "joule")
                    .toAbsolutePath()
                    .normalize()
                    .toString(),
                "sort",
                "--temp",
                tmp.toString(),
                "-o",
                out.toString()));
    if (format.equals("gensort")) {
      cmd.add(4, "--gensort");
    }
    Process p =
        new ProcessBuilder(cmd)
            .redirectError(dir.resolve("stderr.txt").toFile())
            .redirectOutput(dir.resolve("stdout.txt").toFile())
            .start();
    OutputStream stdin = p.getOutputStream();
    // 1,000 zero records, or 1,000 lines of 99 letters
    stdin.write(
        format.equals("gensort")
            ? new byte[100 * 1000]
            : ("x".repeat(99) + "\n").repeat(1000).getBytes(StandardCharsets.US_ASCII));
    stdin.flush(); // and keep the pipe open: the sort waits for more input
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!spooling(tmp)) {
      assertTrue(p.isAlive(), () -> "ended early: " + read(dir.resolve("stderr.txt")));
      assertTrue(System.nanoTime() < deadline, "standard input was not spooled within 30 s");
      Thread.sleep(5);
    }
    Process kill =
        new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).inheritIO().start();
    assertEquals(0, kill.waitFor());
    assertTrue(p.waitFor(10, TimeUnit.SECONDS), "still running 10 s after the signal");
    stdin.close();
    assertEquals(expected, p.exitValue(), () -> read(dir.resolve("stderr.txt")));
    assertEquals(List.of(), list(tmp));
    assertArrayEquals(previous, Files.readAllBytes(out));
  }

  /** The spool file exists and has bytes in it. */
  private static boolean spooling(Path tmp) throws IOException {
    for (Path d : list(tmp)) {
      Path f = d.resolve("input");
      try {
        if (Files.exists(f) && Files.size(f) > 0) {
          return true;
        }
      } catch (IOException e) {
        // raced with a deletion: look again
      }
    }
    return false;
  }

  private static List<Path> list(Path d) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.toList();
    }
  }

  private static String read(Path f) {
    try {
      return Files.readString(f);
    } catch (IOException e) {
      return e.toString();
    }
  }
}

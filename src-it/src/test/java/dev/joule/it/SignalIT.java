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
 * A signal while {@code joule sort -o OUT} reads standard input (no FILE), which goes straight into
 * the sort: once it has spilled runs into the temp dir, and before it has written anything (the
 * input held in memory, the temp dir never used). The JVM exits 128 + the signal's number, the temp
 * space's shutdown hook removes the sort's private directory, and an existing output is untouched.
 * Over gensort records ({@code --gensort}) and text lines (the default). (SortCliIT covers a signal
 * in the middle of the file sort.)
 */
class SignalIT {
  /** Input enough to spill at -S 8M: chunks of about 3.5 MB each. */
  private static final int SPILLED_BYTES = 12 << 20;

  @TempDir Path dir;

  @ParameterizedTest(name = "{2}, {3}: SIG{0} -> {1}")
  @CsvSource({
    "TERM, 143, gensort, spilled",
    "INT, 130, gensort, spilled",
    "HUP, 129, gensort, spilled",
    "TERM, 143, lines, spilled",
    "TERM, 143, lines, in memory"
  })
  void signalWhileReadingStdinExits128PlusNAndLeavesNothing(
      String signal, int expected, String format, String phase) throws Exception {
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
                "-S",
                "8M",
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
    boolean spill = phase.equals("spilled");
    byte[] block =
        format.equals("gensort")
            ? new byte[100 * 1000] // 1,000 zero records
            : ("x".repeat(99) + "\n").repeat(1000).getBytes(StandardCharsets.US_ASCII);
    OutputStream stdin = p.getOutputStream();
    // Written on a thread of its own: a pipe takes 64 KiB before the sort reads it.
    Thread writer =
        new Thread(
            () -> {
              try {
                for (int n = 0; n < (spill ? SPILLED_BYTES / block.length : 1); n++) {
                  stdin.write(block);
                }
                stdin.flush(); // and keep the pipe open: the sort waits for more input
              } catch (IOException e) {
                // the sort was ended while this wrote: the assertions below tell
              }
            },
            "stdin-writer");
    writer.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (spill ? !hasRunFile(tmp) : writer.isAlive()) {
      assertTrue(p.isAlive(), () -> "ended early: " + read(dir.resolve("stderr.txt")));
      assertTrue(System.nanoTime() < deadline, phase + ": not reached within 30 s");
      Thread.sleep(5);
    }
    if (!spill) {
      assertEquals(List.of(), list(tmp), "a sort in memory uses no temp dir");
    }
    Process kill =
        new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).inheritIO().start();
    assertEquals(0, kill.waitFor());
    assertTrue(p.waitFor(10, TimeUnit.SECONDS), "still running 10 s after the signal");
    writer.join(10_000);
    stdin.close();
    assertEquals(expected, p.exitValue(), () -> read(dir.resolve("stderr.txt")));
    assertEquals(List.of(), list(tmp));
    assertArrayEquals(previous, Files.readAllBytes(out));
  }

  /** A run file of the sort exists in {@code tmp}'s private directory. */
  private static boolean hasRunFile(Path tmp) throws IOException {
    for (Path d : list(tmp)) {
      try {
        if (Files.isDirectory(d)
            && list(d).stream().anyMatch(f -> !f.getFileName().toString().equals("owner.lock"))) {
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

package dev.joule.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.it.CliContract.Tmpfs;
import dev.joule.testing.TestSeed;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Standard input, pipes and standard output as streams of the sort (issue 30), end to end through
 * the launcher under bash, against GNU sort ({@code LC_ALL=C sort}) on the same seeded inputs: a
 * pipe that fits in memory needs no temp space at all (TMPDIR on a 1 MiB tmpfs); {@code | head -1}
 * ends joule as SIGPIPE ends GNU sort, silently and with no temp file left; 40 MB from standard
 * input to standard output writes no temp file; and the stream path keeps GNU's semantics when it
 * spills ({@code -u}, {@code -s}, keys, {@code -z}, {@code -o} onto an input, the line limit).
 *
 * <p>The tmpfs tests mount as root (CI is root) and unmount in a finally block ({@link Tmpfs}).
 * Every run uses {@code JOULE_AOT=use}: a start-up cache training would run a sort of its own in
 * TMPDIR beside the test's.
 */
class StreamsIT {
  static final long SEED = TestSeed.of(StreamsIT.class, 0x5773_EA35L);
  private static final long TIMEOUT_SECONDS = 180;

  @TempDir static Path shared;
  @TempDir Path dir;

  /** 16 MB of words: spills at -S 8M, and its sorted output is far more than a pipe holds. */
  static Path big;

  @BeforeAll
  static void inputs() throws IOException {
    big = words(shared.resolve("big.txt"), SEED, 16_000_000);
  }

  /** Exit code and standard error of a bash script; its stdout is {@code dir/out}. */
  record Result(int exit, String err) {}

  /**
   * Runs {@code bash -o pipefail -c script} in {@code dir} with the launcher as {@code $J}, {@code
   * LC_ALL=C}, {@code JOULE_AOT=use} and {@code env}; standard output into {@code dir/out}.
   */
  private Result bash(String script, Map<String, String> env) throws Exception {
    ProcessBuilder pb =
        new ProcessBuilder("bash", "-o", "pipefail", "-c", script)
            .directory(dir.toFile())
            .redirectOutput(dir.resolve("out").toFile())
            .redirectError(dir.resolve("err").toFile());
    pb.environment().put("J", CliContract.launcher());
    pb.environment().put("LC_ALL", "C");
    pb.environment().put("JOULE_AOT", "use");
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + script);
    }
    return new Result(p.exitValue(), Files.readString(dir.resolve("err"), StandardCharsets.UTF_8));
  }

  private byte[] out() throws IOException {
    return Files.readAllBytes(dir.resolve("out"));
  }

  /** What {@code LC_ALL=C sort args} writes for the same input (exit 0 asserted). */
  private byte[] gnu(String args) throws Exception {
    Result r = bash("sort " + args, Map.of());
    assertEquals(0, r.exit(), () -> "GNU sort " + args + ": " + r.err());
    return out();
  }

  /**
   * Random words of letters and digits, 1-8 to a line (startup-vs-gnu.sh's shape), about {@code
   * bytes} bytes from {@code seed}.
   */
  static Path words(Path file, long seed, long bytes) throws IOException {
    String letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    SplittableRandom r = new SplittableRandom(seed);
    try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
      long n = 0;
      while (n < bytes) {
        int words = 1 + r.nextInt(8);
        for (int w = 0; w < words; w++) {
          if (w > 0) {
            o.write(' ');
            n++;
          }
          int len = 2 + r.nextInt(11);
          for (int i = 0; i < len; i++) {
            o.write(letters.charAt(r.nextInt(letters.length())));
          }
          n += len;
        }
        o.write('\n');
        n++;
      }
    }
    return file;
  }

  private static List<String> entries(Path d) throws IOException {
    List<String> all = new ArrayList<>();
    try (Stream<Path> s = Files.walk(d)) {
      s.filter(p -> !p.equals(d)).forEach(p -> all.add(p.toString()));
    }
    return all;
  }

  /**
   * {@code cat 3MB | joule sort} with TMPDIR on a 1 MiB tmpfs: sorted in memory, so the tmpfs is
   * never used. (When standard input was first copied into TMPDIR, this failed with "No space left
   * on device".)
   */
  @Test
  void aPipeOfThreeMegabytesSortsInMemoryWithTmpdirOnAOneMebibyteTmpfs() throws Exception {
    Path in = words(dir.resolve("in.txt"), SEED + 1, 3_000_000);
    byte[] expected = gnu("in.txt");
    try (Tmpfs small = new Tmpfs(dir.resolve("small"), "1m")) {
      Result r = bash("cat in.txt | $J sort", Map.of("TMPDIR", small.dir.toString()));
      assertEquals(new Result(0, ""), r);
      assertArrayEquals(expected, out(), "against LC_ALL=C sort, seed " + SEED);
      assertEquals(List.of(), entries(small.dir));
      // The same pipe through -o, and several files with standard input among them.
      r =
          bash(
              "cat in.txt | $J sort -o sorted.txt && cat sorted.txt",
              Map.of("TMPDIR", small.dir.toString()));
      assertEquals(new Result(0, ""), r);
      assertArrayEquals(expected, out());
      r = bash("head -c 1000000 in.txt | $J sort - in.txt", Map.of("TMPDIR", small.dir.toString()));
      assertEquals(new Result(0, ""), r);
      assertArrayEquals(gnu("<(head -c 1000000 in.txt) in.txt"), out());
      assertEquals(List.of(), entries(small.dir));
    }
    assertTrue(Files.exists(in));
  }

  /**
   * {@code joule sort big | head -1}, where the sort spilled: the first line, nothing on stderr,
   * the temp dir empty, and the end GNU sort has on the same input: exit status 141 under {@code
   * set -o pipefail}, and to a parent that waits for it, death by SIGPIPE (signal 13, as perl's
   * {@code $?} tells); started with SIGPIPE ignored, the failed write's message and exit 2.
   */
  @Test
  void theHeadOfABigSortEndsItAsSigpipeEndsGnuSortSilentlyWithNoTempFileLeft() throws Exception {
    Path tmp = Files.createDirectory(dir.resolve("tmp"));
    String first = new String(gnu(big + " | sed -n 1p"), StandardCharsets.UTF_8);
    Result gnu = bash("sort -S 8M -T tmp " + big + " | head -1", Map.of());
    Result joule = bash("$J sort -S 8M -T tmp " + big + " | head -1", Map.of());
    assertEquals(new Result(141, ""), gnu);
    assertEquals(new Result(141, ""), joule);
    assertEquals(first, Files.readString(dir.resolve("out")));
    assertEquals(List.of(), entries(tmp));
    // A pipe into joule as well (the sort of streams), ended the same way.
    joule = bash("cat " + big + " | $J sort -S 8M -T tmp | head -1", Map.of());
    assertEquals(new Result(141, ""), joule);
    assertEquals(first, Files.readString(dir.resolve("out")));
    assertEquals(List.of(), entries(tmp));
    // How each ended, as a parent sees it: perl reads one line, closes the pipe, waits.
    String perl =
        "perl -e 'open(my $f, \"-|\", @ARGV) or die $!; my $l = <$f>; close($f);"
            + " print \"signal \", $? & 127, \" status \", $? >> 8, \"\\n\"' ";
    assertEquals(new Result(0, ""), bash(perl + "sort -S 8M -T tmp " + big, Map.of()));
    String gnuEnd = Files.readString(dir.resolve("out"));
    assertEquals("signal 13 status 0\n", gnuEnd);
    assertEquals(new Result(0, ""), bash(perl + "$J sort -S 8M -T tmp " + big, Map.of()));
    assertEquals(gnuEnd, Files.readString(dir.resolve("out")));
    assertEquals(List.of(), entries(tmp));
    // Started with SIGPIPE ignored, GNU sort reports the failed write and exits 2: so does joule.
    gnu = bash("trap '' PIPE; sort -S 8M -T tmp " + big + " | head -1", Map.of());
    joule = bash("trap '' PIPE; $J sort -S 8M -T tmp " + big + " | head -1", Map.of());
    assertEquals(2, gnu.exit(), gnu::toString);
    assertTrue(gnu.err().contains("write failed: 'standard output': Broken pipe"), gnu::toString);
    assertEquals(new Result(2, "joule: write failed: /dev/stdout: Broken pipe\n"), joule);
    assertEquals(List.of(), entries(tmp));
  }

  /**
   * 40 MB from standard input to standard output with a budget that holds it (short lines take
   * about 3.4 bytes of memory per byte at the peak, index included: 136 MiB) but not half of it:
   * the temp dir (a 1 MiB tmpfs, TMPDIR too) stays empty, as the session's first chunk takes the
   * whole budget, and the output is GNU's, compared by SHA-256.
   * (sort-bench/scripts/streams-vs-gnu.sh times 150 MB.)
   */
  @Test
  void standardInputToStandardOutputOf40MegabytesAt200MWritesNoTempFile() throws Exception {
    Path in = words(dir.resolve("in40.txt"), SEED + 2, 40_000_000);
    String joule;
    try (Tmpfs small = new Tmpfs(dir.resolve("small"), "1m")) {
      Result r =
          bash(
              "cat in40.txt | $J sort -S 200M -T \"$TMPDIR\" | sha256sum",
              Map.of("TMPDIR", small.dir.toString()));
      assertEquals(new Result(0, ""), r);
      joule = Files.readString(dir.resolve("out"));
      assertEquals(List.of(), entries(small.dir));
    }
    assertEquals(new Result(0, ""), bash("sort in40.txt | sha256sum", Map.of()));
    assertEquals(Files.readString(dir.resolve("out")), joule, "seed " + (SEED + 2));
    Files.delete(in);
  }

  /**
   * The stream path's GNU semantics beside the file sort's: {@code -o} onto an input that is read
   * with standard input, {@code -z} from a pipe, and the line limit: a 60 MiB line sorts, one over
   * 64 MiB fails with the file sort's error, naming standard input as {@code -}.
   */
  @Test
  void outputOntoAnInputZeroTerminatedLinesAndTheLineLimitAsTheFileSort() throws Exception {
    Files.writeString(dir.resolve("a.txt"), "delta\nalpha\n");
    Result r = bash("printf 'charlie\\nbravo' | $J sort -o a.txt a.txt - && cat a.txt", Map.of());
    assertEquals(new Result(0, ""), r);
    assertEquals("alpha\nbravo\ncharlie\ndelta\n", Files.readString(dir.resolve("out")));
    r = bash("printf 'b\\0a\\nc\\0a' | $J sort -z", Map.of());
    assertEquals(new Result(0, ""), r);
    assertEquals("a\0a\nc\0b\0", Files.readString(dir.resolve("out")));
    String longLine = "head -c %d /dev/zero | tr '\\0' x; printf '\\nb\\na\\n'";
    r = bash("(" + String.format(longLine, 60 << 20) + ") | $J sort | cut -c1-3", Map.of());
    assertEquals(new Result(0, ""), r);
    assertEquals("a\nb\nxxx\n", Files.readString(dir.resolve("out")));
    r = bash("(" + String.format(longLine, (64 << 20) + 1) + ") > long.txt", Map.of());
    assertEquals(0, r.exit());
    Result file = bash("$J sort -o sorted.txt long.txt", Map.of());
    Result pipe = bash("cat long.txt | $J sort", Map.of());
    assertEquals(2, file.exit(), file::toString);
    assertTrue(
        file.err().startsWith("joule: read failed: long.txt: the line at offset 0"),
        file::toString);
    assertEquals(new Result(2, file.err().replace("long.txt", "-")), pipe);
    Files.delete(dir.resolve("long.txt"));
  }

  /**
   * A pipe that spills (16 MB at -S 8M) sorts as GNU sort does, with the options whose meaning
   * depends on the order of equal keys across runs: unique, stable, reversed, keys.
   */
  @ParameterizedTest
  @ValueSource(strings = {"-u", "-s -k2,2", "-r -k3", "-f -u -k1,1"})
  void aPipeThatSpillsSortsAsGnuSort(String options) throws Exception {
    Path tmp = Files.createDirectory(dir.resolve("tmp"));
    byte[] expected = gnu(options + " " + big);
    Result r = bash("cat " + big + " | $J sort -S 8M -T tmp " + options, Map.of());
    assertEquals(new Result(0, ""), r, options);
    assertArrayEquals(expected, out(), () -> "sort " + options + ", seed " + SEED);
    assertEquals(List.of(), entries(tmp));
  }
}

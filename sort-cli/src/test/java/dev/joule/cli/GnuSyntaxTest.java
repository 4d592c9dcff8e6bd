package dev.joule.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.testing.TestLocales;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * GNU sort's command-line syntax in {@code joule sort}, each case checked against the GNU sort of
 * the machine (skipped without one): obsolete {@code +POS1 -POS2} keys, {@code -R} with {@code
 * --random-source} (the same source gives GNU's own order, byte for byte), abbreviated long options
 * and WORDs, {@code -y}, and the exit status and words of getopt's errors. Standard output and the
 * exit status must be GNU's; standard error too where GNU's words are kept ({@link #sameErr}).
 * Cases that depend on {@code _POSIX2_VERSION} and {@code POSIXLY_CORRECT} run joule as a process
 * of its own with that environment; the others run in this JVM.
 */
class GnuSyntaxTest {
  private static final String LINES =
      "b 2 x\na 10 y\nc 1 z\nB 2 x\na 10 y\n b  3 w\nc:1:q\n\tc 01 v\na 1\nz\n\n";

  @TempDir Path dir;
  Path input;
  Path source;

  @BeforeEach
  void files() throws IOException {
    Assumptions.assumeTrue(gnuSort(), "no GNU sort on the PATH");
    input = Files.writeString(dir.resolve("in.txt"), LINES);
    byte[] salt = new byte[64];
    new SplittableRandom(30).nextBytes(salt);
    source = Files.write(dir.resolve("random.bin"), salt);
  }

  /** What one side did. */
  private record Result(int exit, String out, String err) {}

  @ParameterizedTest
  @ValueSource(
      strings = {
        // obsolete keys, as GNU 9.1 takes them by default
        "+1 -2",
        "+1",
        "-s +0 -1",
        "-s +0 -1.0",
        "-s +0 -1.1",
        "-s +0 -1.2",
        "-s +0 -1.1b",
        "+0.1n",
        "-n -t: +1",
        "-t : +1.1 -1.2",
        "+0 +1nr",
        "+1b -2 -r",
        "+1.2 -3.1f",
        "+2 -1",
        "+0.0 -0",
        "-k2,2 +0 -1",
        "-- +1",
        "+1x",
        "+1 -2x",
        "+1 -2.x",
        "+1x -2",
        // -R with a random source: GNU's order
        "-R",
        "-k2,2R",
        "-k1,1fR",
        "-k2,2dR -k1,1",
        "-Rr",
        "-Ru",
        "-Rs",
        "-R -k3",
        "--sort=random",
        "-R -t: -k2",
        "-c -k1,1fR",
        // abbreviations, -y, and getopt's errors
        "--rev",
        "--para=1 --rev -n",
        "--ignore-l --num -k2",
        "--s",
        "--ver",
        "--r",
        "--deb=x",
        "--para",
        "--foo",
        "--foo=bar",
        "-x",
        "-k",
        "--check=q",
        "--check=dia",
        "--check=x",
        "--check=",
        "--sort=num -k2",
        "--sort=x",
        "-y",
        "-y0",
        "-y 100",
        "-ny5 -k2",
        "-cC",
        "-nR",
        "--random-source=a --random-source=b -R",
      })
  void matchesGnuSort(String args) throws Exception {
    List<String> argv = new ArrayList<>(Arrays.asList(args.split(" ", -1)));
    if (args.contains("R") || args.contains("random")) {
      argv.add(0, "--random-source=" + source);
    }
    argv.add(input.toString());
    Result gnu = gnu(argv, Map.of());
    Result joule = joule(argv);
    assertEquals(gnu.exit, joule.exit, () -> args + "\nGNU: " + gnu + "\njoule: " + joule);
    assertEquals(gnu.out, joule.out, () -> args + "\nGNU: " + gnu + "\njoule: " + joule);
    if (sameErr(args)) {
      assertEquals(
          gnuWords(gnu.err), joule.err, () -> args + "\nGNU: " + gnu + "\njoule: " + joule);
    }
  }

  /**
   * The cases whose standard error is GNU's word for word: getopt's and argmatch's errors, not the
   * wording of an I/O error or a bad number, which is joule's own ("open failed: FILE: ...").
   */
  private static boolean sameErr(String args) {
    if (args.equals("-- +1") || args.equals("--para")) {
      return false;
    }
    return args.startsWith("--")
        || args.startsWith("-x")
        || args.startsWith("-k")
        || args.startsWith("-y")
        || args.startsWith("+1 -2");
  }

  /** GNU's stderr as joule words it: the program is {@code joule sort}. */
  private static String gnuWords(String err) {
    return err.replaceAll("(?m)^sort: ", "joule: ")
        .replace("Try 'sort --help'", "Try 'joule sort --help'");
  }

  @Test
  void randomOrderKeepsEqualKeysTogetherAndFollowsTheSource() throws Exception {
    StringBuilder b = new StringBuilder();
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < 2000; i++) {
      b.append("k").append(r.nextInt(300)).append(' ').append(r.nextInt(5)).append('\n');
    }
    Path many = Files.writeString(dir.resolve("many.txt"), b.toString());
    List<String> withSource = List.of("-R", "-k1,1", "--random-source=" + source, many.toString());
    String first = joule(withSource).out;
    assertEquals(first, joule(withSource).out, "the same source gives the same order");
    assertEquals(gnu(withSource, Map.of()).out, first, "and GNU's order");
    Path other = Files.write(dir.resolve("other.bin"), new byte[16]);
    String reseeded =
        joule(List.of("-R", "-k1,1", "--random-source=" + other, many.toString())).out;
    assertNotEquals(first, reseeded, "another source, another order");
    for (String out :
        List.of(first, reseeded, joule(List.of("-R", "-k1,1", many.toString())).out)) {
      String[] lines = out.substring(0, out.length() - 1).split("\n", -1);
      assertEquals(2000, lines.length);
      List<String> seen = new ArrayList<>();
      String last = null;
      for (String line : lines) {
        String key = line.split(" ", -1)[0];
        if (!key.equals(last)) {
          assertTrue(!seen.contains(key), () -> "key " + key + " is not in one run of lines");
          seen.add(key);
          last = key;
        }
      }
      String[] sorted = lines.clone();
      Arrays.sort(sorted);
      String[] expected = b.substring(0, b.length() - 1).split("\n", -1);
      Arrays.sort(expected);
      assertEquals(Arrays.asList(expected), Arrays.asList(sorted), "a permutation of the input");
    }
  }

  /**
   * {@code -R} in a locale: GNU's {@code compare_random} hashes each key's collation transform
   * there ({@code strxfrm} of each NUL-separated part, a NUL after each), in C.UTF-8 too, where the
   * transform is a copy but the NULs still change the digest. Unicode lines with case and accent
   * variants, duplicate keys, NUL bytes and bytes that are not UTF-8: GNU's order, byte for byte.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "C.UTF-8|-R",
        "C.UTF-8|-k1,1fR -k2",
        "en_US.UTF-8|-R",
        "en_US.UTF-8|-k1,1R -k2,2",
        "en_US.UTF-8|-k1,1dfR",
        "en_US.UTF-8|-Ru",
        "de_DE.UTF-8|-Rr",
        "de_DE.UTF-8|-R -s -k2",
        "sv_SE.UTF-8|-k1,1iR -u",
        "ru_RU.UTF-8|-t, -k2R",
      })
  void randomOrderInALocaleIsGnus(String spec) throws Exception {
    String[] parts = spec.split("\\|", -1);
    String locale = parts[0];
    if (!locale.startsWith("C.")) {
      TestLocales.prepare(List.of(locale));
    }
    Path text =
        Files.write(dir.resolve("unicode.txt"), unicodeLines(new SplittableRandom(31), 400));
    List<String> argv = new ArrayList<>(Arrays.asList(parts[1].split(" ", -1)));
    argv.add(0, "--random-source=" + source);
    argv.add(text.toString());
    Map<String, String> env = Map.of("LC_ALL", locale);
    Result gnu = gnu(argv, env);
    Result joule = joule(argv, env);
    assertEquals(0, gnu.exit, () -> spec + "\nGNU: " + gnu);
    assertEquals(gnu.exit, joule.exit, () -> spec + "\njoule: " + joule);
    assertEquals(gnu.out, joule.out, () -> spec + "\nGNU and joule differ");
  }

  /** Lines of one to three fields drawn from a small pool, so that keys repeat. */
  private static byte[] unicodeLines(SplittableRandom r, int count) {
    String[] words = {
      "apple",
      "Apple",
      "ápple",
      "Äpfel",
      "zebra",
      "Zürich",
      "résumé",
      "resume",
      "Resume",
      "日本",
      "жук",
      "Жук",
      "straße",
      "STRASSE",
      "co-op",
      "coop",
      "10",
      "9",
      "",
      "x y",
      "ångström",
      "öl"
    };
    byte[][] odd = {
      {'a', 0, 'b'}, {'a', 0}, {0}, {'x', (byte) 0xFF}, {(byte) 0xC3}, {'e', (byte) 0x80}
    };
    List<byte[]> pool = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      int fields = 1 + r.nextInt(3);
      for (int f = 0; f < fields; f++) {
        if (f > 0) {
          line.write(r.nextBoolean() ? ' ' : ',');
        }
        byte[] w =
            r.nextInt(8) == 0
                ? odd[r.nextInt(odd.length)]
                : words[r.nextInt(words.length)].getBytes(StandardCharsets.UTF_8);
        line.writeBytes(w);
      }
      pool.add(line.toByteArray());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < count; i++) {
      out.writeBytes(pool.get(r.nextInt(pool.size())));
      out.write('\n');
    }
    return out.toByteArray();
  }

  /** {@code _POSIX2_VERSION} and {@code POSIXLY_CORRECT}: joule in a process of its own. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "_POSIX2_VERSION=200112|+1",
        "_POSIX2_VERSION=200112|+1 -2",
        "_POSIX2_VERSION=199209|+1",
        "_POSIX2_VERSION=200809|+1",
        "_POSIX2_VERSION=junk|+1",
        "POSIXLY_CORRECT=1|+1 -2",
        "POSIXLY_CORRECT=1|-r @ -n",
        "POSIXLY_CORRECT=1|-n @ -o @out",
        "POSIXLY_CORRECT=1,_POSIX2_VERSION=200112|-n @ -o @out",
      })
  void followsGnuSortsEnvironment(String spec) throws Exception {
    String[] parts = spec.split("\\|", -1);
    Map<String, String> env = new HashMap<>();
    for (String kv : parts[0].split(",", -1)) {
      env.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
    }
    List<String> argv = new ArrayList<>();
    for (String a : parts[1].split(" ", -1)) {
      argv.add(a.equals("@") ? input.toString() : a.replace("@out", "out.txt"));
    }
    if (!parts[1].contains("@")) {
      argv.add(input.toString());
    }
    Result gnu = gnu(argv, env);
    Result joule = jouleProcess(argv, env);
    assertEquals(gnu.exit, joule.exit, () -> spec + "\nGNU: " + gnu + "\njoule: " + joule);
    assertEquals(gnu.out, joule.out, () -> spec + "\nGNU: " + gnu + "\njoule: " + joule);
  }

  private Result joule(List<String> argv) {
    return joule(argv, Map.of());
  }

  /** joule in this JVM with the environment variables {@code variables} (the locale's). */
  private Result joule(List<String> argv, Map<String, String> variables) {
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    CliEnvironment env =
        new CliEnvironment(
            SortEngine.external(),
            new ByteArrayInputStream(new byte[0]),
            stdout,
            RaplMeter.POWERCAP,
            variables);
    List<String> a = new ArrayList<>(List.of("sort"));
    a.addAll(argv);
    CliRun r = CliRun.run(env, a.toArray(new String[0]));
    return new Result(r.exitCode, stdout.toString(StandardCharsets.ISO_8859_1), r.out + r.err);
  }

  private Result jouleProcess(List<String> argv, Map<String, String> env) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), JouleCommand.class.getName()));
    cmd.add("sort");
    cmd.addAll(argv);
    return run(cmd, env, dir.resolve("joule"));
  }

  private Result gnu(List<String> argv, Map<String, String> env) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("sort"));
    cmd.addAll(argv);
    return run(cmd, env, dir.resolve("gnu"));
  }

  private Result run(List<String> cmd, Map<String, String> env, Path cwd) throws Exception {
    Files.createDirectories(cwd);
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
    pb.environment().put("LC_ALL", "C");
    pb.environment().remove("POSIXLY_CORRECT");
    pb.environment().remove("_POSIX2_VERSION");
    pb.environment().putAll(env);
    pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Process p = pb.start();
    byte[] out = p.getInputStream().readAllBytes();
    byte[] err = p.getErrorStream().readAllBytes();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "timed out: " + cmd);
    String o = new String(out, StandardCharsets.ISO_8859_1);
    Path written = cwd.resolve("out.txt");
    if (Files.exists(written)) {
      o += "[out.txt]" + Files.readString(written, StandardCharsets.ISO_8859_1);
      Files.delete(written);
    }
    return new Result(p.exitValue(), o, new String(err, StandardCharsets.ISO_8859_1));
  }

  private static boolean gnuSort() {
    try {
      Process p = new ProcessBuilder("sort", "--version").redirectErrorStream(true).start();
      String v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return p.waitFor() == 0 && v.contains("GNU coreutils");
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }
}

package dev.joule.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.joule.testing.TestSeed;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the real {@code ./joule} launcher (the shaded jar) as a process, end to end. */
class LauncherIT {
  private static final long TIMEOUT_SECONDS = 120;

  @TempDir Path dir;

  /** Exit code, stdout and stderr of one launcher run. */
  record Result(int exitCode, String out, String err) {}

  static Result joule(Path dir, String... args) throws IOException, InterruptedException {
    return joule(repositoryRoot(), Map.of(), dir, args);
  }

  static Path repositoryRoot() {
    String root = System.getProperty("joule.root");
    assertTrue(root != null, "system property joule.root (the repository root) is not set");
    return Path.of(root).toAbsolutePath().normalize();
  }

  /** Runs {@code root}'s launcher in {@code dir} with {@code env} added to the environment. */
  static Result joule(Path root, Map<String, String> env, Path dir, String... args)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(root.resolve("joule").toString());
    cmd.addAll(List.of(args));
    Path out = dir.resolve("stdout.txt");
    Path err = dir.resolve("stderr.txt");
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + cmd);
    }
    // decoded leniently: a gensort sort to standard output writes binary records (read them with
    // stdout())
    return new Result(
        p.exitValue(),
        new String(Files.readAllBytes(out), StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  @Test
  void gensortThenValsortThroughTheLauncher() throws Exception {
    Result gen = joule(dir, "gensort", "-c", "-t2", "5000", "in.dat");
    assertEquals(0, gen.exitCode(), gen::toString);
    assertTrue(gen.err().matches("[0-9a-f]+\n"), gen::toString);
    assertEquals(500_000, Files.size(dir.resolve("in.dat")));
    String checksum = gen.err().trim();

    Result val = joule(dir, "valsort", "-o", "in.sum", "in.dat");
    assertEquals(1, val.exitCode(), val::toString); // gensort output is not sorted
    List<String> lines = val.err().lines().toList();
    assertTrue(lines.get(0).startsWith("First unordered record is record "), val::toString);
    assertEquals("Records: 5000", lines.get(1));
    assertEquals("Checksum: " + checksum, lines.get(2));
    assertTrue(lines.get(3).matches("ERROR - there are \\d+ unordered records"), val::toString);
    assertEquals(280, Files.size(dir.resolve("in.sum")));

    Result one = joule(dir, "gensort", "1", "one.dat");
    assertEquals(0, one.exitCode(), one::toString);
    Result ok = joule(dir, "valsort", "-t1", "one.dat");
    assertEquals(0, ok.exitCode(), ok::toString);
    assertTrue(
        ok.err().endsWith("Duplicate keys: 0\nSUCCESS - all records are in order\n"), ok::toString);

    Result missing = joule(dir, "valsort", "nope.dat");
    assertEquals(1, missing.exitCode());
    assertEquals("valsort: cannot open nope.dat: No such file or directory\n", missing.err());
  }

  /** The version in the root POM, which the build filters into the jar. */
  static String projectVersion() throws IOException {
    String pom = Files.readString(Path.of(System.getProperty("joule.root"), "pom.xml"));
    Matcher m =
        Pattern.compile("<artifactId>joule-parent</artifactId>\\s*<version>([^<]+)</version>")
            .matcher(pom);
    assertTrue(m.find(), "no joule-parent version in the root pom.xml");
    return m.group(1);
  }

  @Test
  void versionPrintsTheProjectVersion() throws Exception {
    Result r = joule(dir, "--version");
    assertEquals(0, r.exitCode(), r::toString);
    String expected = projectVersion();
    assertTrue(r.out().startsWith("joule " + expected + "\n"), r::toString);
  }

  // --- the JDK 25 ahead-of-time cache (the launcher's aot_flags) ---

  /** A JDK 25 or later: this JVM's, or the one in JDK25_HOME; null if neither. */
  static Path jdk25() {
    if (Runtime.version().feature() >= 25) {
      return Path.of(System.getProperty("java.home"));
    }
    String env = System.getenv("JDK25_HOME");
    return env == null || env.isEmpty() ? null : Path.of(env);
  }

  /**
   * A copy of the launcher and the jar in a private root, so that the tests own the cache beside
   * the jar (and may change the jar) without touching the build's.
   */
  Path privateRoot() throws IOException {
    Path root = dir.resolve("root");
    Path target = Files.createDirectories(root.resolve("sort-cli").resolve("target"));
    Path real = repositoryRoot();
    Files.copy(real.resolve("joule"), root.resolve("joule"), StandardCopyOption.COPY_ATTRIBUTES);
    Files.copy(real.resolve("sort-cli/target/joule.jar"), target.resolve("joule.jar"));
    return root;
  }

  Map<String, String> aotEnv(Path jdk, String mode, String javaOpts) {
    Map<String, String> env = new HashMap<>();
    env.put("JAVA_HOME", jdk.toString());
    env.put("JOULE_AOT", mode);
    env.put("JOULE_JAVA_OPTS", javaOpts);
    env.put("XDG_CACHE_HOME", dir.resolve("xdg").toString());
    return env;
  }

  /** 2,000 gensort records (binary), and their stable sort by the 10-byte key, as a reference. */
  byte[] gensortInput(Path root, Path jdk) throws Exception {
    Result gen = joule(root, aotEnv(jdk, "off", ""), dir, "gensort", "2000", "in.dat");
    assertEquals(0, gen.exitCode(), gen::toString);
    return referenceSort(Files.readAllBytes(dir.resolve("in.dat")));
  }

  static byte[] referenceSort(byte[] in) {
    List<byte[]> records = new ArrayList<>();
    for (int i = 0; i < in.length; i += 100) {
      records.add(Arrays.copyOfRange(in, i, i + 100));
    }
    records.sort((a, b) -> Arrays.compareUnsigned(a, 0, 10, b, 0, 10)); // List.sort is stable
    byte[] out = new byte[in.length];
    for (int i = 0; i < records.size(); i++) {
      System.arraycopy(records.get(i), 0, out, i * 100, 100);
    }
    return out;
  }

  /** The bytes the last run wrote to standard output. */
  byte[] stdout() throws IOException {
    return Files.readAllBytes(dir.resolve("stdout.txt"));
  }

  /** {@code sort --gensort in.dat} with JOULE_AOT=use: exit 0, nothing on stderr, the sort. */
  void sortsAsExpected(Path root, Path jdk, String javaOpts, byte[] expected) throws Exception {
    Result r = joule(root, aotEnv(jdk, "use", javaOpts), dir, "sort", "--gensort", "in.dat");
    assertEquals(0, r.exitCode(), r::toString);
    assertEquals("", r.err());
    assertArrayEquals(expected, stdout());
  }

  static List<Path> caches(Path aotDir) throws IOException {
    try (Stream<Path> s = Files.list(aotDir)) {
      return s.sorted().toList();
    }
  }

  @Test
  void onJdk25TheCacheIsTrainedKeptPrivateAndUsed() throws Exception {
    Path jdk = jdk25();
    assumeTrue(jdk != null, "no JDK 25 (run on one, or set JDK25_HOME)");
    Path root = privateRoot();
    byte[] expected = gensortInput(root, jdk);
    String log = "-Xlog:aot=info:file=aot.log";

    Result trained =
        joule(root, aotEnv(jdk, "train", log), dir, "sort", "--gensort", "-o", "out.dat", "in.dat");
    assertEquals(0, trained.exitCode(), trained::toString);
    assertEquals("", trained.out() + trained.err(), trained::toString);
    assertArrayEquals(expected, Files.readAllBytes(dir.resolve("out.dat")));
    Path aotDir = root.resolve("sort-cli/target/aot");
    List<Path> files = caches(aotDir);
    assertEquals(1, files.size(), files::toString); // no lock or temp file left
    Path cache = files.get(0);
    assertTrue(cache.getFileName().toString().matches("joule-[0-9a-f]{16}-[0-9a-f]{16}\\.aot"));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(aotDir)));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cache)));

    // A plain run maps the cache (the JVM's own log says so) and leaves stdout to the data.
    Files.delete(dir.resolve("aot.log"));
    sortsAsExpected(root, jdk, log, expected);
    String aotLog = Files.readString(dir.resolve("aot.log"));
    assertTrue(aotLog.contains("Opened AOT cache " + cache), aotLog);
    assertTrue(aotLog.contains("Mapped static"), aotLog);

    // The default mode (auto) uses the cache it finds and trains nothing more.
    Files.delete(dir.resolve("aot.log"));
    Result auto = joule(root, aotEnv(jdk, "auto", log), dir, "sort", "--gensort", "in.dat");
    assertEquals(0, auto.exitCode(), auto::toString);
    assertEquals("", auto.err());
    assertArrayEquals(expected, stdout());
    String autoLog = Files.readString(dir.resolve("aot.log"));
    assertTrue(autoLog.contains("Opened AOT cache " + cache), autoLog);
    assertEquals(List.of(cache), caches(aotDir), "a lock, a temp file or a second cache");
  }

  @Test
  void aCorruptOrStaleCacheNeverBreaksTheSortAndIsNotUsed() throws Exception {
    Path jdk = jdk25();
    assumeTrue(jdk != null, "no JDK 25 (run on one, or set JDK25_HOME)");
    Path root = privateRoot();
    byte[] expected = gensortInput(root, jdk);
    String log = "-Xlog:aot=info:file=aot.log";
    Result trained = joule(root, aotEnv(jdk, "train", log), dir, "--version");
    assertEquals(0, trained.exitCode(), trained::toString);
    Path aotDir = root.resolve("sort-cli/target/aot");
    Path cache = caches(aotDir).get(0);

    long seed = TestSeed.of(LauncherIT.class, 0xCAC4E_0BADL);
    byte[] garbage = new byte[(int) Math.min(Files.size(cache), 1 << 20)];
    new Random(seed).nextBytes(garbage);
    for (byte[] corrupt : List.of(garbage, Arrays.copyOf(Files.readAllBytes(cache), 4096))) {
      Files.write(cache, corrupt);
      Result r = joule(root, aotEnv(jdk, "use", ""), dir, "sort", "--gensort", "in.dat");
      assertEquals(0, r.exitCode(), () -> "seed " + seed + ": " + r);
      assertEquals("", r.err(), () -> "seed " + seed);
      assertArrayEquals(expected, stdout(), "seed " + seed);
    }

    // A rebuilt jar (here: a new modification time) has another key: the old cache is not passed.
    Path jar = root.resolve("sort-cli/target/joule.jar");
    Files.setLastModifiedTime(
        jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 3_600_000));
    Files.deleteIfExists(dir.resolve("aot.log"));
    sortsAsExpected(root, jdk, log, expected);
    String aotLog = Files.readString(dir.resolve("aot.log"));
    assertFalse(aotLog.contains("Opened AOT cache"), aotLog);

    // Training for the new jar replaces the old cache, which can never match again.
    Result retrained = joule(root, aotEnv(jdk, "train", log), dir, "--version");
    assertEquals(0, retrained.exitCode(), retrained::toString);
    List<Path> files = caches(aotDir);
    assertEquals(1, files.size(), files::toString);
    assertNotEquals(cache, files.get(0));
  }

  /**
   * JDK 13-24: a dynamic AppCDS archive instead, named with its size; used (the JVM's log says it
   * maps it); and one truncated, flipped or replaced never breaks a sort (JDK 17 dies of SIGBUS on
   * a truncated archive and on flipped bytes unless the CRCs are checked).
   */
  @Test
  void beforeJdk25AnAppCdsArchiveIsTrainedUsedAndNeverBreaksTheSort() throws Exception {
    assumeTrue(Runtime.version().feature() < 25, "this JVM is 25 or later");
    Path jdk = Path.of(System.getProperty("java.home"));
    Path root = privateRoot();
    byte[] expected = gensortInput(root, jdk);
    // JOULE_JAVA_OPTS is part of the archive's key: the same options for training and use
    String log = "-Xlog:cds=info:file=cds.log";
    Result trained = joule(root, aotEnv(jdk, "train", log), dir, "sort", "--gensort", "in.dat");
    assertEquals(0, trained.exitCode(), trained::toString);
    assertEquals("", trained.err());
    assertArrayEquals(expected, stdout());
    Path aotDir = root.resolve("sort-cli/target/aot");
    List<Path> files = caches(aotDir);
    assertEquals(1, files.size(), files::toString);
    Path archive = files.get(0);
    String name = archive.getFileName().toString();
    assertTrue(name.matches("joule-[0-9a-f]{16}-[0-9a-f]{16}\\.[0-9]+\\.jsa"), name);
    assertTrue(name.endsWith("." + Files.size(archive) + ".jsa"), name);
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(aotDir)));
    assertFalse(Files.exists(dir.resolve("xdg")));

    Files.delete(dir.resolve("cds.log"));
    sortsAsExpected(root, jdk, log, expected);
    String cdsLog = Files.readString(dir.resolve("cds.log"));
    assertTrue(cdsLog.contains("Mapped dynamic region"), cdsLog);

    byte[] good = Files.readAllBytes(archive);
    byte[] flipped = good.clone();
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int i = 0; i < 64; i++) {
      flipped[4096 + random.nextInt(good.length - 4096)] ^= (byte) 0xFF;
    }
    byte[] garbage = new byte[good.length];
    random.nextBytes(garbage);
    archive.toFile().setWritable(true, true);
    for (byte[] bad : List.of(Arrays.copyOf(good, good.length / 2), flipped, garbage)) {
      Files.write(archive, bad);
      Files.deleteIfExists(dir.resolve("cds.log"));
      Result r = joule(root, aotEnv(jdk, "use", log), dir, "sort", "--gensort", "in.dat");
      assertEquals(0, r.exitCode(), () -> "seed " + seed + ": " + r);
      assertEquals("", r.err(), () -> "seed " + seed);
      assertArrayEquals(expected, stdout(), "seed " + seed);
      // the truncated one is not even passed (its size is not its name's); the JVM refuses the
      // others
      String tried = Files.readString(dir.resolve("cds.log"));
      assertEquals(bad.length == good.length, tried.contains("trying to map " + archive), tried);
      assertFalse(tried.contains("Mapped dynamic region"), tried);
    }
  }

  /**
   * JDK 13-24: the archive is dumped by a JVM that compiled nothing, and a JVM that maps it still
   * compiles the final merge's methods. JDK 17's dynamic dump keeps the flag "queued for
   * compilation" of every method the JIT had queued when the training sort exited (JDK-8306460),
   * and a JVM that maps such an archive never compiles those methods: with an archive trained with
   * the JIT, whichever methods were in the queue at that moment ran interpreted ever after (once
   * the merge's per-entry validation, and a text sort's merge took 3-4 times as long). Which
   * methods is a matter of timing, so the test checks the cause: the dumping JVM (its log says it
   * dumps) logged no compilation (the launcher trains with -Xint). Then the effect on a sort of
   * 100,000 text lines through two passes with the archive: it maps the archive, and {@code
   * OutputValidator}'s per-entry check (the large overload; the small one only delegates) is
   * compiled, which also shows that the compilation log works.
   */
  @Test
  void beforeJdk25TheArchiveIsDumpedWithoutJitAndTheMergeStillCompiles() throws Exception {
    assumeTrue(Runtime.version().feature() < 25, "this JVM is 25 or later");
    Path jdk = Path.of(System.getProperty("java.home"));
    Path root = privateRoot();
    Result gen = joule(root, aotEnv(jdk, "off", ""), dir, "gensort", "-a", "100000", "in.txt");
    assertEquals(0, gen.exitCode(), gen::toString);
    // the same options (the archive's key) for the training's JVMs and the sort; one log per JVM
    String opts = "-Xlog:cds=info,jit+compilation=debug:file=jvm-%p.log";
    Result trained = joule(root, aotEnv(jdk, "train", opts), dir, "--version");
    assertEquals(0, trained.exitCode(), trained::toString);
    assertEquals(1, caches(root.resolve("sort-cli/target/aot")).size());
    List<String> dumps = new ArrayList<>();
    for (Path log : jvmLogs()) {
      String text = Files.readString(log);
      if (text.contains("Dumping shared data to file")) {
        dumps.add(text);
      }
      Files.delete(log);
    }
    assertEquals(1, dumps.size(), "JVMs that dumped an archive");
    assertFalse(
        dumps.get(0).contains("[jit,compilation]"),
        "the JVM that dumped the archive compiled methods: some may be archived as queued");

    Result r =
        joule(
            root,
            aotEnv(jdk, "use", opts),
            dir,
            "sort",
            "-S",
            "8M",
            "-k2",
            "-o",
            "out.txt",
            "in.txt");
    assertEquals(0, r.exitCode(), r::toString);
    assertEquals("", r.err());
    List<String> lines = new ArrayList<>(Files.readAllLines(dir.resolve("in.txt")));
    lines.sort(LauncherIT::byGnuKeyTwo);
    assertEquals(lines, Files.readAllLines(dir.resolve("out.txt")));
    List<Path> logs = jvmLogs();
    assertEquals(1, logs.size(), logs::toString);
    String log = Files.readString(logs.get(0));
    assertTrue(log.contains("Mapped dynamic region"), "the sort did not map the archive");
    Matcher m = Pattern.compile("OutputValidator::acceptEntry \\((\\d+) bytes\\)").matcher(log);
    int largest = 0;
    while (m.find()) {
      largest = Math.max(largest, Integer.parseInt(m.group(1)));
    }
    assertTrue(
        largest > 100,
        "the merge's per-entry check was never compiled (largest compiled overload: "
            + largest
            + " bytes)");
  }

  List<Path> jvmLogs() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(f -> f.getFileName().toString().matches("jvm-[0-9]+\\.log"))
          .sorted()
          .toList();
    }
  }

  /**
   * GNU sort's {@code -k2} in the C locale, written from its definition for ASCII gensort lines:
   * the key runs from the first blank before the second field (leading blanks included) to the
   * line's end, and equal keys fall back to the whole line.
   */
  static int byGnuKeyTwo(String a, String b) {
    int c = keyTwo(a).compareTo(keyTwo(b));
    return c != 0 ? c : a.compareTo(b);
  }

  private static String keyTwo(String line) {
    int i = 0;
    while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
      i++;
    }
    while (i < line.length() && line.charAt(i) != ' ' && line.charAt(i) != '\t') {
      i++;
    }
    return line.substring(i);
  }
}

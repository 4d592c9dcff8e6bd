package dev.joule.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.joule.io.testing.SortInputs;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What the OS-fault tests sort, and how: gensort records through the {@code ./joule} launcher
 * ({@code joule sort --gensort}), or text lines by GNU's {@code -k2,2n} and length-prefixed rows
 * through the API in a child JVM ({@link ApiSortChild}), so that the API's own error paths are
 * under the same faults. Both take the same options in GNU sort's calling convention ({@code sort
 * [OPTION]... -o OUTPUT INPUT}) and fail the same way, so a test runs unchanged over each. The
 * variable inputs hold records of 4 to 9 KiB and of 80 to 200 KB, longer than the tests' temp
 * blocks (64 KiB and up to 256 KiB), so their runs have entries that span blocks.
 */
enum Workload {
  GENSORT,
  LINES,
  ROWS;

  /**
   * The sort's command: {@code prefix} (e.g. {@code prlimit ...}), then the sort and args ({@code
   * "sort"} first, then options, {@code -o OUTPUT} and the input); the gensort workload adds {@code
   * --gensort} after {@code "sort"}, as binary gensort records must not be read as lines.
   */
  List<String> command(List<String> prefix, String... args) {
    if (this == GENSORT) {
      List<String> withFormat = new ArrayList<>(List.of(args));
      if (!withFormat.isEmpty() && withFormat.get(0).equals("sort")) {
        withFormat.add(1, "--gensort");
      }
      return CliContract.command(prefix, withFormat.toArray(new String[0]));
    }
    List<String> cmd = new ArrayList<>(prefix);
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // the launcher's settings that matter here: the engine's memory is direct
    cmd.add("-XX:MaxDirectMemorySize=1g");
    cmd.add("-XX:+UseParallelGC");
    cmd.add("-cp");
    cmd.add(childClassPath());
    cmd.add(ApiSortChild.class.getName());
    cmd.add("--kind");
    cmd.add(kind().name());
    for (String a : args) {
      if (!a.equals("sort")) {
        cmd.add(a);
      }
    }
    return cmd;
  }

  /**
   * The project's own classes only, none of the test framework's jars: the JVM keeps a descriptor
   * open per jar it searched, and under {@code ulimit -n 32} those would leave the sort no
   * descriptors for its merge (the launcher runs one shaded jar).
   */
  private static String childClassPath() {
    List<String> keep = new ArrayList<>();
    List<String> codecs = new ArrayList<>(); // sort-io's run compression: lz4 first, zstd last
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator, -1)) {
      if (e.contains("sort-core") || e.contains("sort-io") || e.contains("src-it")) {
        keep.add(e);
      } else if (e.contains("lz4-java")) {
        codecs.add(0, e);
      } else if (e.contains("zstd-jni")) {
        codecs.add(e);
      }
    }
    keep.addAll(codecs);
    return String.join(File.pathSeparator, keep);
  }

  private SortInputs.Kind kind() {
    return this == LINES ? SortInputs.Kind.LINES_K2N : SortInputs.Kind.ROWS;
  }

  /** Runs the sort to its end. */
  CliContract.Run run(Path cwd, List<String> prefix, String... args)
      throws IOException, InterruptedException {
    long t0 = System.nanoTime();
    return CliContract.finish(cwd, CliContract.start(cwd, command(prefix, args)), t0);
  }

  CliContract.Run run(Path cwd, String... args) throws IOException, InterruptedException {
    return run(cwd, List.of(), args);
  }

  private static final Map<Workload, SortInputs.Input> INPUTS = new EnumMap<>(Workload.class);

  /**
   * Writes this workload's input of about {@code megabytes} MB as {@code dir/in.dat} (gensort:
   * {@code records} 100-byte records through the launcher).
   */
  Path input(Path dir, String records, int megabytes) throws Exception {
    if (this == GENSORT) {
      return CliContract.gensortInput(dir, records);
    }
    SortInputs.Input in = reference(megabytes);
    return Files.write(dir.resolve("in.dat"), in.data());
  }

  private synchronized SortInputs.Input reference(int megabytes) {
    return INPUTS.computeIfAbsent(
        this,
        w -> {
          // about 260 bytes a record on average (one in 25 of 4-9 KiB, one in 2000 of 80-200 KB)
          long n = megabytes * 1_000_000L / 330;
          return SortInputs.of(
              kind(), 0x05FA17L + ordinal(), n, 0, new SortInputs.Options(true, false, 2000));
        });
  }

  /** The output must be the reference sort of the input this workload wrote. */
  void assertSorted(Path out, int megabytes) throws IOException {
    if (this == GENSORT) {
      throw new IllegalStateException("gensort outputs are checked with joule valsort");
    }
    assertArrayEquals(reference(megabytes).expected(), Files.readAllBytes(out), this + " output");
  }
}

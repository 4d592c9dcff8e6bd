package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.SortConfig;
import dev.joule.io.report.SortReport;
import dev.joule.io.testing.PipelineTestSupport;
import dev.joule.io.testing.TestHooks;
import dev.joule.testing.TestSeed;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * Direct I/O does what it claims: a default sort on ext4 reports direct I/O, and its transfers
 * bypass the page cache. The input is written with O_DIRECT (so none of it is cached), the run
 * files are kept past their deletion by a hard link each (the page cache belongs to the inode), and
 * {@code fincore} (util-linux) counts the pages of each file resident in the cache: after run
 * formation, and after the sort. A transfer through the page cache leaves every page it touched
 * cached, so reading the input, writing or reading a run, or writing the output that way fails the
 * test; the direct path leaves at most a few pages of unaligned ends. Skipped (with the reason)
 * where the test directory is not on ext4 or {@code fincore} is missing; CI's machine has both, and
 * {@code .ci/run} fails if this suite skips there.
 */
class DirectIoPageCacheTest {
  static final long SEED = TestSeed.of(DirectIoPageCacheTest.class, 0xD1EC_7105L);
  static final FixedLengthFormat GENSORT = RecordFormat.gensort();

  /** Records per run: 4096 of 100 bytes, 100 pages. */
  static final int RUN = 4096;

  /**
   * Pages a file written and read directly may still have cached: what goes through the buffered
   * channel by design, a run's header and footer read on the heap, the few pages the final merge's
   * split search reads, an unaligned end. A transfer through the page cache caches every page it
   * touched: all 103 pages of a run, all 600 of the input or the output.
   */
  static final long FEW_PAGES = 16;

  @TempDir Path dir;
  Path stripe;
  String name;

  @BeforeEach
  void setUp(TestInfo info) throws IOException, InterruptedException {
    name = info.getDisplayName();
    String type = Files.getFileStore(dir).type();
    assumeTrue(type.equals("ext4"), dir + " is on " + type + ", not ext4: skipped");
    assumeTrue(fincore(List.of()) != null, "no fincore (util-linux) on the PATH: skipped");
    stripe = Files.createDirectories(dir.resolve("temp"));
  }

  @AfterEach
  void leaks() throws Exception {
    if (stripe != null) {
      PipelineTestSupport.assertNoLeaks(name, List.of(stripe));
    }
  }

  @Test
  void aDefaultSortOnExt4ReadsAndWritesPastThePageCache() throws Exception {
    String ctx = "seed " + SEED;
    long n = 6L * RUN; // 2.4 MB: 600 pages, a whole number of them
    byte[] data = PipelineTestSupport.records(SEED, n, GENSORT, 0);
    Path in = dir.resolve("in");
    writeDirect(in, data);
    assertEquals(0, fincore(List.of(in)).get(in), ctx + ": the input is cached before the sort");

    Path kept = Files.createDirectories(dir.resolve("kept"));
    List<Path> links = new ArrayList<>();
    Map<Path, Long> afterRunFormation = new LinkedHashMap<>();
    SortConfig.Builder b = SortConfig.builder().format(GENSORT).tempDirs(List.of(stripe));
    TestHooks.afterRunFormation(
        b,
        runs -> {
          try {
            for (Path run : runs) {
              links.add(Files.createLink(kept.resolve("run" + links.size()), run));
            }
            afterRunFormation.putAll(fincore(links));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
          }
        });
    Path out = dir.resolve("out");
    SortReport r = ExternalSorter.sort(in, out, TestHooks.runRecordsLimit(b, RUN).build());

    assertTrue(r.directIo(), ctx + ": a default sort on ext4 did not report direct I/O");
    assertEquals(6, links.size(), ctx + ": runs " + links);
    for (Map.Entry<Path, Long> e : afterRunFormation.entrySet()) {
      assertTrue(
          e.getValue() <= FEW_PAGES,
          ctx + ": run " + e.getKey() + " written through the page cache: " + afterRunFormation);
    }
    System.out.println("pages cached after run formation: " + afterRunFormation.values());
    List<Path> files = new ArrayList<>(links);
    files.add(in);
    files.add(out);
    Map<Path, Long> after = fincore(files);
    System.out.println("pages cached after the sort: " + after.values());
    assertTrue(
        after.get(in) <= FEW_PAGES, ctx + ": the input was read through the cache: " + after);
    for (Path run : links) {
      assertTrue(
          after.get(run) <= FEW_PAGES, ctx + ": a run was read through the page cache: " + after);
    }
    assertTrue(
        after.get(out) <= FEW_PAGES, ctx + ": the output went through the page cache: " + after);
    assertArrayEquals(PipelineTestSupport.reference(data, GENSORT), Files.readAllBytes(out), ctx);
    for (Path l : links) {
      Files.delete(l);
    }
  }

  /** Writes {@code data} (a whole number of 4096-byte pages) to a new file with O_DIRECT. */
  static void writeDirect(Path file, byte[] data) throws IOException {
    assertEquals(0, data.length % 4096, "direct writes go in whole pages");
    ByteBuffer aligned = ByteBuffer.allocateDirect(data.length + 4096).alignedSlice(4096);
    aligned.put(data).flip();
    Set<OpenOption> options = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    try (FileChannel ch = FileChannel.open(file, withDirect(options))) {
      while (aligned.hasRemaining()) {
        ch.write(aligned, aligned.position());
      }
    }
  }

  /**
   * {@code options} and O_DIRECT, looked up by name: javac 21 and later warn about every
   * compile-time use of {@code com.sun.nio.file.ExtendedOpenOption}.
   */
  static Set<OpenOption> withDirect(Set<OpenOption> options) {
    try {
      Class<?> type = Class.forName("com.sun.nio.file.ExtendedOpenOption");
      for (Object c : type.getEnumConstants()) {
        if (((Enum<?>) c).name().equals("DIRECT")) {
          Set<OpenOption> all = new java.util.HashSet<>(options);
          all.add((OpenOption) c);
          return all;
        }
      }
    } catch (ClassNotFoundException e) {
      throw new AssertionError("this JDK has no ExtendedOpenOption.DIRECT", e);
    }
    throw new AssertionError("this JDK has no ExtendedOpenOption.DIRECT");
  }

  /**
   * Pages of each file resident in the page cache, by {@code fincore}; null if it cannot be run
   * (with no files: whether it can).
   */
  static Map<Path, Long> fincore(List<Path> files) throws IOException, InterruptedException {
    List<String> cmd =
        new ArrayList<>(List.of("fincore", "--noheadings", "--raw", "-o", "PAGES,FILE"));
    cmd.add("--");
    files.forEach(f -> cmd.add(f.toString()));
    if (files.isEmpty()) {
      cmd.set(1, "--version");
      cmd.subList(2, cmd.size()).clear();
    }
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    } catch (IOException e) {
      return null; // not installed
    }
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      if (files.isEmpty()) {
        return null;
      }
      throw new AssertionError(cmd + " failed: " + output);
    }
    Map<Path, Long> pages = new LinkedHashMap<>();
    if (files.isEmpty()) {
      return pages;
    }
    for (String line : output.lines().toList()) {
      String[] f = line.strip().split(" ", 2);
      pages.put(Path.of(f[1]), Long.parseLong(f[0]));
    }
    assertEquals(Set.copyOf(files), pages.keySet(), output);
    return pages;
  }
}

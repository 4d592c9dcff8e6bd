package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.key.GnuSortKeys;
import dev.joule.core.key.TextPosition;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.Compression;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.LastResort;
import dev.joule.io.config.SortConfig;
import dev.joule.io.report.PhaseReport;
import dev.joule.io.report.SortReport;
import dev.joule.io.testing.PipelineTestSupport;
import dev.joule.io.testing.TestHooks;
import dev.joule.testing.TestSeed;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * File sorts with the default transfer sizes under small budgets, on inputs a few times the budget:
 * the memory the sort held at its peak ({@link SortReport#peakMemoryBytes()}) never exceeds the
 * budget, in run formation, intermediate merges (several at once), the final merge in parts, and
 * after a one-pass arena overflowed. Small records are the hard case: their indexes outweigh their
 * arenas, so the merge's buffers do not fit the arenas it borrows. Every output is compared with an
 * in-memory reference sort.
 */
class MemoryBudgetTest {
  static final long SEED = TestSeed.of(MemoryBudgetTest.class, 0xB0D6_E7L);

  @TempDir Path dir;
  List<Path> stripes;
  String name;
  final List<String> notices = new CopyOnWriteArrayList<>();

  @BeforeEach
  void setUp(TestInfo info) throws IOException {
    name = info.getDisplayName();
    stripes = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      stripes.add(Files.createDirectories(dir.resolve("stripe" + i)));
    }
  }

  @AfterEach
  void leaks() throws Exception {
    PipelineTestSupport.assertNoLeaks(name, stripes);
  }

  /** No transfer sizes: the defaults, capped by the plan at budget / 32. */
  SortConfig.Builder config(int budgetMiB, int threads, int stripeCount) {
    return SortConfig.builder()
        .memoryBudget(DataSize.ofMiB(budgetMiB))
        .threads(threads)
        .tempDirs(stripes.subList(0, stripeCount))
        .notices(notices::add);
  }

  SortReport sort(byte[] input, SortConfig c, byte[] expected, String ctx) throws IOException {
    Path in = dir.resolve("in");
    Path out = dir.resolve("out");
    Files.write(in, input);
    SortReport r;
    try {
      r = ExternalSorter.sort(in, out, c);
    } catch (IOException | RuntimeException | Error e) {
      throw new AssertionError("seed " + SEED + ", " + ctx + ": " + e, e);
    }
    byte[] got = Files.readAllBytes(out);
    if (!Arrays.equals(expected, got)) {
      assertArrayEquals(expected, got, "seed " + SEED + ", " + ctx + ": output differs");
    }
    long budget = c.memoryBudget().bytes();
    assertTrue(
        r.peakMemoryBytes() <= budget,
        "seed "
            + SEED
            + ", "
            + ctx
            + ": peak "
            + r.peakMemoryBytes()
            + " over the budget of "
            + budget
            + " by "
            + (r.peakMemoryBytes() - budget)
            + "; phases "
            + r.phases());
    Files.delete(out);
    return r;
  }

  // ---- fixed records, read in place ----

  /** Random records, or for 8-byte ones with their whole record as key, random longs. */
  static byte[] fixedRecords(Random r, int recordSize, long bytes) {
    byte[] data = new byte[Math.toIntExact(bytes / recordSize * recordSize)];
    r.nextBytes(data);
    return data;
  }

  /**
   * The reference order: records of 8 bytes keyed by all of them sort as unsigned big-endian longs
   * (equal keys are equal records, so stability does not show); others by the test support's stable
   * sort.
   */
  static byte[] reference(byte[] data, FixedLengthFormat f) {
    if (f.recordSize() != Long.BYTES || f.key().length() != Long.BYTES) {
      return PipelineTestSupport.reference(data, f);
    }
    ByteBuffer b = ByteBuffer.wrap(data);
    long[] v = new long[data.length / Long.BYTES];
    for (int i = 0; i < v.length; i++) {
      v[i] = b.getLong(i * Long.BYTES) ^ Long.MIN_VALUE; // unsigned order as signed
    }
    Arrays.sort(v);
    ByteBuffer out = ByteBuffer.allocate(data.length);
    for (long x : v) {
      out.putLong(x ^ Long.MIN_VALUE);
    }
    return out.array();
  }

  /**
   * Records of {@code recordSize} bytes keyed by their first min(10, size) bytes, three budgets of
   * them: run formation's indexes outweigh its arenas for small records, and the merge must give
   * back what run formation no longer needs before it takes its own buffers.
   */
  @ParameterizedTest(name = "{0}-byte records, {1} MiB, {2} threads, {3} stripes")
  @CsvSource({"8, 8, 2, 1", "8, 16, 3, 2", "37, 8, 2, 1", "100, 16, 4, 1"})
  void fixedRecordsStayWithinTheBudget(int recordSize, int budgetMiB, int threads, int stripeCount)
      throws IOException {
    FixedLengthFormat f =
        RecordFormat.fixed(recordSize, KeySpec.bytes(0, Math.min(10, recordSize)));
    byte[] data = fixedRecords(new Random(SEED + recordSize), recordSize, (3L * budgetMiB) << 20);
    SortConfig c = config(budgetMiB, threads, stripeCount).format(f).build();
    String ctx = recordSize + "-byte records, " + budgetMiB + " MiB, " + threads + " threads";
    SortReport r = sort(data, c, reference(data, f), ctx);
    assertEquals(data.length / recordSize, r.records(), ctx);
    assertTrue(r.runs() > 1, ctx + ": runs " + r.runs());
  }

  /**
   * Many runs merged three at a time. 8-byte records: the arenas hold fewer buffers than one merge
   * needs, so each merge takes fresh ones beside them, one merge at a time. 100-byte records: the
   * arenas hold the buffers of several merges, which run at once, each with read buffers and a run
   * writer's.
   */
  @ParameterizedTest(name = "{0}-byte records")
  @CsvSource({"8, false", "100, true"})
  void intermediateMergesStayWithinTheBudget(int recordSize, boolean severalAtOnce)
      throws IOException {
    FixedLengthFormat f =
        RecordFormat.fixed(recordSize, KeySpec.bytes(0, Math.min(10, recordSize)));
    byte[] data = fixedRecords(new Random(SEED + 3 + recordSize), recordSize, 3L << 23);
    SortConfig c = config(8, 3, 2).format(f).fanIn(3).build();
    SortReport r = sort(data, c, reference(data, f), recordSize + "-byte records, fan-in 3");
    assertTrue(r.mergePasses() > 2, "merge passes " + r.mergePasses());
    if (severalAtOnce) {
      assertTrue(
          r.phases().stream()
              .map(PhaseReport::name)
              .anyMatch(n -> n.matches(".*\\([2-9] at a time\\)")),
          "no pass ran merges at once: " + r.phases());
    }
  }

  /**
   * Budgets of 64 and 256 MiB with a run count as a gigabyte-scale input would make, simulated by
   * capping the runs: two merge passes at the default transfers.
   */
  @ParameterizedTest(name = "gensort, {0} MiB")
  @CsvSource({"64, 2048", "256, 4096"})
  void gensortRunsOfAGigabyteScaleInputStayWithinTheBudget(int budgetMiB, int runRecords)
      throws IOException {
    FixedLengthFormat f = RecordFormat.gensort();
    byte[] data = PipelineTestSupport.records(SEED + budgetMiB, 70L * runRecords, f, 0);
    SortConfig c = TestHooks.runRecordsLimit(config(budgetMiB, 2, 1).format(f), runRecords).build();
    SortReport r = sort(data, c, PipelineTestSupport.reference(data, f), "gensort " + budgetMiB);
    assertEquals(70, r.runs());
    assertTrue(r.mergePasses() > 1, "merge passes " + r.mergePasses());
  }

  // ---- lines ----

  /**
   * Short numeric lines, as {@code sort -n} of numbers from -99999 to 99999 (GNU's last resort
   * compares equal numbers' lines, which are then equal), or sorted by their bytes: about 7 bytes
   * of input and 60 of arena and index per line, so the merge needs more buffers than the arenas it
   * borrows hold.
   */
  @ParameterizedTest(name = "{0} lines, {1} MiB, -n {2}")
  @CsvSource({"3000000, 8, true", "3000000, 16, false", "4000000, 16, true"})
  void numericLinesStayWithinTheBudget(int lines, int budgetMiB, boolean numeric)
      throws IOException {
    Random r = new Random(SEED + lines + budgetMiB);
    int[] values = new int[lines];
    ByteArrayOutputStream o = new ByteArrayOutputStream(lines * 7);
    for (int i = 0; i < lines; i++) {
      values[i] = r.nextInt(199_999) - 99_999;
      o.writeBytes((values[i] + "\n").getBytes(StandardCharsets.US_ASCII));
    }
    List<String> order = new ArrayList<>();
    if (numeric) {
      int[] sorted = values.clone();
      Arrays.sort(sorted);
      for (int v : sorted) {
        order.add(Integer.toString(v));
      }
    } else {
      for (int v : values) {
        order.add(Integer.toString(v));
      }
      order.sort(null); // ASCII: String order is byte order
    }
    byte[] expected = joinLines(order);
    SortConfig.Builder b = config(budgetMiB, 2, 1).format(RecordFormat.lines());
    if (numeric) {
      b.key(GnuSortKeys.parse("n", TextPosition.BLANK_SEPARATED, List.of()))
          .lastResort(LastResort.ASCENDING);
    }
    String ctx = lines + " lines, " + budgetMiB + " MiB, numeric " + numeric;
    SortReport rep = sort(o.toByteArray(), b.build(), expected, ctx);
    assertEquals(lines, rep.records(), ctx);
    assertTrue(rep.runs() > 1, ctx + ": runs " + rep.runs());
  }

  /**
   * Runs of compressible lines with every block tried by LZ4, about four budgets of them: the
   * codec's scratch buffers (one per thread compressing or decompressing at once) count in the
   * budget beside the arenas of run formation, the buffers of intermediate merges run several at
   * once (fan-in 3) and those of the final merge in parts.
   */
  @ParameterizedTest(name = "lz4, {0} MiB, {1} threads, fan-in {2}")
  @CsvSource({"8, 2, 0", "16, 3, 3"})
  void compressedRunsStayWithinTheBudget(int budgetMiB, int threads, int fanIn) throws IOException {
    Random r = new Random(SEED + 7 + budgetMiB);
    List<String> order = new ArrayList<>();
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    long bytes = 0;
    while (bytes < ((4L * budgetMiB) << 20)) {
      String line =
          String.format(Locale.ROOT, "%07d", r.nextInt(10_000_000)) + " lorem ipsum dolor sit amet";
      order.add(line);
      o.writeBytes((line + "\n").getBytes(StandardCharsets.US_ASCII));
      bytes += line.length() + 1;
    }
    order.sort(null); // ASCII: String order is byte order
    SortConfig c =
        config(budgetMiB, threads, 1)
            .format(RecordFormat.lines())
            .compression(Compression.lz4())
            .fanIn(fanIn)
            .build();
    String ctx = "lz4, " + budgetMiB + " MiB, fan-in " + fanIn;
    SortReport rep = sort(o.toByteArray(), c, joinLines(order), ctx);
    assertTrue(rep.compression().compressedBlocks() > 0, ctx + ": " + rep.compression());
    assertTrue(rep.runs() > 3, ctx + ": runs " + rep.runs());
  }

  /**
   * The four places the plan samples hold 2000-byte lines, the rest are short numbers (about a
   * budget of input in all, planned as a third of one): the one-pass arena overflows into a first
   * run, and the rest is sorted by a two-pass plan made from what the arena saw.
   */
  @Test
  void anOverflowingOnePassArenaStaysWithinTheBudget() throws IOException {
    Random r = new Random(SEED + 6);
    Map<String, Integer> counts = new HashMap<>();
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    for (int quarter = 0; quarter < 4; quarter++) {
      for (int longBytes = 0; longBytes < 72 << 10; longBytes += 2001) {
        char[] line = new char[2000];
        for (int i = 0; i < line.length; i++) {
          line[i] = (char) ('a' + r.nextInt(26));
        }
        add(new String(line), counts, o);
      }
      // Five random letters: every quarter has the same length, so the samples start in its long
      // lines; and few repeats (under the repeat filter's trial rate), which would otherwise be
      // counted on their twins and leave the arena room.
      for (int i = 0; i < 400_000; i++) {
        char[] word = new char[5];
        for (int k = 0; k < word.length; k++) {
          word[k] = (char) ('a' + r.nextInt(26));
        }
        add(new String(word), counts, o);
      }
    }
    List<String> keys = new ArrayList<>(counts.keySet());
    keys.sort(null);
    List<String> order = new ArrayList<>();
    for (String k : keys) {
      for (int i = counts.get(k); i > 0; i--) {
        order.add(k);
      }
    }
    // Compression off: the input is sized to the one-pass capacity of the whole budget, which
    // run compression's reserve (1.5 MiB of the 16) would make a two-pass plan from the start.
    SortConfig c =
        config(16, 2, 1).format(RecordFormat.lines()).compression(Compression.off()).build();
    SortReport rep = sort(o.toByteArray(), c, joinLines(order), "overflow");
    assertTrue(
        notices.stream().anyMatch(l -> l.contains("larger than its sample")),
        "the one-pass arena did not overflow: " + notices);
    assertTrue(rep.runs() > 2, "runs " + rep.runs());
  }

  private static void add(String line, Map<String, Integer> counts, ByteArrayOutputStream o) {
    counts.merge(line, 1, Integer::sum);
    o.writeBytes((line + "\n").getBytes(StandardCharsets.US_ASCII));
  }

  private static byte[] joinLines(List<String> lines) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    for (String l : lines) {
      o.writeBytes(l.getBytes(StandardCharsets.US_ASCII));
      o.write('\n');
    }
    return o.toByteArray();
  }
}

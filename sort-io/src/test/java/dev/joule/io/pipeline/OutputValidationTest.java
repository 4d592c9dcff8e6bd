package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.memory.Alignment;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortValidationException;
import dev.joule.io.hooks.OutputFault;
import dev.joule.io.report.SortReport;
import dev.joule.io.testing.CleanFailureContract;
import dev.joule.io.testing.SortInputs;
import dev.joule.io.testing.SortInputs.Family;
import dev.joule.io.testing.SortInputs.Input;
import dev.joule.io.testing.SortInputs.Kind;
import dev.joule.io.testing.TestHooks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The self-validation catches a wrong output and publishes nothing (docs/reliability.md, the output
 * contract): the test hook {@link OutputFault} corrupts the records the output path writes before
 * the validator sees them, as a bug in the gather or the merge would, and the sort must fail with
 * {@link SortValidationException} whose numbers show the check meant for the fault fired (a swap:
 * count and checksum right, order wrong; a dropped or flipped record: count or checksum wrong), the
 * previous output byte-identical and no temp file left ({@link CleanFailureContract}).
 *
 * <p>Over text lines with GNU's {@code -k2,2n} and its last resort (derived keys), length-prefixed
 * rows (whole-row keys) and fixed 16-byte records (batches gathered in place), each one-pass and
 * two-pass (the final merge, sometimes after intermediate merges and with two parts). Each case
 * first sorts without a fault: that output must equal the reference sort's, and it is the previous
 * output the failed sort must leave alone. Every case is reproducible from the seed in its message
 * ({@code -Djoule.validation.base=...} changes the base seed).
 */
class OutputValidationTest {
  static final long BASE = Long.getLong("joule.validation.base", 0x5E1F_CA7CL);

  /** {@code "input N records, checksum X; output M records, checksum Y"}, from the validator. */
  static final Pattern NUMBERS =
      Pattern.compile(
          "self-validation failed for (\\S+): input (\\d+) records, checksum (\\w+); output (\\d+)"
              + " records, checksum (\\w+)");

  @TempDir Path dir;

  static Stream<Arguments> cases() {
    List<Arguments> a = new ArrayList<>();
    for (Kind k : List.of(Kind.LINES_K2N, Kind.ROWS, Kind.FIXED_16)) {
      for (boolean onePass : new boolean[] {true, false}) {
        for (OutputFault.Kind f :
            List.of(OutputFault.Kind.SWAP, OutputFault.Kind.DROP, OutputFault.Kind.FLIP)) {
          a.add(Arguments.of(k, onePass, f));
        }
      }
    }
    return a.stream();
  }

  @ParameterizedTest(name = "{0}, one pass {1}, {2}")
  @MethodSource("cases")
  void aCorruptedOutputFailsValidationAndPublishesNothing(
      Kind kind, boolean onePass, OutputFault.Kind fault) throws Exception {
    SplittableRandom seeds =
        new SplittableRandom(BASE ^ (kind.ordinal() * 8L + (onePass ? 0 : 4) + fault.ordinal()));
    for (int rep = 0; rep < 2; rep++) {
      runCase(kind, onePass, fault, seeds.nextLong(), rep);
    }
  }

  void runCase(Kind kind, boolean onePass, OutputFault.Kind fault, long seed, int index)
      throws Exception {
    String ctx =
        kind
            + (onePass ? " one-pass" : " two-pass")
            + ", fault "
            + fault
            + ", seed "
            + seed
            + " (base "
            + BASE
            + "): ";
    Path caseDir = Files.createDirectory(dir.resolve("c" + index));
    Random r = new Random(seed);
    boolean fixed = kind.family == Family.FIXED;
    long q = fixed ? Alignment.recordQuantum(kind.fixedFormat().recordSize()) : 150;
    long n = (2 + r.nextInt(4)) * q + 1 + r.nextInt((int) q);
    Input input = SortInputs.of(kind, seed, n, 0, SortInputs.Options.DEFAULT);
    ctx += input + ": ";
    Path in = caseDir.resolve("in");
    Files.write(in, input.data());
    List<Path> stripes = List.of(Files.createDirectory(caseDir.resolve("s0")));
    Path out = caseDir.resolve("out");
    // One writer for DROP: with two merge parts the part's region check would catch the short
    // part before the validator's count does, and the count is what this case is about.
    int threads = fault == OutputFault.Kind.DROP ? 1 : 1 + r.nextInt(2);
    int fanIn = onePass || r.nextBoolean() ? 0 : 2;
    long at = r.nextInt((int) Math.max(1, input.records() / 4));

    SortReport control =
        ExternalSorter.sort(
            in, out, config(input, OutputFault.NONE, onePass, q, threads, fanIn, stripes));
    assertArrayEquals(input.expected(), Files.readAllBytes(out), ctx + "the control sort's output");
    if (onePass) {
      assertEquals(0, control.runs(), ctx + "not a one-pass sort: " + control);
    } else {
      assertTrue(control.runs() > 1, ctx + "not a two-pass sort: " + control);
    }

    SortConfig c = config(input, new OutputFault(fault, at), onePass, q, threads, fanIn, stripes);
    CleanFailureContract.Snapshot before = CleanFailureContract.before(out, stripes);
    SortValidationException e;
    try {
      ExternalSorter.sort(in, out, c);
      throw new AssertionError(ctx + "the sort succeeded with a corrupted output (at " + at + ")");
    } catch (SortValidationException x) {
      e = x;
    }
    assertEquals("validation", before.assertCleanFailure(e, null, false, ctx), ctx);
    assertArrayEquals(input.expected(), Files.readAllBytes(out), ctx + "previous output changed");

    String m = e.getMessage();
    Matcher nums = NUMBERS.matcher(m);
    assertTrue(nums.find(), ctx + "not the validator's message: " + m);
    long inRecords = Long.parseLong(nums.group(2));
    long outRecords = Long.parseLong(nums.group(4));
    boolean sameSum = nums.group(3).equals(nums.group(5));
    boolean ordered = !m.contains("NOT in key order");
    assertEquals(input.records(), inRecords, ctx + m);
    switch (fault) {
      case SWAP -> {
        assertEquals(inRecords, outRecords, ctx + "a swap changed the count: " + m);
        assertTrue(sameSum, ctx + "a swap changed the checksum: " + m);
        assertTrue(!ordered, ctx + "the swap was not seen as out of order: " + m);
      }
      case DROP -> {
        if (fixed) {
          // batches keep their size: the dropped record's place holds its neighbour
          assertEquals(inRecords, outRecords, ctx + m);
          assertTrue(!sameSum, ctx + "a dropped record left the checksum alone: " + m);
        } else {
          // only the count: an empty line or row has a CRC-32 of 0, so its loss keeps the sum
          assertEquals(inRecords - 1, outRecords, ctx + m);
        }
      }
      case FLIP -> {
        assertEquals(inRecords, outRecords, ctx + "a flip changed the count: " + m);
        assertNotEquals(nums.group(3), nums.group(5), ctx + "a flip left the checksum: " + m);
      }
      default -> throw new AssertionError(fault);
    }
    FaultCampaignTest.deleteTree(caseDir);
  }

  static SortConfig config(
      Input input,
      OutputFault fault,
      boolean onePass,
      long runRecords,
      int threads,
      int fanIn,
      List<Path> stripes)
      throws IOException {
    SortConfig.Builder b = TestHooks.outputFault(SortConfig.builder(), fault);
    if (!onePass) {
      TestHooks.runRecordsLimit(b, runRecords);
    }
    return input
        .configure(b)
        .memoryBudget(DataSize.ofMiB(8))
        .threads(threads)
        .tempDirs(stripes)
        .transferSize(FileKind.TEMP, DataSize.ofKiB(4))
        .transferSize(FileKind.INPUT, DataSize.ofKiB(16))
        .transferSize(FileKind.OUTPUT, DataSize.ofKiB(16))
        .directIo(DirectIoPolicy.OFF)
        .fanIn(fanIn)
        .build();
  }
}

package dev.joule.io.pipeline;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.key.GnuSortKeys;
import dev.joule.core.key.KeyType;
import dev.joule.core.key.SortKey;
import dev.joule.core.key.TextPosition;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.LastResort;
import dev.joule.io.config.SortConfig;
import dev.joule.io.report.PrefetchReport;
import dev.joule.io.report.SortReport;
import dev.joule.io.testing.TestHooks;
import dev.joule.testing.GnuSort;
import dev.joule.testing.TestSeed;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Text lines sorted by GNU keys through the whole engine (derived keys in entries, the tie breaker
 * of {@code -V} and the last resort, unique output) in one pass and in several merge passes,
 * against this machine's GNU sort on the same file in the C locale: byte-identical output.
 */
class GnuKeysSortTest extends OneStripeTest {
  static final long SEED = TestSeed.of(GnuKeysSortTest.class, 0x6E05_0127L);
  static KeyType.GnuRelease release;

  @BeforeAll
  static void gnuSort() throws IOException {
    String why = GnuSort.unavailable();
    Assumptions.assumeTrue(why == null, why);
    release = GnuSort.release();
  }

  private static final String[] WORDS = {
    "apple", "Apple", "banana", "b-anana", "cherry", "", "Zebra", "zebra", "éclair", "a b"
  };
  private static final String[] MONTHS = {"Jan", "feb", "MAR", " apr", "Dec", "xyz", ""};
  private static final String[] UNITS = {"", "K", "M", "G", "k"};

  /**
   * Lines of seven blank-separated fields: word number version human month float a:b:c. No NaNs for
   * coreutils 9.1, which breaks ties between equal NaNs by uninitialized padding bytes.
   */
  static byte[] input(Random r, int n) {
    boolean nans = release != KeyType.GnuRelease.COREUTILS_9_1;
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    for (int i = 0; i < n; i++) {
      StringBuilder b = new StringBuilder();
      b.append(WORDS[r.nextInt(WORDS.length)]).append(r.nextInt(3) == 0 ? "" : r.nextInt(50));
      b.append(r.nextBoolean() ? " " : "  ");
      b.append(r.nextInt(4) == 0 ? "-" : "").append(r.nextInt(2000) - 300);
      if (r.nextBoolean()) {
        b.append('.').append(r.nextInt(100));
      }
      b.append(' ').append(r.nextInt(3)).append('.').append(r.nextInt(12));
      b.append(r.nextBoolean() ? "a" : "").append('.').append(r.nextInt(20));
      b.append(' ').append(r.nextInt(999)).append(UNITS[r.nextInt(UNITS.length)]);
      b.append(' ').append(MONTHS[r.nextInt(MONTHS.length)]);
      b.append(' ').append(nans && r.nextInt(5) == 0 ? "nan" : (r.nextGaussian() * 1e4) + "");
      b.append(' ').append((char) ('a' + r.nextInt(3))).append(':').append(r.nextInt(30));
      b.append(':').append(r.nextInt(3) == 0 ? "" : "x" + r.nextInt(5));
      o.writeBytes(b.toString().getBytes(StandardCharsets.UTF_8));
      o.write('\n');
    }
    return o.toByteArray();
  }

  /**
   * One GNU command line: flags ({@code s}, {@code u}, {@code r} and ordering letters), an optional
   * {@code -t} separator and {@code -k} keys, separated by blanks, e.g. {@code "s -k2,2n"}.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "n",
        "r",
        "-k2,2n",
        "s -k2,2n",
        "r -k1,1",
        "u -k1,1",
        "u -k2,2n",
        "u -k3,3V",
        "uf -k1,1",
        "u -k5,5M -k4,4h",
        "f -k1,1",
        "-k3,3V -k2,2nr",
        "s -k3,3V",
        "-k4,4h -k1,1",
        "-k5,5M -k2,2n",
        "g -k6,6",
        "b -k2",
        "d -k1,1",
        "i -k1,1r",
        "-t: -k2,2n -k3",
        "s -t: -k1.2,1.3",
      })
  void engineMatchesGnuSort(String line) throws IOException {
    List<String> tokens = List.of(line.split(" ", -1));
    String flags = line.startsWith("-") ? "" : tokens.get(0);
    List<String> keys = new ArrayList<>();
    int sep = TextPosition.BLANK_SEPARATED;
    List<String> args = new ArrayList<>();
    if (!flags.isEmpty()) {
      args.add("-" + flags);
    }
    for (String t : tokens) {
      if (t.startsWith("-t")) {
        sep = t.charAt(2);
        args.add(t);
      } else if (t.startsWith("-k")) {
        keys.add(t.substring(2));
        args.add(t);
      }
    }
    boolean stable = flags.contains("s");
    boolean unique = flags.contains("u");
    boolean reverse = flags.contains("r");
    String ordering = flags.replaceAll("[su]", "");
    SortKey key = GnuSortKeys.parse(ordering, sep, release, keys);
    LastResort last =
        stable || unique ? LastResort.NONE : reverse ? LastResort.DESCENDING : LastResort.ASCENDING;
    byte[] data = input(new Random(SEED ^ line.hashCode()), 3000);
    Path in = dir.resolve("in");
    Files.write(in, data);
    args.add(in.toString());
    byte[] gnu = GnuSort.run(args, new byte[0]);
    for (boolean multiPass : new boolean[] {false, true}) {
      SortConfig.Builder b =
          SortConfig.builder()
              .format(RecordFormat.lines())
              .key(key)
              .lastResort(last)
              .unique(unique)
              .memoryBudget(DataSize.ofMiB(16))
              .threads(2)
              .tempDirs(stripes)
              .transferSize(FileKind.TEMP, DataSize.ofKiB(4))
              .transferSize(FileKind.INPUT, DataSize.ofKiB(16))
              .transferSize(FileKind.OUTPUT, DataSize.ofKiB(16));
      if (multiPass) {
        TestHooks.runRecordsLimit(b, 200).fanIn(3);
      }
      Path out = dir.resolve("out");
      ExternalSorter.sort(in, out, b.build());
      byte[] got = Files.readAllBytes(out);
      if (!Arrays.equals(gnu, got)) {
        assertArrayEquals(
            gnu,
            got,
            "sort "
                + String.join(" ", args)
                + (multiPass ? " (multi-pass)" : " (one pass)")
                + ", seed "
                + SEED
                + ": "
                + firstDifference(gnu, got));
      }
    }
  }

  /**
   * A key followed by the ascending last resort ends with the line itself, so the entry does not
   * store the line a second time (a TAIL layout): runs of such lines are about the input's size,
   * not twice it. Output against GNU sort.
   */
  @Test
  void keyedRunsHoldEachLineOnce() throws IOException {
    Random r = new Random(SEED + 27);
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    int n = 20_000;
    for (int i = 0; i < n; i++) {
      String name =
          WORDS[r.nextInt(WORDS.length)]
              + " is the name of customer account number "
              + r.nextInt(99);
      o.writeBytes((name + "," + (r.nextInt(20_001) - 10_000) + "\n").getBytes(UTF_8));
    }
    byte[] data = o.toByteArray();
    Path in = dir.resolve("in");
    Files.write(in, data);
    byte[] gnu = GnuSort.run(List.of("-t,", "-k2,2n", in.toString()), new byte[0]);
    SortConfig.Builder b =
        SortConfig.builder()
            .format(RecordFormat.lines())
            .key(GnuSortKeys.parse("", ',', release, List.of("2,2n")))
            .lastResort(LastResort.ASCENDING)
            .memoryBudget(DataSize.ofMiB(16))
            .threads(2)
            .tempDirs(stripes)
            .transferSize(FileKind.TEMP, DataSize.ofKiB(4));
    Path out = dir.resolve("out");
    List<Long> runSizes = new ArrayList<>();
    TestHooks.afterRunFormation(
        b,
        runs -> {
          for (Path run : runs) {
            try {
              runSizes.add(Files.size(run));
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }
        });
    SortReport rep = ExternalSorter.sort(in, out, TestHooks.runRecordsLimit(b, 2000).build());
    assertArrayEquals(gnu, Files.readAllBytes(out), "sort -t, -k2,2n, seed " + SEED);
    // Each entry: 8 bytes of lengths, the number's code (at most 5 bytes here) and the line; each
    // run a 4 KiB header and its footer, each 4 KiB block a 12-byte trailer and a partial last
    // entry: about 1.2 times the input. Storing the line twice would write about 2.1 times.
    long written = rep.phases().get(0).bytesWritten();
    assertTrue(rep.runs() >= 10, "seed " + SEED + ": " + rep.runs() + " runs");
    // The one merge took every block of every run through its prefetcher (the report counts them):
    // as many as the run files hold, by their sizes.
    assertEquals(1, rep.mergePasses(), "seed " + SEED + ": " + rep.phases());
    assertEquals(rep.runs(), runSizes.size(), "seed " + SEED);
    long blocks = 0;
    for (long size : runSizes) {
      blocks += blocksOfVariableRun(size);
    }
    PrefetchReport p = rep.prefetch();
    assertEquals(blocks, p.blocks(), () -> "seed " + SEED + ": runs of " + runSizes + ", " + p);
    assertTrue(
        written < data.length * 14L / 10,
        "seed " + SEED + ": runs of " + written + " bytes for an input of " + data.length);
  }

  /**
   * The data blocks of a run file of variable-size entries in 4096-byte blocks, from its size, by
   * docs/run-format.md: the 4096-byte header, n blocks (the last one's length L is (u + 12) rounded
   * up to 4096, so also 4096), and the footer region F = 56 + 72n + 16P + 16 rounded up to 4096,
   * with P = n pages in the page table. Fails if no n gives {@code size}.
   */
  static long blocksOfVariableRun(long size) {
    for (long n = 1; 4096 + 4096 * n <= size; n++) {
      long footer = (56 + 72 * n + 16 * n + 16 + 4095) / 4096 * 4096;
      if (4096 + 4096 * n + footer == size) {
        return n;
      }
    }
    throw new AssertionError("no run of 4096-byte blocks is " + size + " bytes long");
  }

  private static String firstDifference(byte[] a, byte[] b) {
    String[] x = new String(a, StandardCharsets.UTF_8).split("\n", -1);
    String[] y = new String(b, StandardCharsets.UTF_8).split("\n", -1);
    for (int i = 0; i < Math.min(x.length, y.length); i++) {
      if (!x[i].equals(y[i])) {
        return "line " + (i + 1) + ": GNU '" + x[i] + "', joule '" + y[i] + "'";
      }
    }
    return "GNU " + x.length + " lines, joule " + y.length;
  }
}

package dev.joule.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.gensort.Vectors;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ValsortCommandTest {
  static final byte[] SORTED = Vectors.load("ascii-1000.sorted.dat");
  @TempDir Path dir;

  Path write(String name, byte[] data) throws Exception {
    Path f = dir.resolve(name);
    Files.write(f, data);
    return f;
  }

  static String text(String vector) {
    String s = new String(Vectors.load(vector), StandardCharsets.US_ASCII);
    return s.replaceAll("exit \\d+\n", "");
  }

  @ParameterizedTest(name = "-t{0}")
  @ValueSource(ints = {1, 2, 3})
  void sortedFilePrintsTheReferenceReportAndExits0(int threads) throws Exception {
    Path f = write("sorted.dat", SORTED);
    CliRun r = CliRun.run("valsort", "-t" + threads, f.toString());
    assertEquals(0, r.exitCode, r::toString);
    assertEquals(text("ascii-1000.sorted.valsort.txt"), r.err);
    assertEquals("", r.out);
  }

  @ParameterizedTest(name = "-t{0}")
  @ValueSource(ints = {1, 2, 3})
  void unsortedFilePrintsTheReferenceReportAndExits1(int threads) throws Exception {
    Path f = write("unsorted.dat", Vectors.load("ascii-1000.dat"));
    CliRun r = CliRun.run("valsort", "-t", String.valueOf(threads), f.toString());
    assertEquals(1, r.exitCode, r::toString);
    assertEquals(text("ascii-1000.unsorted.valsort.txt"), r.err);
  }

  @Test
  void quietKeepsTheExitStatus() throws Exception {
    CliRun ok = CliRun.run("valsort", "-q", write("s.dat", SORTED).toString());
    assertEquals(0, ok.exitCode);
    assertEquals("", ok.err + ok.out);
    CliRun bad =
        CliRun.run("valsort", "-q", write("u.dat", Vectors.load("ascii-1000.dat")).toString());
    assertEquals(1, bad.exitCode);
    assertEquals("", bad.err + bad.out);
  }

  @Test
  void summaryFileEqualsTheReferenceStruct() throws Exception {
    Path sum = dir.resolve("s.sum");
    CliRun r = CliRun.run("valsort", "-o", sum.toString(), write("s.dat", SORTED).toString());
    assertEquals(0, r.exitCode, r::toString);
    assertArrayEquals(Vectors.load("ascii-1000.sorted.sum"), Files.readAllBytes(sum));
  }

  @Test
  void first400Records() throws Exception {
    CliRun r = CliRun.run("valsort", write("400.dat", Arrays.copyOf(SORTED, 40_000)).toString());
    assertEquals(
        """
        Records: 400
        Checksum: c4df938655
        Duplicate keys: 0
        SUCCESS - all records are in order
        """,
        r.err);
  }

  @Test
  void swappedRecords() throws Exception {
    byte[] d = SORTED.clone();
    System.arraycopy(SORTED, 1100, d, 1000, 100);
    System.arraycopy(SORTED, 1000, d, 1100, 100);
    CliRun r = CliRun.run("valsort", "-t2", write("sw.dat", d).toString());
    assertEquals(1, r.exitCode);
    assertTrue(r.err.startsWith("First unordered record is record 11\n"), r::toString);
    assertTrue(r.err.endsWith("ERROR - there are 1 unordered records\n"), r::toString);
  }

  @Test
  void partitionSummariesInAndOutOfOrder() throws Exception {
    Path a = write("a.dat", Arrays.copyOf(SORTED, 40_000));
    Path b = write("b.dat", Arrays.copyOfRange(SORTED, 40_000, 100_000));
    Path aSum = dir.resolve("a.sum");
    Path bSum = dir.resolve("b.sum");
    assertEquals(0, CliRun.run("valsort", "-q", "-o", aSum.toString(), a.toString()).exitCode);
    assertEquals(0, CliRun.run("valsort", "-q", "-o", bSum.toString(), b.toString()).exitCode);

    Path good = write("good.sum", concat(aSum, bSum));
    CliRun ok = CliRun.run("valsort", "-s", good.toString());
    assertEquals(0, ok.exitCode, ok::toString);
    assertEquals(text("ascii-1000.sorted.valsort.txt"), ok.err);

    Path wrong = write("wrong.sum", concat(bSum, aSum));
    CliRun bad = CliRun.run("valsort", "-s", wrong.toString());
    assertEquals(1, bad.exitCode);
    assertEquals(
        """
        First unordered record is record 600
        Records: 1000
        Checksum: 1f5dfb3631a
        ERROR - there are 1 unordered records
        """,
        bad.err);
  }

  private static byte[] concat(Path... files) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Path f : files) {
      out.write(Files.readAllBytes(f));
    }
    return out.toByteArray();
  }

  @Test
  void fatalInputsUseTheReferenceMessagesAndExit1() throws Exception {
    CliRun empty = CliRun.run("valsort", write("empty.dat", new byte[0]).toString());
    assertEquals(1, empty.exitCode);
    assertEquals("there must be at least one record to be validated\n", empty.err);

    CliRun partial =
        CliRun.run("valsort", "-t3", write("p.dat", Arrays.copyOf(SORTED, 1050)).toString());
    assertEquals(1, partial.exitCode);
    assertEquals("partial record found at end\n", partial.err);

    CliRun partialSum = CliRun.run("valsort", "-s", write("p.sum", new byte[300]).toString());
    assertEquals(1, partialSum.exitCode);
    assertEquals("partial partition summary found at end\n", partialSum.err);

    CliRun emptySum = CliRun.run("valsort", "-s", write("e.sum", new byte[0]).toString());
    assertEquals(1, emptySum.exitCode);
    assertEquals("there must be at least one record to be validated\n", emptySum.err);
  }

  @ParameterizedTest(name = "-t{0}")
  @ValueSource(ints = {1, 2})
  void caseInsensitiveComparesPastTheKeyLikeStrcasecmp(int threads) throws Exception {
    // byte order: "Bx" < "ax"; ignoring case "ax" < "Bx". Equal keys "CC" / "cc" differ in payload.
    byte[] d = new byte[400];
    Arrays.fill(d, (byte) '.');
    d[0] = 'a';
    d[100] = 'B';
    d[200] = 'C';
    d[201] = 'C';
    d[300] = 'c';
    d[301] = 'c';
    d[250] = 'a'; // payload of record 2 < payload of record 3 ('b'): ordered, not a duplicate
    d[350] = 'b';
    Path f = write("ci.dat", d);
    CliRun plain = CliRun.run("valsort", "-t" + threads, f.toString());
    assertEquals(1, plain.exitCode, plain::toString);
    CliRun ci = CliRun.run("valsort", "-i", "-t" + threads, f.toString());
    assertEquals(0, ci.exitCode, ci::toString);
    assertTrue(ci.err.contains("Duplicate keys: 0\n"), ci::toString);
  }

  @Test
  void missingFileNamesThePath() {
    String f = dir.resolve("missing.dat").toString();
    CliRun r = CliRun.run("valsort", f);
    assertEquals(1, r.exitCode);
    assertEquals("valsort: cannot open " + f + ": No such file or directory\n", r.err);
  }

  @Test
  void uncreatableSummaryFailsBeforeValidating() throws Exception {
    String sum = dir.resolve("no/dir/x.sum").toString();
    CliRun r = CliRun.run("valsort", "-o", sum, write("s.dat", SORTED).toString());
    assertEquals(1, r.exitCode);
    assertEquals("valsort: cannot create " + sum + ": No such file or directory\n", r.err);
  }

  @Test
  void usageErrorsExit1LikeTheReference() {
    CliRun none = CliRun.run("valsort");
    assertEquals(1, none.exitCode);
    assertTrue(none.err.startsWith("Missing required parameter: 'FILE'"), none::toString);
    CliRun unknown = CliRun.run("valsort", "-x", "x");
    assertEquals(1, unknown.exitCode);
    assertTrue(unknown.err.startsWith("Unknown option: '-x'"), unknown::toString);
  }

  @Test
  void helpDescribesEveryFlagWithExamples() {
    CliRun r = CliRun.run("valsort", "--help");
    assertEquals(0, r.exitCode);
    for (String s :
        new String[] {
          "-q ", "-o SUMMARY", "-s ", "-t N", "FILE", "Examples:", "valsort -s all.sum"
        }) {
      assertTrue(r.out.contains(s), () -> "help lacks " + s + "\n" + r.out);
    }
  }
}

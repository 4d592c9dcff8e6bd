package dev.joule.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.spark.FileSortSpec.Engine;
import dev.joule.spark.executor.ExecutorBudget;
import dev.joule.spark.executor.TaskSorts;
import dev.joule.spark.output.StagedOutput;
import dev.joule.spark.record.OrdinalRecordLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The file sort on a local Spark (two task slots) against an in-memory stable sort of the same
 * input ({@link TestData#reference}): the parts concatenated in name order must be byte-identical
 * to it, each part's summary must be the reference valsort's of its records, and the summaries
 * combined by the reference's {@code valsort -s} rules ({@link ReferenceValsort}) must equal the
 * summary of the reference sort's output. Then the failures: nothing may appear under the output's
 * name, and nothing may be left beside it.
 */
class SparkFileSortTest {
  private static SparkSession spark;
  @TempDir Path dir;

  @BeforeAll
  static void startSpark() {
    spark = LocalSpark.start("SparkFileSortTest", Map.of());
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  @AfterEach
  void cleanUp(TestInfo info) throws InterruptedException {
    SparkContext sc = spark.sparkContext();
    for (String key :
        List.of(
            ExecutorBudget.MEMORY,
            TaskSorts.TEMP_DIRS,
            TaskSorts.THREADS,
            SparkFileSort.FAIL_PARTITION)) {
      sc.setLocalProperty(key, null);
    }
    LocalSpark.assertNoLeakedArenas(spark, info.getDisplayName());
  }

  private FileSortSpec spec(List<Path> inputs, Path out) {
    return FileSortSpec.of(inputs.stream().map(Path::toString).toList(), out.toString());
  }

  /** Sorts, then checks the output against the reference sort and valsort; returns its dir. */
  private Path sortAndCompare(FileSortSpec spec, List<Path> inputs) throws Exception {
    OrdinalRecordLayout layout = spec.layout();
    FileSortResult r = SparkFileSort.run(spark, spec);
    Path out = Path.of(spec.output());
    byte[] expected =
        TestData.reference(inputs, layout.recordSize(), layout.keyOffset(), layout.keyLength());
    byte[] actual = TestData.concatenatedParts(out);
    assertEquals(expected.length, actual.length, "bytes");
    assertArrayEquals(expected, actual, "parts concatenated differ from the reference sort");
    assertEquals(spec.partitions(), TestData.parts(out).size(), "parts");
    assertEquals(spec.partitions(), r.partitions());
    assertTrue(Files.exists(out.resolve(StagedOutput.SUCCESS)), "_SUCCESS");
    assertEquals(expected.length / layout.recordSize(), r.verdict().records());
    List<String> expectedNames = new ArrayList<>();
    for (int p = 0; p < spec.partitions(); p++) {
      expectedNames.add(StagedOutput.partName(p));
      if (layout.isGensort()) {
        expectedNames.add(StagedOutput.partName(p) + ".sum");
      }
    }
    expectedNames.add(StagedOutput.SUCCESS);
    assertEquals(expectedNames.stream().sorted().toList(), TestData.names(out), "output files");
    if (layout.isGensort() && expected.length > 0) {
      ReferenceValsort whole = ReferenceValsort.of(expected);
      ReferenceValsort parts = TestData.valsortS(out);
      assertEquals(whole, parts, "valsort -s of the parts against valsort of the reference");
      assertTrue(parts.ordered(), parts::toString);
      assertEquals(
          List.of(whole),
          ReferenceValsort.parse(r.verdict().valsort().toBytes()),
          "the job's own verdict");
    }
    assertNothingBeside(out);
    return out;
  }

  /** No staging directory of the output is left in its parent. */
  private static void assertNothingBeside(Path out) throws IOException {
    for (String n : TestData.names(out.getParent())) {
      assertFalse(
          n.startsWith("." + out.getFileName() + ".joule-staging"), "left beside the output: " + n);
    }
  }

  // ---- the output is the reference sort's, byte for byte ----

  @Test
  void uniformMillionRecordsFourParts() throws Exception {
    Path in = TestData.gensort(dir.resolve("in"), 0, 1_000_000, false);
    sortAndCompare(spec(List.of(in), dir.resolve("sorted")).withPartitions(4), List.of(in));
  }

  @Test
  void skewedMillionRecordsEightParts() throws Exception {
    // gensort -s puts about a quarter of the records behind one 2-byte prefix
    Path in = TestData.gensort(dir.resolve("in"), 0, 1_000_000, true);
    Path out =
        sortAndCompare(spec(List.of(in), dir.resolve("sorted")).withPartitions(8), List.of(in));
    long smallest = Long.MAX_VALUE;
    long largest = 0;
    for (Path p : TestData.parts(out)) {
      smallest = Math.min(smallest, Files.size(p));
      largest = Math.max(largest, Files.size(p));
    }
    // 100 000 sampled keys, 12 500 per part: the parts are within a few percent of each other
    assertTrue(largest < smallest * 1.1, "unbalanced parts: " + smallest + " .. " + largest);
  }

  @ParameterizedTest(name = "{0} keys, {1} parts, {2}")
  @CsvSource({
    "uniform, 1, JOULE",
    "uniform, 2, SPARK",
    "uniform, 8, JOULE",
    "skewed, 2, JOULE",
    "skewed, 5, SPARK",
    "skewed, 8, JOULE",
    "equal, 1, JOULE",
    "equal, 3, JOULE",
    "equal, 6, SPARK",
    "equal, 8, JOULE",
    "three, 8, JOULE",
    "three, 7, SPARK",
  })
  void shapesAndPartitions(String shape, int partitions, Engine engine) throws Exception {
    Path in = dir.resolve("in");
    switch (shape) {
      case "uniform" -> TestData.gensort(in, 1_000, 100_000, false);
      case "skewed" -> TestData.gensort(in, 1_000, 100_000, true);
      case "three" -> TestData.randomRecords(in, 3L, 100_000, 100, 0, 10, 3); // 3 distinct keys
      default -> TestData.equalKeys(in, 100_000);
    }
    Path out =
        sortAndCompare(
            spec(List.of(in), dir.resolve("sorted")).withPartitions(partitions).withEngine(engine),
            List.of(in));
    // a complete sample: every part gets the same number of records, give or take one, also with
    // more partitions than distinct keys
    for (Path p : TestData.parts(out)) {
      long records = Files.size(p) / 100;
      assertTrue(
          Math.abs(records - 100_000 / partitions) <= 1, p + " holds " + records + " records");
    }
  }

  @ParameterizedTest
  @CsvSource({"JOULE", "SPARK"})
  void severalInputsCutIntoSplits(Engine engine) throws Exception {
    // ordinals continue across files and splits: equal keys in different files keep file order
    Path a = TestData.gensort(dir.resolve("a"), 0, 30_000, true);
    Path empty = Files.createFile(dir.resolve("empty"));
    Path b = TestData.equalKeys(dir.resolve("b"), 20_000);
    Path c = TestData.gensort(dir.resolve("c"), 0, 30_000, true); // the same records as a
    List<Path> inputs = List.of(a, empty, b, c);
    sortAndCompare(
        spec(inputs, dir.resolve("sorted"))
            .withPartitions(4)
            .withEngine(engine)
            .withSplitBytes(1 << 20)
            .withSampleSize(5_000),
        inputs);
  }

  @Test
  void directoryInputTakesItsFilesInNameOrder() throws Exception {
    Path d = Files.createDirectories(dir.resolve("in"));
    Path second = TestData.equalKeys(d.resolve("part-1"), 3_000);
    Path first = TestData.gensort(d.resolve("part-0"), 0, 3_000, false);
    Files.writeString(d.resolve("_SUCCESS"), ""); // hidden: not an input
    sortAndCompare(
        FileSortSpec.of(List.of(d.toString()), dir.resolve("sorted").toString()).withPartitions(2),
        List.of(first, second));
  }

  @ParameterizedTest
  @CsvSource({"JOULE", "SPARK"})
  void morePartitionsThanRecords(Engine engine) throws Exception {
    Path in = TestData.equalKeys(dir.resolve("in"), 5);
    Path out =
        sortAndCompare(
            spec(List.of(in), dir.resolve("sorted")).withPartitions(8).withEngine(engine),
            List.of(in));
    int empty = 0;
    for (Path p : TestData.parts(out)) {
      if (Files.size(p) == 0) {
        empty++;
        assertEquals(0, Files.size(Path.of(p + ".sum")), "an empty part has an empty summary");
      }
    }
    assertEquals(3, empty, "8 parts for 5 records");
  }

  @Test
  void emptyInput() throws Exception {
    Path in = Files.createFile(dir.resolve("in"));
    Path out =
        sortAndCompare(spec(List.of(in), dir.resolve("sorted")).withPartitions(3), List.of(in));
    for (Path p : TestData.parts(out)) {
      assertEquals(0, Files.size(p));
    }
  }

  @ParameterizedTest
  @CsvSource({"JOULE", "SPARK"})
  void anyRecordLayoutWithDuplicateKeys(Engine engine) throws Exception {
    long seed = 20261123L;
    Path in = TestData.randomRecords(dir.resolve("in"), seed, 100_000, 16, 8, 8, 30);
    OrdinalRecordLayout layout = new OrdinalRecordLayout(16, 8, 8);
    sortAndCompare(
        spec(List.of(in), dir.resolve("sorted"))
            .withLayout(layout)
            .withPartitions(6)
            .withEngine(engine),
        List.of(in));
  }

  @Test
  void partitionsLargerThanTheBudgetSpillToTheTempDirs() throws Exception {
    Path t1 = Files.createDirectories(dir.resolve("t1"));
    Path t2 = Files.createDirectories(dir.resolve("t2"));
    SparkContext sc = spark.sparkContext();
    sc.setLocalProperty(ExecutorBudget.MEMORY, "8m");
    sc.setLocalProperty(TaskSorts.TEMP_DIRS, t1 + "," + t2);
    Path in = TestData.gensort(dir.resolve("in"), 0, 200_000, true);
    sortAndCompare(spec(List.of(in), dir.resolve("sorted")).withPartitions(1), List.of(in));
    assertEquals(List.of(), TestData.names(t1), "runs left in " + t1);
    assertEquals(List.of(), TestData.names(t2), "runs left in " + t2);
  }

  @Test
  void overwriteReplacesAnExistingOutput() throws Exception {
    Path out = dir.resolve("sorted");
    Path old = TestData.gensort(dir.resolve("old"), 0, 1_000, false);
    SparkFileSort.run(spark, spec(List.of(old), out).withPartitions(3));
    Path in = TestData.gensort(dir.resolve("in"), 5_000, 2_000, true);
    sortAndCompare(spec(List.of(in), out).withPartitions(2).withOverwrite(true), List.of(in));
  }

  // ---- failures: a clear error, nothing published, nothing left ----

  @Test
  void missingInput() throws Exception {
    Path in = dir.resolve("no-such-input");
    Path out = dir.resolve("sorted");
    JobIOException e =
        assertThrows(JobIOException.class, () -> SparkFileSort.run(spark, spec(List.of(in), out)));
    assertEquals("open failed: " + in + ": No such file or directory", e.getMessage());
    assertFalse(Files.exists(out));
    assertNothingBeside(out);
  }

  @Test
  void recordSizeThatDoesNotDivideTheFile() throws Exception {
    Path good = TestData.gensort(dir.resolve("good"), 0, 10, false);
    Path bad = dir.resolve("bad");
    Files.write(bad, new byte[1050]);
    Path out = dir.resolve("sorted");
    JobIOException e =
        assertThrows(
            JobIOException.class, () -> SparkFileSort.run(spark, spec(List.of(good, bad), out)));
    assertEquals(
        "read failed: file:"
            + bad
            + ": input size 1050 is not a multiple of record size 100: 50 trailing bytes at"
            + " offset 1000",
        e.getMessage());
    assertFalse(Files.exists(out));
  }

  @Test
  void existingOutputIsRefusedAndKept() throws Exception {
    Path in = TestData.gensort(dir.resolve("in"), 0, 10, false);
    Path out = Files.createDirectories(dir.resolve("sorted"));
    Files.writeString(out.resolve("keep"), "earlier output");
    JobIOException e =
        assertThrows(JobIOException.class, () -> SparkFileSort.run(spark, spec(List.of(in), out)));
    assertEquals(
        "create failed: file:" + out + ": File exists (give --overwrite to replace it)",
        e.getMessage());
    assertEquals(List.of("keep"), TestData.names(out));
    assertNothingBeside(out);
  }

  @Test
  void failedTaskNamesThePathAndPublishesNothing() throws Exception {
    Path missing = dir.resolve("no-such-temp-dir");
    spark.sparkContext().setLocalProperty(TaskSorts.TEMP_DIRS, missing.toString());
    Path in = TestData.gensort(dir.resolve("in"), 0, 10_000, false);
    Path out = dir.resolve("sorted");
    TaskFailedException e =
        assertThrows(
            TaskFailedException.class,
            () -> SparkFileSort.run(spark, spec(List.of(in), out).withPartitions(3)));
    assertEquals(
        "a Spark task failed: temp failed: " + missing + ": No such file or directory",
        e.getMessage());
    assertFalse(Files.exists(out));
    assertNothingBeside(out);
  }

  @ParameterizedTest
  @CsvSource({"JOULE", "SPARK"})
  void failureAfterSomePartsWereWrittenRemovesThemAll(Engine engine) throws Exception {
    spark.sparkContext().setLocalProperty(SparkFileSort.FAIL_PARTITION, "3");
    Path in = TestData.gensort(dir.resolve("in"), 0, 20_000, false);
    Path out = dir.resolve("sorted");
    TaskFailedException e =
        assertThrows(
            TaskFailedException.class,
            () ->
                SparkFileSort.run(
                    spark, spec(List.of(in), out).withPartitions(4).withEngine(engine)));
    assertTrue(e.getMessage().contains("part-00003.attempt-"), e.getMessage());
    assertTrue(e.getMessage().endsWith("failed on purpose (" + SparkFileSort.FAIL_PARTITION + ")"));
    assertFalse(Files.exists(out));
    assertNothingBeside(out);
    assertEquals(List.of("in"), TestData.names(dir), "only the input is left");
  }

  @Test
  void failedOverwriteKeepsTheEarlierOutput() throws Exception {
    Path out = dir.resolve("sorted");
    Path old = TestData.gensort(dir.resolve("old"), 0, 1_000, false);
    SparkFileSort.run(spark, spec(List.of(old), out).withPartitions(2));
    byte[] before = TestData.concatenatedParts(out);
    spark.sparkContext().setLocalProperty(SparkFileSort.FAIL_PARTITION, "0");
    Path in = TestData.gensort(dir.resolve("in"), 0, 2_000, true);
    assertThrows(
        TaskFailedException.class,
        () ->
            SparkFileSort.run(spark, spec(List.of(in), out).withPartitions(2).withOverwrite(true)));
    assertArrayEquals(before, TestData.concatenatedParts(out));
    assertTrue(Files.exists(out.resolve(StagedOutput.SUCCESS)));
    assertNothingBeside(out);
  }
}

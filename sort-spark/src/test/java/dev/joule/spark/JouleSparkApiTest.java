package dev.joule.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Date;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import scala.Tuple2;

/**
 * The API for Spark programs against an in-memory reference: a stable sort of the same pairs (or
 * rows) by {@link Arrays#compareUnsigned(byte[], byte[])} of the keys, ties in input order; rows
 * sorted by typed columns against a comparator written from Spark SQL's documented order, and
 * against Spark's own {@code orderBy} for the sequence of keys. This session has Spark's off-heap
 * memory on, so every task also reserves its budget from Spark.
 */
class JouleSparkApiTest {
  private static final long SEED = 0x5A11L;
  private static SparkSession spark;
  private static JavaSparkContext jsc;

  @BeforeAll
  static void startSpark() {
    spark =
        LocalSpark.start(
            "JouleSparkApiTest",
            Map.of("spark.memory.offHeap.enabled", "true", "spark.memory.offHeap.size", "256m"));
    jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  @AfterEach
  void noLeaks(TestInfo info) throws InterruptedException {
    LocalSpark.assertNoLeakedArenas(spark, info.getDisplayName());
  }

  /**
   * Keys of 0..8 bytes over a small alphabet (prefixes, duplicates, 0x00 and 0xFF), values 0..40.
   */
  private static List<Tuple2<byte[], byte[]>> pairs(long seed, int n) {
    SplittableRandom r = new SplittableRandom(seed);
    byte[] alphabet = {0, 1, 2, (byte) 0x80, (byte) 0xFF};
    List<Tuple2<byte[], byte[]>> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] k = new byte[r.nextInt(9)];
      for (int j = 0; j < k.length; j++) {
        k[j] = alphabet[r.nextInt(alphabet.length)];
      }
      byte[] v = new byte[r.nextInt(41)];
      r.nextBytes(v);
      out.add(new Tuple2<>(k, v));
    }
    return out;
  }

  private static List<Tuple2<byte[], byte[]>> reference(List<Tuple2<byte[], byte[]>> in) {
    List<Tuple2<byte[], byte[]>> sorted = new ArrayList<>(in);
    sorted.sort((a, b) -> Arrays.compareUnsigned(a._1(), b._1())); // List.sort is stable
    return sorted;
  }

  private static void assertSamePairs(
      List<Tuple2<byte[], byte[]>> expected, List<Tuple2<byte[], byte[]>> actual, long seed) {
    assertEquals(expected.size(), actual.size(), "pairs (seed " + seed + ")");
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(
          expected.get(i)._1(), actual.get(i)._1(), "key " + i + " (seed " + seed + ")");
      assertArrayEquals(
          expected.get(i)._2(), actual.get(i)._2(), "value " + i + " (seed " + seed + ")");
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4, 7})
  void pairsSortStablyByUnsignedKey(int partitions) {
    long seed = SEED + partitions;
    List<Tuple2<byte[], byte[]>> in = pairs(seed, 30_000);
    JavaPairRDD<byte[], byte[]> rdd = jsc.parallelizePairs(in, 3);
    JavaPairRDD<byte[], byte[]> sorted = JouleSpark.sortByKey(rdd, partitions);
    assertEquals(partitions, sorted.getNumPartitions());
    assertSamePairs(reference(in), sorted.collect(), seed); // partition by partition, in order
    if (partitions > 1) { // 30 000 pairs, all sampled: no partition is empty
      for (List<Tuple2<byte[], byte[]>> part : sorted.glom().collect()) {
        assertTrue(!part.isEmpty(), "an empty partition");
      }
    }
  }

  @Test
  void keysAndValuesOfAnyLength() {
    // values far beyond one fixed-size record of the engine (65535 bytes), keys of up to 4 KB
    long seed = SEED + 11;
    SplittableRandom r = new SplittableRandom(seed);
    List<Tuple2<byte[], byte[]>> in = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      byte[] k = new byte[r.nextInt(3) == 0 ? r.nextInt(4096) : r.nextInt(3)];
      byte[] v = new byte[r.nextInt(4) == 0 ? 100_000 + r.nextInt(100_000) : r.nextInt(10)];
      r.nextBytes(k);
      r.nextBytes(v);
      in.add(new Tuple2<>(k, v));
    }
    in.add(new Tuple2<>(new byte[0], new byte[0]));
    assertSamePairs(
        reference(in), JouleSpark.sortByKey(jsc.parallelizePairs(in, 2), 3).collect(), seed);
  }

  @Test
  void morePartitionsThanPairsAndAnEmptyInput() {
    List<Tuple2<byte[], byte[]>> in = pairs(SEED, 3);
    assertSamePairs(
        reference(in), JouleSpark.sortByKey(jsc.parallelizePairs(in, 2), 8).collect(), SEED);
    JavaPairRDD<byte[], byte[]> empty = jsc.parallelizePairs(new ArrayList<>(), 2);
    assertEquals(0, JouleSpark.sortByKey(empty, 3).count());
  }

  private static final AtomicInteger EVALUATIONS = new AtomicInteger();

  @Test
  void aNonDeterministicInputFailsInsteadOfSortingWrongly() {
    EVALUATIONS.set(0);
    // every evaluation of the input adds one more pair: the second pass sees a different count
    JavaPairRDD<byte[], byte[]> changing =
        jsc.parallelize(List.of(1), 1)
            .flatMapToPair(
                x -> {
                  int n = 10 + EVALUATIONS.incrementAndGet();
                  List<Tuple2<byte[], byte[]>> out = new ArrayList<>();
                  for (int i = 0; i < n; i++) {
                    out.add(new Tuple2<>(new byte[] {(byte) i}, new byte[0]));
                  }
                  return out.iterator();
                });
    SparkException e =
        assertThrows(SparkException.class, () -> JouleSpark.sortByKey(changing, 2).collect());
    assertTrue(e.getMessage().contains("the input RDD is not deterministic"), e.getMessage());
  }

  @Test
  void datasetRowsSortByTheirBinaryKeyColumnNullsFirst() {
    StructType schema =
        new StructType()
            .add("id", DataTypes.LongType, false)
            .add("key", DataTypes.BinaryType, true)
            .add("name", DataTypes.StringType, true)
            .add("score", DataTypes.DoubleType, true);
    SplittableRandom r = new SplittableRandom(SEED);
    List<Row> rows = new ArrayList<>();
    for (long id = 0; id < 5_000; id++) {
      byte[] key = null;
      if (r.nextInt(10) > 0) {
        key = new byte[r.nextInt(4)];
        for (int j = 0; j < key.length; j++) {
          key[j] = (byte) (r.nextBoolean() ? 0xFF : r.nextInt(3));
        }
      }
      rows.add(
          RowFactory.create(
              id, key, r.nextInt(5) == 0 ? null : "name-" + r.nextInt(100), r.nextDouble()));
    }
    Dataset<Row> ds = spark.createDataFrame(rows, schema).repartition(3);
    List<Row> input = ds.collectAsList(); // the input order the sort keeps for equal keys
    List<Row> expected = new ArrayList<>(input);
    Comparator<byte[]> nullsFirst = Comparator.nullsFirst((a, b) -> Arrays.compareUnsigned(a, b));
    expected.sort((a, b) -> nullsFirst.compare((byte[]) a.get(1), (byte[]) b.get(1)));
    Dataset<Row> sorted = JouleSpark.sortByBinaryKey(ds.cache(), "key", 4);
    assertEquals(schema, sorted.schema());
    List<Row> actual = sorted.collectAsList();
    assertEquals(expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      Row e = expected.get(i);
      Row a = actual.get(i);
      assertEquals(e.getLong(0), a.getLong(0), "row " + i + " (seed " + SEED + ")");
      assertArrayEquals((byte[]) e.get(1), (byte[]) a.get(1));
      assertEquals(e.get(2), a.get(2));
      assertEquals(e.get(3), a.get(3));
    }
  }

  // ---- Datasets by typed columns: the order of Spark SQL's orderBy ----

  private static final String[] TEXTS = {
    "", "a", "a\u0000", "a\u0000b", "ab", "B", "\u00e4", "\uFFFD", "\uD83D\uDE00", "\uE000"
  };
  private static final double[] DOUBLES = {
    Double.NaN,
    Double.longBitsToDouble(0xFFF8_0000_0000_0001L), // a negative NaN: still after everything
    -0.0,
    0.0,
    -1.5,
    1.5,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    Double.MIN_VALUE
  };
  private static final BigDecimal[] DECIMALS = {
    new BigDecimal("-1.000"),
    new BigDecimal("1.0"),
    new BigDecimal("1.00"),
    new BigDecimal("12345678901234567.891"),
    new BigDecimal("-12345678901234567.891"),
    new BigDecimal("0.001"),
    BigDecimal.ZERO
  };

  private static StructType typedSchema() {
    return new StructType()
        .add("id", DataTypes.LongType, false)
        .add("i", DataTypes.IntegerType, true)
        .add("d", DataTypes.DoubleType, true)
        .add("f", DataTypes.FloatType, true)
        .add("s", DataTypes.StringType, true)
        .add("big", DataTypes.createDecimalType(20, 3), true)
        .add("small", DataTypes.createDecimalType(9, 2), true)
        .add("b", DataTypes.BooleanType, true)
        .add("day", DataTypes.DateType, true)
        .add("bin", DataTypes.BinaryType, true)
        .add("n", DataTypes.ShortType, false);
  }

  /** Values from small domains, so that every column has ties, nulls and its edge cases. */
  private static List<Row> typedRows(long seed, int n) {
    SplittableRandom r = new SplittableRandom(seed);
    List<Row> rows = new ArrayList<>();
    for (long id = 0; id < n; id++) {
      boolean nulls = r.nextInt(6) == 0;
      rows.add(
          RowFactory.create(
              id,
              nulls ? null : r.nextInt(5) - 2,
              nulls ? null : DOUBLES[r.nextInt(DOUBLES.length)],
              nulls ? null : (float) DOUBLES[r.nextInt(DOUBLES.length)],
              r.nextInt(8) == 0 ? null : TEXTS[r.nextInt(TEXTS.length)],
              nulls ? null : DECIMALS[r.nextInt(DECIMALS.length)],
              r.nextInt(7) == 0 ? null : BigDecimal.valueOf(r.nextInt(2001) - 1000, 2),
              r.nextInt(5) == 0 ? null : r.nextBoolean(),
              r.nextInt(5) == 0 ? null : Date.valueOf(LocalDate.of(1969 + r.nextInt(3), 12, 31)),
              r.nextInt(5) == 0 ? null : new byte[] {(byte) r.nextInt(3), (byte) 0xFF},
              (short) (r.nextInt(7) - 3)));
    }
    return rows;
  }

  /** Spark SQL's order of one column's values: -0.0 = 0.0, NaN last, strings by UTF-8 bytes. */
  @SuppressWarnings("unchecked")
  private static int compareValues(Object a, Object b) {
    if (a instanceof Double x) {
      return Double.compare(x == 0.0 ? 0.0 : x, (Double) b == 0.0 ? 0.0 : (Double) b);
    }
    if (a instanceof Float x) {
      return Float.compare(x == 0.0f ? 0.0f : x, (Float) b == 0.0f ? 0.0f : (Float) b);
    }
    if (a instanceof String x) {
      return Arrays.compareUnsigned(
          x.getBytes(StandardCharsets.UTF_8), ((String) b).getBytes(StandardCharsets.UTF_8));
    }
    if (a instanceof byte[] x) {
      return Arrays.compareUnsigned(x, (byte[]) b);
    }
    return ((Comparable<Object>) a).compareTo(b); // numbers, decimals by value, booleans, dates
  }

  private static Comparator<Row> reference(StructType schema, SortColumn... columns) {
    Comparator<Row> c = null;
    for (SortColumn col : columns) {
      int f = schema.fieldIndex(col.name());
      Comparator<Object> values =
          col.descending() ? (x, y) -> compareValues(y, x) : JouleSparkApiTest::compareValues;
      Comparator<Object> withNulls =
          col.isNullsFirst() ? Comparator.nullsFirst(values) : Comparator.nullsLast(values);
      Comparator<Row> byColumn = Comparator.comparing(row -> row.get(f), withNulls);
      c = c == null ? byColumn : c.thenComparing(byColumn);
    }
    return c;
  }

  private static Column sparkColumn(SortColumn c) {
    Column col = functions.col(c.name());
    if (c.descending()) {
      return c.isNullsFirst() ? col.desc_nulls_first() : col.desc_nulls_last();
    }
    return c.isNullsFirst() ? col.asc_nulls_first() : col.asc_nulls_last();
  }

  static Stream<Arguments> typedSorts() {
    return Stream.of(
        Arguments.of(
            4,
            new SortColumn[] {
              SortColumn.asc("s"), SortColumn.desc("d"), SortColumn.asc("i").nullsLast()
            }),
        Arguments.of(
            3,
            new SortColumn[] {
              SortColumn.desc("big").nullsFirst(),
              SortColumn.asc("b"),
              SortColumn.desc("day"),
              SortColumn.asc("f")
            }),
        Arguments.of(
            5,
            new SortColumn[] {
              SortColumn.asc("small"),
              SortColumn.desc("bin"),
              SortColumn.asc("n"),
              SortColumn.desc("s").nullsFirst()
            }));
  }

  @ParameterizedTest
  @MethodSource("typedSorts")
  void datasetRowsSortByTypedColumnsAsSparkOrdersThem(int partitions, SortColumn[] columns) {
    long seed = SEED + 100 + partitions;
    StructType schema = typedSchema();
    Dataset<Row> ds = spark.createDataFrame(typedRows(seed, 6_000), schema).repartition(3).cache();
    try {
      List<Row> input = ds.collectAsList(); // the input order the sort keeps for equal keys
      Comparator<Row> order = reference(schema, columns);
      List<Row> expected = new ArrayList<>(input);
      expected.sort(order); // stable
      Dataset<Row> sorted = JouleSpark.sortBy(ds, partitions, columns);
      assertEquals(schema, sorted.schema());
      assertEquals(partitions, sorted.javaRDD().getNumPartitions());
      List<Row> actual = sorted.collectAsList();
      String what = Arrays.toString(columns) + " (seed " + seed + ")";
      assertEquals(expected.size(), actual.size(), what);
      for (int i = 0; i < expected.size(); i++) {
        assertEquals(expected.get(i).getLong(0), actual.get(i).getLong(0), "row " + i + " " + what);
        assertEquals(expected.get(i).get(4), actual.get(i).get(4), "row " + i + " " + what);
      }
      // Spark's own sort (not stable) must agree on the sequence of keys
      Column[] by =
          Arrays.stream(columns).map(JouleSparkApiTest::sparkColumn).toArray(Column[]::new);
      List<Row> bySpark = ds.orderBy(by).collectAsList();
      assertEquals(bySpark.size(), actual.size());
      for (int i = 0; i < bySpark.size(); i++) {
        assertEquals(
            0,
            order.compare(bySpark.get(i), actual.get(i)),
            "key of row " + i + " against Spark " + what);
      }
    } finally {
      ds.unpersist();
    }
  }

  @Test
  void columnsWithoutABinaryOrderAreRefusedBeforeAnyJob() {
    StructType schema =
        new StructType()
            .add("tags", DataTypes.createArrayType(DataTypes.StringType), true)
            .add("name", StringType.apply("UTF8_LCASE"), true)
            .add("id", DataTypes.LongType, false);
    Dataset<Row> ds = spark.createDataFrame(new ArrayList<Row>(), schema);
    IllegalArgumentException array =
        assertThrows(
            IllegalArgumentException.class,
            () -> JouleSpark.sortBy(ds, 2, SortColumn.asc("id"), SortColumn.asc("tags")));
    assertTrue(
        array.getMessage().startsWith("sort column tags is array<string>"), array.getMessage());
    IllegalArgumentException collation =
        assertThrows(
            IllegalArgumentException.class, () -> JouleSpark.sortBy(ds, 2, SortColumn.asc("name")));
    assertTrue(collation.getMessage().contains("UTF8_LCASE"), collation.getMessage());
    IllegalArgumentException missing =
        assertThrows(
            IllegalArgumentException.class, () -> JouleSpark.sortBy(ds, 2, SortColumn.asc("nope")));
    assertTrue(missing.getMessage().startsWith("no column nope in struct<"), missing.getMessage());
    assertThrows(IllegalArgumentException.class, () -> JouleSpark.sortBy(ds, 2));
  }

  @Test
  void datasetKeyMustBeABinaryColumn() {
    Dataset<Row> ds = spark.range(10).toDF("id");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> JouleSpark.sortByBinaryKey(ds, "id", 2));
    assertTrue(e.getMessage().contains("key column id is bigint, not binary"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> JouleSpark.sortByBinaryKey(ds, "nope", 2));
  }
}

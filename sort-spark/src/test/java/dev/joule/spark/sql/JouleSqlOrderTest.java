package dev.joule.spark.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.ibm.icu.text.CollationKey;
import com.ibm.icu.text.Collator;
import com.ibm.icu.util.ULocale;
import dev.joule.spark.LocalSpark;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Period;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.YearMonthIntervalType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Every type's order against Spark's own {@code SortExec} on the same seeded random rows: each
 * column sorted in random directions and null orders, with the row id as the last key, so that rows
 * Spark holds equal (NaN and NaN, -0.0 and 0.0, 'a' and 'A' under UTF8_LCASE) come out in one order
 * and the two results must be the same list of ids.
 */
class JouleSqlOrderTest {
  private static final long SEED = Long.getLong("joule.test.seed", 0x50A7L);
  private static final int ROWS = 3000;
  private static SparkSession spark;

  @BeforeAll
  static void startSpark() {
    spark =
        LocalSpark.start(
            "JouleSqlOrderTest",
            Map.of(
                "spark.sql.extensions",
                JouleExtensions.class.getName(),
                "spark.joule.sql.memory",
                "16m"));
    spark.createDataFrame(rows(SEED, ROWS), schema()).cache().createOrReplaceTempView("raw");
    spark
        .sql(
            "SELECT *, CAST(s AS STRING COLLATE UTF8_LCASE) AS lc,"
                + " CAST(s AS STRING COLLATE UNICODE) AS un,"
                + " CAST(s AS STRING COLLATE UNICODE_CI) AS ci,"
                + " CAST(s AS STRING COLLATE de_CI_AI) AS de,"
                + " CAST(s AS STRING COLLATE UTF8_BINARY_RTRIM) AS rt FROM raw")
        .createOrReplaceTempView("v");
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  @AfterEach
  void noLeaks(TestInfo info) throws InterruptedException {
    LocalSpark.assertNoLeakedArenas(spark, info.getDisplayName());
  }

  private static StructType schema() {
    return new StructType()
        .add("id", DataTypes.IntegerType, false)
        .add("b", DataTypes.BooleanType)
        .add("y", DataTypes.ByteType)
        .add("sh", DataTypes.ShortType)
        .add("i", DataTypes.IntegerType)
        .add("l", DataTypes.LongType)
        .add("f", DataTypes.FloatType)
        .add("d", DataTypes.DoubleType)
        .add("dc", DataTypes.createDecimalType(9, 2))
        .add("dw", DataTypes.createDecimalType(30, 4))
        .add("s", DataTypes.StringType)
        .add("bin", DataTypes.BinaryType)
        .add("dt", DataTypes.DateType)
        .add("ts", DataTypes.TimestampType)
        .add("ntz", DataTypes.TimestampNTZType)
        .add("ym", YearMonthIntervalType.apply())
        .add("dtm", DayTimeIntervalType.apply())
        .add("st", new StructType().add("a", DataTypes.IntegerType).add("b", DataTypes.StringType))
        .add("ar", DataTypes.createArrayType(DataTypes.DoubleType));
  }

  private static final String[] STRINGS = {
    "",
    "a",
    "A",
    "a ",
    "a  ",
    " a",
    "ä",
    "Ä",
    "ß",
    "ss",
    "SS",
    "İ",
    "i",
    "I",
    "ı",
    "Σ",
    "σ",
    "ς",
    "\u0000",
    "a\u0000",
    "a\u0000b",
    "b",
    "é",
    "e\u0301",
    "😀",
    "\uFFFD",
    "zz",
    "Zz",
    "aa",
    "AA"
  };

  private static String randomString(SplittableRandom r) {
    switch (r.nextInt(4)) {
      case 0:
        return STRINGS[r.nextInt(STRINGS.length)];
      case 1: // long common prefixes
        return "x".repeat(r.nextInt(300)) + STRINGS[r.nextInt(STRINGS.length)];
      default:
        StringBuilder b = new StringBuilder();
        for (int n = r.nextInt(6); n > 0; n--) {
          b.append(STRINGS[r.nextInt(STRINGS.length)]);
        }
        return b.toString();
    }
  }

  private static final float[] FLOATS = {
    Float.NaN,
    Float.intBitsToFloat(0x7fc00123),
    Float.intBitsToFloat(0xffc00000),
    -0.0f,
    0.0f,
    Float.POSITIVE_INFINITY,
    Float.NEGATIVE_INFINITY,
    Float.MIN_VALUE,
    -Float.MIN_VALUE,
    Float.MAX_VALUE,
    -Float.MAX_VALUE,
    1.0f,
    -1.0f
  };

  private static final double[] DOUBLES = {
    Double.NaN,
    Double.longBitsToDouble(0x7ff8000000000123L),
    Double.longBitsToDouble(0xfff8000000000000L),
    -0.0,
    0.0,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    Double.MIN_VALUE,
    -Double.MIN_VALUE,
    Double.MAX_VALUE,
    -Double.MAX_VALUE,
    1.0,
    -1.0
  };

  private static double randomDouble(SplittableRandom r) {
    return r.nextBoolean() ? DOUBLES[r.nextInt(DOUBLES.length)] : (r.nextDouble() - 0.5) * 1e6;
  }

  private static List<Row> rows(long seed, int n) {
    SplittableRandom r = new SplittableRandom(seed);
    List<Row> out = new ArrayList<>(n);
    for (int id = 0; id < n; id++) {
      Object[] v = new Object[19];
      v[0] = id;
      v[1] = r.nextBoolean();
      v[2] = (byte) r.nextInt(-128, 128);
      v[3] = (short) r.nextInt(-32768, 32768);
      v[4] =
          r.nextInt(8) == 0
              ? (r.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE)
              : r.nextInt();
      v[5] = r.nextInt(8) == 0 ? (r.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE) : r.nextLong();
      v[6] = r.nextBoolean() ? FLOATS[r.nextInt(FLOATS.length)] : (float) r.nextDouble(-1e3, 1e3);
      v[7] = randomDouble(r);
      v[8] = BigDecimal.valueOf(r.nextLong(-9_999_999_99L, 9_999_999_99L), 2);
      v[9] =
          new BigDecimal(
              new BigInteger(99, new java.util.Random(r.nextLong()))
                  .multiply(BigInteger.valueOf(r.nextBoolean() ? 1 : -1)),
              4);
      v[10] = randomString(r);
      byte[] bin = new byte[r.nextInt(7)];
      byte[] alphabet = {0, 1, 0x7f, (byte) 0x80, (byte) 0xff};
      for (int k = 0; k < bin.length; k++) {
        bin[k] = alphabet[r.nextInt(alphabet.length)];
      }
      v[11] = bin;
      v[12] = LocalDate.ofEpochDay(r.nextLong(-800_000, 800_000));
      v[13] = new Timestamp(r.nextLong(-10_000_000_000_000L, 10_000_000_000_000L));
      v[14] =
          LocalDateTime.of(
              1900 + r.nextInt(300),
              1 + r.nextInt(12),
              1 + r.nextInt(28),
              r.nextInt(24),
              r.nextInt(60));
      v[15] = Period.ofMonths(r.nextInt(-100_000, 100_000)).normalized();
      v[16] =
          Duration.ofNanos(
              r.nextLong(-1_000_000_000_000_000L, 1_000_000_000_000_000L) / 1000 * 1000);
      v[17] =
          RowFactory.create(
              r.nextInt(4) == 0 ? null : r.nextInt(5), r.nextInt(4) == 0 ? null : randomString(r));
      List<Double> ar = new ArrayList<>();
      for (int k = r.nextInt(4); k > 0; k--) {
        ar.add(r.nextInt(5) == 0 ? null : randomDouble(r));
      }
      v[18] = ar.toArray(new Double[0]);
      for (int c = 1; c < v.length; c++) {
        if (r.nextInt(10) == 0) {
          v[c] = null;
        }
      }
      out.add(RowFactory.create(v));
    }
    return out;
  }

  private static final String[] COLUMNS = {
    "b", "y", "sh", "i", "l", "f", "d", "dc", "dw", "s", "lc", "rt", "bin", "dt", "ts", "ntz", "ym",
    "dtm", "st", "ar"
  };

  private static List<Integer> ids(String orderBy, boolean joule) {
    return ids(orderBy, joule, joule);
  }

  private static List<Integer> ids(String orderBy, boolean joule, boolean expectJoule) {
    spark.conf().set(JouleSortRule.ENABLED, Boolean.toString(joule));
    try {
      Dataset<Row> d = spark.sql("SELECT id FROM v ORDER BY " + orderBy);
      List<Integer> ids = new ArrayList<>();
      for (Row row : d.collectAsList()) {
        ids.add(row.getInt(0));
      }
      String plan = d.queryExecution().executedPlan().toString(); // adaptive: the final plan
      assertEquals(expectJoule, plan.contains("JouleSort"), orderBy + ":\n" + plan);
      return ids;
    } finally {
      spark.conf().unset(JouleSortRule.ENABLED);
    }
  }

  /**
   * All columns at once: per column a window's {@code row_number()} over {@code ORDER BY column
   * <direction>, id} (one sort each, in a single partition), so each row's numbers are its places
   * under every order; joule's and Spark's must be the same table.
   */
  @Test
  void everyTypeOrdersAsSpark() {
    SplittableRandom r = new SplittableRandom(SEED);
    String[] directions = {
      "ASC NULLS FIRST", "ASC NULLS LAST", "DESC NULLS FIRST", "DESC NULLS LAST"
    };
    StringBuilder sql = new StringBuilder("SELECT id");
    List<String> orders = new ArrayList<>();
    for (String c : COLUMNS) {
      for (int k = 0; k < 2; k++) { // two directions per column and seed
        String order = c + " " + directions[r.nextInt(4)] + ", id";
        orders.add(order);
        sql.append(", row_number() OVER (ORDER BY ").append(order).append(")");
      }
    }
    sql.append(" FROM v ORDER BY id");
    List<Row> spark = places(sql.toString(), false);
    List<Row> joule = places(sql.toString(), true);
    for (int i = 0; i < orders.size(); i++) {
      for (int row = 0; row < ROWS; row++) {
        if (spark.get(row).getInt(i + 1) != joule.get(row).getInt(i + 1)) {
          fail(
              "seed "
                  + SEED
                  + ", ORDER BY "
                  + orders.get(i)
                  + ": row id "
                  + spark.get(row).get(0)
                  + " is at "
                  + spark.get(row).getInt(i + 1)
                  + " in Spark's order, "
                  + joule.get(row).getInt(i + 1)
                  + " in joule's");
        }
      }
    }
  }

  private static List<Row> places(String sql, boolean joule) {
    spark.conf().set(JouleSortRule.ENABLED, Boolean.toString(joule));
    try {
      Dataset<Row> d = spark.sql(sql);
      List<Row> rows = d.collectAsList();
      // windows of equal orders share a sort: at least one per column, all joule's or none
      long nodes = SqlPlans.jouleNodes(d);
      assertTrue(joule ? nodes >= COLUMNS.length : nodes == 0, nodes + " joule nodes");
      assertEquals(ROWS, rows.size());
      return rows;
    } finally {
      spark.conf().unset(JouleSortRule.ENABLED);
    }
  }

  @Test
  void severalKeysAndExpressions() {
    for (String orderBy :
        new String[] {
          "s DESC, d ASC NULLS LAST, dc, id",
          "lc, rt DESC, id DESC",
          "st DESC NULLS LAST, ar, id",
          "length(s) % 7, upper(s) DESC, i % 1000 + 1, id",
          "bin DESC, y, f DESC NULLS FIRST, id"
        }) {
      List<Integer> spark = ids(orderBy, false);
      List<Integer> joule = ids(orderBy, true);
      assertTrue(
          spark.equals(joule),
          "seed "
              + SEED
              + ", ORDER BY "
              + orderBy
              + ": first difference at "
              + firstDifference(spark, joule));
    }
  }

  /**
   * ICU collations stay Spark's by default (ICU's keys and comparisons disagree on rare strings);
   * asked for, joule sorts by ICU's keys, checked against ICU's own keys of the same strings.
   */
  @Test
  void icuCollationsFallBackUnlessAsked() {
    assertEquals(ids("un DESC, id", false), ids("un DESC, id", true, false));
    spark.conf().set(JouleSortRule.ICU_SORT_KEYS, "true");
    try {
      List<Integer> joule = ids("un DESC NULLS LAST, id", true);
      Collator icu = Collator.getInstance(ULocale.ROOT).freeze();
      List<Row> all = spark.sql("SELECT id, s FROM v").collectAsList();
      List<Row> expected = new ArrayList<>(all);
      Comparator<Row> byKey =
          Comparator.comparing(
              (Row x) -> x.isNullAt(1) ? null : icu.getCollationKey(x.getString(1)),
              Comparator.nullsFirst(Comparator.<CollationKey>naturalOrder()));
      expected.sort(byKey.reversed().thenComparing(x -> x.getInt(0)));
      List<Integer> ids = new ArrayList<>();
      expected.forEach(x -> ids.add(x.getInt(0)));
      assertEquals(ids, joule, "seed " + SEED);
    } finally {
      spark.conf().unset(JouleSortRule.ICU_SORT_KEYS);
    }
  }

  private static String firstDifference(List<Integer> a, List<Integer> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      if (!a.get(i).equals(b.get(i))) {
        Row x = spark.sql("SELECT * FROM v WHERE id = " + a.get(i)).first();
        Row y = spark.sql("SELECT * FROM v WHERE id = " + b.get(i)).first();
        return i + ": Spark has " + x + ", joule " + y;
      }
    }
    return "sizes " + a.size() + " / " + b.size();
  }
}

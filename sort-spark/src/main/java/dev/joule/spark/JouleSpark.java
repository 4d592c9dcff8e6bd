package dev.joule.spark;

import dev.joule.spark.executor.JouleEngine;
import dev.joule.spark.executor.SortedPairs;
import dev.joule.spark.executor.TaskSorts;
import dev.joule.spark.partition.IdPartitioner;
import dev.joule.spark.partition.PairSampling;
import dev.joule.spark.partition.SampleSize;
import dev.joule.spark.partition.Splitters;
import dev.joule.spark.record.PairKey;
import dev.joule.spark.shuffle.PairChunks;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.encoders.ExpressionEncoder;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import scala.Tuple2;

/**
 * joule's sort for Spark programs: a global sort of key/value pairs by a binary key (unsigned byte
 * order, shorter prefix first, as {@link java.util.Arrays#compareUnsigned(byte[], byte[])}), or of
 * a Dataset's rows by columns, with joule's off-heap engine sorting inside every partition.
 *
 * <p>How: one pass over the input counts the pairs per partition, measures them and samples keys
 * ({@link PairSampling}); the driver picks range splitters over engine keys ({@link PairKey}: the
 * key, then the pair's global position, built by joule's {@code KeyEncoder}); a second pass gives
 * every pair its engine key and routes it in chunks by partition id; each reduce task sorts its
 * chunks in one of joule's key/value sessions and returns the pairs lazily. Partition i of the
 * result holds the i-th key range, in order; equal keys keep their input order (partition by
 * partition, then position), so the result is deterministic. A Dataset's rows become pairs of a key
 * encoded from the sort columns ({@link RowKeys}) and the row in Spark's compact binary form.
 *
 * <p>The input is evaluated twice, as by Spark's own {@code sortByKey}: persist it when computing
 * it is expensive, and it must be deterministic (a different count in the second pass fails the
 * task). Keys and values may have any length; a pair must fit a task's memory. Executor memory,
 * threads and temp directories follow {@link TaskSorts}. The sort itself runs when the result is
 * computed, once per action on it. Stateless.
 */
public final class JouleSpark {
  private JouleSpark() {}

  /**
   * Sorts {@code input} by key into {@code partitions} range partitions.
   *
   * @throws NullPointerException (when computed) for a null key or value
   */
  public static JavaPairRDD<byte[], byte[]> sortByKey(
      JavaPairRDD<byte[], byte[]> input, int partitions) {
    return JavaPairRDD.fromJavaRDD(sortPairs(input, partitions, SortedPairs::pair));
  }

  /**
   * Sorts {@code input} by {@code columns} into {@code partitions} range partitions: the order of
   * Spark SQL's {@code orderBy} with the same columns ({@link SortColumn}), and rows whose sort
   * columns are all equal keep their input order. The types a column may have are those of {@link
   * RowKeys}.
   *
   * @throws IllegalArgumentException when a column is missing or of a type without a binary order
   */
  public static Dataset<Row> sortBy(Dataset<Row> input, int partitions, SortColumn... columns) {
    StructType schema = input.schema();
    RowKeys keys = RowKeys.of(schema, List.of(columns));
    FlatMapFunction<Iterator<Row>, Tuple2<byte[], byte[]>> toPairs =
        rows -> {
          ExpressionEncoder.Serializer<Row> ser =
              ExpressionEncoder.apply(schema).createSerializer();
          RowKeys.Writer w = keys.newWriter();
          return new Iterator<>() {
            @Override
            public boolean hasNext() {
              return rows.hasNext();
            }

            @Override
            public Tuple2<byte[], byte[]> next() {
              InternalRow r = ser.apply(rows.next()); // reused by the serializer: copied below
              return new Tuple2<>(w.key(r), unsafeBytes(r));
            }
          };
        };
    JavaRDD<Tuple2<byte[], byte[]>> pairs = input.javaRDD().mapPartitions(toPairs);
    JavaRDD<byte[]> sorted =
        sortPairs(JavaPairRDD.fromJavaRDD(pairs), partitions, SortedPairs::value);
    int fields = schema.size();
    FlatMapFunction<Iterator<byte[]>, Row> toRows =
        it -> {
          ExpressionEncoder<Row> enc = ExpressionEncoder.apply(schema);
          ExpressionEncoder.Deserializer<Row> de =
              enc.resolveAndBind(enc.resolveAndBind$default$1(), enc.resolveAndBind$default$2())
                  .createDeserializer();
          return new Iterator<>() {
            @Override
            public boolean hasNext() {
              return it.hasNext();
            }

            @Override
            public Row next() {
              byte[] b = it.next();
              UnsafeRow u = new UnsafeRow(fields);
              u.pointTo(b, b.length);
              return de.apply(u);
            }
          };
        };
    SparkSession spark = input.sparkSession();
    return spark.createDataFrame(sorted.mapPartitions(toRows), schema);
  }

  /**
   * Sorts {@code input} by its binary column {@code keyColumn} (a key the program encoded itself)
   * into {@code partitions} range partitions; null keys come first, as in Spark's ascending sort.
   *
   * @throws IllegalArgumentException when the column is missing or not binary
   */
  public static Dataset<Row> sortByBinaryKey(Dataset<Row> input, String keyColumn, int partitions) {
    StructType schema = input.schema();
    DataType type;
    try {
      type = schema.apply(keyColumn).dataType();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "no column " + keyColumn + " in " + schema.simpleString(), e);
    }
    if (!type.equals(DataTypes.BinaryType)) {
      throw new IllegalArgumentException(
          "key column "
              + keyColumn
              + " is "
              + type.simpleString()
              + ", not binary: encode the key into bytes whose unsigned order is the wanted order,"
              + " or sort by typed columns with sortBy");
    }
    return sortBy(input, partitions, SortColumn.asc(keyColumn));
  }

  /** The pair sort behind every method: each sorted pair becomes what {@code view} makes of it. */
  private static <T> JavaRDD<T> sortPairs(
      JavaPairRDD<byte[], byte[]> input, int partitions, SortedPairs.View<T> view) {
    Objects.requireNonNull(input, "input");
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be at least 1: " + partitions);
    }
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(input.context());
    int inputPartitions = input.getNumPartitions();
    int reservoir =
        (int)
            Math.min(
                Integer.MAX_VALUE,
                (3L * SampleSize.of(Long.MAX_VALUE, partitions) + inputPartitions - 1)
                    / Math.max(1, inputPartitions));
    List<PairSampling.PartitionStats> stats =
        input
            .mapPartitionsWithIndex(
                (i, it) -> List.of(PairSampling.scan(i, it, reservoir)).iterator(), false)
            .collect();
    long[] first = PairSampling.firstOrdinals(stats, inputPartitions);
    long[] counts = new long[inputPartitions];
    long total = 0;
    long bytes = 0;
    long maxEntry = 0;
    for (PairSampling.PartitionStats s : stats) {
      counts[s.partition()] = s.count();
      total += s.count();
      bytes += s.entryBytes();
      maxEntry = Math.max(maxEntry, s.maxEntry());
    }
    Splitters splitters = PairSampling.splitters(stats, first, partitions);
    Broadcast<Splitters> bs = jsc.broadcast(splitters);
    long sampled = stats.stream().mapToLong(s -> s.keys().size()).sum();
    long expected = SampleSize.largestPartition(total, partitions, sampled);
    double meanEntry = total == 0 ? 0 : (double) bytes / total;
    long longest = maxEntry;
    JavaPairRDD<Integer, byte[]> chunks =
        JavaPairRDD.fromJavaRDD(
            input.mapPartitionsWithIndex(
                (i, it) -> new PairChunks(it, bs.value(), i, first[i], counts[i]), false));
    FlatMapFunction<Iterator<Tuple2<Integer, byte[]>>, T> sortPartition =
        it -> {
          JouleEngine.PartitionSort sort = TaskSorts.openPairs(expected, meanEntry, longest);
          while (it.hasNext()) {
            sort.add(it.next()._2());
          }
          sort.finish();
          return new SortedPairs<>(sort, view);
        };
    return chunks.partitionBy(new IdPartitioner(partitions)).mapPartitions(sortPartition);
  }

  private static byte[] unsafeBytes(InternalRow row) {
    return ((UnsafeRow) row).getBytes().clone();
  }
}

package dev.joule.spark.partition;

/**
 * How many sort keys to sample for range splitters.
 *
 * <p>The rule: {@code min(records, max(100 000, 100 × partitions))}. Hadoop's TeraSort samples 100
 * 000 keys; that is the floor here too, because it costs little (about 2 MB of keys on the driver
 * and a few MB read from the input) and keeps a handful of partitions within about 1 % of each
 * other. Beyond 1000 partitions the sample grows with them, so that about 100 sampled keys fall
 * between two splitters: a partition's size then varies by about 1/√100 = 10 % (one standard
 * deviation), which the per-partition memory margin absorbs (see {@code ExecutorBudget}). An input
 * with fewer records than that is sampled completely, and then every partition gets the same number
 * of records, give or take one.
 *
 * <p>{@link #largestPartition} turns the same reasoning into the records a task should expect: the
 * mean plus four standard deviations ({@code 4/√(sampled keys per partition)}), at least {@value
 * #MIN_MARGIN_PERCENT} % and at most double. The engine allocates its memory up front, so this is
 * what a reduce task asks for; a larger partition still sorts, by spilling runs.
 */
public final class SampleSize {
  /** The floor, as TeraSort: {@code mapreduce.terasort.partitions.sample}. */
  public static final int MIN_SAMPLE = 100_000;

  /** Sampled keys per partition beyond the floor. */
  public static final int KEYS_PER_PARTITION = 100;

  /** Smallest margin over the mean partition, for rounding and a complete sample. */
  public static final int MIN_MARGIN_PERCENT = 5;

  private SampleSize() {}

  /**
   * The records the largest of {@code partitions} partitions of {@code records} records is expected
   * to hold when the splitters come from {@code sampled} keys (see the class comment).
   */
  public static long largestPartition(long records, int partitions, long sampled) {
    double mean = (double) records / partitions;
    double perPartition = Math.max(1, (double) sampled / partitions);
    double margin =
        Math.min(1.0, Math.max(MIN_MARGIN_PERCENT / 100.0, 4 / Math.sqrt(perPartition)));
    return (long) Math.ceil(mean * (1 + margin));
  }

  /** The sample size for {@code records} input records cut into {@code partitions}. */
  public static long of(long records, int partitions) {
    long wanted = Math.max(MIN_SAMPLE, (long) KEYS_PER_PARTITION * partitions);
    return Math.min(records, wanted);
  }
}

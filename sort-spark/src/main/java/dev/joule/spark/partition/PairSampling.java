package dev.joule.spark.partition;

import dev.joule.spark.record.PairRecordLayout;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import scala.Tuple2;

/**
 * The pass over a pair RDD that precedes its sort, one task per input partition: counts the pairs,
 * finds the longest key and value (the fixed record size depends on them), and keeps a reservoir
 * sample of keys with their positions. The driver then knows every partition's first global
 * ordinal, the record layout and the splitters. The reservoir is seeded by the partition index, so
 * a deterministic input always gives the same splitters.
 */
public final class PairSampling {
  private PairSampling() {}

  /**
   * One input partition's numbers and sample. A plain class rather than a record: Spark's Kryo 4
   * cannot serialize records.
   */
  public static final class PartitionStats implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int partition;
    private final long count;
    private final int maxKey;
    private final int maxValue;
    private final List<byte[]> keys;
    private final long[] positions;

    PartitionStats(
        int partition, long count, int maxKey, int maxValue, List<byte[]> keys, long[] positions) {
      this.partition = partition;
      this.count = count;
      this.maxKey = maxKey;
      this.maxValue = maxValue;
      this.keys = keys;
      this.positions = positions;
    }

    public int partition() {
      return partition;
    }

    public long count() {
      return count;
    }

    public int maxKey() {
      return maxKey;
    }

    public int maxValue() {
      return maxValue;
    }

    /** The sampled keys. */
    public List<byte[]> keys() {
      return keys;
    }

    /** Each sampled key's position in the partition. */
    public long[] positions() {
      return positions;
    }
  }

  /** Reads one partition's pairs; keeps up to {@code reservoir} keys. */
  public static PartitionStats scan(
      int partition, Iterator<Tuple2<byte[], byte[]>> pairs, int reservoir) {
    SplittableRandom random = new SplittableRandom(0x5EED_0000L + partition);
    List<byte[]> keys = new ArrayList<>();
    long[] positions = new long[reservoir];
    long n = 0;
    int maxKey = 0;
    int maxValue = 0;
    while (pairs.hasNext()) {
      Tuple2<byte[], byte[]> p = pairs.next();
      byte[] k = p._1();
      byte[] v = p._2();
      if (k == null || v == null) {
        throw new NullPointerException(
            "pair " + n + " of partition " + partition + " has a null key or value");
      }
      maxKey = Math.max(maxKey, k.length);
      maxValue = Math.max(maxValue, v.length);
      if (keys.size() < reservoir) {
        positions[keys.size()] = n;
        keys.add(k.clone());
      } else {
        long j = random.nextLong(n + 1);
        if (j < reservoir) {
          keys.set((int) j, k.clone());
          positions[(int) j] = n;
        }
      }
      n++;
    }
    long[] pos = java.util.Arrays.copyOf(positions, keys.size());
    return new PartitionStats(partition, n, maxKey, maxValue, keys, pos);
  }

  /** The first global ordinal of every input partition: the counts of those before it. */
  public static long[] firstOrdinals(List<PartitionStats> stats, int inputPartitions) {
    long[] first = new long[inputPartitions];
    long[] count = new long[inputPartitions];
    for (PartitionStats s : stats) {
      count[s.partition()] = s.count();
    }
    long at = 0;
    for (int i = 0; i < inputPartitions; i++) {
      first[i] = at;
      at += count[i];
    }
    return first;
  }

  /** Splitters over the sampled keys, as sort keys of {@code layout}. */
  public static Splitters splitters(
      List<PartitionStats> stats, long[] firstOrdinals, PairRecordLayout layout, int partitions) {
    List<KeySample> samples = new ArrayList<>();
    int sk = layout.sortKeyLength();
    for (PartitionStats s : stats) {
      if (s.keys().isEmpty()) {
        continue;
      }
      byte[] packed = new byte[s.keys().size() * sk];
      for (int i = 0; i < s.keys().size(); i++) {
        byte[] key =
            layout.sortKey(s.keys().get(i), firstOrdinals[s.partition()] + s.positions()[i]);
        System.arraycopy(key, 0, packed, i * sk, sk);
      }
      samples.add(new KeySample(sk, packed, (double) s.count() / s.keys().size()));
    }
    return Splitters.fromSample(samples, partitions, sk);
  }
}

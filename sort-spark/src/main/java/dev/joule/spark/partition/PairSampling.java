package dev.joule.spark.partition;

import dev.joule.core.key.KeyEncoder;
import dev.joule.spark.record.PairKey;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import scala.Tuple2;

/**
 * The pass over a pair RDD that precedes its sort, one task per input partition: counts the pairs
 * and the bytes they will take in the engine (which size the reduce tasks' memory), and keeps a
 * reservoir sample of keys with their positions. The driver then knows every partition's first
 * global ordinal and the splitters over engine keys ({@link PairKey}). The reservoir is seeded by
 * the partition index, so a deterministic input always gives the same splitters.
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
    private final long entryBytes;
    private final long maxEntry;
    private final List<byte[]> keys;
    private final long[] positions;

    PartitionStats(
        int partition,
        long count,
        long entryBytes,
        long maxEntry,
        List<byte[]> keys,
        long[] positions) {
      this.partition = partition;
      this.count = count;
      this.entryBytes = entryBytes;
      this.maxEntry = maxEntry;
      this.keys = keys;
      this.positions = positions;
    }

    public int partition() {
      return partition;
    }

    public long count() {
      return count;
    }

    /** The pairs' engine keys and values together, in bytes. */
    public long entryBytes() {
      return entryBytes;
    }

    /** The longest pair's engine key and value together, in bytes. */
    public long maxEntry() {
      return maxEntry;
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
    long bytes = 0;
    long maxEntry = 0;
    while (pairs.hasNext()) {
      Tuple2<byte[], byte[]> p = pairs.next();
      byte[] k = p._1();
      byte[] v = p._2();
      if (k == null || v == null) {
        throw new NullPointerException(
            "pair " + n + " of partition " + partition + " has a null key or value");
      }
      long entry = (long) PairKey.encodedLength(k) + v.length;
      bytes += entry;
      maxEntry = Math.max(maxEntry, entry);
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
    return new PartitionStats(partition, n, bytes, maxEntry, keys, pos);
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

  /** Splitters over the sampled keys, as engine keys ({@link PairKey}). */
  public static Splitters splitters(
      List<PartitionStats> stats, long[] firstOrdinals, int partitions) {
    List<KeySample> samples = new ArrayList<>();
    KeyEncoder.Writer w = PairKey.newWriter();
    for (PartitionStats s : stats) {
      if (s.keys().isEmpty()) {
        continue;
      }
      List<byte[]> keys = new ArrayList<>(s.keys().size());
      for (int i = 0; i < s.keys().size(); i++) {
        long ordinal = firstOrdinals[s.partition()] + s.positions()[i];
        keys.add(PairKey.encode(w, s.keys().get(i), ordinal).toByteArray());
      }
      samples.add(KeySample.ofKeys(keys, (double) s.count() / s.keys().size()));
    }
    return Splitters.fromSample(samples, partitions, Splitters.ANY_LENGTH);
  }
}

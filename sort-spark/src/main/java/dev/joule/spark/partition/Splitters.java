package dev.joule.spark.partition;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;

/**
 * Range splitters: {@code partitions - 1} sort keys in ascending order; a record goes to the
 * partition whose index is the number of splitters less than or equal to its sort key. Partition i
 * thus holds the keys in {@code [splitter(i-1), splitter(i))}, and the partitions in index order
 * hold the records in sort order. Keys compare as unsigned bytes, a prefix before the longer key
 * ({@link Arrays#compareUnsigned(byte[], byte[])}); they have one length (the file sort's wrapped
 * records) or any length ({@link #ANY_LENGTH}: the pair sort's encoded keys).
 *
 * <p>Because every sort key carries the record's unique ordinal, a splitter can fall anywhere
 * inside a run of equal user keys: a key that a quarter of the input shares (gensort's skewed data)
 * is cut across as many partitions as its share needs. Equal splitters are allowed and leave the
 * partitions between them empty (more partitions than records). Lookup: binary search, {@code
 * log2(partitions)} unsigned comparisons. Immutable and thread-safe.
 */
public final class Splitters implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The key length of splitters over keys of any length. */
  public static final int ANY_LENGTH = 0;

  private final int partitions;
  private final int keyLength;
  private final byte[][] keys;

  private Splitters(int partitions, int keyLength, byte[][] keys) {
    this.partitions = partitions;
    this.keyLength = keyLength;
    this.keys = keys;
  }

  /**
   * Splitters at the weighted quantiles of a sample: splitter i (1 ≤ i &lt; partitions) is the
   * first sampled key, in sort order, whose cumulative weight exceeds {@code i/partitions} of the
   * total weight. A complete sample of n records (every weight 1) thus puts the record at sorted
   * index {@code floor(i·n/partitions)} first in partition i. An empty sample gives no splitters:
   * every record goes to partition 0.
   *
   * @param keyLength the samples' key length, or {@link #ANY_LENGTH}
   */
  public static Splitters fromSample(List<KeySample> samples, int partitions, int keyLength) {
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be at least 1: " + partitions);
    }
    int n = 0;
    for (KeySample s : samples) {
      if (s.keyLength() != keyLength) {
        throw new IllegalArgumentException(
            "sample of " + s.keyLength() + "-byte keys, expected " + keyLength);
      }
      n = Math.addExact(n, s.size());
    }
    if (n == 0 || partitions == 1) {
      return new Splitters(partitions, keyLength, new byte[0][]);
    }
    byte[][] sorted = new byte[n][];
    double[] weightOf = new double[n];
    int at = 0;
    for (KeySample s : samples) {
      for (int k = 0; k < s.size(); k++, at++) {
        sorted[at] = s.key(k);
        weightOf[at] = s.weight();
      }
    }
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(sorted[a], sorted[b]));
    double total = 0;
    for (double w : weightOf) {
      total += w;
    }
    byte[][] splitters = new byte[partitions - 1][];
    double cumulative = 0;
    int j = 0;
    for (int i = 1; i < partitions; i++) {
      double target = i * total / partitions;
      while (j < n - 1 && cumulative + weightOf[order[j]] <= target) {
        cumulative += weightOf[order[j]];
        j++;
      }
      splitters[i - 1] = sorted[order[j]];
    }
    return new Splitters(partitions, keyLength, splitters);
  }

  /**
   * Splitters given directly (ascending, each {@code keyLength} bytes, or of any length with {@link
   * #ANY_LENGTH}); for tests and tools.
   */
  public static Splitters of(int partitions, int keyLength, byte[][] keys) {
    if (keys.length != 0 && keys.length != partitions - 1) {
      throw new IllegalArgumentException(
          keys.length + " splitters for " + partitions + " partitions");
    }
    for (int i = 0; i < keys.length; i++) {
      if (keyLength != ANY_LENGTH && keys[i].length != keyLength) {
        throw new IllegalArgumentException("splitter " + i + " is not " + keyLength + " bytes");
      }
      if (i > 0 && Arrays.compareUnsigned(keys[i - 1], keys[i]) > 0) {
        throw new IllegalArgumentException("splitters are not ascending at " + i);
      }
    }
    return new Splitters(partitions, keyLength, keys.clone());
  }

  public int partitions() {
    return partitions;
  }

  /** Bytes per key, or {@link #ANY_LENGTH}. */
  public int keyLength() {
    return keyLength;
  }

  /** The splitters (copies), ascending. */
  public byte[][] keys() {
    byte[][] c = new byte[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      c[i] = keys[i].clone();
    }
    return c;
  }

  /** The partition of the sort key at {@code buf[off, off + keyLength)}: fixed-length keys. */
  public int partitionOf(byte[] buf, int off) {
    if (keyLength == ANY_LENGTH) {
      throw new IllegalStateException("splitters of keys of any length need the key's length");
    }
    return partitionOf(buf, off, keyLength);
  }

  /** The partition of the sort key at {@code buf[off, off + len)}. */
  public int partitionOf(byte[] buf, int off, int len) {
    int lo = 0;
    int hi = keys.length;
    int end = off + len;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Arrays.compareUnsigned(keys[mid], 0, keys[mid].length, buf, off, end) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  @Override
  public String toString() {
    return partitions
        + " partitions, "
        + keys.length
        + " splitters of "
        + (keyLength == ANY_LENGTH ? "any length" : keyLength + " bytes");
  }
}

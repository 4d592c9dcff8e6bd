package dev.joule.spark.shuffle;

import dev.joule.core.key.KeyEncoder;
import dev.joule.spark.partition.Splitters;
import dev.joule.spark.record.PairEntries;
import dev.joule.spark.record.PairKey;
import java.util.Arrays;
import java.util.Iterator;
import scala.Tuple2;

/**
 * Map side of the pair sort: gives each pair its engine key (key and global ordinal, {@link
 * PairKey}), looks up its partition in the splitters and appends it to that partition's chunk
 * ({@link PairEntries}). Checks at the end that the partition produced as many pairs as the
 * sampling pass counted: a different number means the input is not deterministic, and the sort
 * would be wrong. Not thread-safe.
 */
public final class PairChunks extends ChunkIterator {
  /** Pairs routed per {@link #advance}. */
  private static final int BATCH = 4096;

  private final Iterator<Tuple2<byte[], byte[]>> pairs;
  private final Splitters splitters;
  private final int partition;
  private final long firstOrdinal;
  private final long expected;
  private final KeyEncoder.Writer keys = PairKey.newWriter();
  private byte[] entry = new byte[256];
  private long n;

  public PairChunks(
      Iterator<Tuple2<byte[], byte[]>> pairs,
      Splitters splitters,
      int partition,
      long firstOrdinal,
      long expected) {
    super(new PartitionChunks(splitters.partitions(), 1));
    this.pairs = pairs;
    this.splitters = splitters;
    this.partition = partition;
    this.firstOrdinal = firstOrdinal;
    this.expected = expected;
  }

  @Override
  protected boolean advance() {
    int done = 0;
    while (done < BATCH && pairs.hasNext()) {
      Tuple2<byte[], byte[]> p = pairs.next();
      byte[] key = p._1();
      byte[] value = p._2();
      if (key == null || value == null) {
        throw new NullPointerException(
            "pair " + n + " of partition " + partition + " has a null key or value");
      }
      PairKey.encode(keys, key, firstOrdinal + n);
      int keyLen = keys.length();
      long length = PairEntries.entryLength(keyLen, value.length);
      if (length > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException(
            "pair " + n + " of partition " + partition + " takes " + length + " bytes, over 2 GiB");
      }
      if (length > entry.length) {
        entry = Arrays.copyOf(entry, (int) Math.max(length, Math.min(2L * entry.length, 1 << 30)));
      }
      keys.copyTo(entry, 4);
      int valueOff = PairEntries.valueOffset(keyLen);
      System.arraycopy(value, 0, entry, valueOff, value.length);
      PairEntries.writeLengths(entry, keyLen, value.length);
      chunks.add(splitters.partitionOf(entry, 4, keyLen), entry, 0, (int) length);
      n++;
      done++;
    }
    return done > 0;
  }

  @Override
  protected void end() {
    if (n != expected) {
      throw new IllegalStateException(
          "input partition "
              + partition
              + " produced "
              + n
              + " pairs, the sampling pass counted "
              + expected
              + ": the input RDD is not deterministic; persist it before sorting");
    }
  }
}

package dev.joule.spark.shuffle;

import dev.joule.spark.partition.Splitters;
import dev.joule.spark.record.PairRecordLayout;
import java.util.Iterator;
import scala.Tuple2;

/**
 * Map side of the pair sort: wraps each pair with its global ordinal into a fixed-size record
 * ({@link PairRecordLayout}) and routes it by the splitters into its partition's chunk. Checks at
 * the end that the partition produced as many pairs as the sampling pass counted: a different
 * number means the input is not deterministic, and the sort would be wrong. Not thread-safe.
 */
public final class PairChunks extends ChunkIterator {
  /** Pairs wrapped per {@link #advance}. */
  private static final int BATCH = 4096;

  private final Iterator<Tuple2<byte[], byte[]>> pairs;
  private final PairRecordLayout layout;
  private final Splitters splitters;
  private final int partition;
  private final long firstOrdinal;
  private final long expected;
  private final byte[] wrapped;
  private long n;

  public PairChunks(
      Iterator<Tuple2<byte[], byte[]>> pairs,
      PairRecordLayout layout,
      Splitters splitters,
      int partition,
      long firstOrdinal,
      long expected) {
    super(new PartitionChunks(splitters.partitions(), layout.wrappedSize()));
    this.pairs = pairs;
    this.layout = layout;
    this.splitters = splitters;
    this.partition = partition;
    this.firstOrdinal = firstOrdinal;
    this.expected = expected;
    this.wrapped = new byte[layout.wrappedSize()];
  }

  @Override
  protected boolean advance() {
    int done = 0;
    while (done < BATCH && pairs.hasNext()) {
      Tuple2<byte[], byte[]> p = pairs.next();
      if (p._1() == null || p._2() == null) {
        throw new NullPointerException(
            "pair " + n + " of partition " + partition + " has a null key or value");
      }
      layout.wrap(p._1(), p._2(), firstOrdinal + n, wrapped, 0);
      chunks.add(splitters.partitionOf(wrapped, layout.sortKeyOffset()), wrapped, 0);
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

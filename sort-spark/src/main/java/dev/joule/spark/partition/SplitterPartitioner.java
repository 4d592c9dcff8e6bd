package dev.joule.spark.partition;

import org.apache.spark.Partitioner;

/**
 * Spark partitioner over byte-array sort keys by {@link Splitters}: the baseline engine's
 * partitioner, so that both engines cut the input at the same keys.
 */
public final class SplitterPartitioner extends Partitioner {
  private static final long serialVersionUID = 1L;

  private final Splitters splitters;

  public SplitterPartitioner(Splitters splitters) {
    this.splitters = splitters;
  }

  @Override
  public int numPartitions() {
    return splitters.partitions();
  }

  @Override
  public int getPartition(Object key) {
    return splitters.partitionOf((byte[]) key, 0);
  }
}

package dev.joule.spark.partition;

import org.apache.spark.Partitioner;

/**
 * Spark partitioner for keys that already are partition ids ({@link Integer} in {@code [0,
 * partitions)}): the id is the partition. The map side computes the id from the {@link Splitters},
 * so Spark moves the records without ever looking at their sort keys.
 */
public final class IdPartitioner extends Partitioner {
  private static final long serialVersionUID = 1L;

  private final int partitions;

  public IdPartitioner(int partitions) {
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be at least 1: " + partitions);
    }
    this.partitions = partitions;
  }

  @Override
  public int numPartitions() {
    return partitions;
  }

  @Override
  public int getPartition(Object key) {
    int id = (Integer) key;
    if (id < 0 || id >= partitions) {
      throw new IllegalArgumentException("partition id " + id + " is outside 0.." + partitions);
    }
    return id;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof IdPartitioner p && p.partitions == partitions;
  }

  @Override
  public int hashCode() {
    return partitions;
  }
}

package dev.joule.spark.shuffle;

import java.util.ArrayDeque;
import java.util.Arrays;
import scala.Tuple2;

/**
 * Per destination partition, a chunk of wrapped records that grows until it holds {@code
 * chunkBytes}; a full chunk becomes one shuffle element {@code (partition id, bytes)}. Shuffling
 * chunks instead of single records spares Spark one object, one serializer call and one
 * comparison-free sort entry per record; the reduce side hands every chunk to the engine as it is.
 *
 * <p>Memory: at most {@code partitions × chunkBytes} in open chunks, plus the full ones not yet
 * taken; a chunk array is handed over to Spark and never reused. Not thread-safe.
 */
public final class PartitionChunks {
  /** Largest chunk: 1 MiB, large enough that per-chunk costs vanish. */
  public static final int MAX_CHUNK_BYTES = 1 << 20;

  /** Smallest chunk: 16 KiB, so that many partitions do not make chunks of a few records. */
  public static final int MIN_CHUNK_BYTES = 16 << 10;

  /** Open chunks of one map task together stay below this (with the minimum chunk as a floor). */
  public static final int TASK_CHUNK_BYTES = 32 << 20;

  private final int recordSize;
  private final int chunkRecords;
  private final byte[][] open;
  private final int[] fill;
  private final ArrayDeque<Tuple2<Integer, byte[]>> ready = new ArrayDeque<>();

  /** Chunks for {@code partitions} destinations of {@code recordSize}-byte wrapped records. */
  public PartitionChunks(int partitions, int recordSize) {
    this.recordSize = recordSize;
    long perPartition = Math.min(MAX_CHUNK_BYTES, TASK_CHUNK_BYTES / partitions);
    perPartition = Math.max(MIN_CHUNK_BYTES, perPartition);
    this.chunkRecords = (int) Math.max(1, perPartition / recordSize);
    this.open = new byte[partitions][];
    this.fill = new int[partitions];
  }

  /** Records per full chunk. */
  public int chunkRecords() {
    return chunkRecords;
  }

  /** Appends the wrapped record at {@code src[off]} to partition {@code p}'s chunk. */
  public void add(int p, byte[] src, int off) {
    byte[] c = open[p];
    if (c == null) {
      c = new byte[chunkRecords * recordSize];
      open[p] = c;
    }
    System.arraycopy(src, off, c, fill[p], recordSize);
    fill[p] += recordSize;
    if (fill[p] == c.length) {
      ready.add(new Tuple2<>(p, c));
      open[p] = null;
      fill[p] = 0;
    }
  }

  /** Moves every partly filled chunk, trimmed to its records, to the ready ones. */
  public void flush() {
    for (int p = 0; p < open.length; p++) {
      if (open[p] != null && fill[p] > 0) {
        ready.add(new Tuple2<>(p, Arrays.copyOf(open[p], fill[p])));
      }
      open[p] = null;
      fill[p] = 0;
    }
  }

  /** The next ready chunk, or null. */
  public Tuple2<Integer, byte[]> poll() {
    return ready.poll();
  }
}

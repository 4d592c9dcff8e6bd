package dev.joule.spark.shuffle;

import java.util.ArrayDeque;
import java.util.Arrays;
import scala.Tuple2;

/**
 * Per destination partition, a chunk of entries that grows until it holds about {@code chunkBytes};
 * a full chunk becomes one shuffle element {@code (partition id, bytes)}. Entries are the file
 * sort's wrapped records (one size, so chunks fill exactly) or the pair sort's length-prefixed
 * pairs (any size: a chunk is closed, trimmed, when the next entry does not fit, and an entry
 * larger than a chunk gets a chunk of its own). Shuffling chunks instead of single records spares
 * Spark one object, one serializer call and one comparison-free sort entry per record; the reduce
 * side hands every chunk to the engine as it is.
 *
 * <p>Memory: at most {@code partitions × chunkBytes} in open chunks (or one entry, when larger),
 * plus the full ones not yet taken; a chunk array is handed over to Spark and never reused. Not
 * thread-safe.
 */
public final class PartitionChunks {
  /** Largest chunk: 1 MiB, large enough that per-chunk costs vanish. */
  public static final int MAX_CHUNK_BYTES = 1 << 20;

  /** Smallest chunk: 16 KiB, so that many partitions do not make chunks of a few records. */
  public static final int MIN_CHUNK_BYTES = 16 << 10;

  /** Open chunks of one map task together stay below this (with the minimum chunk as a floor). */
  public static final int TASK_CHUNK_BYTES = 32 << 20;

  private final int chunkBytes;
  private final byte[][] open;
  private final int[] fill;
  private final ArrayDeque<Tuple2<Integer, byte[]>> ready = new ArrayDeque<>();

  /**
   * Chunks for {@code partitions} destinations of entries whose sizes are multiples of {@code
   * unit}: the record size of fixed-size entries (a chunk then holds whole records), or 1.
   */
  public PartitionChunks(int partitions, int unit) {
    long perPartition = Math.min(MAX_CHUNK_BYTES, TASK_CHUNK_BYTES / partitions);
    perPartition = Math.max(MIN_CHUNK_BYTES, perPartition);
    this.chunkBytes = (int) Math.max(1, perPartition / unit) * unit;
    this.open = new byte[partitions][];
    this.fill = new int[partitions];
  }

  /** Bytes of a full chunk. */
  public int chunkBytes() {
    return chunkBytes;
  }

  /** Appends the entry {@code src[off, off + len)} to partition {@code p}'s chunk. */
  public void add(int p, byte[] src, int off, int len) {
    byte[] c = open[p];
    if (c != null && fill[p] + len > c.length) {
      close(p);
      c = null;
    }
    if (c == null) {
      c = new byte[Math.max(chunkBytes, len)];
      open[p] = c;
    }
    System.arraycopy(src, off, c, fill[p], len);
    fill[p] += len;
    if (fill[p] == c.length) {
      close(p);
    }
  }

  /** Moves every partly filled chunk, trimmed to its entries, to the ready ones. */
  public void flush() {
    for (int p = 0; p < open.length; p++) {
      close(p);
    }
  }

  private void close(int p) {
    byte[] c = open[p];
    if (c != null && fill[p] > 0) {
      ready.add(new Tuple2<>(p, fill[p] == c.length ? c : Arrays.copyOf(c, fill[p])));
    }
    open[p] = null;
    fill[p] = 0;
  }

  /** The next ready chunk, or null. */
  public Tuple2<Integer, byte[]> poll() {
    return ready.poll();
  }
}

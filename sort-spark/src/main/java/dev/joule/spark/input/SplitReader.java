package dev.joule.spark.input;

import dev.joule.core.valsort.RecordChecksum;
import dev.joule.spark.JobIOException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.spark.TaskContext;

/**
 * Reads one {@link InputSplit} sequentially in blocks of whole records into one reused heap array,
 * and adds every record to the split's checksum (the Sort Benchmark's sum of CRC-32s) on the way.
 *
 * <p>Memory: one block of about {@value #BLOCK_BYTES} bytes. Not thread-safe; one per task.
 */
public final class SplitReader implements Closeable {
  /** Bytes per read: the transfer size joule's own input reader uses. */
  public static final int BLOCK_BYTES = 4 << 20;

  private final InputSplit split;
  private final int recordSize;
  private final byte[] block;
  private final ByteBuffer blockView;
  private final RecordChecksum checksum = new RecordChecksum();
  private final FSDataInputStream in;
  private long done;
  private long firstOrdinal;

  public SplitReader(InputSplit split, int recordSize, Configuration conf) throws JobIOException {
    this.split = split;
    this.recordSize = recordSize;
    int perBlock = (int) Math.max(1, Math.min(split.records(), BLOCK_BYTES / recordSize));
    this.block = new byte[perBlock * recordSize];
    this.blockView = ByteBuffer.wrap(block);
    Path p = new Path(split.path());
    try {
      this.in = HadoopFiles.of(p, conf).open(p);
      in.seek(split.firstRecord() * recordSize);
    } catch (IOException e) {
      throw JobIOException.wrap("open", split.path(), e);
    }
  }

  /**
   * Reads the next block; returns its record count, 0 at the end of the split. The records are in
   * {@link #block()} from index 0 until the next call.
   */
  public int next() throws JobIOException {
    long left = split.records() - done;
    if (left == 0) {
      return 0;
    }
    TaskContext ctx = TaskContext.get();
    if (ctx != null) {
      ctx.killTaskIfInterrupted(); // a cancelled job's map tasks stop at the next block
    }
    int n = (int) Math.min(left, block.length / recordSize);
    try {
      in.readFully(block, 0, n * recordSize);
    } catch (IOException e) {
      throw JobIOException.wrap("read", split.path(), e);
    }
    checksum.addRecords(blockView, 0, n, recordSize);
    firstOrdinal = split.firstOrdinal() + done;
    done += n;
    return n;
  }

  /** The block array (reused by every {@link #next()}). */
  public byte[] block() {
    return block;
  }

  /** Global ordinal of the first record of the current block. */
  public long firstOrdinal() {
    return firstOrdinal;
  }

  /** Records read so far. */
  public long recordsRead() {
    return done;
  }

  /** The checksum of the records read so far. */
  public RecordChecksum checksum() {
    return checksum;
  }

  @Override
  public void close() throws JobIOException {
    try {
      in.close();
    } catch (IOException e) {
      throw JobIOException.wrap("close", split.path(), e);
    }
  }
}

package dev.joule.spark.output;

import dev.joule.core.valsort.RecordChecksum;
import dev.joule.core.valsort.StreamingValidator;
import dev.joule.core.valsort.ValsortException;
import dev.joule.core.valsort.ValsortSummary;
import dev.joule.spark.JobIOException;
import dev.joule.spark.input.HadoopFiles;
import dev.joule.spark.record.OrdinalRecordLayout;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.TaskContext;

/**
 * Stage 5 of 5, in a reduce task: writes one sorted partition as a part file in the job's attempt
 * directory, validating every record on the way out (count, checksum, order, first and last key),
 * and, for gensort's layout, the part's 280-byte valsort summary beside it.
 *
 * <p>Files are created non-recursively, so a task still running after the job ended (a killed
 * speculative attempt) cannot recreate a directory the driver already removed. The data is synced
 * ({@code hsync}) before the task reports the part. Memory: one {@value #BUFFER_BYTES}-byte buffer.
 * Not thread-safe; one per task.
 */
public final class PartWriter implements AutoCloseable {
  /** Bytes per write. */
  public static final int BUFFER_BYTES = 4 << 20;

  private final OrdinalRecordLayout layout;
  private final int rs;
  private final int partition;
  private final FileSystem fs;
  private final Path partPath;
  private final Path summaryPath;
  private final FSDataOutputStream out;
  private final byte[] buf;
  private final StreamingValidator valsort;
  private final RecordChecksum checksum;
  private final byte[] prevKey;
  private long started;
  private long syncNanos;
  private byte[] firstKey;
  private int fill;
  private long records;
  private long unordered;
  private long duplicates;
  private boolean closed;

  /**
   * Creates {@code attemptDir/part-NNNNN.attempt-ID}.
   *
   * @throws JobIOException naming the file when it cannot be created
   */
  public PartWriter(
      Configuration conf,
      String attemptDir,
      int partition,
      long attemptId,
      OrdinalRecordLayout layout)
      throws JobIOException {
    this.layout = layout;
    this.rs = layout.recordSize();
    this.partition = partition;
    String name = StagedOutput.partName(partition) + ".attempt-" + attemptId;
    this.partPath = new Path(attemptDir, name);
    this.summaryPath = layout.isGensort() ? new Path(attemptDir, name + ".sum") : null;
    this.buf = new byte[Math.max(1, BUFFER_BYTES / rs) * rs];
    this.valsort = layout.isGensort() ? new StreamingValidator() : null;
    this.checksum = layout.isGensort() ? null : new RecordChecksum();
    this.prevKey = new byte[layout.keyLength()];
    try {
      this.fs = HadoopFiles.of(partPath, conf);
      this.out =
          fs.createNonRecursive(
              partPath,
              false,
              64 << 10,
              fs.getDefaultReplication(partPath),
              fs.getDefaultBlockSize(partPath),
              null);
    } catch (IOException e) {
      throw JobIOException.wrap("create", partPath, e);
    }
  }

  /** Appends the record of a wrapped record (joule engine: the ordinal is dropped). */
  public void addWrapped(ByteBuffer wrapped) throws JobIOException {
    if (fill == 0 && records == 0) {
      started = System.nanoTime();
    }
    if (fill == buf.length) {
      drain();
    }
    layout.unwrap(wrapped, buf, fill);
    fill += rs;
  }

  /** Appends the record made of a sort key and the rest of the record (Spark engine). */
  public void addJoined(byte[] sortKey, byte[] rest) throws JobIOException {
    if (fill == 0 && records == 0) {
      started = System.nanoTime();
    }
    if (fill == buf.length) {
      drain();
    }
    layout.join(sortKey, rest, buf, fill);
    fill += rs;
  }

  private void drain() throws JobIOException {
    if (fill == 0) {
      return;
    }
    killIfCancelled();
    int n = fill / rs;
    if (valsort != null) {
      valsort.accept(ByteBuffer.wrap(buf, 0, fill));
    } else {
      checksum.addRecords(ByteBuffer.wrap(buf), 0, n, rs);
      checkOrder(n);
    }
    if (records == 0) {
      firstKey = key(0);
    }
    records += n;
    try {
      out.write(buf, 0, fill);
    } catch (IOException e) {
      throw JobIOException.wrap("write", partPath, e);
    }
    System.arraycopy(buf, (n - 1) * rs + layout.keyOffset(), prevKey, 0, prevKey.length);
    fill = 0;
  }

  /**
   * Ends the task if Spark cancelled it (a job that failed elsewhere), so that it stops writing
   * into the attempt directory the driver is removing.
   */
  static void killIfCancelled() {
    TaskContext ctx = TaskContext.get();
    if (ctx != null) {
      ctx.killTaskIfInterrupted();
    }
  }

  private void checkOrder(int n) {
    int ko = layout.keyOffset();
    int kl = layout.keyLength();
    for (int r = 0; r < n; r++) {
      int at = r * rs + ko;
      int cmp =
          r == 0
              ? (records == 0 ? -1 : Arrays.compareUnsigned(prevKey, 0, kl, buf, at, at + kl))
              : Arrays.compareUnsigned(buf, at - rs, at - rs + kl, buf, at, at + kl);
      if (cmp == 0) {
        duplicates++;
      } else if (cmp > 0) {
        unordered++;
      }
    }
  }

  private byte[] key(int record) {
    int at = record * rs + layout.keyOffset();
    return Arrays.copyOfRange(buf, at, at + layout.keyLength());
  }

  /**
   * Writes what is buffered, syncs and closes the part, writes its summary, and reports both.
   *
   * @throws JobIOException naming the file that failed
   */
  public PartResult finish() throws JobIOException {
    drain();
    if (started == 0) {
      started = System.nanoTime();
    }
    try {
      long t = System.nanoTime();
      out.hsync();
      syncNanos += System.nanoTime() - t;
      closed = true;
      out.close();
    } catch (IOException e) {
      throw JobIOException.wrap("write", partPath, e);
    }
    byte[] summary = null;
    long hi;
    long lo;
    if (valsort != null) {
      if (records > 0) {
        ValsortSummary s;
        try {
          s = valsort.finish();
        } catch (ValsortException e) {
          throw new IllegalStateException("valsort summary of " + partPath, e);
        }
        summary = s.toBytes();
        unordered = s.unorderedCount().lo();
        duplicates = s.duplicateCount().lo();
        hi = s.checksum().hi();
        lo = s.checksum().lo();
      } else {
        hi = 0;
        lo = 0;
      }
      writeSummary(summary == null ? new byte[0] : summary);
    } else {
      hi = checksum.hi();
      lo = checksum.lo();
    }
    byte[] lastKey = records == 0 ? null : prevKey.clone();
    return new PartResult(
        partition,
        partPath.toString(),
        summaryPath == null ? null : summaryPath.toString(),
        records,
        hi,
        lo,
        unordered,
        duplicates,
        firstKey,
        lastKey,
        summary,
        (System.nanoTime() - started) / 1_000_000,
        syncNanos / 1_000_000);
  }

  private void writeSummary(byte[] summary) throws JobIOException {
    try (FSDataOutputStream s =
        fs.createNonRecursive(
            summaryPath,
            false,
            4096,
            fs.getDefaultReplication(summaryPath),
            fs.getDefaultBlockSize(summaryPath),
            null)) {
      s.write(summary);
      long t = System.nanoTime();
      s.hsync();
      syncNanos += System.nanoTime() - t;
    } catch (IOException e) {
      throw JobIOException.wrap("write", summaryPath, e);
    }
  }

  /**
   * Closes the part if {@link #finish()} did not, and deletes what this task wrote (best effort).
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      out.close();
    } catch (IOException e) {
      // the task has failed already; its files are removed below or with the attempt directory
    }
    try {
      fs.delete(partPath, false);
      if (summaryPath != null) {
        fs.delete(summaryPath, false);
      }
    } catch (IOException e) {
      // the driver removes the whole attempt directory anyway
    }
  }
}

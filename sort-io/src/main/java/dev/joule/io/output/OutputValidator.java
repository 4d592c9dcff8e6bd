package dev.joule.io.output;

import dev.joule.core.merge.MergeOrder;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.error.SortValidationException;
import dev.joule.io.report.DataSummary;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * valsort for any fixed-length format, fed the output as it is written: record count, checksum (sum
 * of per-record CRC-32, {@link RecordChecksum}), adjacent duplicate keys and out-of-order pairs,
 * plus the first and last key so that the parts of a parallel merge combine exactly ({@link
 * #append}), as valsort's {@code -s} does.
 *
 * <p>Algorithm: one pass per batch in cache-sized steps; the key of every record is compared with
 * its predecessor's as unsigned bytes ({@code MergeOrder.compareKeys}), one CRC call per record.
 * Memory: two key-sized arrays. Not thread-safe: one validator per part.
 */
public final class OutputValidator {
  private final int recordSize;
  private final int keyOffset;
  private final int keyLength;

  /**
   * Records per step of {@link #accept}: the CRC pass and the order check of one step read the same
   * 100 KB (within L2), so a 4 MiB batch is read from memory once, not twice.
   */
  static final int STEP = 1 << 10;

  private final RecordChecksum checksum = new RecordChecksum();
  // Heap byte[] (not a heap ByteBuffer) for the last key: the order check then only ever sees the
  // batches' direct buffers, and the JIT keeps one compiled version instead of deoptimizing on a
  // second buffer class (LogCompilation showed class_check traps in compare()).
  private final byte[] prev;
  private final byte[] first;
  private long records;
  private long duplicates;
  private long unordered;

  /** A validator for an output of {@code format} records. */
  public OutputValidator(FixedLengthFormat format) {
    this.recordSize = format.recordSize();
    this.keyOffset = format.key().offset();
    this.keyLength = format.key().length();
    this.prev = new byte[keyLength];
    this.first = new byte[keyLength];
  }

  /** Validates the records from {@code batch}'s position to its limit; position unchanged. */
  public void accept(ByteBuffer written) {
    // A read-only view (one per batch), like the arena slabs whose checksum run formation takes:
    // the CRC and compare code compiled then stays valid here instead of hitting a class_check.
    ByteBuffer batch = written.asReadOnlyBuffer();
    int from = batch.position();
    int n = batch.remaining() / recordSize;
    if (n == 0) {
      return;
    }
    int at = from + keyOffset;
    if (records == 0) {
      batch.get(at, first);
    } else {
      count(-MergeOrder.compareKey(batch, at, prev));
    }
    for (int done = 0; done < n; done += STEP) {
      int m = Math.min(STEP, n - done);
      checksum.addRecords(batch, from + done * recordSize, m, recordSize);
      for (int i = done == 0 ? 1 : 0; i < m; i++) {
        count(MergeOrder.compareKeys(batch, at, batch, at + recordSize, keyLength));
        at += recordSize;
      }
    }
    batch.get(at, prev, 0, keyLength);
    records += n;
  }

  private void count(int c) {
    if (c == 0) {
      duplicates++;
    } else if (c > 0) {
      unordered++;
    }
  }

  /**
   * Adds the next part's numbers, checking the boundary between this part's last key and its first.
   */
  public void append(OutputValidator next) {
    if (next.records == 0) {
      return;
    }
    if (records > 0) {
      count(Arrays.compareUnsigned(prev, next.first));
    } else {
      System.arraycopy(next.first, 0, first, 0, keyLength);
    }
    checksum.add(next.checksum);
    duplicates += next.duplicates;
    unordered += next.unordered;
    records += next.records;
    System.arraycopy(next.prev, 0, prev, 0, keyLength);
  }

  /** Records validated so far. */
  public long records() {
    return records;
  }

  /** Checksum of the records validated so far. */
  public RecordChecksum checksum() {
    return checksum;
  }

  /** The valsort numbers of what was validated. */
  public DataSummary summary() {
    return new DataSummary(records, checksum.toHex(), duplicates, unordered == 0);
  }

  /**
   * Compares the output validated here with the input's record count and checksum; returns the
   * input's summary (the input side knows neither its duplicates nor its order: -1 and false).
   *
   * @throws SortValidationException when they differ or the output is out of order; {@code output}
   *     names what was not published
   */
  public DataSummary checkAgainstInput(
      long inputRecords, RecordChecksum inputChecksum, Object output)
      throws SortValidationException {
    DataSummary o = summary();
    DataSummary in = new DataSummary(inputRecords, inputChecksum.toHex(), -1, false);
    if (o.records() != inputRecords || !checksum.equals(inputChecksum) || !o.ordered()) {
      throw new SortValidationException(
          "self-validation failed for "
              + output
              + ": input "
              + inputRecords
              + " records, checksum "
              + inputChecksum.toHex()
              + "; output "
              + o.records()
              + " records, checksum "
              + o.checksum()
              + (o.ordered() ? "" : ", NOT in key order")
              + "; nothing was published");
    }
    return in;
  }
}

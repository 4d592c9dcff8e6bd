package dev.joule.io.pipeline;

import dev.joule.core.merge.MergeOrder;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.valsort.RecordChecksum;
import java.nio.ByteBuffer;

/**
 * valsort for any fixed-length format, fed the output as it is written: record count, checksum
 * (sum of per-record CRC-32, {@link RecordChecksum}), adjacent duplicate keys and out-of-order
 * pairs, plus the first and last key so that the parts of a parallel merge combine exactly
 * ({@link #append}), as valsort's {@code -s} does.
 *
 * <p>Algorithm: one pass per batch; the key of every record is compared with its predecessor's as
 * unsigned bytes ({@code MergeOrder.compareKeys}), one CRC call per batch. Memory: two key-sized
 * arrays. Not thread-safe: one validator per part.
 */
final class OutputValidator {
  private final int recordSize;
  private final int keyOffset;
  private final int keyLength;
  private final RecordChecksum checksum = new RecordChecksum();
  private final ByteBuffer prev; // heap, keyLength bytes: the last key seen
  private final byte[] first;
  private long records;
  private long duplicates;
  private long unordered;

  OutputValidator(FixedLengthFormat format) {
    this.recordSize = format.recordSize();
    this.keyOffset = format.key().offset();
    this.keyLength = format.key().length();
    this.prev = ByteBuffer.allocate(keyLength);
    this.first = new byte[keyLength];
  }

  /** Validates the records from {@code batch}'s position to its limit; position unchanged. */
  void accept(ByteBuffer batch) {
    int from = batch.position();
    int n = batch.remaining() / recordSize;
    if (n == 0) {
      return;
    }
    checksum.addRecords(batch, from, n, recordSize);
    int at = from;
    if (records == 0) {
      batch.get(from + keyOffset, first);
    } else {
      compare(prev, 0, batch, at + keyOffset);
    }
    for (int i = 1; i < n; i++) {
      compare(batch, at + keyOffset, batch, at + recordSize + keyOffset);
      at += recordSize;
    }
    batch.get(at + keyOffset, prev.array(), 0, keyLength);
    records += n;
  }

  private void compare(ByteBuffer a, int ia, ByteBuffer b, int ib) {
    int c = MergeOrder.compareKeys(a, ia, b, ib, keyLength);
    if (c == 0) {
      duplicates++;
    } else if (c > 0) {
      unordered++;
    }
  }

  /** Adds the next part's numbers, checking the boundary between this part's last key and its first. */
  void append(OutputValidator next) {
    if (next.records == 0) {
      return;
    }
    if (records > 0) {
      compare(prev, 0, ByteBuffer.wrap(next.first), 0);
    } else {
      System.arraycopy(next.first, 0, first, 0, keyLength);
    }
    checksum.add(next.checksum);
    duplicates += next.duplicates;
    unordered += next.unordered;
    records += next.records;
    System.arraycopy(next.prev.array(), 0, prev.array(), 0, keyLength);
  }

  long records() {
    return records;
  }

  RecordChecksum checksum() {
    return checksum;
  }

  DataSummary summary() {
    return new DataSummary(records, checksum.toHex(), duplicates, unordered == 0);
  }
}

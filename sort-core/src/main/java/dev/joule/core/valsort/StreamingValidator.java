package dev.joule.core.valsort;

import dev.joule.core.gensort.Uint128;
import java.nio.ByteBuffer;

/**
 * Validates a stream of 100-byte records fed in buffers of any size, as valsort 1.5 does: record
 * count, checksum, duplicate keys, unordered records and the first unordered record's index.
 *
 * <p>Algorithm: one pass; each key (bytes 0–9) is read as a big-endian long plus an unsigned short
 * and compared unsigned with the previous key, which gives memcmp order. Whole records are
 * validated in place in the caller's buffer; a record that straddles two buffers is assembled in a
 * 100-byte carry array. With {@code caseInsensitive} (valsort {@code -i}) records are compared by
 * {@link CaseInsensitiveCompare} instead, which needs a copy of the previous record. Memory: four
 * 100-byte arrays; one buffer view per {@link #accept} call, nothing per record. Not thread-safe:
 * one validator per stream (see {@link ParallelValidator}).
 */
public final class StreamingValidator {
  private static final int RECORD = ValsortSummary.RECORD_SIZE;
  private static final int KEY_TAIL = 8; // offset of the key's last two bytes

  private final byte[] carry = new byte[RECORD];
  private final ByteBuffer carryBuf = ByteBuffer.wrap(carry);
  private int carryLength;
  private final byte[] first = new byte[RECORD];
  private final byte[] last = new byte[RECORD];
  private final RecordChecksum checksum = new RecordChecksum();
  private long count;
  private long duplicates;
  private long unordered;
  private long firstUnordered;
  private long prevHi;
  private int prevLo;
  private final boolean caseInsensitive;
  private final byte[] prevRecord = new byte[RECORD];
  private final byte[] record = new byte[RECORD];

  /** A validator that has seen no records, comparing keys as unsigned bytes (memcmp). */
  public StreamingValidator() {
    this(false);
  }

  /**
   * A validator that has seen no records.
   *
   * @param caseInsensitive valsort {@code -i}: compare as the reference's strcasecmp quirk does
   */
  public StreamingValidator(boolean caseInsensitive) {
    this.caseInsensitive = caseInsensitive;
  }

  /** Validates the bytes from {@code chunk}'s position to its limit and moves position to limit. */
  public void accept(ByteBuffer chunk) {
    ByteBuffer b = chunk.duplicate(); // BIG_ENDIAN, whatever the caller's order
    int pos = b.position();
    int end = b.limit();
    if (carryLength > 0) {
      int take = Math.min(RECORD - carryLength, end - pos);
      b.get(pos, carry, carryLength, take);
      carryLength += take;
      pos += take;
      if (carryLength == RECORD) {
        validate(carryBuf, 0, 1);
        carryLength = 0;
      }
    }
    int whole = (end - pos) / RECORD;
    if (whole > 0) {
      validate(b, pos, whole);
      pos += whole * RECORD;
    }
    if (pos < end) {
      b.get(pos, carry, 0, end - pos);
      carryLength = end - pos;
    }
    chunk.position(end);
  }

  private void validate(ByteBuffer b, int from, int n) {
    if (count == 0) {
      b.get(from, first);
    }
    checksum.addRecords(b, from, n, RECORD);
    if (caseInsensitive) {
      validateCaseInsensitive(b, from, n);
      return;
    }
    long c = count;
    long ph = prevHi;
    int pl = prevLo;
    int off = from;
    for (int r = 0; r < n; r++, off += RECORD) {
      long kh = b.getLong(off);
      int kl = b.getShort(off + KEY_TAIL) & 0xFFFF;
      if (c > 0) {
        int cmp = Long.compareUnsigned(ph, kh);
        if (cmp == 0) {
          cmp = Integer.compare(pl, kl);
        }
        if (cmp == 0) {
          duplicates++;
        } else if (cmp > 0) {
          recordUnordered(c);
        }
      }
      ph = kh;
      pl = kl;
      c++;
    }
    count = c;
    prevHi = ph;
    prevLo = pl;
    b.get(off - RECORD, last);
  }

  private void validateCaseInsensitive(ByteBuffer b, int from, int n) {
    for (int r = 0, off = from; r < n; r++, off += RECORD) {
      b.get(off, record);
      if (count > 0) {
        int cmp = CaseInsensitiveCompare.compare(prevRecord, 0, record, 0);
        if (cmp == 0) {
          duplicates++;
        } else if (cmp > 0) {
          recordUnordered(count);
        }
      }
      System.arraycopy(record, 0, prevRecord, 0, RECORD);
      count++;
    }
    System.arraycopy(prevRecord, 0, last, 0, RECORD);
  }

  private void recordUnordered(long index) {
    if (unordered++ == 0) {
      firstUnordered = index;
    }
  }

  /** Records validated so far (complete records only). */
  public long recordCount() {
    return count;
  }

  /**
   * The summary of everything accepted. The validator may keep accepting afterwards.
   *
   * @throws ValsortException {@link ValsortException#PARTIAL_RECORD} if the bytes so far end in a
   *     partial record, {@link ValsortException#NO_RECORDS} if there were none
   */
  public ValsortSummary finish() throws ValsortException {
    if (carryLength > 0) {
      throw new ValsortException(ValsortException.PARTIAL_RECORD);
    }
    if (count == 0) {
      throw new ValsortException(ValsortException.NO_RECORDS);
    }
    return new ValsortSummary(
        Uint128.ofUnsigned(firstUnordered),
        Uint128.ofUnsigned(unordered),
        Uint128.ofUnsigned(count),
        Uint128.ofUnsigned(duplicates),
        Uint128.of(checksum.hi(), checksum.lo()),
        first,
        last);
  }
}

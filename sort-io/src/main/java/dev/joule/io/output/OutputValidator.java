package dev.joule.io.output;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.TieBreaker;
import dev.joule.core.index.TieSlots;
import dev.joule.core.merge.MergeOrder;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.error.SortValidationException;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.report.DataSummary;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * valsort for the sort's output, fed as it is written: record count, checksum (sum of per-record
 * CRC-32, {@link RecordChecksum}), adjacent duplicate keys and out-of-order pairs, plus the first
 * and last entry so that the parts of a parallel merge combine exactly ({@link #append}), as
 * valsort's {@code -s} does. Two modes:
 *
 * <ul>
 *   <li>fixed records ({@link #OutputValidator(FixedLengthFormat)}, {@link #accept}): whole batches
 *       of written records, their keys at a byte range;
 *   <li>entries ({@link #OutputValidator(EntryLayout, TieBreaker)}, {@link #acceptEntry}): one
 *       entry at a time as its record is written, ordered by its normalized key (a key that is a
 *       prefix of another first) and then the sort's tie breaker.
 * </ul>
 *
 * <p>Algorithm: one pass; fixed batches in cache-sized steps, each key compared with its
 * predecessor's as unsigned bytes, one CRC call per record. Memory: the previous and the first key
 * (and record, with a tie breaker). Not thread-safe: one validator per part.
 */
public final class OutputValidator {
  /**
   * Records per step of {@link #accept}: the CRC pass and the order check of one step read the same
   * 100 KB (within L2), so a 4 MiB batch is read from memory once, not twice.
   */
  static final int STEP = 1 << 10;

  private final int recordSize; // fixed mode; 0 in entry mode
  private final int keyOffset;
  private final EntryLayout layout; // entry mode; null in fixed mode
  private final TieBreaker tie;
  private final TieBreaker sameKey; // unique mode: what else equal keys need; see EntrySpec
  private final boolean unique;

  private RecordChecksum checksum = new RecordChecksum();
  // Heap byte[] (not a heap ByteBuffer) for the last key: the order check then only ever sees the
  // batches' direct buffers, and the JIT keeps one compiled version instead of deoptimizing on a
  // second buffer class (LogCompilation showed class_check traps in compare()).
  private byte[] prev;
  private byte[] spareKey = new byte[16]; // the array the next entry's key is copied into
  private int prevLength;
  private byte[] prevRecord = new byte[0];
  private ByteBuffer prevRecordView;
  private byte[] prevRecordViewOf; // the array prevRecordView wraps
  private int prevRecordLength;
  // Copies of the previous and the current record for a tie breaker that compares copies (a key
  // in a locale: its fields located and copied once per record, not once per comparison); null:
  // it compares the records where they are. prevStaged: slot 0 holds the previous record.
  private final TieSlots tieSlots;
  private boolean prevStaged;
  private byte[] first;
  private int firstLength;
  private byte[] firstRecord = new byte[0];
  private int firstRecordLength;
  private long records;
  private long duplicates;
  private long unordered;
  private RecordChecksum droppedChecksum = new RecordChecksum();
  private long dropped;
  private long wrongDrops; // dropped records whose key differed from the one kept
  private boolean keysInChecksum; // key/value pairs: the caller's keys are data too

  /** A validator of batches of fixed {@code format} records. */
  public OutputValidator(FixedLengthFormat format) {
    this(format.recordSize(), format.key().offset(), format.key().length(), null);
  }

  /**
   * A validator of batches of the fixed records {@code spec} reads in place (its byte-range key and
   * tie breaker); not for unique output, which is validated entry by entry ({@link #of}).
   */
  public static OutputValidator forBatches(EntrySpec spec) {
    EntryLayout l = spec.layout();
    if (!spec.inPlace() || spec.unique()) {
      throw new IllegalArgumentException("not batches of fixed records: " + l);
    }
    return new OutputValidator(l.recordSize(), l.keyOffset(), l.fixedKeyLength(), spec.tie());
  }

  private OutputValidator(int recordSize, int keyOffset, int keyLength, TieBreaker tie) {
    this.recordSize = recordSize;
    this.keyOffset = keyOffset;
    this.layout = null;
    this.tie = tie;
    this.tieSlots = null; // fixed records: compared in place, in the batch
    this.sameKey = null;
    this.unique = false;
    this.prev = new byte[keyLength];
    this.first = new byte[keyLength];
    this.prevLength = prev.length;
    this.firstLength = first.length;
    if (tie != null) {
      prevRecord = new byte[recordSize];
      firstRecord = new byte[recordSize];
      prevRecordLength = recordSize;
      firstRecordLength = recordSize;
    }
  }

  /** A validator of entries of {@code layout}, equal keys ordered by {@code tie} (or null). */
  public OutputValidator(EntryLayout layout, TieBreaker tie) {
    this(layout, tie, null, false);
  }

  /** A validator of the entries {@code spec} describes, in its unique mode if it has one. */
  public static OutputValidator of(EntrySpec spec) {
    return new OutputValidator(spec.layout(), spec.tie(), spec.sameKey(), spec.unique());
  }

  /**
   * A validator of entries of {@code layout}, equal keys ordered by {@code tie} (or null); if
   * {@code unique}, no two adjacent records may have equal keys (normalized keys equal and {@code
   * sameKey} null or 0), and the records not output are accounted for by {@link #dropEntry}.
   */
  public OutputValidator(EntryLayout layout, TieBreaker tie, TieBreaker sameKey, boolean unique) {
    this.recordSize = 0;
    this.keyOffset = 0;
    this.layout = layout;
    this.tie = tie;
    this.tieSlots = tie == null ? null : tie.slots(2);
    this.sameKey = sameKey;
    this.unique = unique;
    this.prev = new byte[16];
    this.first = new byte[16];
  }

  /**
   * Sums the output's checksum in {@code kind}'s kind (valsort's CRC-32, or a session's CRC-32C:
   * {@link RecordChecksum#castagnoli()}), to compare with an input summed so; before any record.
   */
  public OutputValidator sumLike(RecordChecksum kind) {
    if (records != 0) {
      throw new IllegalStateException("the checksum's kind is chosen before the first record");
    }
    checksum = kind.emptyOfSameKind();
    droppedChecksum = kind.emptyOfSameKind();
    return this;
  }

  /**
   * Checksums every entry's key together with its record, in one CRC-32 of both (key/value pairs,
   * whose keys are the caller's data, not derived from the record, and lie just before the value in
   * their entry); returns this validator.
   */
  public OutputValidator withKeysInChecksum() {
    keysInChecksum = true;
    return this;
  }

  /** Validates the fixed records from {@code batch}'s position to its limit; position unchanged. */
  public void accept(ByteBuffer written) {
    // A read-only view (one per batch), like the arena slabs whose checksum run formation takes:
    // the CRC and compare code compiled then stays valid here instead of hitting a class_check.
    ByteBuffer batch = written.asReadOnlyBuffer();
    int from = batch.position();
    int n = batch.remaining() / recordSize;
    if (n == 0) {
      return;
    }
    int keyLength = prev.length;
    int at = from + keyOffset;
    if (records == 0) {
      batch.get(at, first);
      if (tie != null) {
        batch.get(from, firstRecord);
      }
    } else {
      int c = -MergeOrder.compareKey(batch, at, prev);
      count(c, c == 0 && tie != null ? tieWithPrevious(tie, batch, from, recordSize) : 0);
    }
    for (int done = 0; done < n; done += STEP) {
      int m = Math.min(STEP, n - done);
      checksum.addRecords(batch, from + done * recordSize, m, recordSize);
      for (int i = done == 0 ? 1 : 0; i < m; i++) {
        int c = MergeOrder.compareKeys(batch, at, batch, at + recordSize, keyLength);
        int t =
            c == 0 && tie != null
                ? tie.compare(
                    batch,
                    at - keyOffset,
                    recordSize,
                    batch,
                    at - keyOffset + recordSize,
                    recordSize)
                : 0;
        count(c, t);
        at += recordSize;
      }
    }
    batch.get(at, prev, 0, keyLength);
    if (tie != null) {
      batch.get(at - keyOffset, prevRecord, 0, recordSize);
    }
    records += n;
  }

  /**
   * Validates the entry at absolute index {@code at} of {@code b} (entry mode): its record goes
   * into the checksum, its key (then tie breaker) is compared with the previous entry's.
   */
  public void acceptEntry(ByteBuffer b, int at) {
    acceptEntry(b, at, null);
  }

  /**
   * {@link #acceptEntry(ByteBuffer, int)}, with the checksum taken from {@code checked}: a view of
   * {@code b} the caller moved onto exactly the bytes the checksum covers (the record, or key and
   * value), which goes to the CRC without a copy; its position ends at its limit. Null: read them
   * from {@code b}.
   */
  public void acceptEntry(ByteBuffer b, int at, ByteBuffer checked) {
    int kp = layout.keyStart(at);
    int kl = layout.keyLength(b, at);
    int rp = layout.recordStart(b, at);
    int rl = layout.recordLength(b, at);
    if (checked != null) {
      checksum.addRecord(checked);
    } else {
      checksum.addRecord(b, keysInChecksum ? kp : rp, keysInChecksum ? rp + rl - kp : rl);
    }
    if (records == 0) {
      first = copy(first, b, kp, kl);
      firstLength = kl;
      if (keepsRecords()) {
        firstRecord = copy(firstRecord, b, rp, rl);
        firstRecordLength = rl;
      }
    }
    // The key is copied anyway to become the previous one; compared as a copy, it goes through the
    // JDK's vectorized array comparison instead of a ByteBuffer.get per byte (5 % of a keyed text
    // sort's CPU, JFR).
    byte[] key = copy(spareKey, b, kp, kl);
    boolean staged = false;
    if (records > 0) {
      int c = Arrays.compareUnsigned(prev, 0, prevLength, key, 0, kl);
      int t = 0;
      if (c == 0 && tieSlots != null) {
        t = tieBySlots(b, rp, rl);
        staged = true;
      } else if (c == 0 && tie != null) {
        t = tieWithPrevious(tie, b, rp, rl);
      }
      count(c, t);
      if (unique && c == 0 && (sameKey == null || tieWithPrevious(sameKey, b, rp, rl) == 0)) {
        unordered++; // two records with equal keys in unique output
      }
    }
    spareKey = prev;
    prev = key;
    prevLength = kl;
    if (keepsRecords()) {
      prevRecord = copy(prevRecord, b, rp, rl);
      prevRecordLength = rl;
    }
    prevStaged = staged;
    records++;
  }

  /**
   * {@link #tieWithPrevious} through {@link #tieSlots}: the previous record is copied only if the
   * comparison before did not copy it, and the current one stays for the next comparison.
   */
  private int tieBySlots(ByteBuffer b, int rp, int rl) {
    if (!prevStaged) {
      tieSlots.set(0, prevRecordView(), 0, prevRecordLength);
    }
    tieSlots.set(1, b, rp, rl);
    int t = tieSlots.compare(0, 1);
    tieSlots.swap(0, 1);
    return t;
  }

  /**
   * Validates {@code copies} more records identical to the entry at {@code at} of {@code b}, which
   * was the last one accepted: the copies a chunk counted on it instead of holding them. Each is a
   * record of the output (count and checksum) and a duplicate of its predecessor. That they match
   * the input is what the final check against the input's checksum, taken line by line as read,
   * finds out.
   */
  public void acceptCopies(ByteBuffer b, int at, long copies) {
    if (copies == 0) {
      return;
    }
    if (records == 0) {
      throw new IllegalStateException("copies of an entry not accepted");
    }
    RecordChecksum one = checksum.emptyOfSameKind();
    addChecked(one, b, at);
    checksum.addTimes(one, copies);
    duplicates += copies;
    if (unique) {
      unordered += copies; // equal keys in unique output
    }
    records += copies;
  }

  private boolean keepsRecords() {
    return tie != null || sameKey != null;
  }

  /** previous key vs the key at {@code [kp, kp + kl)} of {@code b}: sign of previous - current. */
  private int compareWithPrevious(ByteBuffer b, int kp, int kl) {
    int n = Math.min(prevLength, kl);
    for (int i = 0; i < n; i++) {
      int c = (prev[i] & 0xFF) - (b.get(kp + i) & 0xFF);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(prevLength, kl);
  }

  private int tieWithPrevious(TieBreaker by, ByteBuffer b, int rp, int rl) {
    return by.compare(prevRecordView(), 0, prevRecordLength, b, rp, rl);
  }

  /** A heap view of {@link #prevRecord}, made again only when the array is replaced. */
  private ByteBuffer prevRecordView() {
    if (prevRecordViewOf != prevRecord) {
      prevRecordView = ByteBuffer.wrap(prevRecord);
      prevRecordViewOf = prevRecord;
    }
    return prevRecordView;
  }

  /**
   * Whether the entry at {@code at} of {@code b} has the same key as the last entry accepted
   * (unique mode drops it then).
   */
  public boolean sameKeyAsPrevious(ByteBuffer b, int at) {
    if (records == 0) {
      return false;
    }
    if (compareWithPrevious(b, layout.keyStart(at), layout.keyLength(b, at)) != 0) {
      return false;
    }
    return sameKey == null
        || tieWithPrevious(sameKey, b, layout.recordStart(b, at), layout.recordLength(b, at)) == 0;
  }

  /**
   * Accounts for the entry at {@code at} of {@code b}, left out of unique output: its record goes
   * into the dropped records' checksum; a record whose key differs from the last one output counts
   * as an error.
   */
  public void dropEntry(ByteBuffer b, int at) {
    if (!unique || !sameKeyAsPrevious(b, at)) {
      wrongDrops++;
    }
    addChecked(droppedChecksum, b, at);
    dropped++;
  }

  /** Adds what the checksum covers of the entry at {@code at} (its record, or key and value). */
  private void addChecked(RecordChecksum sum, ByteBuffer b, int at) {
    int rp = layout.recordStart(b, at);
    int rl = layout.recordLength(b, at);
    int from = keysInChecksum ? layout.keyStart(at) : rp;
    sum.addRecord(b, from, rp + rl - from);
  }

  /**
   * Accounts for {@code n} records with checksum {@code sum} that unique mode left out before they
   * reached this validator (duplicates dropped as runs were formed): they count with the records
   * dropped here when the output is checked against the input.
   */
  public void addDroppedEarlier(long n, RecordChecksum sum) {
    if (n == 0) {
      return;
    }
    if (!unique) {
      throw new IllegalStateException("records dropped outside unique mode");
    }
    dropped += n;
    droppedChecksum.add(sum);
  }

  /** Records left out of unique output so far. */
  public long dropped() {
    return dropped;
  }

  private static byte[] copy(byte[] into, ByteBuffer b, int at, int n) {
    byte[] a = into.length >= n ? into : new byte[Math.max(n, into.length * 2)];
    b.get(at, a, 0, n);
    return a;
  }

  /**
   * Counts one adjacent pair: key comparison {@code c} (previous minus current), then {@code t}.
   */
  private void count(int c, int t) {
    if (c == 0) {
      duplicates++;
      if (t > 0) {
        unordered++;
      }
    } else if (c > 0) {
      unordered++;
    }
  }

  /** Adds the next part's numbers, checking the boundary between this part's last and its first. */
  public void append(OutputValidator next) {
    if (next.records == 0) {
      return;
    }
    dropped += next.dropped;
    wrongDrops += next.wrongDrops;
    droppedChecksum.add(next.droppedChecksum);
    if (records > 0) {
      int c = Arrays.compareUnsigned(prev, 0, prevLength, next.first, 0, next.firstLength);
      int t = c == 0 && tie != null ? boundary(tie, next) : 0;
      count(c, t);
      if (unique && c == 0 && (sameKey == null || boundary(sameKey, next) == 0)) {
        unordered++;
      }
    } else {
      first = Arrays.copyOf(next.first, next.first.length);
      firstLength = next.firstLength;
      firstRecord = Arrays.copyOf(next.firstRecord, next.firstRecord.length);
      firstRecordLength = next.firstRecordLength;
    }
    checksum.add(next.checksum);
    duplicates += next.duplicates;
    unordered += next.unordered;
    records += next.records;
    prev = Arrays.copyOf(next.prev, next.prev.length);
    prevLength = next.prevLength;
    prevRecord = Arrays.copyOf(next.prevRecord, next.prevRecord.length);
    prevRecordLength = next.prevRecordLength;
    prevStaged = false;
  }

  private int boundary(TieBreaker by, OutputValidator next) {
    return by.compare(
        ByteBuffer.wrap(prevRecord),
        0,
        prevRecordLength,
        ByteBuffer.wrap(next.firstRecord),
        0,
        next.firstRecordLength);
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
    return DataSummary.of(records, checksum, duplicates, unordered == 0);
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
    return checkAgainstInput(inputRecords, inputChecksum, output, "nothing was published");
  }

  /**
   * Compares as {@link #checkAgainstInput(long, RecordChecksum, Object)} for an output whose
   * records were handed on as they were checked (a stream, a cursor's caller): {@code outcome} says
   * what became of them, in place of "nothing was published".
   *
   * @throws SortValidationException when they differ or the output is out of order
   */
  public DataSummary checkAgainstInput(
      long inputRecords, RecordChecksum inputChecksum, Object output, String outcome)
      throws SortValidationException {
    DataSummary o = summary();
    DataSummary in = DataSummary.of(inputRecords, inputChecksum, -1, false);
    RecordChecksum all = checksum.emptyOfSameKind();
    all.add(checksum);
    all.add(droppedChecksum);
    if (o.records() + dropped != inputRecords
        || !all.equals(inputChecksum)
        || !o.ordered()
        || wrongDrops != 0) {
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
              + (dropped == 0 ? "" : ", " + dropped + " equal-key records left out (unique)")
              + (wrongDrops == 0 ? "" : ", " + wrongDrops + " of them with a key of their own")
              + (o.ordered() ? "" : ", NOT in key order")
              + "; "
              + outcome);
    }
    return in;
  }
}

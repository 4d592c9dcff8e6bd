package dev.joule.spark.input;

import dev.joule.core.valsort.RecordChecksum;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.util.AccumulatorV2;

/**
 * A Spark accumulator of what the map tasks read: record count and checksum per split, keyed by the
 * split's index. Spark may apply a task's update more than once when it re-runs a stage; a re-run
 * reads the same split and reports the same numbers, and keying by split makes the merge
 * idempotent, so the totals stay exact. The driver compares them with the parts' numbers.
 *
 * <p>Thread-safety: one copy per task, merged on the driver by Spark's scheduler thread while other
 * threads may read it: every method is synchronized and {@link #value()} returns a snapshot (a live
 * map handed to Spark's listeners was modified under them: ConcurrentModificationException in
 * AppStatusListener, whose task counts then went stale).
 */
public final class SplitChecksums
    extends AccumulatorV2<SplitChecksums.SplitSum, Map<Integer, SplitChecksums.SplitSum>> {
  private static final long serialVersionUID = 1L;

  /** What one split's map task read. */
  public record SplitSum(int split, long records, long checksumHi, long checksumLo)
      implements java.io.Serializable {}

  private final TreeMap<Integer, SplitSum> sums = new TreeMap<>();

  @Override
  public synchronized boolean isZero() {
    return sums.isEmpty();
  }

  @Override
  public synchronized SplitChecksums copy() {
    SplitChecksums c = new SplitChecksums();
    c.sums.putAll(sums);
    return c;
  }

  @Override
  public synchronized void reset() {
    sums.clear();
  }

  @Override
  public synchronized void add(SplitSum v) {
    sums.put(v.split(), v);
  }

  /** Records what a task read of {@code split}. */
  public void add(InputSplit split, long records, RecordChecksum checksum) {
    add(new SplitSum(split.index(), records, checksum.hi(), checksum.lo()));
  }

  @Override
  public synchronized void merge(AccumulatorV2<SplitSum, Map<Integer, SplitSum>> other) {
    sums.putAll(other.value());
  }

  /** A snapshot of the sums by split index. */
  @Override
  public synchronized Map<Integer, SplitSum> value() {
    return Collections.unmodifiableMap(new TreeMap<>(sums));
  }

  /** Records over all splits reported. */
  public synchronized long records() {
    long n = 0;
    for (SplitSum s : sums.values()) {
      n += s.records();
    }
    return n;
  }

  /** The checksum over all splits reported. */
  public synchronized RecordChecksum checksum() {
    RecordChecksum c = new RecordChecksum();
    for (SplitSum s : sums.values()) {
      c.add(RecordChecksum.of(s.checksumHi(), s.checksumLo()));
    }
    return c;
  }
}

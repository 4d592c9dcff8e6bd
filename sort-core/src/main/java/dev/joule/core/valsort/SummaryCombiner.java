package dev.joule.core.valsort;

import dev.joule.core.gensort.Uint128;

/**
 * Combines the summaries of consecutive partitions into the summary of their concatenation, exactly
 * as valsort's {@code -s} does (docs/formats.md, valsort), so that per-partition or per-thread
 * validation gives the same result as one pass over the whole.
 *
 * <p>Algorithm: carries the counts forward and checks each boundary (previous last key against the
 * next first key: equal is a duplicate, greater is unordered). A first-unordered index becomes
 * global by adding the earlier partitions' record counts; at an unordered boundary it is the global
 * index of the next partition's first record. Memory: O(1). Not thread-safe.
 */
public final class SummaryCombiner {
  private final boolean caseInsensitive;
  private ValsortSummary acc;

  /** A combiner that has seen no partition, comparing keys as unsigned bytes (memcmp). */
  public SummaryCombiner() {
    this(false);
  }

  /**
   * A combiner that has seen no partition.
   *
   * @param caseInsensitive valsort {@code -i}: compare boundaries as the strcasecmp quirk does
   */
  public SummaryCombiner(boolean caseInsensitive) {
    this.caseInsensitive = caseInsensitive;
  }

  /** Adds the next partition's summary, in partition order. */
  public SummaryCombiner add(ValsortSummary next) {
    if (acc == null) {
      acc = next;
      return this;
    }
    Uint128 firstUnordered = acc.firstUnordered();
    Uint128 unordered = acc.unorderedCount();
    Uint128 duplicates = acc.duplicateCount();
    Uint128 count = acc.recordCount();
    int cmp =
        caseInsensitive
            ? CaseInsensitiveCompare.compare(acc.lastRecord(), 0, next.firstRecord(), 0)
            : acc.compareLastKeyToFirstKeyOf(next);
    if (cmp == 0) {
      duplicates = duplicates.plus(1);
    } else if (cmp > 0) {
      if (firstUnordered.isZero()) {
        firstUnordered = count;
      }
      unordered = unordered.plus(1);
    }
    if (firstUnordered.isZero() && !next.firstUnordered().isZero()) {
      firstUnordered = count.plus(next.firstUnordered());
    }
    RecordChecksum sum = acc.checksum();
    sum.add(next.checksum());
    acc =
        new ValsortSummary(
            firstUnordered,
            unordered.plus(next.unorderedCount()),
            count.plus(next.recordCount()),
            duplicates.plus(next.duplicateCount()),
            Uint128.of(sum.hi(), sum.lo()),
            acc.firstRecord(),
            next.lastRecord());
    return this;
  }

  /**
   * The combined summary.
   *
   * @throws ValsortException {@link ValsortException#NO_RECORDS} if no summary was added
   */
  public ValsortSummary result() throws ValsortException {
    if (acc == null) {
      throw new ValsortException(ValsortException.NO_RECORDS);
    }
    return acc;
  }
}

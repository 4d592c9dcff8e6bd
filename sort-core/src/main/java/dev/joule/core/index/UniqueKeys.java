package dev.joule.core.index;

import dev.joule.core.valsort.RecordChecksum;

/**
 * Unique mode's drop at the source: in a sorted index, keeps only the first entry of each group of
 * equal keys, so that a run holds each key once instead of every duplicate (GNU sort drops them as
 * it writes a temp file too). The final merge still drops the duplicates between runs.
 *
 * <p>Which entry is first is the sort's order within the group (the tie breaker, then input order),
 * which is also the one the final merge would keep, so dropping here does not change the output.
 */
public final class UniqueKeys {
  private UniqueKeys() {}

  /**
   * Moves the first entry of every group of equal keys among the sorted entries {@code [0, n)} of
   * {@code index} to the front, in order, and returns how many there are. Two entries have equal
   * keys when their normalized keys are equal and {@code sameKey} (if not null) calls their records
   * equal. Entries past the returned count are left in an unspecified state.
   *
   * @param dropped receives the checksum of every record left out, read from the arena (not derived
   *     from the kept ones, so that the sort's validation stays independent of this step)
   */
  public static int keepFirst(
      RecordIndex index, int n, TieBreaker sameKey, RecordChecksum dropped) {
    if (n == 0) {
      return 0;
    }
    long[] keys = index.keys();
    long[] refs = index.refs();
    // Whole-record keys with nothing else to compare: the comparison read every byte of both
    // records and found them equal, so a dropped record's CRC is the kept one's, taken once per
    // group (a CRC per dropped record was a fifth of run formation's CPU for 10^7 short lines).
    boolean identical = sameKey == null && index.layout().place() == EntryLayout.KeyPlace.WHOLE;
    int kept = 1;
    long lastRef = refs[0];
    long repeats = 0;
    for (int i = 1; i < n; i++) {
      long r = refs[i];
      // The arena's keys, not the words: a sorter leaves in the words the bytes it compared last,
      // which may start deeper in one entry's key than in its neighbour's.
      if (index.compareKeyBytes(lastRef, r, 0) == 0
          && index.compareRecords(sameKey, lastRef, r) == 0) {
        if (identical) {
          repeats++;
        } else {
          index.addRecordTo(dropped, r);
        }
        continue;
      }
      if (repeats > 0) {
        index.addRecordTo(dropped, lastRef, repeats);
        repeats = 0;
      }
      keys[kept] = keys[i];
      refs[kept] = r;
      kept++;
      lastRef = r;
    }
    if (repeats > 0) {
      index.addRecordTo(dropped, lastRef, repeats);
    }
    return kept;
  }
}

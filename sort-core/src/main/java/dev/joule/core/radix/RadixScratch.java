package dev.joule.core.radix;

/**
 * Per-worker scratch of {@link RadixRunSorter}: one 257-bucket histogram per recursion level (256
 * byte values and, for variable-length keys, the bucket of keys that end) and one wide histogram
 * (about 130 KiB in all), allocated once and reused. Owned by one thread at a time: borrowed at the
 * start of a task and handed back before the task joins its children.
 */
final class RadixScratch {
  final int[][] hist;

  /**
   * The one wide histogram (12-bit digits, or up to {@code COMBINED_MAX_DISTINCT} x 12-bit for
   * combined digits); in use by the level in {@link #wideLevel}, or free if -1.
   */
  final int[] wide = new int[RadixJob.COMBINED_MAX_DISTINCT << RadixJob.WIDE_BITS];

  /** Rank of each byte value among those present, shifted left by 12, for combined digits. */
  final int[] rank = new int[256];

  int wideLevel = -1;

  RadixScratch(int levels) {
    hist = new int[levels][RadixJob.BUCKETS_WITH_END];
  }
}

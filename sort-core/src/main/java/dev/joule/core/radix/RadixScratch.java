package dev.joule.core.radix;

/**
 * Per-worker scratch of {@link RadixRunSorter}: one 256-bucket histogram per recursion level,
 * allocated once and reused. Owned by one thread at a time: borrowed at the start of a task and
 * handed back before the task joins its children.
 */
final class RadixScratch {
  final int[][] hist;
  /** The one 12-bit histogram; in use by the level in {@link #wideLevel}, or free if -1. */
  final int[] wide = new int[1 << RadixJob.WIDE_BITS];
  int wideLevel = -1;

  RadixScratch(int levels) {
    hist = new int[levels][256];
  }
}

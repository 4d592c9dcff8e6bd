package dev.joule.core.radix;

import dev.joule.core.index.RecordIndex;

/**
 * Sorts the entries of a {@link RecordIndex} by the full key of their records, unsigned
 * lexicographic (memcmp) order, and <b>stably</b>: entries with equal keys keep their input order
 * (their address order). The result is therefore a pure function of the input, identical for any
 * thread count and any implementation.
 *
 * <p>Implementations own their worker threads and scratch, allocated at construction; {@link #sort}
 * allocates no per-record or per-bucket scratch. One sort at a time per sorter (callers serialise);
 * the index and its arena are borrowed for the duration of the call.
 */
public interface RunSorter extends AutoCloseable {
  /** Sorts entries {@code [from, to)} of {@code index}; other entries are untouched. */
  void sort(RecordIndex index, int from, int to);

  /** Sorts all entries of {@code index}. */
  default void sort(RecordIndex index) {
    sort(index, 0, index.size());
  }

  /** Stops the worker threads; idempotent. The sorter cannot sort afterwards. */
  @Override
  void close();

  /** The parallel MSD radix sorter with {@code threads} workers (named {@code joule-radix-N}). */
  static RunSorter radix(int threads) {
    return new RadixRunSorter(threads);
  }

  /** The JDK comparison-sort baseline ({@link java.util.Arrays#sort(long[])} plus tie fix-up). */
  static RunSorter jdk() {
    return new JdkRunSorter();
  }
}

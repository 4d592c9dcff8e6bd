package dev.joule.core.merge;

/**
 * Random read access to the keys of one sorted run, as {@link MergeSplitter} needs it to find the
 * cut points of a parallel merge. An in-memory run answers from its buffer ({@link
 * ByteBufferRunView}); a run file can answer from its per-block first keys plus one block read per
 * probe.
 *
 * <p>Record indices are {@code 0..size()-1} in run order; keys are compared as unsigned bytes,
 * lexicographically. Implementations need not be thread-safe; the splitter uses one view from one
 * thread.
 */
public interface SortedRunView {
  /** Number of records in the run. */
  long size();

  /** Key length in bytes, the same for every record. */
  int keyLength();

  /**
   * Compares the key of record {@code index} with {@code key} ({@link #keyLength()} bytes).
   *
   * @return negative, zero or positive as record {@code index}'s key sorts before, equal to, or
   *     after {@code key}
   */
  int compareKey(long index, byte[] key);

  /** Copies the key of record {@code index} into {@code dst[0 .. keyLength())}. */
  void copyKey(long index, byte[] dst);
}

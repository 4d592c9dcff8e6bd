package dev.joule.core.merge;

/**
 * Random read access to the entries of one sorted run, as {@link MergeSplitter} needs it to find
 * the cut points of a parallel merge. An in-memory run answers from its buffer ({@link
 * ByteBufferRunView}); a run file can answer from its per-block first keys plus one block read per
 * probe.
 *
 * <p>Entry indices are {@code 0..size()-1} in run order; entries compare in merge order without the
 * run index: key bytes unsigned and lexicographically (a key that is a prefix of another first),
 * then the sort's tie breaker on the records. Implementations need not be thread-safe: the splitter
 * uses a view from one thread at a time, though not always the same one when its {@link
 * MergeSplitter.RunSearches} runs the searches of a round at once (it hands a view over with a
 * happens-before edge); different views may then be used at once.
 */
public interface SortedRunView {
  /** Number of entries in the run. */
  long size();

  /**
   * Compares entry {@code index} with {@code probe}.
   *
   * @return negative, zero or positive as entry {@code index} sorts before, equal to, or after the
   *     probe
   */
  int compare(long index, Probe probe);

  /** A copy of entry {@code index}'s key (and record, when the order has a tie breaker). */
  Probe probe(long index);

  /**
   * Where a search for {@code probe} within {@code [from, to)} may start, from what this view knows
   * without reading entries: an index {@code f} in {@code [from, to]} such that every entry in
   * {@code [from, f)} sorts before the probe. A run file narrows by its blocks' first keys, so that
   * a search reads the one block that holds the probe's place instead of one per step; the default
   * narrows nothing.
   */
  default long searchFrom(long from, long to, Probe probe) {
    return from;
  }

  /**
   * Where a search for {@code probe} within {@code [from, to)} may end, from what this view knows
   * without reading entries: an index {@code t} in {@code [from, to]} such that every entry in
   * {@code [t, to)} sorts after the probe. The default narrows nothing.
   */
  default long searchTo(long from, long to, Probe probe) {
    return to;
  }

  /**
   * A copy of an entry's key and, when the sort has a tie breaker, its record: what the splitter
   * holds on to while it searches. Holds the arrays it is given (no defensive copies: the splitter
   * owns them); equality is identity.
   */
  final class Probe {
    private final byte[] key;
    private final byte[] record;

    /** A probe of {@code key} and {@code record} (null when the order has no tie breaker). */
    public Probe(byte[] key, byte[] record) {
      this.key = key;
      this.record = record;
    }

    /** The key bytes. */
    public byte[] key() {
      return key;
    }

    /** The record bytes, or null when the order has no tie breaker. */
    public byte[] record() {
      return record;
    }
  }
}

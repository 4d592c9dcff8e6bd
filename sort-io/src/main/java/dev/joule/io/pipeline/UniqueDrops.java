package dev.joule.io.pipeline;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.index.UniqueKeys;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.input.ChunkSource;
import dev.joule.io.input.EntrySpec;
import dev.joule.io.output.OutputValidator;

/**
 * Unique mode in run formation: each run keeps only the first record of each key ({@link
 * UniqueKeys}), and what it left out is accounted here, so that the final validation still adds up
 * to the input (output + duplicates dropped by the final merge + duplicates dropped here = input,
 * in records and in checksum). The checksum of the records left out is taken from the arena as they
 * are dropped, not derived from the kept ones, so a record damaged or lost between reading and
 * output still fails the validation.
 *
 * <p>With many duplicates this is where unique mode's time went: 10^7 lines of about 1000 distinct
 * values made 92 MB of runs, all merged, for 1011 lines of output (sort-bench/results/gnu-text.md).
 *
 * <p>Thread-safe: runs are written on the run-writer thread, the total read after it is joined.
 */
final class UniqueDrops {
  private final EntrySpec spec;
  private final RecordChecksum checksum = new RecordChecksum();
  private long records;

  UniqueDrops(EntrySpec spec) {
    this.spec = spec;
  }

  /**
   * Keeps the first entry of each key of the sorted entries of {@code chunk} in {@code index} at
   * its front and returns how many (all of them outside unique mode); the records left out, here
   * and as the chunk was read ({@link ChunkSource.Chunk#dropped()}), are accounted here.
   *
   * @return how many entries are kept, with their checksum (the chunk's, taken as it was read, less
   *     the records left out: the run's footer needs no other CRC pass)
   */
  Kept keepFirst(RecordIndex index, ChunkSource.Chunk chunk) {
    int n = chunk.entries();
    RecordChecksum kept = RecordChecksum.of(chunk.checksum().hi(), chunk.checksum().lo());
    if (chunk.dropped() > 0) {
      synchronized (this) {
        records += chunk.dropped();
        checksum.add(chunk.droppedChecksum());
      }
      kept.subtract(chunk.droppedChecksum());
    }
    if (!spec.unique()) {
      return new Kept(n, kept);
    }
    RecordChecksum left = new RecordChecksum();
    int k = UniqueKeys.keepFirst(index, n, spec.sameKey(), left);
    if (k < n) {
      synchronized (this) {
        records += n - k;
        checksum.add(left);
      }
      kept.subtract(left);
    }
    return new Kept(k, kept);
  }

  /** What a run keeps of its chunk: its first {@code entries} entries, with this checksum. */
  record Kept(int entries, RecordChecksum checksum) {}

  /** Records left out so far. */
  synchronized long records() {
    return records;
  }

  /** Tells the final merge's validator about the records left out here. */
  synchronized void addTo(OutputValidator v) {
    v.addDroppedEarlier(records, checksum);
  }
}

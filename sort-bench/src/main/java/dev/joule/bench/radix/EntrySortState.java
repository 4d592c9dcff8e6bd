package dev.joule.bench.radix;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.radix.RadixRunSorter;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The engine side of the entry benchmarks: entries in an arena, a pristine index, and a working
 * copy that each call sorts. Subclasses are the {@code @State} classes and say how their keys are
 * made; only the sort is timed.
 */
abstract class EntrySortState {
  EntryArena entries;
  RecordIndex work;
  RadixRunSorter sorter;

  /** Writes {@code (keys[i], values[i])} as entries and starts a sorter of {@code threads}. */
  void load(EntryLayout layout, byte[][] keys, byte[][] values, int threads) {
    entries = EntryArena.load(layout, keys, values);
    work = RecordIndex.allocate(keys.length);
    sorter = new RadixRunSorter(threads);
  }

  /** Unsorted input for the next call, outside the timer. */
  @Setup(Level.Invocation)
  public void restore() {
    work.copyFrom(entries.index);
  }

  void sort() {
    sorter.sort(work);
  }

  /** Stops the workers, frees the arena. */
  @TearDown(Level.Trial)
  public void tearDown() {
    sorter.close();
    entries.close();
  }
}

package dev.joule.core.radix;

/** The radix variant with insertion sort only for single entries: every level is a radix pass. */
class SmallThresholdRadixRunSorterTest extends RunSorterContractTest {
  @Override
  RunSorter newSorter(int threads) {
    return new RadixRunSorter(threads, 1);
  }
}

package dev.joule.core.radix;

class RadixRunSorterTest extends RunSorterContractTest {
  @Override
  RunSorter newSorter(int threads) {
    return RunSorter.radix(threads);
  }
}

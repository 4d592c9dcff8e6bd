package dev.joule.core.radix;

class JdkRunSorterTest extends RunSorterContractTest {
  @Override
  RunSorter newSorter(int threads) {
    return RunSorter.jdk();
  }
}

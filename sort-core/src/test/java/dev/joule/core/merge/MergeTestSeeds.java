package dev.joule.core.merge;

import dev.joule.testing.TestSeed;

/** One base seed per test JVM ({@link TestSeed}): fixed, {@code -Djoule.test.seed=N} replays. */
final class MergeTestSeeds {
  static final long BASE = TestSeed.of("merge tests", null, 0x9E3779B97F4A7C15L);

  private MergeTestSeeds() {}

  /** Runs {@code body} with seed {@code BASE + i}, naming the seed and case in any failure. */
  static void run(String what, int i, SeededCase body) {
    long seed = BASE + i;
    try {
      body.run(seed);
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(
          what
              + " failed with seed "
              + seed
              + " (replay: -Djoule.test.seed="
              + BASE
              + ", case "
              + i
              + ")",
          e);
    }
  }

  @FunctionalInterface
  interface SeededCase {
    void run(long seed);
  }
}

package dev.joule.core.key;

import dev.joule.testing.TestSeed;

/**
 * One base seed per test JVM ({@link TestSeed}: fixed, {@code -Djoule.test.seed=N} replays a
 * failure); each case runs with {@code BASE + i} and a failure names it.
 */
final class Seeds {
  static final long BASE = TestSeed.of("key tests", null, 0x5DEECE66DL);

  private Seeds() {}

  interface SeededCase {
    void run(long seed) throws Exception;
  }

  static void run(String what, int i, SeededCase body) {
    long seed = BASE + i;
    try {
      body.run(seed);
    } catch (Throwable t) {
      throw new AssertionError(
          what + " case " + i + " failed with seed " + seed + " (-Djoule.test.seed=" + BASE + ")",
          t);
    }
  }
}

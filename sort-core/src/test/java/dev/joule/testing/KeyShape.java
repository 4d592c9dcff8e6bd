package dev.joule.testing;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Shapes of key data shared by every sorter and merge test. Each shape fills {@code n} keys of
 * {@code keyLength} bytes from a seeded {@link SplittableRandom}, so a printed seed reproduces a
 * failure.
 */
public enum KeyShape {
  /** Uniform random bytes, like gensort's default keys. */
  UNIFORM,
  /**
   * A 2-byte-prefix skew: 25 % of keys share one 2-byte prefix, the rest pile on 128 other 2-byte
   * prefixes (129 in all); the remaining bytes are uniform. Not what {@code gensort -s} produces
   * (there record i copies the first 1..48 bits of template bit-length(i), so a few templates hold
   * most keys with prefixes nested over six bytes); benchmarks use {@code GensortGenerator} for
   * that.
   */
  SKEW,
  /** Every key identical. */
  ALL_EQUAL,
  /** Two distinct keys, interleaved at random. */
  TWO_DISTINCT,
  /** Already sorted (ascending, unsigned). */
  SORTED,
  /** Sorted descending. */
  REVERSED,
  /** All keys share their first 9 bytes; later bytes uniform. */
  SHARED_PREFIX_9,
  /** Keys drawn from only 16 distinct values: many long runs of duplicates. */
  LOW_CARDINALITY,
  /** Three 2-byte prefixes that share their first byte; later bytes uniform. */
  THREE_PREFIXES;

  /** {@code n} keys of {@code keyLength} bytes for {@code seed}. */
  public byte[][] keys(int n, int keyLength, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    byte[][] keys = new byte[n][keyLength];
    switch (this) {
      case UNIFORM:
        for (byte[] k : keys) {
          randomBytes(rnd, k, 0);
        }
        break;
      case SKEW:
        skew(rnd, keys);
        break;
      case ALL_EQUAL:
        {
          byte[] k0 = new byte[keyLength];
          randomBytes(rnd, k0, 0);
          for (byte[] k : keys) {
            System.arraycopy(k0, 0, k, 0, keyLength);
          }
          break;
        }
      case TWO_DISTINCT:
      case LOW_CARDINALITY:
        {
          byte[][] values = new byte[this == TWO_DISTINCT ? 2 : 16][keyLength];
          for (byte[] v : values) {
            randomBytes(rnd, v, 0);
          }
          for (byte[] k : keys) {
            System.arraycopy(values[rnd.nextInt(values.length)], 0, k, 0, keyLength);
          }
          break;
        }
      case SORTED:
      case REVERSED:
        for (byte[] k : keys) {
          randomBytes(rnd, k, 0);
        }
        Arrays.sort(
            keys,
            this == SORTED ? Arrays::compareUnsigned : (a, b) -> Arrays.compareUnsigned(b, a));
        break;
      case THREE_PREFIXES:
        {
          int first = rnd.nextInt(256);
          int[] second = {rnd.nextInt(256), rnd.nextInt(256), rnd.nextInt(256)};
          for (byte[] k : keys) {
            randomBytes(rnd, k, 0);
            k[0] = (byte) first;
            if (k.length > 1) {
              k[1] = (byte) second[rnd.nextInt(3)];
            }
          }
          break;
        }
      case SHARED_PREFIX_9:
        {
          byte[] p = new byte[Math.min(9, keyLength)];
          randomBytes(rnd, p, 0);
          for (byte[] k : keys) {
            System.arraycopy(p, 0, k, 0, p.length);
            randomBytes(rnd, k, p.length);
          }
          break;
        }
    }
    return keys;
  }

  private static void skew(SplittableRandom rnd, byte[][] keys) {
    int[] prefixes = new int[129];
    for (int i = 0; i < prefixes.length; i++) {
      prefixes[i] = rnd.nextInt(1 << 16);
    }
    for (byte[] k : keys) {
      int p = rnd.nextInt(4) == 0 ? prefixes[0] : prefixes[1 + rnd.nextInt(128)];
      k[0] = (byte) (p >>> 8);
      if (k.length > 1) {
        k[1] = (byte) p;
      }
      randomBytes(rnd, k, 2);
    }
  }

  private static void randomBytes(SplittableRandom rnd, byte[] k, int from) {
    for (int i = from; i < k.length; i++) {
      k[i] = (byte) rnd.nextInt(256);
    }
  }
}

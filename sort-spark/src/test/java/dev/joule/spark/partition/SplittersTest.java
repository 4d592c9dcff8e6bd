package dev.joule.spark.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Range splitters: quantiles of a weighted sample, and the lookup against a brute-force count. */
class SplittersTest {
  private static final long SEED = 0x51EDL;

  private static byte[] key(int... bytes) {
    byte[] k = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      k[i] = (byte) bytes[i];
    }
    return k;
  }

  private static KeySample sample(List<byte[]> keys, double weight) {
    int kl = keys.get(0).length;
    byte[] packed = new byte[keys.size() * kl];
    for (int i = 0; i < keys.size(); i++) {
      System.arraycopy(keys.get(i), 0, packed, i * kl, kl);
    }
    return new KeySample(kl, packed, weight);
  }

  /** Distinct random keys of {@code kl} bytes (the last 4 bytes are the index, as an ordinal). */
  private static List<byte[]> distinctKeys(SplittableRandom r, int n, int kl) {
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] k = new byte[kl];
      for (int b = 0; b < kl - 4; b++) {
        k[b] = (byte) r.nextInt(3); // few distinct prefixes: many equal user keys
      }
      k[kl - 4] = (byte) (i >>> 24);
      k[kl - 3] = (byte) (i >>> 16);
      k[kl - 2] = (byte) (i >>> 8);
      k[kl - 1] = (byte) i;
      keys.add(k);
    }
    return keys;
  }

  private static int bruteForce(byte[][] splitters, byte[] k) {
    int n = 0;
    for (byte[] s : splitters) {
      if (Arrays.compareUnsigned(s, k) <= 0) {
        n++;
      }
    }
    return n;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 7, 8, 64})
  void completeSampleGivesEqualPartitions(int partitions) {
    SplittableRandom r = new SplittableRandom(SEED + partitions);
    List<byte[]> keys = distinctKeys(r, 1_000, 6);
    Splitters s = Splitters.fromSample(List.of(sample(keys, 1.0)), partitions, 6);
    int[] sizes = new int[partitions];
    for (byte[] k : keys) {
      sizes[s.partitionOf(k, 0)]++;
    }
    for (int p = 0; p < partitions; p++) {
      int expected = (p + 1) * 1_000 / partitions - p * 1_000 / partitions;
      assertEquals(expected, sizes[p], "partition " + p + " (seed " + (SEED + partitions) + ")");
    }
  }

  @Test
  void lookupCountsTheSplittersAtOrBelowTheKey() {
    SplittableRandom r = new SplittableRandom(SEED);
    List<byte[]> keys = distinctKeys(r, 500, 5);
    Splitters s = Splitters.fromSample(List.of(sample(keys.subList(0, 100), 5.0)), 13, 5);
    byte[][] splitters = s.keys();
    assertEquals(12, splitters.length);
    for (byte[] k : keys) {
      assertEquals(bruteForce(splitters, k), s.partitionOf(k, 0), "seed " + SEED);
    }
    for (byte[] k : splitters) { // a splitter itself opens its partition
      assertEquals(bruteForce(splitters, k), s.partitionOf(k, 0));
    }
    byte[] inBuffer = new byte[20];
    System.arraycopy(splitters[3], 0, inBuffer, 9, 5);
    assertEquals(bruteForce(splitters, splitters[3]), s.partitionOf(inBuffer, 9));
  }

  @Test
  void keysOfAnyLengthSplitAsUnsignedBytesWithPrefixesFirst() {
    SplittableRandom r = new SplittableRandom(SEED + 1);
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      byte[] k = new byte[r.nextInt(6)]; // prefixes of each other, and the empty key
      for (int b = 0; b < k.length; b++) {
        k[b] = (byte) (r.nextBoolean() ? 0 : 0xFF);
      }
      keys.add(k);
    }
    Splitters s =
        Splitters.fromSample(
            List.of(KeySample.ofKeys(keys.subList(0, 300), 2.0)), 9, Splitters.ANY_LENGTH);
    byte[][] splitters = s.keys();
    assertEquals(8, splitters.length);
    for (int i = 1; i < splitters.length; i++) {
      assertTrue(Arrays.compareUnsigned(splitters[i - 1], splitters[i]) <= 0, "ascending");
    }
    byte[] buffer = new byte[16];
    for (byte[] k : keys) {
      System.arraycopy(k, 0, buffer, 5, k.length);
      assertEquals(
          bruteForce(splitters, k), s.partitionOf(buffer, 5, k.length), "seed " + (SEED + 1));
    }
    assertThrows(IllegalStateException.class, () -> s.partitionOf(buffer, 0));
    assertThrows(
        IllegalArgumentException.class,
        () -> Splitters.fromSample(List.of(KeySample.ofKeys(keys, 1.0)), 4, 3));
  }

  @Test
  void weightsMoveTheQuantiles() {
    // keys 0..3 with weight 1, then 4..7 with weight 3: the middle of the weight lies in the second
    List<byte[]> light = List.of(key(0), key(1), key(2), key(3));
    List<byte[]> heavy = List.of(key(4), key(5), key(6), key(7));
    Splitters s = Splitters.fromSample(List.of(sample(heavy, 3.0), sample(light, 1.0)), 2, 1);
    // total 16; the splitter is the first key whose cumulative weight exceeds 8: 0..3 → 4, key 4 →
    // 7, key 5 → 10
    assertEquals(List.of(5), List.of((int) s.keys()[0][0]));
  }

  @Test
  void emptySampleOrOnePartitionSendsEverythingToPartitionZero() {
    Splitters none = Splitters.fromSample(List.of(), 5, 3);
    assertEquals(5, none.partitions());
    assertEquals(0, none.keys().length);
    assertEquals(0, none.partitionOf(key(255, 255, 255), 0));
    Splitters one =
        Splitters.fromSample(List.of(sample(List.of(key(1, 2, 3), key(4, 5, 6)), 1)), 1, 3);
    assertEquals(0, one.keys().length);
    assertEquals(0, one.partitionOf(key(9, 9, 9), 0));
  }

  @Test
  void morePartitionsThanKeysLeavesSomeEmptyAndKeepsTheOrder() {
    List<byte[]> keys = List.of(key(10), key(20), key(30));
    Splitters s = Splitters.fromSample(List.of(sample(keys, 1)), 8, 1);
    assertEquals(7, s.keys().length);
    int[] sizes = new int[8];
    int previous = -1;
    for (byte[] k : keys) {
      int p = s.partitionOf(k, 0);
      assertTrue(p >= previous, "partitions follow the key order");
      previous = p;
      sizes[p]++;
    }
    assertEquals(3, Arrays.stream(sizes).filter(n -> n == 1).count());
    assertEquals(5, Arrays.stream(sizes).filter(n -> n == 0).count());
  }

  @Test
  void givenSplittersAreChecked() {
    assertThrows(
        IllegalArgumentException.class, () -> Splitters.of(3, 1, new byte[][] {key(2), key(1)}));
    assertThrows(IllegalArgumentException.class, () -> Splitters.of(3, 1, new byte[][] {key(2)}));
    assertThrows(
        IllegalArgumentException.class, () -> Splitters.of(2, 2, new byte[][] {key(1, 2, 3)}));
    assertEquals(1, Splitters.of(2, 1, new byte[][] {key(7)}).partitionOf(key(7), 0));
  }

  @Test
  void sampleSizeRule() {
    assertEquals(100_000, SampleSize.of(10_000_000, 8));
    assertEquals(500_000, SampleSize.of(10_000_000, 5_000));
    assertEquals(1_234, SampleSize.of(1_234, 8));
    // 12 500 keys per partition: 4/sqrt(12500) = 3.6 %, so the 5 % floor
    assertEquals(1_312_500, SampleSize.largestPartition(10_000_000, 8, 100_000));
    // 100 keys per partition: 4/sqrt(100) = 40 %
    assertEquals(14_000, SampleSize.largestPartition(10_000_000, 1_000, 100_000));
    // 2 keys per partition: capped at double
    assertEquals(20_000, SampleSize.largestPartition(10_000_000, 1_000, 2_000));
  }
}

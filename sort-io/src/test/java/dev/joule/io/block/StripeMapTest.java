package dev.joule.io.block;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.testing.TestSeed;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StripeMapTest {
  private static final long SEED = TestSeed.of(StripeMapTest.class, 0x5781_9E4AL);

  /**
   * Reference: walk the file byte range unit by unit, dealing units to segments by the pattern and
   * appending each to its segment, which is what "round robin in the pattern's order" means.
   */
  private static long[][] reference(long base, long unit, int[] pattern, long length) {
    int segments = 0;
    for (int s : pattern) {
      segments = Math.max(segments, s + 1);
    }
    long[] segOf = new long[(int) length];
    long[] offOf = new long[(int) length];
    long[] fill = new long[segments];
    for (int p = 0; p < Math.min(base, length); p++) {
      segOf[p] = 0;
      offOf[p] = p;
    }
    java.util.Arrays.fill(fill, base);
    for (long u = 0; base + u * unit < length; u++) {
      int s = pattern[(int) (u % pattern.length)];
      for (long i = 0; i < unit && base + u * unit + i < length; i++) {
        int p = (int) (base + u * unit + i);
        segOf[p] = s;
        offOf[p] = fill[s] + i;
      }
      fill[s] += unit;
    }
    return new long[][] {segOf, offOf};
  }

  @Test
  void mapsEveryByteAsTheReferenceDoes() {
    Random rnd = new Random(SEED);
    for (int round = 0; round < 200; round++) {
      long base = 4096L * rnd.nextInt(3);
      long unit = 4096L * (1 + rnd.nextInt(3));
      int n = 1 + rnd.nextInt(4);
      int[] pattern =
          rnd.nextBoolean()
              ? identity(n)
              : StripeMap.weightedPattern(weights(rnd, n), n + rnd.nextInt(8));
      StripeMap m = new StripeMap(base, unit, pattern);
      long length = rnd.nextInt((int) (base + unit * 11));
      long[][] ref = reference(base, unit, pattern, length);
      String ctx = "seed " + SEED + " round " + round + " " + m + " length " + length;
      for (int p = 0; p < length; p++) {
        assertEquals(ref[0][p], m.segment(p), ctx + " segment of " + p);
        assertEquals(ref[1][p], m.segmentOffset(p), ctx + " offset of " + p);
        long c = m.contiguous(p);
        assertTrue(c > 0, ctx);
        long last = Math.min(length, p + c) - 1;
        assertEquals(ref[0][p], ref[0][(int) last], ctx + " piece at " + p + " leaves its segment");
        assertEquals(
            ref[1][p] + (last - p),
            ref[1][(int) last],
            ctx + " piece at " + p + " is not contiguous");
        assertTrue(c <= Math.max(base, unit), ctx + " piece at " + p + " longer than a unit");
      }
      long[] lengths = new long[m.segments()];
      for (int s = 0; s < lengths.length; s++) {
        long expected = 0;
        for (int p = 0; p < length; p++) {
          if (ref[0][p] == s) {
            expected = Math.max(expected, ref[1][p] + 1);
          }
        }
        if (s == 0) {
          expected = Math.max(expected, Math.min(length, base));
        }
        lengths[s] = m.segmentLength(s, length);
        assertEquals(expected, lengths[s], ctx + " length of segment " + s);
      }
      assertEquals(length, m.length(lengths), ctx + " file length from " + lengths.length);
    }
  }

  @Test
  void weightedPatternGivesSharesCloseToTheWeights() {
    int[] p = StripeMap.weightedPattern(new double[] {2, 1, 1}, 16);
    int[] count = new int[3];
    for (int s : p) {
      count[s]++;
    }
    assertArrayEquals(new int[] {2, 1, 1}, count);
    for (int i = 1; i < p.length; i++) {
      assertTrue(p[i] != p[i - 1], "the faster segment's units are spread: " + List.of(p));
    }
    int[] even = StripeMap.weightedPattern(new double[] {1, 1, 1, 1}, 8);
    assertEquals(4, even.length);
    assertThrows(
        IllegalArgumentException.class, () -> StripeMap.weightedPattern(new double[] {1, 0}, 4));
    assertThrows(IllegalArgumentException.class, () -> new StripeMap(0, 4096, new int[] {1}));
  }

  @Test
  void stripedFileReadsBackWhatWasWrittenAndSpreadsItsUnits(@TempDir Path dir) throws Exception {
    Random rnd = new Random(SEED);
    List<Path> paths = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      paths.add(dir.resolve("seg" + i));
    }
    FileParts parts =
        FileParts.striped(paths, new int[] {2, 0, 1}, new StripeMap(4096, 8192, identity(3)));
    byte[] data = new byte[4096 + 8192 * 7 + 1234];
    rnd.nextBytes(data);
    List<Path> created = new ArrayList<>();
    try (BlockFile f =
        BlockFile.createNew(parts, DirectIoPolicy.AUTO, NoticeSink.IGNORE, created::add)) {
      assertEquals(paths, created);
      ByteBuffer src = ByteBuffer.allocateDirect(data.length);
      src.put(data).flip();
      f.write(0, src);
      f.truncate(data.length);
      assertEquals(data.length, f.size());
      assertEquals(2, f.stripeAt(0));
      assertEquals(2, f.stripeAt(4096 + 8192 * 3));
      assertEquals(0, f.stripeAt(4096 + 8192));
      assertEquals(1, f.stripeAt(4096 + 8192 * 2 + 5));
    }
    // segment 0: header and units 0, 3, 6; segment 1: units 1, 4, and the tail of unit 7
    assertEquals(4096 + 3 * 8192, Files.size(paths.get(0)));
    assertEquals(4096 + 2 * 8192 + 1234, Files.size(paths.get(1)));
    assertEquals(4096 + 2 * 8192, Files.size(paths.get(2)));
    try (BlockFile f = BlockFile.openRead(parts, DirectIoPolicy.AUTO, NoticeSink.IGNORE)) {
      assertEquals(data.length, f.size());
      for (int i = 0; i < 50; i++) {
        int from = rnd.nextInt(data.length);
        int len = rnd.nextInt(data.length - from + 100);
        ByteBuffer dst = ByteBuffer.allocate(len);
        int got = f.read(from, dst);
        int expect = Math.min(len, data.length - from);
        assertEquals(expect, got, "seed " + SEED + " read at " + from);
        byte[] want = java.util.Arrays.copyOfRange(data, from, from + expect);
        byte[] have = java.util.Arrays.copyOf(dst.array(), got);
        assertArrayEquals(want, have, "seed " + SEED + " read at " + from);
      }
    }
  }

  private static int[] identity(int n) {
    int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = i;
    }
    return p;
  }

  private static double[] weights(Random rnd, int n) {
    double[] w = new double[n];
    for (int i = 0; i < n; i++) {
      w[i] = 0.5 + rnd.nextInt(4);
    }
    return w;
  }
}

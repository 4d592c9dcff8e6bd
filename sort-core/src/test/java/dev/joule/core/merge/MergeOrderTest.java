package dev.joule.core.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MergeOrderTest {
  @Test
  void compareKeysAgreesWithArraysCompareUnsigned() {
    for (int i = 0; i < 2000; i++) {
      MergeTestSeeds.run(
          "compareKeys",
          i,
          seed -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            int len = 1 + rnd.nextInt(40);
            byte[] a = RunFixture.randomBytes(rnd, len);
            byte[] b = a.clone();
            if (rnd.nextInt(4) != 0) {
              int at = rnd.nextInt(len);
              b[at] = (byte) rnd.nextInt(256); // differ in one byte, anywhere (incl. high bit)
            }
            int offA = rnd.nextInt(5);
            int offB = rnd.nextInt(5);
            ByteBuffer ba = place(rnd, a, offA);
            ByteBuffer bb = place(rnd, b, offB);
            int expected = Integer.signum(Arrays.compareUnsigned(a, b));
            assertEquals(expected, Integer.signum(MergeOrder.compareKeys(ba, offA, bb, offB, len)));
            assertEquals(expected, Integer.signum(MergeOrder.compareKey(ba, offA, b)));
          });
    }
  }

  private static ByteBuffer place(SplittableRandom rnd, byte[] key, int offset) {
    // 0..12 random bytes after the key: the last word is read whole when 8 bytes are left, masked,
    // or byte by byte near the buffer's end; the bytes after the key must not matter.
    int size = offset + key.length + rnd.nextInt(13);
    ByteBuffer buf =
        rnd.nextBoolean() ? ByteBuffer.allocate(size) : ByteBuffer.allocateDirect(size);
    buf.order(rnd.nextBoolean() ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
    for (int i = offset + key.length; i < size; i++) {
      buf.put(i, (byte) rnd.nextInt(256));
    }
    buf.put(offset, key);
    return buf;
  }
}

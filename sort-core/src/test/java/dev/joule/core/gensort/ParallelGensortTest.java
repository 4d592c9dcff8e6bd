package dev.joule.core.gensort;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.joule.core.valsort.RecordChecksum;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ParallelGensortTest {
  static final int COUNT = 250_001; // not a multiple of the block size: a short last block
  static final Uint128 START = Uint128.of(0, -100_000L); // crosses 2^64 mid-range

  static byte[] sequential(GensortMode mode) {
    ByteBuffer b = ByteBuffer.allocate(COUNT * 100);
    new GensortGenerator(mode).seek(START).generate(b, COUNT);
    return b.array();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 8})
  void outputAndChecksumDoNotDependOnThreadCount(int threads) throws Exception {
    GensortMode mode = new GensortMode(RecordLayout.ASCII, true);
    byte[] expected = sequential(mode);
    RecordChecksum expectedSum = new RecordChecksum();
    expectedSum.addRecords(ByteBuffer.wrap(expected), 0, COUNT, 100);

    byte[] out = new byte[COUNT * 100];
    RecordChecksum sum =
        new ParallelGensort(mode, threads)
            .run(
                START,
                COUNT,
                (offset, block) -> {
                  assertEquals(
                      Thread.currentThread().getName().startsWith("joule-gensort-"), threads > 1);
                  block.get(out, (int) offset, block.remaining());
                });
    assertArrayEquals(expected, out);
    assertEquals(expectedSum, sum);
    assertEquals(expectedSum, new ParallelGensort(mode, threads).run(START, COUNT, null));
  }

  @Test
  void sinkFailureIsRethrown() {
    IOException boom = new IOException("disk full");
    IOException thrown =
        assertThrows(
            IOException.class,
            () ->
                new ParallelGensort(GensortMode.BINARY, 3)
                    .run(
                        Uint128.ZERO,
                        200_000,
                        (offset, block) -> {
                          throw boom;
                        }));
    assertSame(boom, thrown);
  }

  @Test
  void zeroRecordsGiveAZeroChecksum() throws Exception {
    assertEquals(
        "0", new ParallelGensort(GensortMode.BINARY, 2).run(Uint128.ZERO, 0, null).toHex());
  }
}

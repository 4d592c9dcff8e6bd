package dev.joule.core.key;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * A quick cost harness, not a test: ns per record to normalize 10^6 lines of about 40 bytes with
 * typical keys, best of several passes over heap buffers. Run with {@code java -cp
 * target/classes:target/test-classes dev.joule.core.key.KeyNormalizerCost}.
 */
public final class KeyNormalizerCost {
  private KeyNormalizerCost() {}

  public static void main(String[] args) {
    int n = 1_000_000;
    Random r = new Random(42);
    ByteBuffer data = ByteBuffer.allocate(64 * n);
    int[] off = new int[n];
    int[] len = new int[n];
    String[] words = {"alpha", "Bravo", "charlie", "delta", "Echo", "foxtrot"};
    for (int i = 0; i < n; i++) {
      String line =
          words[r.nextInt(words.length)]
              + " "
              + (r.nextInt(2_000_000) - 1_000_000)
              + "."
              + r.nextInt(1000)
              + " "
              + words[r.nextInt(words.length)]
              + " "
              + Long.toHexString(r.nextLong());
      byte[] b = line.getBytes(StandardCharsets.US_ASCII);
      off[i] = data.position();
      len[i] = b.length;
      data.put(b);
    }
    ByteBuffer dst = ByteBuffer.allocate(1 << 12);
    run("-k2,2n", GnuSortKeys.parse("", -1, List.of("2,2n")), data, off, len, dst);
    run("-k2,2g", GnuSortKeys.parse("", -1, List.of("2,2g")), data, off, len, dst);
    run("-k2,2h", GnuSortKeys.parse("", -1, List.of("2,2h")), data, off, len, dst);
    run("-k1,1 -k2,2nr", GnuSortKeys.parse("", -1, List.of("1,1", "2,2nr")), data, off, len, dst);
    run("whole line -f", GnuSortKeys.parse("f", -1, List.of()), data, off, len, dst);
    run(
        "whole line -r (delimited, inverted)",
        GnuSortKeys.parse("r", -1, List.of()),
        data,
        off,
        len,
        dst);
    runEncoder(n);
  }

  private static void run(
      String what, SortKey key, ByteBuffer data, int[] off, int[] len, ByteBuffer dst) {
    KeyNormalizer norm = KeyNormalizer.compile(key);
    long best = Long.MAX_VALUE;
    long sink = 0;
    for (int pass = 0; pass < 7; pass++) {
      long t = System.nanoTime();
      for (int i = 0; i < off.length; i++) {
        sink += norm.encode(data, off[i], len[i], dst, 0);
      }
      best = Math.min(best, System.nanoTime() - t);
    }
    report(what, best, off.length, sink);
  }

  private static void runEncoder(int n) {
    KeyEncoder.Writer w =
        KeyEncoder.builder()
            .field(KeyEncoder.Type.INT64, false, KeyEncoder.Nulls.NEVER)
            .field(KeyEncoder.Type.UTF8, true, KeyEncoder.Nulls.LAST)
            .field(KeyEncoder.Type.DECIMAL, false, KeyEncoder.Nulls.FIRST)
            .build()
            .newWriter();
    String[] names = {"alpha", "Bravo", "charlie", "delta", "Echo", "foxtrot"};
    long best = Long.MAX_VALUE;
    long sink = 0;
    for (int pass = 0; pass < 7; pass++) {
      long t = System.nanoTime();
      for (int i = 0; i < n; i++) {
        sink += w.reset().int64(i * 31L).utf8(names[i % 6]).decimal(i * 7L, 2).finish().remaining();
      }
      best = Math.min(best, System.nanoTime() - t);
    }
    report("KeyEncoder int64 + utf8 desc + decimal(long, int)", best, n, sink);
  }

  private static void report(String what, long nanos, int n, long sink) {
    System.out.println(
        String.format(
            Locale.ROOT, "%-45s %6.1f ns/record  (%d)", what, (double) nanos / n, sink & 1));
  }
}

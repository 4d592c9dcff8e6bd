package dev.joule.core.merge;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The merge order, written down once: key bytes as unsigned bytes in lexicographic order, then run
 * index (lower first: earlier runs hold earlier input), then position inside the run. {@link
 * TournamentTree}, {@link MergeSplitter} and the benchmark baselines all follow it, which is what
 * makes the merge stable and a split merge byte-identical to a single one.
 *
 * <p>Stateless and thread-safe; nothing here allocates.
 */
public final class MergeOrder {
  private MergeOrder() {}

  /**
   * Compares {@code length} key bytes at absolute index {@code aIndex} of {@code a} with those at
   * {@code bIndex} of {@code b} as unsigned bytes, lexicographically (the order of {@link
   * java.util.Arrays#compareUnsigned(byte[], byte[])}). Either buffer may have either byte order.
   *
   * @return negative, zero or positive as the first key sorts before, equal to, or after the second
   */
  public static int compareKeys(ByteBuffer a, int aIndex, ByteBuffer b, int bIndex, int length) {
    boolean aSwap = a.order() != ByteOrder.BIG_ENDIAN;
    boolean bSwap = b.order() != ByteOrder.BIG_ENDIAN;
    int i = 0;
    // Eight bytes per step: big-endian longs compared unsigned agree with byte-wise memcmp order.
    for (; i <= length - Long.BYTES; i += Long.BYTES) {
      long x = a.getLong(aIndex + i);
      long y = b.getLong(bIndex + i);
      if (aSwap) {
        x = Long.reverseBytes(x);
      }
      if (bSwap) {
        y = Long.reverseBytes(y);
      }
      if (x != y) {
        return Long.compareUnsigned(x, y);
      }
    }
    for (; i < length; i++) {
      int c = (a.get(aIndex + i) & 0xFF) - (b.get(bIndex + i) & 0xFF);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /**
   * Compares {@code key.length} key bytes at absolute index {@code index} of {@code buf} with
   * {@code key}, unsigned and lexicographically.
   */
  public static int compareKey(ByteBuffer buf, int index, byte[] key) {
    for (int i = 0; i < key.length; i++) {
      int c = (buf.get(index + i) & 0xFF) - (key[i] & 0xFF);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /**
   * Compares the current records of two cursors in merge order: prefix, full key, then run index.
   * For baselines and tests; {@link TournamentTree} inlines the same steps over its cached
   * prefixes.
   */
  public static int compare(RunCursor a, int runA, RunCursor b, int runB) {
    int c = Long.compareUnsigned(a.prefix(), b.prefix());
    if (c == 0) {
      c =
          compareKeys(
              a.buffer(),
              a.position() + a.keyOffset(),
              b.buffer(),
              b.position() + b.keyOffset(),
              a.keyLength());
      if (c == 0) {
        c = Integer.compare(runA, runB);
      }
    }
    return c;
  }
}

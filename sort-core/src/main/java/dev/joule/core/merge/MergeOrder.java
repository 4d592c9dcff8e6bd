package dev.joule.core.merge;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.TieBreaker;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The merge order, written down once: key bytes as unsigned bytes in lexicographic order (a key
 * that is a prefix of another first), then the sort's tie breaker on the records if it has one,
 * then run index (lower first: earlier runs hold earlier input), then position inside the run.
 * {@link TournamentTree}, {@link MergeSplitter} and the benchmark baselines all follow it, which is
 * what makes the merge stable and a split merge byte-identical to a single one.
 *
 * <p>Stateless and thread-safe. The comparisons of two buffers allocate nothing (the merge's hot
 * path); those against a probe allocate two buffer views per call, and {@link #probeOf} the probe's
 * copies (the splitter's path, a few thousand calls per merge).
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
      long x = word(a, aIndex + i, aSwap);
      long y = word(b, bIndex + i, bSwap);
      if (x != y) {
        return Long.compareUnsigned(x, y);
      }
    }
    int rest = length - i;
    if (rest > 0 && aIndex + i + Long.BYTES <= a.limit() && bIndex + i + Long.BYTES <= b.limit()) {
      // The last 1..7 bytes as one masked word where both buffers go on for 8 more: short keys
      // (numbers with GNU's last resort: about 12 bytes) spent most of a merge comparison in the
      // byte loop (JFR, 10^7 short lines, -n).
      long x = word(a, aIndex + i, aSwap);
      long y = word(b, bIndex + i, bSwap);
      long mask = -1L << (Long.SIZE - Byte.SIZE * rest);
      return Long.compareUnsigned(x & mask, y & mask);
    }
    for (; i < length; i++) {
      int c = (a.get(aIndex + i) & 0xFF) - (b.get(bIndex + i) & 0xFF);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /** The 8 bytes at {@code index} of {@code buf} as a big-endian word. */
  private static long word(ByteBuffer buf, int index, boolean swap) {
    long w = buf.getLong(index);
    return swap ? Long.reverseBytes(w) : w;
  }

  /**
   * Compares {@code key.length} key bytes at absolute index {@code index} of {@code buf} with
   * {@code key}, unsigned and lexicographically.
   */
  public static int compareKey(ByteBuffer buf, int index, byte[] key) {
    return compareKeyPrefix(buf, index, key, key.length);
  }

  /**
   * Compares the current entries of two cursors in merge order: prefix, full key (a key that is a
   * prefix of the other first), {@code tie} on the records (may be null), then run index. For
   * baselines and tests; {@link TournamentTree} inlines the same steps over its cached prefixes.
   */
  public static int compare(RunCursor a, int runA, RunCursor b, int runB, TieBreaker tie) {
    int c = Long.compareUnsigned(a.prefix(), b.prefix());
    if (c == 0) {
      c = compareKeysAndTies(a, b, tie);
    }
    return c != 0 ? c : Integer.compare(runA, runB);
  }

  /**
   * The full order of two cursors' current entries apart from the run index: key bytes (all of
   * them, lengths last) and then {@code tie} on the records (may be null).
   */
  public static int compareKeysAndTies(RunCursor a, RunCursor b, TieBreaker tie) {
    int la = a.keyLength();
    int lb = b.keyLength();
    int c = compareKeys(a.buffer(), a.keyPosition(), b.buffer(), b.keyPosition(), Math.min(la, lb));
    if (c == 0) {
      c = Integer.compare(la, lb);
    }
    if (c == 0 && tie != null) {
      c =
          tie.compare(
              a.buffer(),
              a.recordPosition(),
              a.recordLength(),
              b.buffer(),
              b.recordPosition(),
              b.recordLength());
    }
    return c;
  }

  /**
   * Compares the entry at {@code at} of {@code b} ({@code layout}) with {@code probe} in merge
   * order without the run index: key bytes, key lengths, then {@code tie} on the records.
   */
  public static int compareToProbe(
      ByteBuffer b, int at, EntryLayout layout, SortedRunView.Probe probe, TieBreaker tie) {
    int kp = layout.keyStart(at);
    int kl = layout.keyLength(b, at);
    byte[] key = probe.key();
    int c = compareKeyPrefix(b, kp, key, Math.min(kl, key.length));
    if (c == 0) {
      c = Integer.compare(kl, key.length);
    }
    if (c == 0 && tie != null) {
      byte[] r = probe.record();
      c =
          tie.compare(
              b,
              layout.recordStart(b, at),
              layout.recordLength(b, at),
              ByteBuffer.wrap(r),
              0,
              r.length);
    }
    return c;
  }

  /** A copy of the key (and, if {@code withRecord}, the record) of the entry at {@code at}. */
  public static SortedRunView.Probe probeOf(
      ByteBuffer b, int at, EntryLayout layout, boolean withRecord) {
    byte[] key = new byte[layout.keyLength(b, at)];
    b.get(layout.keyStart(at), key);
    byte[] record = null;
    if (withRecord) {
      record = new byte[layout.recordLength(b, at)];
      b.get(layout.recordStart(b, at), record);
    }
    return new SortedRunView.Probe(key, record);
  }

  private static int compareKeyPrefix(ByteBuffer buf, int index, byte[] key, int n) {
    // Vectorized: a probe of a line larger than an arena is megabytes long, and equal keys compare
    // to the end.
    int i = buf.slice(index, n).mismatch(ByteBuffer.wrap(key, 0, n));
    return i < 0 ? 0 : (buf.get(index + i) & 0xFF) - (key[i] & 0xFF);
  }
}

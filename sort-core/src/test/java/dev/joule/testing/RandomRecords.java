package dev.joule.testing;

import dev.joule.core.memory.RecordArena;
import dev.joule.core.record.FixedLengthFormat;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;

/**
 * Seeded heap records and an independent reference sort, plus helpers to load records into a {@link
 * RecordArena} through its public window API (as the I/O layer does).
 */
public final class RandomRecords {
  private RandomRecords() {}

  /** {@code n} records of {@code format} with keys of {@code shape}; payload bytes random. */
  public static byte[][] generate(KeyShape shape, int n, FixedLengthFormat format, long seed) {
    int ko = format.key().offset();
    int kl = format.key().length();
    byte[][] keys = shape.keys(n, kl, seed);
    SplittableRandom rnd = new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L);
    byte[][] records = new byte[n][format.recordSize()];
    for (int i = 0; i < n; i++) {
      byte[] r = records[i];
      for (int j = 0; j < r.length; j++) {
        r[j] = (byte) rnd.nextInt(256);
      }
      System.arraycopy(keys[i], 0, r, ko, kl);
    }
    return records;
  }

  /** Arena capacity that holds {@code n} records of {@code recordSize} in slabs of {@code slab}. */
  public static long capacityFor(int n, int recordSize, int slabBytes) {
    int perSlab = slabBytes / recordSize;
    long slabs = Math.max(1, (n + (long) perSlab - 1) / perSlab);
    return slabs * slabBytes;
  }

  /**
   * Writes {@code records} into {@code arena} in order, slab by slab (a record that does not fit
   * the rest of a slab starts the next one), and returns each record's address ({@code slab << 30 |
   * offset}, as in {@code RecordIndex}).
   */
  public static long[] fill(RecordArena arena, byte[][] records, int recordSize) {
    arena.clear();
    long[] addr = new long[records.length];
    int slab = 0;
    ByteBuffer w = arena.writableWindow(0, 0, arena.slabCapacity(0));
    for (int i = 0; i < records.length; i++) {
      if (w.remaining() < recordSize) {
        arena.setFilled(slab, w.position());
        slab++;
        w = arena.writableWindow(slab, 0, arena.slabCapacity(slab));
      }
      addr[i] = ((long) slab << 30) | w.position();
      w.put(records[i]);
    }
    arena.setFilled(slab, w.position());
    return addr;
  }

  /**
   * Reference: the records of {@code data} ({@code recordSize} bytes each, back to back) sorted
   * stably by their {@code keyLength} key bytes at {@code keyOffset}, unsigned, lexicographically:
   * the definition, as a comparator, and a JDK merge sort.
   */
  public static byte[] referenceSort(byte[] data, int recordSize, int keyOffset, int keyLength) {
    int n = data.length / recordSize;
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort( // Arrays.sort of objects is a merge sort: stable
        order,
        (a, b) ->
            Arrays.compareUnsigned(
                data,
                a * recordSize + keyOffset,
                a * recordSize + keyOffset + keyLength,
                data,
                b * recordSize + keyOffset,
                b * recordSize + keyOffset + keyLength));
    byte[] sorted = new byte[n * recordSize];
    for (int i = 0; i < n; i++) {
      System.arraycopy(data, order[i] * recordSize, sorted, i * recordSize, recordSize);
    }
    return sorted;
  }

  /** Reference: the ordinals {@code [from, to)} sorted stably by unsigned key bytes. */
  public static int[] referenceOrder(byte[][] records, FixedLengthFormat format, int from, int to) {
    int ko = format.key().offset();
    int ke = format.key().end();
    Integer[] ord = new Integer[to - from];
    for (int i = 0; i < ord.length; i++) {
      ord[i] = from + i;
    }
    Comparator<Integer> byKey =
        (a, b) -> Arrays.compareUnsigned(records[a], ko, ke, records[b], ko, ke);
    Arrays.sort(ord, byKey.thenComparing(Comparator.naturalOrder()));
    int[] out = new int[ord.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = ord[i];
    }
    return out;
  }
}

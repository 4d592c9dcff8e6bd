package dev.joule.core.radix;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.index.TieBreaker;
import dev.joule.core.memory.RecordArena;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Entries of a one-byte key and a record, sorted by the radix sorter with a tie breaker, and the
 * order a stable sort of heap records by the same definition gives (key, then the records' unsigned
 * bytes, then input order).
 */
final class TieFixture {
  private TieFixture() {}

  /** The input positions of the entries in the order the radix sorter leaves them. */
  static int[] radixOrder(byte[] keys, byte[][] records, TieBreaker tie) {
    int n = keys.length;
    EntryLayout layout = EntryLayout.derived(0, 0);
    try (RecordArena arena = RecordArena.allocate(1 << 20, 1 << 20);
        RunSorter sorter = RunSorter.radix(1)) {
      RecordIndex index = RecordIndex.allocate(n);
      index.bind(arena.view(), layout, tie);
      ByteBuffer slab = arena.writableWindow(0, 0, arena.slabCapacity(0));
      int at = 0;
      int[] offsets = new int[n];
      for (int i = 0; i < n; i++) {
        int length = records[i].length;
        int p = layout.writeHeader(slab, at, length, 1);
        slab.put(p, keys[i]);
        slab.put(p + 1, records[i]);
        offsets[i] = at;
        index.add(0, at);
        at += layout.entryLength(length, 1);
      }
      arena.setFilled(0, at);
      sorter.sort(index, 0, n);
      int[] order = new int[n];
      for (int i = 0; i < n; i++) {
        order[i] = Arrays.binarySearch(offsets, RecordIndex.offsetOf(index.ref(i)));
      }
      return order;
    }
  }

  /** The reference order of the same entries. */
  static int[] referenceOrder(byte[] keys, byte[][] records) {
    Integer[] expected = new Integer[keys.length];
    Arrays.setAll(expected, i -> i);
    Arrays.sort( // stable: equal records keep input order
        expected,
        Comparator.<Integer>comparingInt(i -> keys[i] & 0xFF)
            .thenComparing((x, y) -> Arrays.compareUnsigned(records[x], records[y])));
    return Arrays.stream(expected).mapToInt(Integer::intValue).toArray();
  }
}

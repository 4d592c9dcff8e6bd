package dev.joule.core.key;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.joule.core.index.TieGroup;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A tie group of a key whose fields from the first inexact one on are all collated in a locale
 * (GNU's {@code -k2,2} there: the field, then the whole line as the last resort): each record's
 * fields are located and copied once, as the C strings {@code strcoll_l} reads, into one native
 * block, and the group's comparisons go to the C library with no copy and no field scan.
 *
 * <p>Why: a tie group of 250 lines ordered in place costs about 1,700 comparisons, each of which
 * located both lines' fields (the first touches of their arena memory) and copied both lines into
 * the scratch string; on 2.5·10^7 lines in en_US.UTF-8 that was 31 of the tie breaker's 70 CPU-s,
 * {@code strcoll_l} itself 10 (sort-bench/README.md, "Sorting in a locale").
 *
 * <p>One per thread ({@link #local}); the block grows by doubling to {@link #CAPACITY} bytes and
 * stays (a group larger than that is ordered in place). Freed by JNA's cleaner with the thread.
 */
final class CollatedTies implements TieGroup {
  /**
   * The most a thread's block holds: 5,000 lines of 50 bytes. Outside the budget, like the radix
   * scratch (docs/design.md).
   */
  static final int CAPACITY = 1 << 18;

  private static final int INITIAL = 1 << 14;

  private static final ThreadLocal<CollatedTies> LOCAL = ThreadLocal.withInitial(CollatedTies::new);

  private FieldCodec.Collated[] fields;
  private Memory block;
  private ByteBuffer view;
  private long address;
  private int used;
  private int count;
  // per record and field: where its C string starts in the block, and its length
  private int[] strings = new int[256];

  private CollatedTies() {
    grow(INITIAL, 0);
  }

  /** The calling thread's group for {@code fields}, emptied. */
  static CollatedTies local(FieldCodec.Collated[] fields) {
    CollatedTies t = LOCAL.get();
    t.fields = fields;
    t.used = 0;
    t.count = 0;
    return t;
  }

  @Override
  public boolean add(ByteBuffer buffer, int start, int length) {
    int slot = count * fields.length * 2;
    if (slot + fields.length * 2 > strings.length) {
      strings = Arrays.copyOf(strings, 2 * strings.length);
    }
    int at = used;
    for (int f = 0; f < fields.length; f++) {
      FieldCodec.Collated c = fields[f];
      long r = c.locate(buffer, start, length);
      int s = (int) (r >>> 32);
      int e = (int) r;
      int n = c.stage(buffer, s, e, view, at, view.capacity() - at);
      while (n < 0) {
        if (view.capacity() >= CAPACITY || (long) at + (e - s) + 1 > CAPACITY) {
          return false; // nothing counted: used and count are unchanged
        }
        grow(2 * view.capacity(), at);
        n = c.stage(buffer, s, e, view, at, view.capacity() - at);
      }
      strings[slot + 2 * f] = at;
      strings[slot + 2 * f + 1] = n;
      at += n + 1;
    }
    used = at;
    count++;
    return true;
  }

  @Override
  public int compare(int a, int b) {
    int n = fields.length * 2;
    return FieldCodec.Collated.compareStagedFields(
        fields, view, address, strings, a * n, view, address, strings, b * n);
  }

  /** Replaces the block with one of {@code size} bytes holding the old one's first {@code keep}. */
  private void grow(int size, int keep) {
    Memory m = new Memory(size);
    ByteBuffer v = m.getByteBuffer(0, size).order(ByteOrder.nativeOrder()); // equality only
    if (block != null) {
      v.put(0, view, 0, keep);
      block.close();
    }
    block = m;
    view = v;
    address = Pointer.nativeValue(m);
  }
}

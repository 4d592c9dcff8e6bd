package dev.joule.core.key;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.joule.core.index.TieSlots;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@link TieSlots} of a key whose fields from the first inexact one on are all collated: each slot
 * holds one record's fields as the C strings {@code strcoll_l} reads, located and copied once, in a
 * native block of its own that grows to the longest record it has held (and drops back after one
 * beyond {@link Strxfrm#KEEP}).
 *
 * <p>Why: a merge of runs in a locale compares the head of a run about log2(runs) times, plus once
 * with the record before it in the same run; each of those comparisons located both records' fields
 * and copied both into the scratch string (sort-bench/README.md, "Sorting in a locale").
 *
 * <p>Owned by one merge; the blocks are freed by JNA's cleaner when it is dropped, or at once when
 * replaced.
 */
final class CollatedSlots implements TieSlots {
  /** A slot's first block: a line of about 250 bytes. */
  private static final int INITIAL = 256;

  private final FieldCodec.Collated[] fields;
  private final Memory[] blocks;
  private final ByteBuffer[] views;
  private final long[] addresses;
  // per slot and field: where its C string starts in the slot's block, and its length
  private final int[][] strings;

  CollatedSlots(FieldCodec.Collated[] fields, int count) {
    this.fields = fields;
    this.blocks = new Memory[count];
    this.views = new ByteBuffer[count];
    this.addresses = new long[count];
    this.strings = new int[count][2 * fields.length];
  }

  @Override
  public void set(int slot, ByteBuffer buffer, int start, int length) {
    // each field lies within the record and its copy is never longer than it, NUL added
    long need = (long) fields.length * (length + 1);
    if (need > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("a record of " + length + " bytes is too long to compare");
    }
    if (views[slot] == null
        || views[slot].capacity() < need
        || views[slot].capacity() > Math.max(Strxfrm.KEEP, need)) {
      resize(slot, (int) Math.max(INITIAL, need));
    }
    ByteBuffer view = views[slot];
    int[] at = strings[slot];
    int pos = 0;
    for (int f = 0; f < fields.length; f++) {
      FieldCodec.Collated c = fields[f];
      long r = c.locate(buffer, start, length);
      int s = (int) (r >>> 32);
      int e = (int) r;
      int n = c.stage(buffer, s, e, view, pos, view.capacity() - pos);
      at[2 * f] = pos;
      at[2 * f + 1] = n;
      pos += n + 1;
    }
  }

  @Override
  public int compare(int a, int b) {
    return FieldCodec.Collated.compareStagedFields(
        fields, views[a], addresses[a], strings[a], 0, views[b], addresses[b], strings[b], 0);
  }

  @Override
  public boolean identical(int a, int b) {
    int[] sa = strings[a];
    int[] sb = strings[b];
    for (int f = 0; f < fields.length; f++) {
      int n = sa[2 * f + 1];
      if (n != sb[2 * f + 1]
          || !FieldCodec.Collated.sameBytes(views[a], sa[2 * f], views[b], sb[2 * f], n)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void swap(int a, int b) {
    Memory m = blocks[a];
    blocks[a] = blocks[b];
    blocks[b] = m;
    ByteBuffer v = views[a];
    views[a] = views[b];
    views[b] = v;
    long address = addresses[a];
    addresses[a] = addresses[b];
    addresses[b] = address;
    int[] s = strings[a];
    strings[a] = strings[b];
    strings[b] = s;
  }

  private void resize(int slot, int size) {
    if (blocks[slot] != null) {
      blocks[slot].close();
    }
    Memory m = new Memory(size);
    blocks[slot] = m;
    views[slot] = m.getByteBuffer(0, size).order(ByteOrder.nativeOrder()); // equality only
    addresses[slot] = Pointer.nativeValue(m);
  }
}

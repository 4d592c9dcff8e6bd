package dev.joule.testing;

import dev.joule.core.index.TieSlots;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * {@link TieSlots} on the heap for tests of their users: each slot holds the record's bytes from
 * {@code skip} on, compared unsigned; {@link #copies} counts the records copied in.
 */
public final class HeapTieSlots implements TieSlots {
  private final byte[][] held;
  private final int skip;

  /** Records copied into a slot so far. */
  public long copies;

  public HeapTieSlots(int count, int skip) {
    this.held = new byte[count][];
    this.skip = skip;
  }

  @Override
  public void set(int slot, ByteBuffer buffer, int start, int length) {
    copies++;
    held[slot] = new byte[length - skip];
    buffer.get(start + skip, held[slot]);
  }

  @Override
  public int compare(int a, int b) {
    return Arrays.compareUnsigned(held[a], held[b]);
  }

  @Override
  public boolean identical(int a, int b) {
    return Arrays.equals(held[a], held[b]);
  }

  @Override
  public void swap(int a, int b) {
    byte[] t = held[a];
    held[a] = held[b];
    held[b] = t;
  }
}

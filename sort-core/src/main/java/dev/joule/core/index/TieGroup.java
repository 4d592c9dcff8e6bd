package dev.joule.core.index;

import java.nio.ByteBuffer;

/**
 * A group of records with equal keys, copied aside once to be ordered by their {@link TieBreaker}
 * many times: where each comparison would otherwise locate its fields in both records again and
 * copy them into the C library's strings (a key in a locale, D33), a group of g records costs g
 * such copies instead of about 2·g·log2(g).
 *
 * <p>Records are numbered in the order they are added, from 0. Confined to the thread that got it
 * from {@link TieBreaker#group()}, and valid until that thread asks for a group again.
 */
public interface TieGroup {
  /**
   * Copies the record {@code [start, start + length)} of {@code buffer} into the group as the next
   * number; false, with nothing added, when the group's scratch cannot hold it (the caller then
   * compares the records where they are).
   */
  boolean add(ByteBuffer buffer, int start, int length);

  /** {@link TieBreaker#compare} of the records numbered {@code a} and {@code b}. */
  int compare(int a, int b);
}

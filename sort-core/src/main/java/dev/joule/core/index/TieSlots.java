package dev.joule.core.index;

import java.nio.ByteBuffer;

/**
 * Numbered copies of records, each replaced as often as needed, compared by their {@link
 * TieBreaker}: a merge keeps the record at the head of each of its runs here, so that the several
 * comparisons a head takes part in (about log2 of the runs) locate and copy its fields once (a key
 * in a locale, D33).
 *
 * <p>Owned by one merge and confined to its thread.
 */
public interface TieSlots {
  /** Copies the record {@code [start, start + length)} of {@code buffer} into slot {@code slot}. */
  void set(int slot, ByteBuffer buffer, int start, int length);

  /** {@link TieBreaker#compare} of the records in slots {@code a} and {@code b}. */
  int compare(int a, int b);

  /**
   * Whether slots {@code a} and {@code b} hold copies that are the same bytes, which {@link
   * #compare} calls equal without asking the C library; false says nothing about their order.
   */
  boolean identical(int a, int b);

  /** Exchanges what slots {@code a} and {@code b} hold. */
  void swap(int a, int b);
}

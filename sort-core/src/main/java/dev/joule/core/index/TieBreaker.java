package dev.joule.core.index;

import java.nio.ByteBuffer;

/**
 * Orders two records whose normalized keys are equal, for what a byte encoding cannot express: a
 * key field without an exact encoding (GNU's version order) and GNU's last-resort comparison of
 * whole records. Sorters call it only on equal keys; entries it calls equal stay in input order.
 *
 * <p>Implementations are stateless and thread-safe (sorters call them from several threads), read
 * the buffers with absolute accessors only and allocate nothing.
 */
@FunctionalInterface
public interface TieBreaker {
  /**
   * Compares record {@code [aStart, aStart + aLength)} of {@code a} with record {@code [bStart,
   * bStart + bLength)} of {@code b}.
   *
   * @return negative, zero or positive as the first record sorts before, equal to, or after the
   *     second
   */
  int compare(ByteBuffer a, int aStart, int aLength, ByteBuffer b, int bStart, int bLength);

  /**
   * This calling thread's {@link TieGroup} for this order, emptied; null when this tie breaker
   * gains nothing from copying records aside (the default).
   */
  default TieGroup group() {
    return null;
  }

  /**
   * New {@link TieSlots} for this order, {@code count} of them; null when this tie breaker gains
   * nothing from copying records aside (the default).
   */
  default TieSlots slots(int count) {
    return null;
  }
}

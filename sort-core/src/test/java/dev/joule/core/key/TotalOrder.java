package dev.joule.core.key;

/**
 * IEEE 754 totalOrder from Java's comparisons: {@link Double#compare} already puts -0 before +0;
 * NaNs are placed by sign (negative NaNs first, positive last) and ordered among themselves by
 * payload, larger payloads further from zero.
 */
final class TotalOrder {
  private TotalOrder() {}

  /** {@code bitsA}/{@code bitsB} are the raw bits; {@code mantissaBits} 23 or 52. */
  static int compare(double a, double b, long bitsA, long bitsB, int mantissaBits) {
    boolean nanA = Double.isNaN(a);
    boolean nanB = Double.isNaN(b);
    if (!nanA && !nanB) {
      return Double.compare(a, b);
    }
    int signBit = mantissaBits == 23 ? 31 : 63;
    boolean negA = ((bitsA >>> signBit) & 1) != 0;
    boolean negB = ((bitsB >>> signBit) & 1) != 0;
    int rankA = nanA ? (negA ? -1 : 1) : 0;
    int rankB = nanB ? (negB ? -1 : 1) : 0;
    if (rankA != rankB) {
      return Integer.compare(rankA, rankB);
    }
    long mask = (1L << mantissaBits) - 1;
    int byPayload = Long.compare(bitsA & mask, bitsB & mask);
    return negA ? -byPayload : byPayload;
  }
}

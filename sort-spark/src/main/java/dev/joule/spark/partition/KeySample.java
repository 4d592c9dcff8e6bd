package dev.joule.spark.partition;

import java.io.Serializable;

/**
 * Sort keys sampled from one slice of the input, packed into one array, and the number of input
 * records each of them stands for. Immutable once built; the array is not copied.
 */
public final class KeySample implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int keyLength;
  private final byte[] keys;
  private final double weight;

  /**
   * @param keyLength bytes per sort key
   * @param keys the sampled keys, {@code keyLength} bytes each, in any order
   * @param weight input records per sampled key (records in the slice / keys sampled)
   */
  public KeySample(int keyLength, byte[] keys, double weight) {
    if (keyLength < 1 || keys.length % keyLength != 0) {
      throw new IllegalArgumentException(
          keys.length + " bytes are not whole keys of " + keyLength + " bytes");
    }
    if (!(weight > 0) || Double.isInfinite(weight)) {
      throw new IllegalArgumentException("weight must be positive: " + weight);
    }
    this.keyLength = keyLength;
    this.keys = keys;
    this.weight = weight;
  }

  public int keyLength() {
    return keyLength;
  }

  public int size() {
    return keys.length / keyLength;
  }

  public double weight() {
    return weight;
  }

  /** The packed keys (not a copy). */
  byte[] packed() {
    return keys;
  }
}

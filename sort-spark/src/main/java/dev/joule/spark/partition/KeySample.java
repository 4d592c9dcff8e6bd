package dev.joule.spark.partition;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;

/**
 * Sort keys sampled from one slice of the input and the number of input records each of them stands
 * for: keys of one length packed into one array (the file sort's), or keys of any length (the pair
 * sort's encoded keys). Immutable once built; the arrays are not copied.
 */
public final class KeySample implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int keyLength; // 0: keys of any length, in varKeys
  private final byte[] keys;
  private final byte[][] varKeys;
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
    checkWeight(weight);
    this.keyLength = keyLength;
    this.keys = keys;
    this.varKeys = null;
    this.weight = weight;
  }

  private KeySample(byte[][] keys, double weight) {
    checkWeight(weight);
    this.keyLength = Splitters.ANY_LENGTH;
    this.keys = null;
    this.varKeys = keys;
    this.weight = weight;
  }

  /**
   * Keys of any length.
   *
   * @param keys the sampled keys, in any order
   * @param weight input records per sampled key
   */
  public static KeySample ofKeys(List<byte[]> keys, double weight) {
    return new KeySample(keys.toArray(new byte[0][]), weight);
  }

  private static void checkWeight(double weight) {
    if (!(weight > 0) || Double.isInfinite(weight)) {
      throw new IllegalArgumentException("weight must be positive: " + weight);
    }
  }

  /** Bytes per key, or {@link Splitters#ANY_LENGTH}. */
  public int keyLength() {
    return keyLength;
  }

  public int size() {
    return varKeys != null ? varKeys.length : keys.length / keyLength;
  }

  public double weight() {
    return weight;
  }

  /** Key {@code i} (a copy for packed keys, else the sampled array itself). */
  byte[] key(int i) {
    return varKeys != null
        ? varKeys[i]
        : Arrays.copyOfRange(keys, i * keyLength, (i + 1) * keyLength);
  }
}

package dev.joule.spark.record;

import dev.joule.core.key.KeyEncoder;
import java.nio.ByteBuffer;

/**
 * The engine's key of a key/value pair: the pair's key, then its global ordinal, built by joule's
 * {@link KeyEncoder} as a {@code BYTES} field and an {@code INT64} field, so that the unsigned byte
 * order of the engine keys is the order of (key as {@link java.util.Arrays#compareUnsigned(byte[],
 * byte[])}, ordinal). The ordinal makes every engine key unique: splitters may cut a run of equal
 * keys anywhere, and equal keys come out in input order whatever order the shuffle delivered them
 * in.
 *
 * <pre>
 * [ key, each 0x00 written 0x00 0xFF | 0x00 0x01 | ordinal, 8 bytes big-endian, sign bit flipped ]
 * </pre>
 *
 * <p>{@link #key} recovers the pair's key from an engine key, so the pair need not carry it twice.
 * Immutable and thread-safe; a {@link KeyEncoder.Writer} from {@link #newWriter()} is not.
 */
public final class PairKey {
  /** Bytes an engine key adds to a key without zero bytes: the terminator and the ordinal. */
  public static final int OVERHEAD = 2 + 8;

  private static final KeyEncoder ENCODER =
      KeyEncoder.builder()
          .field(KeyEncoder.Type.BYTES, false, KeyEncoder.Nulls.NEVER)
          .field(KeyEncoder.Type.INT64, false, KeyEncoder.Nulls.NEVER)
          .build();

  private PairKey() {}

  /** A writer of engine keys; one per thread. */
  public static KeyEncoder.Writer newWriter() {
    return ENCODER.newWriter();
  }

  /** Writes the engine key of {@code key} with {@code ordinal} into {@code w}; see its finish(). */
  public static KeyEncoder.Writer encode(KeyEncoder.Writer w, byte[] key, long ordinal) {
    return w.reset().bytes(key).int64(ordinal);
  }

  /** The engine key of {@code key} with {@code ordinal}, as a new array. */
  public static byte[] encode(byte[] key, long ordinal) {
    return encode(newWriter(), key, ordinal).toByteArray();
  }

  /** The length of {@code key}'s engine key. */
  public static int encodedLength(byte[] key) {
    int n = key.length + OVERHEAD;
    for (byte b : key) {
      if (b == 0) {
        n++;
      }
    }
    return n;
  }

  /**
   * The pair's key inside the engine key from {@code engineKey}'s position to its limit (position
   * unchanged).
   *
   * @throws IllegalArgumentException when the bytes are not an engine key
   */
  public static byte[] key(ByteBuffer engineKey) {
    int from = engineKey.position();
    int end = engineKey.limit() - OVERHEAD; // the terminator's first byte
    if (end < from || engineKey.get(end) != 0 || engineKey.get(end + 1) != 1) {
      throw malformed(engineKey);
    }
    int zeros = 0;
    for (int i = from; i < end; i++) {
      if (engineKey.get(i) == 0) {
        if (i + 1 >= end || engineKey.get(i + 1) != (byte) 0xFF) {
          throw malformed(engineKey);
        }
        zeros++;
        i++;
      }
    }
    byte[] key = new byte[end - from - zeros];
    int at = 0;
    for (int i = from; i < end; i++) {
      byte b = engineKey.get(i);
      key[at++] = b;
      if (b == 0) {
        i++; // the escape's 0xFF
      }
    }
    return key;
  }

  /** The ordinal inside the engine key from {@code engineKey}'s position to its limit. */
  public static long ordinal(ByteBuffer engineKey) {
    return engineKey.getLong(engineKey.limit() - 8) ^ Long.MIN_VALUE;
  }

  private static IllegalArgumentException malformed(ByteBuffer b) {
    return new IllegalArgumentException(
        "not an engine key of a pair: " + b.remaining() + " bytes without a valid key and ordinal");
  }
}

package dev.joule.spark.record;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * How the pair sort's map tasks lay out pairs in a shuffled chunk, and how the reduce task reads
 * them back: each pair is its engine key ({@link PairKey}) and its value, both length-prefixed, so
 * that the reduce task hands them to joule's key/value session without decoding anything.
 *
 * <pre>
 * [ engine key length (4) | engine key | value length (4) | value ] ...
 * </pre>
 *
 * <p>Lengths are big-endian. Stateless.
 */
public final class PairEntries {
  /** Bytes of the two length fields. */
  public static final int HEADER = 8;

  private static final VarHandle INT_BE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

  private PairEntries() {}

  /** What {@link #forEach} hands out: a pair's engine key and value, as ranges of the chunk. */
  @FunctionalInterface
  public interface PairConsumer {
    void accept(byte[] chunk, int keyOff, int keyLen, int valueOff, int valueLen)
        throws IOException;
  }

  /** The length of the entry of an engine key of {@code keyLen} and a value of {@code valueLen}. */
  public static long entryLength(int keyLen, int valueLen) {
    return (long) HEADER + keyLen + valueLen;
  }

  /** Writes the two length fields of an entry whose engine key starts at {@code dst[4]}. */
  public static void writeLengths(byte[] dst, int keyLen, int valueLen) {
    INT_BE.set(dst, 0, keyLen);
    INT_BE.set(dst, 4 + keyLen, valueLen);
  }

  /** Where an entry's value starts, for an engine key of {@code keyLen}. */
  public static int valueOffset(int keyLen) {
    return HEADER + keyLen;
  }

  /**
   * Hands every entry of {@code chunk} to {@code consumer}, in order.
   *
   * @throws IllegalArgumentException when the chunk is not whole entries
   */
  public static void forEach(byte[] chunk, PairConsumer consumer) throws IOException {
    int at = 0;
    while (at < chunk.length) {
      if (chunk.length - at < HEADER) {
        throw truncated(chunk, at);
      }
      int keyLen = (int) INT_BE.get(chunk, at);
      int keyOff = at + 4;
      if (keyLen < 0 || keyLen > chunk.length - keyOff - 4) {
        throw truncated(chunk, at);
      }
      int valueLen = (int) INT_BE.get(chunk, keyOff + keyLen);
      int valueOff = keyOff + keyLen + 4;
      if (valueLen < 0 || valueLen > chunk.length - valueOff) {
        throw truncated(chunk, at);
      }
      consumer.accept(chunk, keyOff, keyLen, valueOff, valueLen);
      at = valueOff + valueLen;
    }
  }

  private static IllegalArgumentException truncated(byte[] chunk, int at) {
    return new IllegalArgumentException(
        "a chunk of " + chunk.length + " bytes holds no whole pair at offset " + at);
  }
}

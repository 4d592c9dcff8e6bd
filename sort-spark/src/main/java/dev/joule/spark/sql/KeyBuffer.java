package dev.joule.spark.sql;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.spark.unsafe.Platform;

/**
 * The growable byte array one row's sort key is written into, big-endian, and a {@link ByteBuffer}
 * over it for the engine. Reused row after row: writing a key allocates only when the key is longer
 * than every key before it. Not thread-safe: one per task.
 */
final class KeyBuffer {
  /** A key's first array; most keys of fixed-size columns fit it. */
  private static final int INITIAL_BYTES = 64;

  private byte[] bytes = new byte[INITIAL_BYTES];
  private ByteBuffer view = ByteBuffer.wrap(bytes);
  private int length;

  /** Starts a new key. */
  void reset() {
    length = 0;
  }

  /** The key written since {@link #reset()}: position 0, limit its length; valid until then. */
  ByteBuffer key() {
    return view.limit(length).position(0);
  }

  int length() {
    return length;
  }

  /** A copy of the key, for tests. */
  byte[] toByteArray() {
    return Arrays.copyOf(bytes, length);
  }

  private void ensure(int more) {
    if (length + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
      view = ByteBuffer.wrap(bytes);
    }
  }

  void put1(int b) {
    ensure(1);
    bytes[length++] = (byte) b;
  }

  void put2(int v) {
    ensure(2);
    bytes[length] = (byte) (v >>> 8);
    bytes[length + 1] = (byte) v;
    length += 2;
  }

  void put4(int v) {
    ensure(4);
    bytes[length] = (byte) (v >>> 24);
    bytes[length + 1] = (byte) (v >>> 16);
    bytes[length + 2] = (byte) (v >>> 8);
    bytes[length + 3] = (byte) v;
    length += 4;
  }

  void put8(long v) {
    put4((int) (v >>> 32));
    put4((int) v);
  }

  /** Appends {@code n} bytes at {@code base}/{@code offset} as Spark's {@link Platform} reads. */
  void putRaw(Object base, long offset, int n) {
    ensure(n);
    Platform.copyMemory(base, offset, bytes, Platform.BYTE_ARRAY_OFFSET + length, n);
    length += n;
  }

  /**
   * Appends {@code n} bytes so that the code is prefix-free and orders as the bytes do, shorter
   * first: each {@code 0x00} becomes {@code 0x00 0xFF}, and the end is {@code 0x00 0x01}, which
   * sorts before any continuation.
   */
  void putEscaped(Object base, long offset, int n) {
    ensure(n + 2);
    int start = length;
    Platform.copyMemory(base, offset, bytes, Platform.BYTE_ARRAY_OFFSET + start, n);
    int zeros = 0;
    for (int i = start; i < start + n; i++) {
      if (bytes[i] == 0) {
        zeros++;
      }
    }
    if (zeros > 0) {
      ensure(n + zeros + 2);
      // spread from the end, so that each zero is followed by 0xFF, in place
      int dst = start + n + zeros - 1;
      for (int src = start + n - 1; src >= start; src--) {
        byte b = bytes[src];
        if (b == 0) {
          bytes[dst--] = (byte) 0xFF;
        }
        bytes[dst--] = b;
      }
    }
    length = start + n + zeros;
    bytes[length] = 0;
    bytes[length + 1] = 1;
    length += 2;
  }

  /** Inverts the bytes from {@code start} to the end: the code then orders descending. */
  void invertFrom(int start) {
    for (int i = start; i < length; i++) {
      bytes[i] = (byte) ~bytes[i];
    }
  }
}

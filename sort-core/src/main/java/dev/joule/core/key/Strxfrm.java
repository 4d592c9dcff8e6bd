package dev.joule.core.key;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.nio.ByteBuffer;

/**
 * One thread's native scratch for {@code strxfrm_l}: the key text as a C string, and the
 * transform's output, each a block of the C heap ({@link Memory}) with a direct {@link ByteBuffer}
 * view for the JDK's bulk copies in and out. Both grow to the longest key seen and stay at that
 * size; {@link #release} gives back blocks that grew past {@link #KEEP} bytes, so that one huge
 * line does not pin its transform's memory to the thread.
 *
 * <p>Not thread-safe: one per thread ({@link #local()}). The blocks are freed by JNA's cleaner once
 * the thread and its scratch are gone, or at once when replaced.
 */
final class Strxfrm {
  /** The output block a scratch starts with: the transform of a line of about 500 bytes. */
  private static final int INITIAL = 4096;

  /** Blocks larger than this are dropped after use (a few MB would be held per parse thread). */
  static final int KEEP = 1 << 20;

  private static final ThreadLocal<Strxfrm> SCRATCH = ThreadLocal.withInitial(Strxfrm::new);

  private Memory in;
  private ByteBuffer inView;
  private long inAddress;
  private Memory out;
  private ByteBuffer outView;
  private long outAddress;

  private Strxfrm() {
    growIn(INITIAL);
    growOut(INITIAL);
  }

  /** The calling thread's scratch. */
  static Strxfrm local() {
    return SCRATCH.get();
  }

  /** The input block, with room for {@code length} bytes and a NUL after them. */
  ByteBuffer input(int length) {
    if (length + 1 > inView.capacity()) {
      growIn(Math.max(length + 1, 2 * inView.capacity()));
    }
    return inView;
  }

  /** The native address of the input block. */
  long inputAddress() {
    return inAddress;
  }

  /** The output block: {@link #transform(long, int)}'s result is at its start. */
  ByteBuffer output() {
    return outView;
  }

  /**
   * {@code strxfrm_l} of the C string at {@code from} of the input block, into the output block
   * (grown as needed); returns the transform's length.
   */
  int transform(long locale, int from) {
    long n = ForeignCalls.strxfrm(outAddress, inAddress + from, outView.capacity(), locale);
    if (n >= outView.capacity()) {
      if (n >= Integer.MAX_VALUE - 1) {
        throw new IllegalArgumentException("a key's collation transform exceeds 2 GiB");
      }
      growOut((int) Math.max(n + 1, Math.min(Integer.MAX_VALUE - 1L, 2L * outView.capacity())));
      n = ForeignCalls.strxfrm(outAddress, inAddress + from, outView.capacity(), locale);
    }
    return (int) n;
  }

  /** Drops blocks that grew beyond {@link #KEEP}, after a huge key. */
  void release() {
    if (inView.capacity() > KEEP) {
      growIn(INITIAL);
    }
    if (outView.capacity() > KEEP) {
      growOut(INITIAL);
    }
  }

  private void growIn(int size) {
    Memory m = new Memory(size);
    if (in != null) {
      in.close();
    }
    in = m;
    inView = m.getByteBuffer(0, size);
    inAddress = Pointer.nativeValue(m);
  }

  private void growOut(int size) {
    Memory m = new Memory(size);
    if (out != null) {
      out.close();
    }
    out = m;
    outView = m.getByteBuffer(0, size);
    outAddress = Pointer.nativeValue(m);
  }

  /** {@code strxfrm_l} of {@code text} (no NUL byte in it) as a new array. */
  static byte[] transform(long locale, byte[] text) {
    Strxfrm x = local();
    ByteBuffer in = x.input(text.length);
    in.put(0, text);
    in.put(text.length, (byte) 0);
    int n = x.transform(locale, 0);
    byte[] r = new byte[n];
    x.outView.get(0, r);
    x.release();
    return r;
  }

  /** The {@code length} bytes at native address {@code address}. */
  static byte[] bytesAt(long address, int length) {
    return new Pointer(address).getByteArray(0, length);
  }
}

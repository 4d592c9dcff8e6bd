package dev.joule.core.key;

import java.nio.ByteBuffer;
import java.util.Arrays;

/** Shared helpers: normalized keys as arrays, full comparison through the normalizer. */
final class KeyTesting {
  private KeyTesting() {}

  static byte[] normalize(KeyNormalizer n, byte[] record) {
    ByteBuffer rec = ByteBuffer.wrap(record);
    ByteBuffer dst = ByteBuffer.allocate(n.maxKeyLength(record.length));
    int len = n.encode(rec, 0, record.length, dst, 0);
    if (len < 0) {
      throw new AssertionError("maxKeyLength too small: " + n);
    }
    return Arrays.copyOf(dst.array(), len);
  }

  /** The key order of two records as the engine would compute it (no last resort). */
  static int compare(KeyNormalizer n, byte[] a, byte[] ka, byte[] b, byte[] kb) {
    int d = Arrays.compareUnsigned(ka, kb);
    if (d != 0) {
      return Integer.signum(d);
    }
    return Integer.signum(
        n.compareTail(ByteBuffer.wrap(a), 0, a.length, ByteBuffer.wrap(b), 0, b.length));
  }

  static String show(byte[] b) {
    StringBuilder s = new StringBuilder("\"");
    for (byte x : b) {
      int c = x & 0xFF;
      if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
        s.append((char) c);
      } else {
        s.append(String.format(java.util.Locale.ROOT, "\\x%02x", c));
      }
    }
    return s.append('"').toString();
  }
}

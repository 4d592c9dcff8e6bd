package dev.joule.core.key;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * GNU sort's {@code -M} month table of a locale: the twelve abbreviated month names of its {@code
 * LC_TIME} ({@code nl_langinfo(ABMON_1..12)}), blanks removed and each byte upper-cased by the
 * locale's {@code toupper}, sorted by their bytes; a key's month is found by GNU's binary search
 * over that table ({@code getmonth}), which takes the first name it meets that the key starts with
 * (bytes upper-cased the same way, the key's end reading as a NUL). Immutable.
 */
final class GnuMonths {
  private final byte[][] names;
  private final int[] values;
  private final byte[] upper;

  private GnuMonths(byte[][] names, int[] values, byte[] upper) {
    this.names = names;
    this.values = values;
    this.upper = upper;
  }

  /** The table of the locale {@code handle} with its {@code blank} table and {@code upper} case. */
  static GnuMonths of(long handle, boolean[] blank, byte[] upper) {
    Integer[] order = new Integer[12];
    byte[][] folded = new byte[12][];
    for (int m = 0; m < 12; m++) {
      long s = LibC.nl_langinfo_l(LibC.ABMON_1 + m, handle);
      byte[] raw = s == 0 ? new byte[0] : Strxfrm.bytesAt(s, (int) LibC.strlen(s));
      byte[] name = new byte[raw.length];
      int k = 0;
      for (byte b : raw) {
        if (!blank[b & 0xFF] || b == '\n') {
          name[k++] = upper[b & 0xFF];
        }
      }
      folded[m] = Arrays.copyOf(name, k);
      order[m] = m;
    }
    Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(folded[a], folded[b]));
    byte[][] names = new byte[12][];
    int[] values = new int[12];
    for (int i = 0; i < 12; i++) {
      names[i] = folded[order[i]];
      values[i] = order[i] + 1;
    }
    return new GnuMonths(names, values, upper);
  }

  /** Whether this is the C locale's table (JAN to DEC, ASCII upper case). */
  boolean isC() {
    String c = "JANFEBMARAPRMAYJUNJULAUGSEPOCTNOVDEC";
    for (int i = 0; i < 12; i++) {
      int v = values[i] - 1;
      byte[] want =
          c.substring(3 * v, 3 * v + 3).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      if (!Arrays.equals(names[i], want)) {
        return false;
      }
    }
    return upper == CLocale.UPPER || Arrays.equals(upper, CLocale.UPPER);
  }

  /**
   * The month of the key {@code rec[s, e)} (1 to 12, 0 if none) with the end of the matched name in
   * the key: {@code (end << 8) | month}; leading blanks are skipped first.
   */
  long find(ByteBuffer rec, int s, int e) {
    int p = s;
    while (p < e && CLocale.BLANK[rec.get(p) & 0xFF]) {
      p++;
    }
    int lo = 0;
    int hi = 12;
    do {
      int ix = (lo + hi) >>> 1;
      byte[] n = names[ix];
      for (int i = 0; ; i++) {
        if (i == n.length) {
          return ((long) (p + i) << 8) | values[ix];
        }
        int m = p + i < e ? upper[rec.get(p + i) & 0xFF] & 0xFF : 0;
        int c = n[i] & 0xFF;
        if (m < c) {
          hi = ix;
          break;
        } else if (m > c) {
          lo = ix + 1;
          break;
        }
      }
    } while (lo < hi);
    return (long) p << 8;
  }
}

package dev.joule.core.key;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.nio.ByteBuffer;

/**
 * The display columns of bytes as GNU sort's {@code --debug} counts them (gnulib's {@code
 * mbsnwidth} without flags): in a multibyte locale each character its {@code wcwidth}, an
 * unprintable one 1 unless it is a control character, an invalid byte 1, an incomplete character at
 * the end 1 for all its bytes; in a single-byte locale a byte 1 if printable or not a control. The
 * C library decides, in the locale's {@code LC_CTYPE} ({@code uselocale} around the calls).
 * Stateless; the calling thread's locale is restored before returning.
 */
final class DisplayWidth {
  private DisplayWidth() {}

  /** The columns of {@code line[from, to)} (absolute indexes) in {@code locale}. */
  static int columns(ByteBuffer line, int from, int to, TextLocale locale) {
    long h = locale.ctypeHandle();
    if (h == 0) {
      return cColumns(line, from, to);
    }
    int n = to - from;
    if (n <= 0) {
      return 0;
    }
    long old = LibC.uselocale(h);
    try (Memory m = new Memory(n + 16L)) {
      long base = Pointer.nativeValue(m);
      long wc = base;
      long state = base + 8;
      long text = base + 16;
      ByteBuffer view = m.getByteBuffer(16, n);
      view.put(0, line, from, n);
      if (LibC.__ctype_get_mb_cur_max() == 1) {
        int w = 0;
        for (int i = 0; i < n; i++) {
          int c = view.get(i) & 0xFF;
          if (LibC.isprint_l(c, h) != 0 || LibC.iscntrl_l(c, h) == 0) {
            w++;
          }
        }
        return w + tabs(view, n);
      }
      return multibyte(view, n, wc, state, text) + tabs(view, n);
    } finally {
      LibC.uselocale(old);
    }
  }

  private static int multibyte(ByteBuffer view, int n, long wc, long state, long text) {
    int width = 0;
    int p = 0;
    while (p < n) {
      int c = view.get(p) & 0xFF;
      if (basic(c)) {
        p++;
        width++;
        continue;
      }
      new Pointer(state).setLong(0, 0);
      do {
        long bytes = LibC.mbrtowc(wc, text + p, n - p, state);
        if (bytes == -1) {
          p++; // an invalid sequence: one column for its first byte
          width++;
          break;
        }
        if (bytes == -2) {
          p = n; // incomplete at the end
          width++;
          break;
        }
        if (bytes == 0) {
          bytes = 1;
        }
        int ch = new Pointer(wc).getInt(0);
        int w = LibC.wcwidth(ch);
        if (w >= 0) {
          width += w;
        } else if (LibC.iswcntrl(ch) == 0) {
          width++;
        }
        p += (int) bytes;
      } while (LibC.mbsinit(state) == 0);
    }
    return width;
  }

  /** GNU's {@code debug_width} adds a column for each tab, which mbsnwidth counts as none. */
  private static int tabs(ByteBuffer view, int n) {
    int t = 0;
    for (int i = 0; i < n; i++) {
      t += view.get(i) == '\t' ? 1 : 0;
    }
    return t;
  }

  /** mbsnwidth's switch: the characters of the C standard's basic set, one column each. */
  private static boolean basic(int c) {
    return (c >= ' ' && c <= '~' && c != '$' && c != '@' && c != '`');
  }

  /**
   * The C locale: printable bytes, bytes from 0x80 and tabs one column, other control bytes none.
   */
  static int cColumns(ByteBuffer line, int from, int to) {
    int w = 0;
    for (int i = from; i < to; i++) {
      int b = line.get(i) & 0xFF;
      if (b == '\t' || (b >= 0x20 && b != 0x7F)) {
        w++;
      }
    }
    return w;
  }
}

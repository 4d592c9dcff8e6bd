package dev.joule.core.key;

import java.nio.ByteBuffer;

/**
 * Locates GNU sort keys in a line: the offsets where a {@link TextPosition} starts and ends,
 * exactly as GNU sort's field scan does (its {@code begfield} and {@code limfield}), for the
 * normalizer and for {@code --debug}'s key annotation.
 *
 * <p>A line is given as {@code length} bytes at absolute index {@code offset} of a buffer, without
 * its delimiter; offsets returned are relative to {@code offset}. Start: skip {@code startField -
 * 1} fields (with a separator, up to and past the next separator; without, a run of blanks then a
 * run of non-blanks), skip blanks if {@code b}, then advance {@code startChar - 1} bytes, never
 * past the end of the line. Limit: the end of the line without POS2; with {@code endChar} 0, the
 * end of field {@code endField} (not past its separator); otherwise the start of that field (its
 * leading blanks included when blank-separated), blanks skipped if {@code b}, plus {@code endChar}
 * bytes, never past the end of the line. The key is {@code [start, max(start, limit))}.
 *
 * <p>Cost: one pass over the bytes up to the key's end, no allocation. Thread-safe (stateless).
 */
public final class TextFields {
  private TextFields() {}

  /** Where the key starts, relative to {@code offset}: GNU's {@code begfield}. */
  public static int start(ByteBuffer line, int offset, int length, TextPosition pos) {
    int lim = offset + length;
    int p = offset;
    int fields = pos.startField() - 1;
    int sep = pos.separator();
    if (sep != TextPosition.BLANK_SEPARATED) {
      byte tab = (byte) sep;
      while (p < lim && fields-- > 0) {
        while (p < lim && line.get(p) != tab) {
          p++;
        }
        if (p < lim) {
          p++;
        }
      }
    } else {
      while (p < lim && fields-- > 0) {
        while (p < lim && CLocale.BLANK[line.get(p) & 0xFF]) {
          p++;
        }
        while (p < lim && !CLocale.BLANK[line.get(p) & 0xFF]) {
          p++;
        }
      }
    }
    if (pos.skipStartBlanks()) {
      while (p < lim && CLocale.BLANK[line.get(p) & 0xFF]) {
        p++;
      }
    }
    long advanced = (long) p + pos.startChar() - 1;
    return (int) Math.min(lim, advanced) - offset;
  }

  /**
   * Where the key ends, relative to {@code offset}, before clamping to the start: GNU's {@code
   * limfield} ({@code length} without POS2).
   */
  public static int limit(ByteBuffer line, int offset, int length, TextPosition pos) {
    if (pos.endField() == 0) {
      return length;
    }
    int lim = offset + length;
    int p = offset;
    int echar = pos.endChar();
    // With a whole end field the scan passes that field too; with a character count it stops at
    // the field's start and counts from there.
    int fields = echar == 0 ? pos.endField() : pos.endField() - 1;
    int sep = pos.separator();
    if (sep != TextPosition.BLANK_SEPARATED) {
      byte tab = (byte) sep;
      while (p < lim && fields-- > 0) {
        while (p < lim && line.get(p) != tab) {
          p++;
        }
        if (p < lim && (fields > 0 || echar != 0)) {
          p++;
        }
      }
    } else {
      while (p < lim && fields-- > 0) {
        while (p < lim && CLocale.BLANK[line.get(p) & 0xFF]) {
          p++;
        }
        while (p < lim && !CLocale.BLANK[line.get(p) & 0xFF]) {
          p++;
        }
      }
    }
    if (echar != 0) {
      if (pos.skipEndBlanks()) {
        while (p < lim && CLocale.BLANK[line.get(p) & 0xFF]) {
          p++;
        }
      }
      p = (int) Math.min(lim, (long) p + echar);
    }
    return p - offset;
  }

  /**
   * The key's offsets relative to {@code offset}, packed as {@code (start << 32) | end} with {@code
   * start <= end}; an empty key has {@code start == end}. As GNU, a key starting at the line's
   * start ({@code -k1b}, {@code -k1.1b}) skips blanks only up to its limit, which moves where an
   * empty key is marked (GNU's {@code --debug}) but never what it compares.
   */
  public static long locate(ByteBuffer line, int offset, int length, TextPosition pos) {
    int lim = limit(line, offset, length, pos);
    int s;
    if (pos.startsAtLineStart() && pos.skipStartBlanks()) {
      s = 0;
      while (s < lim && CLocale.BLANK[line.get(offset + s) & 0xFF]) {
        s++;
      }
    } else {
      s = start(line, offset, length, pos);
    }
    return ((long) s << 32) | Math.max(s, lim);
  }

  /** The start packed by {@link #locate}. */
  public static int startOf(long located) {
    return (int) (located >>> 32);
  }

  /** The end packed by {@link #locate}. */
  public static int endOf(long located) {
    return (int) located;
  }
}

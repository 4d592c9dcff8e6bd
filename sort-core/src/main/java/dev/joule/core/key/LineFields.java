package dev.joule.core.key;

import dev.joule.core.memory.ByteSearch;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The field boundaries of one line, found once and shared by every key field of a sort: {@link
 * #locate} gives what {@link TextFields#locate} gives, but {@link TextFields} walks the line from
 * its start for each key's start and again for its limit, and with {@code -t, -k3,3n -k2,2r} that
 * is 2.3 times the line's bytes. Here each boundary is found once per line, and only as far as some
 * key asks. A JFR profile of that CSV sort put 17 % of its CPU in the rescans (docs/decisions/D27).
 *
 * <p>Boundary {@code j} (relative to the line's offset) is, with a separator, the index of the
 * line's {@code j}-th separator (the line's length when it has fewer); blank-separated, the index
 * after {@code j} runs of blanks then non-blanks. They are GNU's {@code begfield}/{@code limfield}
 * positions: field {@code j + 1} starts one past separator {@code j}, and a whole end field {@code
 * j} ends at boundary {@code j}.
 *
 * <p>Memory: an int per boundary found (8 to start, grown as needed). Not thread-safe: one per
 * thread, {@link #reset} for each line.
 */
final class LineFields {
  private int[] bounds = new int[8]; // bounds[j - 1] = boundary j
  private int known; // boundaries found for the current line
  private ByteBuffer line;
  private int offset;
  private int length;
  private int separator;

  /** Starts on the line of {@code length} bytes at {@code offset} of {@code line}. */
  public void reset(ByteBuffer line, int offset, int length, int separator) {
    this.line = line;
    this.offset = offset;
    this.length = length;
    this.separator = separator;
    this.known = 0;
  }

  /** Forgets the line (and its buffer, which a thread's instance must not keep reachable). */
  void release() {
    this.line = null;
  }

  /** {@link TextFields#locate} of {@code pos} (whose separator is this line's) in the line. */
  public long locate(TextPosition pos) {
    int lim = limit(pos);
    int s;
    if (pos.startsAtLineStart() && pos.skipStartBlanks()) {
      s = skipBlanks(0, lim);
    } else {
      s = start(pos);
    }
    return ((long) s << 32) | Math.max(s, lim);
  }

  private int start(TextPosition pos) {
    int p = fieldStart(pos.startField() - 1);
    if (pos.skipStartBlanks()) {
      p = skipBlanks(p, length);
    }
    return (int) Math.min(length, (long) p + pos.startChar() - 1);
  }

  private int limit(TextPosition pos) {
    if (pos.endField() == 0) {
      return length;
    }
    int echar = pos.endChar();
    if (echar == 0) {
      return bound(pos.endField());
    }
    int p = fieldStart(pos.endField() - 1);
    if (pos.skipEndBlanks()) {
      p = skipBlanks(p, length);
    }
    return (int) Math.min(length, (long) p + echar);
  }

  /** Where the scan stands after skipping {@code fields} fields: GNU's begfield before blanks. */
  private int fieldStart(int fields) {
    if (fields == 0) {
      return 0;
    }
    int b = bound(fields);
    return separator != TextPosition.BLANK_SEPARATED && b < length ? b + 1 : b;
  }

  /** Boundary {@code j >= 1}, scanning on from the last one found. */
  private int bound(int j) {
    while (known < j) {
      int p = known == 0 ? -1 : bounds[known - 1];
      if (p == length) {
        return length; // the line has ended: so does every later field
      }
      int next =
          separator != TextPosition.BLANK_SEPARATED
              ? nextSeparator(p + 1)
              : nextRun(Math.max(p, 0));
      if (known == bounds.length) {
        bounds = Arrays.copyOf(bounds, 2 * known);
      }
      bounds[known++] = next;
    }
    return bounds[j - 1];
  }

  /** The first separator at or after {@code from}, or the line's length. */
  private int nextSeparator(int from) {
    int p = ByteSearch.indexOf(line, offset + from, offset + length, (byte) separator);
    return p < 0 ? length : p - offset;
  }

  private int nextRun(int from) {
    int p = skipBlanks(from, length);
    while (p < length && !CLocale.BLANK[line.get(offset + p) & 0xFF]) {
      p++;
    }
    return p;
  }

  private int skipBlanks(int from, int to) {
    int p = from;
    while (p < to && CLocale.BLANK[line.get(offset + p) & 0xFF]) {
      p++;
    }
    return p;
  }
}

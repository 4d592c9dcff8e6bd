package dev.joule.cli;

/**
 * GNU sort's obsolete key syntax {@code +POS1 [-POS2]}, rewritten as the {@code -k} KEYDEF that
 * orders the same way. Both positions count from 0: {@code +A.x} starts at character x+1 of field
 * A+1, and {@code -B.y} ends after character y of field B+1, or with {@code y} 0 (or absent) at the
 * end of field B (GNU: {@code -k A+1.x+1,B} or {@code -k A+1.x+1,B+1.y}). Each position may carry
 * ordering letters, as in {@code -k}. Stateless.
 */
final class ObsoleteKey {
  private static final String LETTERS = "bdfghiMnRrV";

  private ObsoleteKey() {}

  /**
   * The KEYDEF of {@code +POS1} ({@code plus}, with its {@code +}) and, if not null, {@code -POS2}
   * ({@code minus}, with its {@code -}); null when {@code plus} is not a valid POS1, which GNU then
   * takes as a file name.
   *
   * @throws GnuUsageException for a bad {@code -POS2}, with GNU's message
   */
  static String keydef(String plus, String minus) {
    Position start = Position.of(plus);
    if (start == null || start.chr < 0) {
      return null;
    }
    long field = start.field;
    long chr = start.chr;
    int at = start.end;
    int letters = letters(plus, at);
    if (letters != plus.length()) {
      return null;
    }
    // GNU holds 0.0, and a field number too large for it, as "from the line's start" (-k1)
    boolean lineStart = field == Long.MAX_VALUE || (field == 0 && chr == 0);
    StringBuilder k = new StringBuilder();
    k.append(lineStart ? "1.1" : plus1(field) + "." + plus1(chr));
    k.append(plus, at, letters);
    if (minus != null) {
      k.append(',').append(end(minus));
    }
    return k.toString();
  }

  /** The {@code ,E[.C][OPTS]} part for {@code -B[.y][OPTS]}, without the comma. */
  private static String end(String minus) {
    Position end = Position.of(minus);
    if (end == null) {
      throw invalidCount("invalid number after '-'", minus.substring(1));
    }
    if (end.chr < 0) {
      throw invalidCount("invalid number after '.'", minus.substring(end.end));
    }
    long field = end.field;
    long chr = end.chr;
    int at = end.end;
    int letters = letters(minus, at);
    if (letters != minus.length()) {
      throw new GnuUsageException(
          "stray character in field spec: invalid field specification '" + minus + "'",
          ExitCodes.USAGE_OR_IO,
          false);
    }
    String pos = chr == 0 ? Long.toString(Math.max(field, 1)) : plus1(field) + "." + chr;
    return pos + minus.substring(at, letters);
  }

  private static GnuUsageException invalidCount(String what, String rest) {
    return new GnuUsageException(
        what + ": invalid count at start of '" + rest + "'", ExitCodes.USAGE_OR_IO, false);
  }

  /** The index after the ordering letters that start at {@code at}. */
  private static int letters(String s, int at) {
    int i = at;
    while (i < s.length() && LETTERS.indexOf(s.charAt(i)) >= 0) {
      i++;
    }
    return i;
  }

  private static String plus1(long n) {
    return n == Long.MAX_VALUE ? Long.toString(n) : Long.toString(n + 1);
  }

  /**
   * {@code N[.M]} from index 1 of a {@code +POS1} or {@code -POS2}: null without N; {@code chr} -1
   * when a '.' has no M after it ({@code end} is then just after the '.'), 0 without a '.'.
   */
  private record Position(long field, long chr, int end) {
    static Position of(String s) {
      Count f = Count.parse(s, 1);
      if (f == null) {
        return null;
      }
      if (f.end < s.length() && s.charAt(f.end) == '.') {
        Count c = Count.parse(s, f.end + 1);
        return c == null
            ? new Position(f.value, -1, f.end + 1)
            : new Position(f.value, c.value, c.end);
      }
      return new Position(f.value, 0, f.end);
    }
  }

  /**
   * A count as GNU's {@code xstrtoumax} reads it: blanks, an optional {@code +}, decimal digits;
   * too large saturates (at {@link Long#MAX_VALUE}, which no line reaches either).
   */
  private record Count(long value, int end) {
    static Count parse(String s, int from) {
      int i = from;
      while (i < s.length() && isSpace(s.charAt(i))) {
        i++;
      }
      if (i < s.length() && s.charAt(i) == '+') {
        i++;
      }
      int digits = i;
      long v = 0;
      while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
        int d = s.charAt(i) - '0';
        v = v > (Long.MAX_VALUE - d) / 10 ? Long.MAX_VALUE : v * 10 + d;
        i++;
      }
      return i == digits ? null : new Count(v, i);
    }

    private static boolean isSpace(char c) {
      return c == ' ' || (c >= '\t' && c <= '\r');
    }
  }
}

package dev.joule.core.key;

/**
 * The byte classes of GNU sort in the C locale, as lookup tables. Blanks are space, tab and newline
 * (GNU counts a newline as blank so that {@code -z} records split the same way); {@code isspace}
 * adds vertical tab, form feed and carriage return; printable is 0x20..0x7E; bytes at or above 0x80
 * belong to no class.
 */
final class CLocale {
  /** GNU's {@code blanks}: field separation, {@code -b}, leading blanks of numbers and months. */
  static final boolean[] BLANK = new boolean[256];

  /** C {@code isspace}: what strtold skips before a number. */
  static final boolean[] SPACE = new boolean[256];

  /** Dropped by {@code -d}: neither alphanumeric nor blank. */
  static final boolean[] NONDICTIONARY = new boolean[256];

  /** Dropped by {@code -i}: not printable. */
  static final boolean[] NONPRINTING = new boolean[256];

  /** {@code -f}: a..z to A..Z, every other byte unchanged. */
  static final byte[] UPPER = new byte[256];

  /** The identity translation, so that unfolded text takes the same loop. */
  static final byte[] IDENTITY = new byte[256];

  static {
    for (int b = 0; b < 256; b++) {
      BLANK[b] = b == ' ' || b == '\t' || b == '\n';
      SPACE[b] = b == ' ' || (b >= '\t' && b <= '\r');
      NONDICTIONARY[b] = !isAlnum(b) && !BLANK[b];
      NONPRINTING[b] = b < 0x20 || b > 0x7E;
      UPPER[b] = (byte) (b >= 'a' && b <= 'z' ? b - 32 : b);
      IDENTITY[b] = (byte) b;
    }
  }

  private CLocale() {}

  static boolean isDigit(int b) {
    return b >= '0' && b <= '9';
  }

  static boolean isAlpha(int b) {
    return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z');
  }

  static boolean isAlnum(int b) {
    return isDigit(b) || isAlpha(b);
  }

  static boolean isHexDigit(int b) {
    return isDigit(b) || (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F');
  }

  static int hexValue(int b) {
    return b <= '9' ? b - '0' : (b | 0x20) - 'a' + 10;
  }
}

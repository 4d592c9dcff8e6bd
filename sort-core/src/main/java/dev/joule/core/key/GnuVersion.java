package dev.joule.core.key;

/**
 * GNU sort's {@code -V}: gnulib's {@code filenvercmp} on byte arrays.
 *
 * <p>The empty string sorts first, then {@code "."}, then {@code ".."}, then other strings starting
 * with {@code "."}, then the rest. Two strings of the same class are compared without their file
 * suffixes (the longest trailing run matching {@code (\.[A-Za-z~][A-Za-z0-9~]*)*} that leaves at
 * least one byte, in current gnulib; in coreutils 9.1 the suffix may be the whole string, so that
 * {@code ".a~"} sorts before {@code ".1"}); only if that ties are the whole strings compared. The
 * comparison alternates between non-digit runs, compared byte by byte with letters before other
 * bytes, {@code ~} before everything including the end, and the end before all but {@code ~}; and
 * digit runs, compared as numbers (leading zeros ignored, longer run bigger, else first differing
 * digit).
 *
 * <p>There is no byte encoding with this order (a digit run's value is unbounded and its rank
 * depends on what follows), so {@code -V} is the comparator fallback; its normalized key is only
 * the class byte above. No allocation; stateless.
 */
final class GnuVersion {
  private GnuVersion() {}

  /** 0 empty, 1 ".", 2 "..", 3 other leading ".", 4 the rest: the order of the special cases. */
  static int specialClass(byte[] s, int len) {
    if (len == 0) {
      return 0;
    }
    if (s[0] != '.') {
      return 4;
    }
    if (len == 1) {
      return 1;
    }
    return len == 2 && s[1] == '.' ? 2 : 3;
  }

  static int compare(byte[] a, int alen, byte[] b, int blen, boolean wholeSuffix) {
    int ca = specialClass(a, alen);
    int cb = specialClass(b, blen);
    if (ca != cb || ca < 3) {
      return Integer.compare(ca, cb);
    }
    int aprefix = prefixLength(a, alen, wholeSuffix);
    int bprefix = prefixLength(b, blen, wholeSuffix);
    int result = compareRuns(a, aprefix, b, bprefix);
    if (result != 0 || (aprefix == alen && bprefix == blen)) {
      return result;
    }
    return compareRuns(a, alen, b, blen);
  }

  /**
   * Length of {@code s} without its file suffix; 0 only if {@code wholeSuffix} allows the suffix to
   * be all of {@code s} (coreutils 9.1), else at least 1 for a nonempty string.
   */
  private static int prefixLength(byte[] s, int len, boolean wholeSuffix) {
    if (wholeSuffix && suffixFrom(s, 0, len)) {
      return 0;
    }
    int prefix = 0;
    int i = 0;
    while (i < len) {
      i++;
      prefix = i;
      while (i + 1 < len && s[i] == '.' && (CLocale.isAlpha(s[i + 1]) || s[i + 1] == '~')) {
        i += 2;
        while (i < len && (CLocale.isAlnum(s[i]) || s[i] == '~')) {
          i++;
        }
      }
    }
    return prefix;
  }

  /** True when {@code s[i, len)} is all suffix components. */
  private static boolean suffixFrom(byte[] s, int i, int len) {
    while (i + 1 < len && s[i] == '.' && (CLocale.isAlpha(s[i + 1]) || s[i + 1] == '~')) {
      i += 2;
      while (i < len && (CLocale.isAlnum(s[i]) || s[i] == '~')) {
        i++;
      }
    }
    return i == len;
  }

  /** The rank of the byte at {@code pos} in a non-digit run; the end of the string is -1. */
  private static int order(byte[] s, int pos, int len) {
    if (pos == len) {
      return -1;
    }
    int c = s[pos] & 0xFF;
    if (CLocale.isDigit(c)) {
      return 0;
    }
    if (CLocale.isAlpha(c)) {
      return c;
    }
    if (c == '~') {
      return -2;
    }
    return c + 256;
  }

  private static int compareRuns(byte[] a, int alen, byte[] b, int blen) {
    int i = 0;
    int j = 0;
    while (i < alen || j < blen) {
      while ((i < alen && !CLocale.isDigit(a[i])) || (j < blen && !CLocale.isDigit(b[j]))) {
        int x = order(a, i, alen);
        int y = order(b, j, blen);
        if (x != y) {
          return x - y;
        }
        i++;
        j++;
      }
      while (i < alen && a[i] == '0') {
        i++;
      }
      while (j < blen && b[j] == '0') {
        j++;
      }
      int firstDiff = 0;
      while (i < alen && j < blen && CLocale.isDigit(a[i]) && CLocale.isDigit(b[j])) {
        if (firstDiff == 0) {
          firstDiff = a[i] - b[j];
        }
        i++;
        j++;
      }
      if (i < alen && CLocale.isDigit(a[i])) {
        return 1;
      }
      if (j < blen && CLocale.isDigit(b[j])) {
        return -1;
      }
      if (firstDiff != 0) {
        return firstDiff;
      }
    }
    return 0;
  }
}

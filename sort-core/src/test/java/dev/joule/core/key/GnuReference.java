package dev.joule.core.key;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reference comparators for GNU sort's key types, written from their definitions (the coreutils
 * manual, strtold's grammar, the filevercmp description) and never through the normalizer: regular
 * expressions and BigDecimal arithmetic instead of byte scans and bit tricks. Slow and simple.
 */
final class GnuReference {
  private GnuReference() {}

  static String latin1(byte[] b) {
    return new String(b, StandardCharsets.ISO_8859_1);
  }

  // ---- -n and -h

  private static final Pattern NUMBER = Pattern.compile("^[ \t\n]*(-?)([0-9]*)(?:\\.([0-9]*))?");
  private static final Pattern NUMBER_9_1 =
      Pattern.compile("^[ \t\n]*(-?)([0-9\u0080]*)(?:\\.([0-9]*))?");

  static boolean old(KeyType.GnuRelease release) {
    return release == KeyType.GnuRelease.COREUTILS_9_1;
  }

  /**
   * The value GNU -n reads: BigDecimal of the leading number, 0 if none; coreutils 9.1 drops byte
   * 0x80 from the integer part.
   */
  static BigDecimal numericValue(byte[] key, KeyType.GnuRelease release) {
    Matcher m = (old(release) ? NUMBER_9_1 : NUMBER).matcher(latin1(key));
    if (!m.find()) {
      return BigDecimal.ZERO;
    }
    String digits = m.group(2).replace("\u0080", "") + (m.group(3) == null ? "" : "." + m.group(3));
    if (digits.isEmpty() || digits.equals(".")) {
      return BigDecimal.ZERO;
    }
    BigDecimal v = new BigDecimal(digits.startsWith(".") ? "0" + digits : digits);
    return m.group(1).isEmpty() ? v : v.negate();
  }

  static int compareNumeric(byte[] a, byte[] b, KeyType.GnuRelease release) {
    return numericValue(a, release).compareTo(numericValue(b, release));
  }

  /**
   * GNU -h's unit: the suffix right after the number's digits (no 0x80 skipped), signed, 0 for a
   * number whose digits there are all zeros.
   */
  static int humanUnit(byte[] key, KeyType.GnuRelease release) {
    boolean ronnaQuetta = !old(release);
    String s = latin1(key);
    Matcher m = NUMBER.matcher(s);
    m.find();
    String digits = m.group(2) + (m.group(3) == null ? "" : m.group(3));
    if (digits.replace("0", "").isEmpty()) {
      return 0;
    }
    int after = m.end();
    if (after >= s.length()) {
      return 0;
    }
    int unit = (ronnaQuetta ? "KMGTPEZYRQ" : "KMGTPEZY").indexOf(s.charAt(after)) + 1;
    if (s.charAt(after) == 'k') {
      unit = 1;
    }
    return m.group(1).isEmpty() ? unit : -unit;
  }

  static int compareHuman(byte[] a, byte[] b, KeyType.GnuRelease release) {
    int d = Integer.compare(humanUnit(a, release), humanUnit(b, release));
    return d != 0 ? d : compareNumeric(a, b, release);
  }

  // ---- -M

  private static final List<String> MONTHS =
      List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC");

  static int month(byte[] key) {
    String s = latin1(key).replaceFirst("^[ \t\n]*", "");
    if (s.length() < 3) {
      return 0;
    }
    StringBuilder up = new StringBuilder();
    for (int i = 0; i < 3; i++) {
      char c = s.charAt(i);
      up.append(c >= 'a' && c <= 'z' ? (char) (c - 32) : c);
    }
    return MONTHS.indexOf(up.toString()) + 1;
  }

  static int compareMonth(byte[] a, byte[] b) {
    return Integer.compare(month(a), month(b));
  }

  // ---- text options

  static byte[] filtered(byte[] key, boolean fold, KeyType.Ignore ignore) {
    byte[] out = new byte[key.length];
    int n = 0;
    for (byte x : key) {
      int c = x & 0xFF;
      boolean alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      boolean blank = c == ' ' || c == '\t' || c == '\n';
      if (ignore == KeyType.Ignore.NONDICTIONARY && !alnum && !blank) {
        continue;
      }
      if (ignore == KeyType.Ignore.NONPRINTING && (c < 32 || c > 126)) {
        continue;
      }
      out[n++] = (byte) (fold && c >= 'a' && c <= 'z' ? c - 32 : c);
    }
    return Arrays.copyOf(out, n);
  }

  // ---- -g

  /** A strtold result: class 0 error, 1 NaN, 2 number; value null for +-inf. */
  static final class General {
    final int cls;
    final boolean negative;
    final long nanSignificand;
    final BigDecimal value; // rounded to 80 bits; null means infinite
    final boolean infinite;

    General(int cls, boolean negative, long nanSignificand, BigDecimal value, boolean infinite) {
      this.cls = cls;
      this.negative = negative;
      this.nanSignificand = nanSignificand;
      this.value = value;
      this.infinite = infinite;
    }
  }

  private static final Pattern STRTOLD =
      Pattern.compile(
          "^[ \t\n\u000B\f\r]*([+-]?)(?:"
              + "0[xX]([0-9a-fA-F]+\\.?[0-9a-fA-F]*|\\.[0-9a-fA-F]+)(?:[pP]([+-]?[0-9]+))?"
              + "|([0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE]([+-]?[0-9]+))?"
              + "|((?i:inf))"
              + "|((?i:nan))(?:\\(([0-9A-Za-z_]*)\\))?)");

  static General general(byte[] key) {
    String s = latin1(key);
    int nul = s.indexOf('\0');
    if (nul >= 0) {
      s = s.substring(0, nul); // strtold sees a C string
    }
    Matcher m = STRTOLD.matcher(s);
    if (!m.find()) {
      return new General(0, false, 0, null, false);
    }
    boolean neg = m.group(1).equals("-");
    if (m.group(6) != null) {
      return new General(2, neg, 0, null, true);
    }
    if (m.group(7) != null) {
      long payload = m.group(8) == null ? 0 : strtoullBase0(m.group(8));
      return new General(
          1, neg, 0xC000000000000000L | (payload & 0x3FFFFFFFFFFFFFFFL), null, false);
    }
    BigDecimal exact;
    if (m.group(2) != null) {
      String mant = m.group(2);
      int point = mant.indexOf('.');
      String hexDigits = mant.replace(".", "");
      long fracBits = point < 0 ? 0 : 4L * (mant.length() - point - 1);
      long exp = parseExp(m.group(3)) - fracBits;
      BigInteger n = new BigInteger(hexDigits, 16);
      if (n.signum() == 0) {
        return new General(2, false, 0, BigDecimal.ZERO, false);
      }
      if (exp > 70000) {
        return new General(2, neg, 0, null, true);
      }
      if (exp < -70000 - 4L * hexDigits.length()) {
        return new General(2, false, 0, BigDecimal.ZERO, false);
      }
      exact = new BigDecimal(n).multiply(powerOfTwo((int) exp));
    } else {
      String mant = m.group(4);
      long exp = parseExp(m.group(5));
      BigDecimal v = new BigDecimal(mant.startsWith(".") ? "0" + mant : mant);
      if (v.signum() == 0) {
        return new General(2, false, 0, BigDecimal.ZERO, false);
      }
      long adjusted = (long) v.precision() - v.scale() + exp; // v < 10^adjusted
      if (adjusted > 5000) {
        return new General(2, neg, 0, null, true);
      }
      if (adjusted < -5000) {
        return new General(2, false, 0, BigDecimal.ZERO, false);
      }
      exact = v.scaleByPowerOfTen((int) exp);
    }
    BigDecimal rounded = roundTo80(exact);
    if (rounded == null) {
      return new General(2, neg, 0, null, true);
    }
    if (rounded.signum() == 0) {
      return new General(2, false, 0, BigDecimal.ZERO, false);
    }
    return new General(2, neg, 0, neg ? rounded.negate() : rounded, false);
  }

  private static long parseExp(String e) {
    if (e == null) {
      return 0;
    }
    BigInteger v = new BigInteger(e.startsWith("+") ? e.substring(1) : e);
    return v.max(BigInteger.valueOf(-1_000_000)).min(BigInteger.valueOf(1_000_000)).longValue();
  }

  /** glibc's NaN payload: strtoull base 0 of the whole sequence, else 0; overflow saturates. */
  static long strtoullBase0(String seq) {
    int radix = 10;
    String digits = seq;
    if (seq.length() >= 2
        && seq.charAt(0) == '0'
        && (seq.charAt(1) == 'x' || seq.charAt(1) == 'X')) {
      radix = 16;
      digits = seq.substring(2);
    } else if (seq.startsWith("0")) {
      radix = 8;
    }
    if (digits.isEmpty()) {
      return 0;
    }
    BigInteger v;
    try {
      v = new BigInteger(digits, radix);
    } catch (NumberFormatException e) {
      return 0;
    }
    if (v.signum() < 0 || digits.startsWith("+") || digits.startsWith("-")) {
      return 0;
    }
    return v.bitLength() > 64 ? -1L : v.longValue();
  }

  static BigDecimal powerOfTwo(int k) {
    if (k >= 0) {
      return new BigDecimal(BigInteger.ONE.shiftLeft(k));
    }
    return new BigDecimal(BigInteger.valueOf(5).pow(-k), -k);
  }

  /**
   * {@code v > 0} rounded to the nearest x87 extended value (64-bit significand, exponents down to
   * 2^-16382 normal, 2^-16445 subnormal step), ties to even; null when it overflows.
   */
  static BigDecimal roundTo80(BigDecimal v) {
    int k = (int) Math.floor((v.unscaledValue().bitLength() - v.scale() * 3.321928094887362));
    while (powerOfTwo(k).compareTo(v) > 0) {
      k--;
    }
    while (powerOfTwo(k + 1).compareTo(v) <= 0) {
      k++;
    }
    int ulp = Math.max(k - 63, -16445);
    BigDecimal steps = v.multiply(powerOfTwo(-ulp)).setScale(0, RoundingMode.HALF_EVEN);
    BigDecimal r = steps.multiply(powerOfTwo(ulp));
    if (r.compareTo(powerOfTwo(16384)) >= 0) {
      return null;
    }
    return r;
  }

  static int compareGeneral(byte[] a, byte[] b, KeyType.GnuRelease release) {
    return compareGeneral(general(a), general(b), release);
  }

  static int compareGeneral(General x, General y, KeyType.GnuRelease release) {
    if (x.cls != y.cls) {
      return Integer.compare(x.cls, y.cls);
    }
    if (x.cls == 0) {
      return 0;
    }
    if (x.cls == 1) {
      if (!old(release)) {
        return Boolean.compare(!x.negative, !y.negative);
      }
      // memcmp of the little-endian 80-bit value: significand bytes lowest first, then the sign.
      int d =
          Long.compareUnsigned(
              Long.reverseBytes(x.nanSignificand), Long.reverseBytes(y.nanSignificand));
      return d != 0 ? d : Boolean.compare(x.negative, y.negative);
    }
    return Double.compare(rank(x), rank(y)) != 0
        ? Double.compare(rank(x), rank(y))
        : (x.infinite ? 0 : x.value.compareTo(y.value));
  }

  private static double rank(General g) {
    return g.infinite ? (g.negative ? -1 : 1) : 0;
  }

  // ---- -V

  private static final Pattern SUFFIX = Pattern.compile("(\\.[A-Za-z~][A-Za-z0-9~]*)*");

  static int compareVersion(byte[] a, byte[] b, boolean wholeSuffix) {
    int ca = special(a);
    int cb = special(b);
    if (ca != cb || ca < 3) {
      return Integer.compare(ca, cb);
    }
    byte[] pa = Arrays.copyOf(a, withoutSuffix(a, wholeSuffix));
    byte[] pb = Arrays.copyOf(b, withoutSuffix(b, wholeSuffix));
    int d = versionOrder(pa, pb);
    return d != 0 ? d : versionOrder(a, b);
  }

  private static int special(byte[] s) {
    String t = latin1(s);
    return t.isEmpty() ? 0 : t.equals(".") ? 1 : t.equals("..") ? 2 : t.startsWith(".") ? 3 : 4;
  }

  /** The length left after the longest suffix match starting at 1 (at 0 if allowed). */
  private static int withoutSuffix(byte[] s, boolean wholeSuffix) {
    String t = latin1(s);
    for (int i = wholeSuffix ? 0 : 1; i < t.length(); i++) {
      if (SUFFIX.matcher(t.substring(i)).matches()) {
        return i;
      }
    }
    return t.length();
  }

  /** Alternating non-digit and digit runs, as the filevercmp description puts it. */
  private static int versionOrder(byte[] a, byte[] b) {
    List<byte[]> ra = runs(a);
    List<byte[]> rb = runs(b);
    for (int i = 0; i < Math.max(ra.size(), rb.size()); i++) {
      byte[] x = i < ra.size() ? ra.get(i) : new byte[0];
      byte[] y = i < rb.size() ? rb.get(i) : new byte[0];
      int d = i % 2 == 0 ? lexical(x, y) : numeric(x, y);
      if (d != 0) {
        return d;
      }
    }
    return 0;
  }

  /** Runs: non-digits, digits, non-digits, ... (the first may be empty). */
  private static List<byte[]> runs(byte[] s) {
    List<byte[]> out = new ArrayList<>();
    int i = 0;
    boolean digits = false;
    while (i < s.length) {
      int j = i;
      while (j < s.length && (s[j] >= '0' && s[j] <= '9') == digits) {
        j++;
      }
      out.add(Arrays.copyOfRange(s, i, j));
      i = j;
      digits = !digits;
    }
    return out;
  }

  private static int weight(byte[] s, int i) {
    if (i >= s.length) {
      return -1; // the end: after '~', before everything else
    }
    int c = s[i] & 0xFF;
    if (c == '~') {
      return -2;
    }
    boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    return letter ? c : c + 256;
  }

  private static int lexical(byte[] x, byte[] y) {
    for (int i = 0; i < Math.max(x.length, y.length); i++) {
      int d = Integer.compare(weight(x, i), weight(y, i));
      if (d != 0) {
        return d;
      }
    }
    return 0;
  }

  private static int numeric(byte[] x, byte[] y) {
    BigInteger a = x.length == 0 ? BigInteger.ZERO : new BigInteger(latin1(x));
    BigInteger b = y.length == 0 ? BigInteger.ZERO : new BigInteger(latin1(y));
    return a.compareTo(b);
  }
}

package dev.joule.core.valsort;

/**
 * valsort {@code -i}'s comparison, quirk included: the reference calls {@code strcasecmp(prev,
 * rec)} where it means a 10-byte key compare, so the comparison folds ASCII upper case to lower
 * case (C locale), runs past the key into the payload until the bytes differ, and stops early at a
 * NUL in the first record (a NUL in both at the same place makes the records equal).
 *
 * <p>Where the reference's behaviour is undefined — 100 equal bytes without a NUL, after which it
 * reads past the record — this class calls the records equal. Stateless and thread-safe.
 */
final class CaseInsensitiveCompare {
  private static final int RECORD = ValsortSummary.RECORD_SIZE;

  private CaseInsensitiveCompare() {}

  /** strcasecmp's sign for the 100-byte records at {@code a[aOff]} and {@code b[bOff]}. */
  static int compare(byte[] a, int aOff, byte[] b, int bOff) {
    for (int k = 0; k < RECORD; k++) {
      int c1 = lower(a[aOff + k] & 0xFF);
      int c2 = lower(b[bOff + k] & 0xFF);
      if (c1 == 0 || c1 != c2) {
        return Integer.signum(c1 - c2);
      }
    }
    return 0;
  }

  private static int lower(int c) {
    return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
  }
}

package dev.joule.io.config;

import java.util.Locale;

/**
 * A number of bytes, parsed from and printed with binary units the way sort users write them:
 * {@code 512}, {@code 64k}, {@code 256m}, {@code 2g}, {@code 1t} (case-insensitive; an optional
 * trailing {@code b} or {@code ib} is accepted, so {@code 256MiB} and {@code 256MB} both mean 256 ×
 * 2^20). GNU sort's {@code -S} reads units the same way.
 *
 * <p>Immutable value.
 */
public record DataSize(long bytes) implements Comparable<DataSize> {
  private static final String UNITS = "kmgtp";

  /** Validates the size: at least 0 bytes. */
  public DataSize {
    if (bytes < 0) {
      throw new IllegalArgumentException("size " + bytes + " is negative");
    }
  }

  /** {@code bytes} bytes. */
  public static DataSize ofBytes(long bytes) {
    return new DataSize(bytes);
  }

  /** {@code n} KiB (1024 bytes each). */
  public static DataSize ofKiB(long n) {
    return new DataSize(Math.multiplyExact(n, 1L << 10));
  }

  /** {@code n} MiB (2^20 bytes each). */
  public static DataSize ofMiB(long n) {
    return new DataSize(Math.multiplyExact(n, 1L << 20));
  }

  /** {@code n} GiB (2^30 bytes each). */
  public static DataSize ofGiB(long n) {
    return new DataSize(Math.multiplyExact(n, 1L << 30));
  }

  /**
   * Parses a size such as {@code 4m}. Throws {@link IllegalArgumentException} with a message that
   * says what was wrong and what is accepted.
   */
  public static DataSize parse(String text) {
    String s = text.trim().toLowerCase(Locale.ROOT);
    if (s.endsWith("ib")) {
      s = s.substring(0, s.length() - 2);
    } else if (s.endsWith("b")) {
      s = s.substring(0, s.length() - 1);
    }
    int shift = 0;
    if (!s.isEmpty()) {
      int unit = UNITS.indexOf(s.charAt(s.length() - 1));
      if (unit >= 0) {
        shift = 10 * (unit + 1);
        s = s.substring(0, s.length() - 1);
      }
    }
    if (s.isEmpty() || !s.chars().allMatch(Character::isDigit)) {
      throw new IllegalArgumentException(
          "invalid size '"
              + text
              + "': expected a whole number with an optional unit k, m, g, t or p"
              + " (powers of 1024), e.g. 512m");
    }
    try {
      long n = Long.parseLong(s);
      if (shift > 0 && n > (Long.MAX_VALUE >> shift)) {
        throw new NumberFormatException();
      }
      return new DataSize(n << shift);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("invalid size '" + text + "': too large", e);
    }
  }

  /** The size in whole MiB, rounded down. */
  public long toMiB() {
    return bytes >> 20;
  }

  @Override
  public int compareTo(DataSize o) {
    return Long.compare(bytes, o.bytes);
  }

  /** The largest exact unit: {@code 4 MiB}, {@code 1536 KiB}, {@code 100 B}. */
  @Override
  public String toString() {
    String[] names = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    long n = bytes;
    int u = 0;
    while (u < names.length - 1 && n != 0 && (n & 1023) == 0) {
      n >>= 10;
      u++;
    }
    return n + " " + names[u];
  }
}

package dev.joule.cli;

import dev.joule.io.config.DataSize;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Parses a memory size as GNU sort's {@code -S} does, so that a GNU command line means the same
 * here: a whole number with an optional suffix {@code b} (bytes), {@code K M G T P E} (powers of
 * 1024, either case), or {@code %} (of physical memory); a bare number counts KiB. The message of a
 * bad value starts with the quoted value: {@code joule: invalid value for --buffer-size: '12x':
 * ...}.
 */
final class GnuSizeConverter implements ITypeConverter<DataSize> {
  private static final String UNITS = "kmgtpe";

  @Override
  public DataSize convert(String value) {
    try {
      return parse(value, MachineDefaults.physicalMemory());
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(
          "'"
              + value
              + "': "
              + e.getMessage()
              + "; expected a whole number with an optional suffix b, K, M, G, T, P, E (powers of"
              + " 1024) or % (of physical memory); a bare number is KiB, as in GNU sort");
    }
  }

  /** The size {@code text} stands for on a machine with {@code physical} bytes of memory. */
  static DataSize parse(String text, long physical) {
    if (text.isEmpty()) {
      throw new IllegalArgumentException("empty size");
    }
    char last = text.charAt(text.length() - 1);
    String digits = Character.isDigit(last) ? text : text.substring(0, text.length() - 1);
    if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new IllegalArgumentException("not a number");
    }
    long n;
    try {
      n = Long.parseLong(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("too large", e);
    }
    if (last == '%') {
      if (n > 100) {
        throw new IllegalArgumentException("more than 100 percent of memory");
      }
      return DataSize.ofBytes(physical / 100 * n);
    }
    int shift;
    if (Character.isDigit(last)) {
      shift = 10;
    } else if (last == 'b') {
      shift = 0;
    } else {
      int unit = UNITS.indexOf(Character.toLowerCase(last));
      if (unit < 0) {
        throw new IllegalArgumentException("unknown suffix '" + last + "'");
      }
      shift = 10 * (unit + 1);
    }
    if (n > (Long.MAX_VALUE >> shift)) {
      throw new IllegalArgumentException("too large");
    }
    return DataSize.ofBytes(n << shift);
  }
}

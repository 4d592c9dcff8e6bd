package dev.joule.cli;

import java.math.BigDecimal;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Parses a record count written as {@code 10000000} or {@code 1e7} (a whole, non-negative number).
 */
final class RecordCountConverter implements ITypeConverter<Long> {
  @Override
  public Long convert(String value) {
    try {
      BigDecimal d = new BigDecimal(value.trim());
      if (d.signum() < 0) {
        throw new NumberFormatException();
      }
      return d.longValueExact();
    } catch (NumberFormatException | ArithmeticException e) {
      throw new TypeConversionException(
          "'" + value + "': expected a whole non-negative number of records, e.g. 1000000 or 1e6");
    }
  }
}

package dev.joule.cli;

import dev.joule.io.config.DataSize;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Parses {@code 512m}-style sizes for picocli through {@link DataSize#parse}. The message starts
 * with the quoted value, so the error reads {@code joule: invalid value for --memory: '12x': ...}.
 */
final class DataSizeConverter implements ITypeConverter<DataSize> {
  @Override
  public DataSize convert(String value) {
    try {
      return DataSize.parse(value);
    } catch (IllegalArgumentException e) {
      String m = String.valueOf(e.getMessage());
      throw new TypeConversionException(m.startsWith("invalid size ") ? m.substring(13) : m);
    }
  }
}

package dev.joule.cli;

import dev.joule.core.gensort.Uint128;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses an unsigned decimal of up to 128 bits for picocli (gensort's {@code -bN}). */
final class Uint128Converter implements ITypeConverter<Uint128> {
  @Override
  public Uint128 convert(String value) {
    try {
      return Uint128.parseDecimal(value);
    } catch (NumberFormatException e) {
      throw new TypeConversionException(
          "'" + value + "' is not an unsigned decimal record number below 2^128");
    }
  }
}

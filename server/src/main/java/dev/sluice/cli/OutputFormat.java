package dev.sluice.cli;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** How admin commands print results: for people ({@code text}) or for scripts ({@code json}). */
enum OutputFormat {
  TEXT,
  JSON;

  /**
   * Accepts {@code text}/{@code json} in any case, without needing a case-insensitive CommandLine.
   */
  static final class Converter implements ITypeConverter<OutputFormat> {
    @Override
    public OutputFormat convert(String value) {
      try {
        return OutputFormat.valueOf(value.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException("expected text or json, not '" + value + "'");
      }
    }
  }
}

package dev.sluice.cli;

import java.util.List;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A namespace as typed on the command line, {@code a.b}, and its levels, {@code ["a","b"]}. */
record Namespace(List<String> levels) {
  Namespace {
    levels = List.copyOf(levels);
  }

  @Override
  public String toString() {
    return String.join(".", levels);
  }

  /** Rejects {@code a..b}, {@code .a} and blanks as usage errors rather than sending them. */
  static final class Converter implements ITypeConverter<Namespace> {
    @Override
    public Namespace convert(String value) {
      List<String> levels = List.of(value.split(Pattern.quote("."), -1));
      if (value.isBlank() || levels.stream().anyMatch(String::isBlank)) {
        throw new TypeConversionException(
            "'" + value + "' is not a namespace: expected dot-separated names like a.b");
      }
      return new Namespace(levels);
    }
  }
}

package dev.sluice.config;

import static dev.sluice.config.Bounds.orDefault;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code logging}: the format of the log lines ({@code auto}: text on a terminal, JSON otherwise;
 * {@code text}; {@code json}) and the level of each logger by name ({@code root} for all others).
 */
public record LoggingSection(String format, Map<String, String> level) {
  private static final Set<String> FORMATS = Set.of("auto", "text", "json");
  private static final Set<String> LEVELS =
      Set.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF");

  // After the sets its constructor checks against.
  public static final LoggingSection DEFAULT = new LoggingSection(null, null);

  public LoggingSection {
    format = orDefault(format, "auto").toLowerCase(Locale.ROOT);
    if (!FORMATS.contains(format)) {
      throw new ConfigException("logging.format must be auto, text or json, got " + format);
    }
    Map<String, String> levels = new TreeMap<>();
    orDefault(level, Map.<String, String>of())
        .forEach(
            (logger, value) -> {
              String upper = value == null ? "" : value.toUpperCase(Locale.ROOT);
              if (!LEVELS.contains(upper)) {
                throw new ConfigException(
                    "logging.level."
                        + logger
                        + " must be one of TRACE, DEBUG, INFO, WARN, ERROR or OFF, got "
                        + value);
              }
              levels.put(logger, upper);
            });
    level = Map.copyOf(levels);
  }

  /** True when lines are written as JSON, given whether the output is a terminal. */
  public boolean json(boolean terminal) {
    return format.equals("json") || (format.equals("auto") && !terminal);
  }
}

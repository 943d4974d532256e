package dev.sluice.e2e.durability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a server's access log ({@code sluice.access}, one JSON line per request) says it answered.
 */
final class AccessLog {
  private static final Pattern STATUS = Pattern.compile("\\{\"status\":\"(\\d{3})\"}");

  private AccessLog() {}

  /** Requests answered, by status ("200", "503", ...). */
  static Map<String, Long> statuses(Path log) {
    Map<String, Long> by = new TreeMap<>();
    try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
      lines
          .filter(l -> l.contains("\"loggerName\":\"sluice.access\""))
          .forEach(
              l -> {
                Matcher m = STATUS.matcher(l);
                if (m.find()) {
                  by.merge(m.group(1), 1L, Long::sum);
                }
              });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return by;
  }
}

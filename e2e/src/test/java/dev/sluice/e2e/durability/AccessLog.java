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
  private static final Pattern PROBE =
      Pattern.compile("\\{\"route\":\"\\\\/(healthz|readyz|metrics)\"}");
  private static final Pattern DURATION = Pattern.compile("\\{\"durationMs\":\"(\\d+)\"}");

  private AccessLog() {}

  /** Requests answered, by status ("200", "503", ...). */
  static Map<String, Long> statuses(Path log) {
    return byStatus(log, false, false);
  }

  /** As {@link #statuses}, leaving out the probes ({@code /healthz}, {@code /readyz}, metrics). */
  static Map<String, Long> apiStatuses(Path log) {
    return byStatus(log, false, true);
  }

  /** The longest a request took to be answered (ms), by status. */
  static Map<String, Long> slowest(Path log) {
    return byStatus(log, true, false);
  }

  private static Map<String, Long> byStatus(Path log, boolean slowest, boolean apiOnly) {
    Map<String, Long> by = new TreeMap<>();
    try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
      lines
          .filter(l -> l.contains("\"loggerName\":\"sluice.access\""))
          .filter(l -> !apiOnly || !PROBE.matcher(l).find())
          .forEach(
              l -> {
                Matcher m = STATUS.matcher(l);
                if (!m.find()) {
                  return;
                }
                if (!slowest) {
                  by.merge(m.group(1), 1L, Long::sum);
                  return;
                }
                Matcher d = DURATION.matcher(l);
                if (d.find()) {
                  by.merge(m.group(1), Long.parseLong(d.group(1)), Math::max);
                }
              });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return by;
  }
}

package dev.sluice.e2e.durability;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.e2e.AccessLogLines;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What a server's access log ({@code sluice.access}, one JSON line per request) says it answered.
 */
final class AccessLog {
  private static final Set<String> PROBES = Set.of("/healthz", "/readyz", "/metrics");

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
    List<JsonNode> records;
    try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
      records = AccessLogLines.records(lines);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (JsonNode r : records) {
      if (apiOnly && PROBES.contains(r.path("route").asText())) {
        continue;
      }
      String status = r.path("status").asText();
      if (!slowest) {
        by.merge(status, 1L, Long::sum);
      } else if (r.has("durationMs")) {
        by.merge(status, r.path("durationMs").asLong(), Math::max);
      }
    }
    return by;
  }
}

package dev.sluice.e2e;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.stream.Stream;

/**
 * The server's access-log records ({@code sluice.access}) among its JSON log lines: one object per
 * request with {@code method}, {@code route}, {@code status}, {@code durationMs} and, for an
 * authenticated call, {@code principal}, as the server's JSON encoder writes them.
 */
public final class AccessLogLines {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String LOGGER = "sluice.access";

  private AccessLogLines() {}

  /** The access records among {@code lines}; other lines (and non-JSON lines) are passed over. */
  public static List<JsonNode> records(Stream<String> lines) {
    return lines
        .filter(l -> l.startsWith("{") && l.contains(LOGGER))
        .map(AccessLogLines::parse)
        .filter(n -> n != null && LOGGER.equals(n.path("log.logger").asText()))
        .toList();
  }

  private static JsonNode parse(String line) {
    try {
      return JSON.readTree(line);
    } catch (JsonProcessingException e) {
      return null;
    }
  }
}

package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * The server answered with an error status. Understands both error shapes the server uses: the
 * Iceberg/Polaris {@code {"error": {"message", "type", "code"}}} and OAuth's {@code {"error":
 * "invalid_client", "error_description": ...}}.
 */
final class ApiException extends AdminFailure {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int MAX_RAW_MESSAGE = 200;

  private final int status;

  private ApiException(String message, int status) {
    super(message + " (HTTP " + status + ")");
    this.status = status;
  }

  int status() {
    return status;
  }

  static ApiException from(int status, String body) {
    return new ApiException(messageOf(body) + hint(status), status);
  }

  static final String UNAUTHORIZED_HINT =
      ": check the client id and secret (--client-id/--client-secret, SLUICE_CLIENT_ID/"
          + "SLUICE_CLIENT_SECRET, or the --profile in use)";

  /** What to do about a status whose cause is on the caller's side, named once. */
  private static String hint(int status) {
    return status == 401 ? UNAUTHORIZED_HINT : "";
  }

  private static String messageOf(String body) {
    if (body == null || body.isBlank()) {
      return "no error message from the server";
    }
    JsonNode error = parse(body).path("error");
    if (error.isObject() && error.path("message").isTextual()) {
      return error.get("message").asText();
    }
    if (error.isTextual()) {
      JsonNode description = parse(body).path("error_description");
      return description.isTextual() && !description.asText().isBlank()
          ? description.asText()
          : error.asText();
    }
    // Not one of our shapes (a proxy's HTML page, say): show its start on one line.
    String flat = body.strip().replaceAll("\\s+", " ");
    return flat.length() <= MAX_RAW_MESSAGE ? flat : flat.substring(0, MAX_RAW_MESSAGE) + "...";
  }

  private static JsonNode parse(String body) {
    try {
      return MAPPER.readTree(body);
    } catch (IOException e) {
      return MAPPER.missingNode();
    }
  }
}

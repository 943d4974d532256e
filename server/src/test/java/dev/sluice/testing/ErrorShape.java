package dev.sluice.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.regex.Pattern;

/**
 * What every error answer must look like: an Iceberg {@code ErrorResponse} ({@code
 * {"error":{"message","type","code"}}} with {@code code} equal to the status), or on the OAuth
 * token endpoint OAuth's {@code {"error","error_description"}}; never a stack trace.
 */
public final class ErrorShape {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A Java stack frame as printed by {@code printStackTrace} or a logger. */
  private static final Pattern STACK_FRAME =
      Pattern.compile(
          "(?:\\bat\\s+)[\\w$.]+\\.[\\w$<>]+\\((?:[\\w$]+\\.java:\\d+|Native Method|Unknown Source)\\)"
              + "|\\b(?:java|javax|org|com|dev)\\.[\\w.$]+(?:Exception|Error)\\b[:\\s]");

  private ErrorShape() {}

  /** True when the text contains a Java stack frame or a qualified exception class name. */
  public static boolean hasStackTrace(String text) {
    return STACK_FRAME.matcher(text).find();
  }

  /**
   * Null when {@code body} is an Iceberg ErrorResponse for {@code status}; otherwise what is wrong.
   */
  public static String icebergProblem(int status, String contentType, String body) {
    if (contentType == null || !contentType.startsWith("application/json")) {
      return "Content-Type is " + contentType + ", not application/json";
    }
    JsonNode error;
    try {
      JsonNode root = JSON.readTree(body);
      error = root == null ? null : root.get("error");
    } catch (Exception e) {
      return "body is not JSON";
    }
    if (error == null || !error.isObject()) {
      return "no \"error\" object";
    }
    if (!error.path("message").isTextual() || error.get("message").asText().isBlank()) {
      return "error.message is missing or blank";
    }
    if (!error.path("type").isTextual() || error.get("type").asText().isBlank()) {
      return "error.type is missing or blank";
    }
    if (!error.path("code").isInt() || error.get("code").asInt() != status) {
      return "error.code " + error.get("code") + " is not the status " + status;
    }
    return null;
  }

  /**
   * Null when {@code body} is an OAuth error ({@code error} and {@code error_description} strings).
   */
  public static String oauthProblem(String contentType, String body) {
    if (contentType == null || !contentType.startsWith("application/json")) {
      return "Content-Type is " + contentType + ", not application/json";
    }
    try {
      JsonNode root = JSON.readTree(body);
      if (root != null
          && root.path("error").isTextual()
          && root.path("error_description").isTextual()) {
        return null;
      }
      return "not an OAuth error {\"error\",\"error_description\"}";
    } catch (Exception e) {
      return "body is not JSON";
    }
  }
}

package dev.sluice.vending;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * Reading a backend's keys from {@code storageConfigInfo}: every error is an {@link
 * IllegalArgumentException} that names the key ({@code storageConfigInfo.<field>}).
 */
public final class ProfileFields {
  private static final String KEY = StorageBackend.Input.KEY;

  private ProfileFields() {}

  public static String text(JsonNode info, String field) {
    JsonNode node = info.get(field);
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isTextual() || node.asText().isBlank()) {
      throw new IllegalArgumentException(KEY + field + " must be a non-empty string");
    }
    return node.asText();
  }

  /**
   * An endpoint the server sends signed requests to: an absolute http(s) URL with a host and
   * nothing that could smuggle another target (user info, query, fragment).
   */
  public static String url(JsonNode info, String field) {
    String text = text(info, field);
    return text == null ? null : checkedUrl(text, KEY + field, Set.of("http", "https"));
  }

  /**
   * {@code value} as an endpoint the server sends requests (and perhaps its tokens) to: one of
   * {@code schemes}, a host, and no user info, query or fragment. Errors name {@code key}.
   */
  public static String checkedUrl(String value, String key, Set<String> schemes) {
    java.net.URI uri;
    try {
      uri = new java.net.URI(value);
    } catch (java.net.URISyntaxException e) {
      throw new IllegalArgumentException(key + " is not a valid URL");
    }
    String form = schemes.size() == 1 ? schemes.iterator().next() : "http(s)";
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!schemes.contains(scheme)) {
      throw new IllegalArgumentException(
          key + " must be " + form + "://host[:port][/path], got scheme '" + scheme + "'");
    }
    if (uri.getHost() == null
        || uri.getRawUserInfo() != null
        || uri.getRawQuery() != null
        || uri.getRawFragment() != null) {
      throw new IllegalArgumentException(
          key + " must be " + form + "://host[:port][/path], without user info, query or fragment");
    }
    return value;
  }

  public static boolean bool(JsonNode info, String field, boolean fallback) {
    JsonNode node = info.get(field);
    if (node == null || node.isNull()) {
      return fallback;
    }
    if (!node.isBoolean()) {
      throw new IllegalArgumentException(KEY + field + " must be true or false");
    }
    return node.asBoolean();
  }

  public static int integer(JsonNode info, String field, int fallback) {
    JsonNode node = info.get(field);
    if (node == null || node.isNull()) {
      return fallback;
    }
    if (!node.isIntegralNumber()) {
      throw new IllegalArgumentException(KEY + field + " must be an integer");
    }
    return node.asInt();
  }

  /**
   * {@code durationSeconds}: {@code fallback} when absent, otherwise between {@code min} and {@code
   * max} inclusive.
   */
  public static int duration(JsonNode info, int min, int max, int fallback) {
    int duration = integer(info, "durationSeconds", fallback);
    if (duration < min || duration > max) {
      throw new IllegalArgumentException(
          KEY + "durationSeconds must be between " + min + " and " + max + ", got " + duration);
    }
    return duration;
  }

  /**
   * {@code vendCredentials}: {@code always} (the default: Spark sends no delegation header) or
   * {@code on-request} (only for clients that send {@code X-Iceberg-Access-Delegation}); true for
   * on-request.
   */
  public static boolean vendOnlyOnRequest(JsonNode info) {
    String vend = text(info, "vendCredentials");
    if (vend != null && !vend.equals("always") && !vend.equals("on-request")) {
      throw new IllegalArgumentException(
          KEY + "vendCredentials must be always or on-request, got " + vend);
    }
    return "on-request".equals(vend);
  }

  /**
   * {@code storageConfigInfo.delegation}: what the catalog offers engines, a list of {@code
   * vended-credentials} and {@code remote-signing} (an empty list: engines bring their own access);
   * {@code fallback} when absent. Only {@code supported} kinds are accepted.
   */
  public static Set<Delegation.Kind> delegation(
      JsonNode info, Set<Delegation.Kind> supported, Set<Delegation.Kind> fallback) {
    JsonNode node = info.get("delegation");
    if (node == null || node.isNull()) {
      return fallback;
    }
    if (!node.isArray()) {
      throw new IllegalArgumentException(
          KEY + "delegation must be an array of " + headerValues(supported));
    }
    Set<Delegation.Kind> kinds = EnumSet.noneOf(Delegation.Kind.class);
    for (JsonNode item : node) {
      Delegation.Kind kind = null;
      for (Delegation.Kind k : supported) {
        if (item.isTextual() && k.headerValue().equals(item.asText())) {
          kind = k;
        }
      }
      if (kind == null || !kinds.add(kind)) {
        throw new IllegalArgumentException(
            KEY
                + "delegation: "
                + (kind == null ? "unknown or unsupported value " : "repeated value ")
                + item
                + " (use "
                + headerValues(supported)
                + ")");
      }
    }
    return Set.copyOf(kinds);
  }

  private static java.util.List<String> headerValues(Set<Delegation.Kind> kinds) {
    return kinds.stream().sorted().map(Delegation.Kind::headerValue).toList();
  }
}

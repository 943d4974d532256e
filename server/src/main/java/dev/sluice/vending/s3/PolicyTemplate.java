package dev.sluice.vending.s3;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A custom session-policy template, in the syntax puddle users know (Go text/template fields):
 * {@code {{.Bucket}}}, {@code {{.KeyPrefix}}} and {@code {{.KeyPattern}}}. Values are JSON-escaped
 * (without quotes), so they go inside JSON strings. A template with any other action, or that does
 * not render to a JSON object, is refused when the catalog is created.
 */
public final class PolicyTemplate {
  private static final Pattern ACTION = Pattern.compile("\\{\\{\\s*(.*?)\\s*}}");
  private static final Map<String, String> FIELDS =
      Map.of(".Bucket", "bucket", ".KeyPrefix", "keyPrefix", ".KeyPattern", "keyPattern");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String text;

  private PolicyTemplate(String text) {
    this.text = text;
  }

  /** Parses and test-renders {@code text}; {@code key} names the config key in errors. */
  public static PolicyTemplate parse(String key, String text) {
    Matcher m = ACTION.matcher(text);
    while (m.find()) {
      if (!FIELDS.containsKey(m.group(1))) {
        throw new IllegalArgumentException(
            key
                + ": unknown template field {{"
                + m.group(1)
                + "}} (use {{.Bucket}}, {{.KeyPrefix}}, {{.KeyPattern}})");
      }
    }
    if (text.replaceAll("\\{\\{\\s*(.*?)\\s*}}", "").contains("{{")) {
      throw new IllegalArgumentException(key + ": unterminated template action");
    }
    PolicyTemplate template = new PolicyTemplate(text);
    try {
      JsonNode rendered = JSON.readTree(template.render("bucket", "a/prefix", "a/prefix/*"));
      if (rendered == null || !rendered.isObject() || !rendered.path("Statement").isArray()) {
        throw new IllegalArgumentException(
            key + ": does not render to a policy object with a Statement array");
      }
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException(
          key + ": does not render to valid JSON: " + e.getOriginalMessage());
    }
    return template;
  }

  // Value equality: equal profiles must share their vendor and cached credentials.
  @Override
  public boolean equals(Object o) {
    return o instanceof PolicyTemplate other && other.text.equals(text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  /** Renders for one bucket and key prefix; values are JSON-escaped. */
  public String render(String bucket, String keyPrefix, String keyPattern) {
    Map<String, String> values =
        Map.of(
            "bucket",
            escape(bucket),
            "keyPrefix",
            escape(keyPrefix),
            "keyPattern",
            escape(keyPattern));
    Matcher m = ACTION.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(values.get(FIELDS.get(m.group(1)))));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static String escape(String value) {
    String quoted;
    try {
      quoted = JSON.writeValueAsString(value);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    return quoted.substring(1, quoted.length() - 1);
  }
}

package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints one entity as {@code key: value} lines, nested objects as dotted keys and arrays
 * comma-joined. Generic on purpose: new server fields show up without a CLI change.
 */
final class Details {
  private Details() {}

  static void print(PrintWriter out, JsonNode entity) {
    List<String> lines = new ArrayList<>();
    flatten("", entity, lines);
    lines.forEach(out::println);
  }

  private static void flatten(String prefix, JsonNode node, List<String> lines) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return;
    }
    if (!node.isObject()) {
      lines.add(prefix + ": " + scalar(node));
      return;
    }
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      // Secrets are printed only by the commands that just received new credentials.
      if (field.getKey().toLowerCase(Locale.ROOT).contains("secret")) {
        continue;
      }
      flatten(
          prefix.isEmpty() ? field.getKey() : prefix + "." + field.getKey(),
          field.getValue(),
          lines);
    }
  }

  private static String scalar(JsonNode node) {
    if (node.isArray()) {
      List<String> items = new ArrayList<>();
      node.forEach(item -> items.add(item.isValueNode() ? item.asText() : item.toString()));
      return String.join(", ", items);
    }
    return node.asText();
  }
}

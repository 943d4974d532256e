package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.nio.charset.StandardCharsets;

/**
 * One pointer change as the change feed carries it: a JSON array {@code [catalog, namespace key,
 * name, version]}. A payload PostgreSQL could not carry (NOTIFY payloads are under 8000 bytes)
 * becomes {@link #ALL}: every replica flushes its whole cache instead.
 */
record PointerChange(PointerCache.Key key, long version) {
  static final String CHANNEL = "sluice_pointers";

  /** The payload meaning "something changed; forget everything". */
  static final String ALL = "*";

  private static final int MAX_PAYLOAD_BYTES = 7900;
  private static final ObjectMapper JSON = new ObjectMapper();

  PointerChange {
    requireNonNull(key, "key");
  }

  String payload() {
    ArrayNode array = JSON.createArrayNode();
    array.add(key.catalog()).add(key.namespace()).add(key.name()).add(version);
    String text = array.toString();
    return text.getBytes(StandardCharsets.UTF_8).length <= MAX_PAYLOAD_BYTES ? text : ALL;
  }

  /** The change in {@code payload}, or null for {@link #ALL} or anything unreadable. */
  static PointerChange parse(String payload) {
    try {
      JsonNode node = JSON.readTree(payload);
      if (node == null || !node.isArray() || node.size() != 4) {
        return null;
      }
      return new PointerChange(
          new PointerCache.Key(node.get(0).asText(), node.get(1).asText(), node.get(2).asText()),
          node.get(3).asLong());
    } catch (Exception e) {
      return null;
    }
  }
}

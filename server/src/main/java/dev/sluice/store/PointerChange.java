package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One pointer change as the change feed carries it: {@code [catalog, namespace key, name,
 * version]}. A transaction sends all its changes in one notification, a JSON array of those, so a
 * replica applies them together ({@link PointerCache#changed(List)}): a multi-table commit is never
 * half applied. A payload PostgreSQL could not carry (NOTIFY payloads are under 8000 bytes) becomes
 * {@link #ALL}: every replica flushes its whole cache instead.
 */
record PointerChange(PointerCache.Key key, long version) {
  static final String CHANNEL = "sluice_pointers";

  /** The payload meaning "something changed; forget everything". */
  static final String ALL = "*";

  /** How a barrier's payload begins: {@code !<replica>:<generation>}, changing nothing. */
  static final String BARRIER = "!";

  private static final int MAX_PAYLOAD_BYTES = 7900;
  private static final ObjectMapper JSON = new ObjectMapper();

  PointerChange {
    requireNonNull(key, "key");
  }

  /** The payload of one transaction's {@code changes}. */
  static String payload(List<PointerChange> changes) {
    ArrayNode array = JSON.createArrayNode();
    for (PointerChange change : changes) {
      array
          .addArray()
          .add(change.key.catalog())
          .add(change.key.namespace())
          .add(change.key.name())
          .add(change.version);
    }
    String text = array.toString();
    return text.getBytes(StandardCharsets.UTF_8).length <= MAX_PAYLOAD_BYTES ? text : ALL;
  }

  /**
   * The changes in {@code payload}, or null for {@link #ALL} or anything unreadable. A single
   * change not wrapped in an array (what a replica of an earlier release sends) reads as one.
   */
  static List<PointerChange> parse(String payload) {
    try {
      JsonNode node = JSON.readTree(payload);
      if (node == null || !node.isArray() || node.isEmpty()) {
        return null;
      }
      if (!node.get(0).isArray()) {
        PointerChange one = change(node);
        return one == null ? null : List.of(one);
      }
      List<PointerChange> changes = new ArrayList<>(node.size());
      for (JsonNode element : node) {
        PointerChange change = change(element);
        if (change == null) {
          return null;
        }
        changes.add(change);
      }
      return changes;
    } catch (Exception e) {
      return null;
    }
  }

  private static PointerChange change(JsonNode node) {
    if (!node.isArray() || node.size() != 4 || !node.get(3).canConvertToLong()) {
      return null;
    }
    return new PointerChange(
        new PointerCache.Key(node.get(0).asText(), node.get(1).asText(), node.get(2).asText()),
        node.get(3).asLong());
  }

  /** The payload of barrier {@code generation} of {@code replica} ({@link PointerCache}). */
  static String barrier(String replica, long generation) {
    return BARRIER + replica + ":" + generation;
  }

  /**
   * The generation of {@code replica}'s barrier in {@code payload}; -1 for another replica's
   * barrier, which changes nothing here; 0 for a payload that is no barrier at all.
   */
  static long barrierOf(String payload, String replica) {
    if (!payload.startsWith(BARRIER)) {
      return 0;
    }
    String own = BARRIER + replica + ":";
    if (!payload.startsWith(own)) {
      return -1;
    }
    try {
      return Math.max(1, Long.parseLong(payload.substring(own.length())));
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}

package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The small request bodies of the management API, in Polaris's wrapped shape. */
final class Bodies {
  private Bodies() {}

  static ObjectNode object() {
    return JsonNodeFactory.instance.objectNode();
  }

  /** {@code {"<kind>": {"name": NAME, "properties": {}}}}: creating a principal or a role. */
  static ObjectNode newEntity(String kind, String name) {
    ObjectNode body = object();
    body.putObject(kind).put("name", name).putObject("properties");
    return body;
  }

  /** {@code {"<kind>": {"name": NAME}}}: naming a role to grant. */
  static ObjectNode reference(String kind, String name) {
    ObjectNode body = object();
    body.putObject(kind).put("name", name);
    return body;
  }
}

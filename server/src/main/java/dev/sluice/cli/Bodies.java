package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

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

  /**
   * {@code {"catalog": {"name", "type": "INTERNAL", "properties", "storageConfigInfo"}}}, with
   * {@code "verify": true} when the server should run the storage self-check right after.
   */
  static ObjectNode newCatalog(
      String name, Map<String, String> properties, ObjectNode storageConfigInfo, boolean verify) {
    ObjectNode catalog = object();
    catalog.put("name", name).put("type", "INTERNAL");
    ObjectNode props = catalog.putObject("properties");
    properties.forEach(props::put);
    catalog.set("storageConfigInfo", storageConfigInfo);
    ObjectNode body = object();
    body.set("catalog", catalog);
    if (verify) {
      body.put("verify", true);
    }
    return body;
  }

  /**
   * {@code {"currentEntityVersion", "properties", "storageConfigInfo"}}: an update of what was read
   * at {@code version}; a null part is left as it is.
   */
  static ObjectNode catalogUpdate(
      long version, Map<String, String> properties, ObjectNode storageConfigInfo) {
    ObjectNode body = object();
    body.put("currentEntityVersion", version);
    if (properties != null) {
      ObjectNode props = body.putObject("properties");
      properties.forEach(props::put);
    }
    if (storageConfigInfo != null) {
      body.set("storageConfigInfo", storageConfigInfo);
    }
    return body;
  }

  /** {@code {"namespace": [levels], "properties": {...}}}: creating an Iceberg namespace. */
  static ObjectNode newNamespace(List<String> levels, Map<String, String> properties) {
    ObjectNode body = object();
    levels.forEach(body.putArray("namespace")::add);
    ObjectNode props = body.putObject("properties");
    properties.forEach(props::put);
    return body;
  }

  /** {@code {"otherLocation": LOC}} or {@code {}}: the storage self-check's request. */
  static ObjectNode verify(String otherLocation) {
    ObjectNode body = object();
    if (otherLocation != null) {
      body.put("otherLocation", otherLocation);
    }
    return body;
  }

  /** The properties of a management entity as a map (for read-modify-write). */
  static Map<String, String> properties(JsonNode entity) {
    Map<String, String> out = new java.util.LinkedHashMap<>();
    entity.path("properties").properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
    return out;
  }
}

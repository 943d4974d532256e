package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.management.CatalogAdmin;
import dev.sluice.store.CatalogRecord;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.exceptions.BadRequestException;

/** The management API under {@code /api/management/v1}, in Apache Polaris's JSON shape. */
public final class ManagementRoutes {
  private static final String BASE = "/api/management/v1";

  private final CatalogAdmin catalogs;

  public ManagementRoutes(CatalogAdmin catalogs) {
    this.catalogs = requireNonNull(catalogs, "catalogs");
  }

  public void register(HttpServer.Routes routes) {
    routes
        .add("POST", BASE + "/catalogs", this::createCatalog)
        .add("GET", BASE + "/catalogs", x -> Reply.okPlain(Map.of("catalogs", catalogs.list().stream().map(ManagementRoutes::render).toList())))
        .add("GET", BASE + "/catalogs/{name}", x -> Reply.okPlain(render(catalogs.get(x.path("name")))))
        .add("PUT", BASE + "/catalogs/{name}", this::updateCatalog)
        .add("DELETE", BASE + "/catalogs/{name}", x -> {
          catalogs.delete(x.path("name"));
          return Reply.NO_CONTENT;
        });
  }

  private Reply createCatalog(Exchange x) {
    JsonNode body = x.jsonBody();
    JsonNode catalog = body.has("catalog") ? body.get("catalog") : body;
    if (!catalog.isObject()) {
      throw new BadRequestException("Invalid request: expected {\"catalog\": {...}}");
    }
    CatalogRecord created =
        catalogs.create(
            text(catalog, "name", true),
            text(catalog, "type", false),
            stringMap(catalog.get("properties"), "catalog.properties"),
            catalog.get("storageConfigInfo"));
    return Reply.status(201, render(created));
  }

  private Reply updateCatalog(Exchange x) {
    JsonNode body = x.jsonBody();
    if (!body.isObject()) {
      throw new BadRequestException("Invalid request: expected a JSON object");
    }
    JsonNode version = body.get("currentEntityVersion");
    if (version != null && !version.isIntegralNumber()) {
      throw new BadRequestException("Invalid currentEntityVersion: must be an integer");
    }
    JsonNode properties = body.get("properties");
    CatalogRecord updated =
        catalogs.update(
            x.path("name"),
            version == null ? null : version.asLong(),
            properties == null || properties.isNull() ? null : stringMap(properties, "properties"),
            body.get("storageConfigInfo"));
    return Reply.okPlain(render(updated));
  }

  static Map<String, Object> render(CatalogRecord record) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("type", record.type());
    out.put("name", record.name());
    out.put("properties", record.properties());
    out.put("createTimestamp", record.createdAt());
    out.put("lastUpdateTimestamp", record.updatedAt());
    out.put("entityVersion", record.version());
    try {
      out.put("storageConfigInfo", Json.plain().readTree(record.storageConfig()));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("Corrupt storage configuration for catalog " + record.name(), e);
    }
    return out;
  }

  private static String text(JsonNode node, String field, boolean required) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      if (required) {
        throw new BadRequestException("Missing field: %s", field);
      }
      return null;
    }
    if (!value.isTextual()) {
      throw new BadRequestException("Invalid %s: must be a string", field);
    }
    return value.asText();
  }

  private static Map<String, String> stringMap(JsonNode node, String what) {
    Map<String, String> out = new LinkedHashMap<>();
    if (node == null || node.isNull()) {
      return out;
    }
    if (!(node instanceof ObjectNode object)) {
      throw new BadRequestException("Invalid %s: must be an object of strings", what);
    }
    object.fields().forEachRemaining(e -> {
      if (!e.getValue().isTextual()) {
        throw new BadRequestException("Invalid %s.%s: must be a string", what, e.getKey());
      }
      out.put(e.getKey(), e.getValue().asText());
    });
    return out;
  }
}

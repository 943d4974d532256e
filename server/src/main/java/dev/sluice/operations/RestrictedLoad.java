package dev.sluice.operations;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.catalog.TableRestriction;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.rest.RESTCatalogProperties;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.apache.iceberg.util.JsonUtil;

/**
 * A table load for a caller under a read restriction: no storage access at all (no table-wide
 * credential, no signing endpoint: the metadata's manifests hold every partition's statistics),
 * {@code scan-planning-mode: server} so the engine plans through Sluice, every schema without the
 * hidden columns, and the spec's {@code read-restrictions} object for the engine to apply.
 */
final class RestrictedLoad {
  private RestrictedLoad() {}

  /** {@code loaded} (no credentials attached) as a restricted caller receives it. */
  static LoadTableResponse of(LoadTableResponse loaded) {
    return LoadTableResponse.builder()
        .withTableMetadata(loaded.tableMetadata())
        .addAllConfig(loaded.config())
        .addConfig(
            RESTCatalogProperties.SCAN_PLANNING_MODE,
            RESTCatalogProperties.ScanPlanningMode.SERVER.modeName())
        .build();
  }

  /**
   * {@code body}, a load's JSON, with the hidden columns removed from every schema of its metadata
   * and the {@code read-restrictions} of {@code restriction} added.
   */
  static byte[] rewrite(byte[] body, TableRestriction restriction) {
    try {
      ObjectNode root = (ObjectNode) JsonUtil.mapper().readTree(body);
      ObjectNode metadata = (ObjectNode) root.get("metadata");
      Schema current = null;
      int currentId = metadata.path("current-schema-id").asInt(-1);
      JsonNode schemas = metadata.get("schemas");
      if (schemas instanceof ArrayNode list) {
        for (int i = 0; i < list.size(); i++) {
          Schema schema = SchemaParser.fromJson(list.get(i));
          if (schema.schemaId() == currentId) {
            current = schema;
          }
          list.set(i, visible(restriction, schema));
        }
      }
      if (metadata.get("schema") instanceof ObjectNode single) {
        Schema schema = SchemaParser.fromJson(single);
        current = current == null ? schema : current;
        metadata.set("schema", visible(restriction, schema));
      }
      if (current != null) {
        root.set("read-restrictions", restriction.readRestrictionsJson(current));
      }
      return JsonUtil.mapper().writeValueAsBytes(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode visible(TableRestriction restriction, Schema schema) throws IOException {
    return JsonUtil.mapper().readTree(SchemaParser.toJson(restriction.visibleSchema(schema)));
  }
}

package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.Catalog;
import dev.sluice.api.ConnectionConfigInfo;
import dev.sluice.api.CreateCatalogRequest;
import dev.sluice.api.CreateCatalogRoleRequest;
import dev.sluice.api.CreatePrincipalRequest;
import dev.sluice.api.CreatePrincipalRoleRequest;
import dev.sluice.api.EntitySpec;
import dev.sluice.api.SetReadRestrictionRequest;
import dev.sluice.api.SetStorageIdentityRequest;
import dev.sluice.api.UpdateCatalogRequest;
import dev.sluice.api.VerifyCatalogRequest;
import java.util.List;
import java.util.Map;

/**
 * The request bodies the CLI sends: the management API's contract records ({@code dev.sluice.api}),
 * and the Iceberg REST API's namespace creation.
 */
final class Bodies {
  private Bodies() {}

  static ObjectNode object() {
    return JsonNodeFactory.instance.objectNode();
  }

  static CreatePrincipalRequest newPrincipal(String name) {
    return new CreatePrincipalRequest(EntitySpec.named(name));
  }

  static CreatePrincipalRoleRequest newPrincipalRole(String name) {
    return new CreatePrincipalRoleRequest(EntitySpec.named(name));
  }

  static CreateCatalogRoleRequest newCatalogRole(String name) {
    return new CreateCatalogRoleRequest(EntitySpec.named(name));
  }

  /**
   * A new INTERNAL catalog, with {@code "verify": true} when the server should run the storage
   * self-check right after.
   */
  static CreateCatalogRequest newCatalog(
      String name, Map<String, String> properties, ObjectNode storageConfigInfo, boolean verify) {
    return newCatalog(name, properties, storageConfigInfo, null, verify);
  }

  /** As above; with {@code connection}, an EXTERNAL (federated) catalog in front of it. */
  static CreateCatalogRequest newCatalog(
      String name,
      Map<String, String> properties,
      ObjectNode storageConfigInfo,
      ConnectionConfigInfo connection,
      boolean verify) {
    Catalog catalog =
        connection == null
            ? Catalog.of(name, properties, storageConfigInfo)
            : Catalog.external(name, properties, storageConfigInfo, connection);
    return new CreateCatalogRequest(catalog, verify ? Boolean.TRUE : null);
  }

  /** An update of what was read at {@code version}; a null part is left as it is. */
  static UpdateCatalogRequest catalogUpdate(
      long version, Map<String, String> properties, ObjectNode storageConfigInfo) {
    return new UpdateCatalogRequest(version, properties, storageConfigInfo);
  }

  /** {@code {"namespace": [levels], "properties": {...}}}: creating an Iceberg namespace. */
  static ObjectNode newNamespace(List<String> levels, Map<String, String> properties) {
    ObjectNode body = object();
    levels.forEach(body.putArray("namespace")::add);
    ObjectNode props = body.putObject("properties");
    properties.forEach(props::put);
    return body;
  }

  /** The storage self-check's request, with or without another location to probe. */
  /** A namespace's storage identity: its keys as given, checked by the server's backend. */
  static SetStorageIdentityRequest storageIdentity(Map<String, String> fields) {
    ObjectNode identity = object();
    fields.forEach(identity::put);
    return new SetStorageIdentityRequest(identity);
  }

  static SetReadRestrictionRequest readRestriction(
      JsonNode rowFilter, List<String> hidden, Map<String, String> masked) {
    return new SetReadRestrictionRequest(rowFilter, hidden, masked);
  }

  static VerifyCatalogRequest verify(String otherLocation) {
    return new VerifyCatalogRequest(otherLocation);
  }

  /** Iceberg REST's register (table) and register-view body. */
  static ObjectNode register(String name, String metadataLocation) {
    ObjectNode body = object().put("name", name).put("metadata-location", metadataLocation);
    return body;
  }

  /**
   * An Iceberg REST commit to a table or view ({@code view}) with its UUID asserted: sets {@code
   * key} to {@code value}, or removes it when {@code value} is null.
   */
  static ObjectNode propertyCommit(boolean view, String uuid, String key, String value) {
    ObjectNode body = object();
    ObjectNode requirement = body.putArray("requirements").addObject();
    requirement.put("type", view ? "assert-view-uuid" : "assert-table-uuid").put("uuid", uuid);
    ObjectNode update = body.putArray("updates").addObject();
    if (value == null) {
      update.put("action", "remove-properties").putArray("removals").add(key);
    } else {
      update.put("action", "set-properties").putObject("updates").put(key, value);
    }
    return body;
  }
}

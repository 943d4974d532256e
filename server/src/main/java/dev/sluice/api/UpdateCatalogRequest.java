package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * {@code PUT /catalogs/{name}}: new properties and/or a new storage configuration (each replaces
 * the stored one whole; absent keeps it), guarded by the entity version the caller read (optimistic
 * concurrency, as in Polaris; absent: the version the server read). A federated catalog's {@code
 * connectionConfigInfo} is replaced the same way; an INTERNAL catalog has none to set.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record UpdateCatalogRequest(
    Long currentEntityVersion,
    Map<String, String> properties,
    ObjectNode storageConfigInfo,
    ConnectionConfigInfo connectionConfigInfo) {
  public UpdateCatalogRequest {
    properties = properties == null ? null : Fields.copy(properties);
  }

  /** An update that keeps the connection of a federated catalog (every INTERNAL one's). */
  public UpdateCatalogRequest(
      Long currentEntityVersion, Map<String, String> properties, ObjectNode storageConfigInfo) {
    this(currentEntityVersion, properties, storageConfigInfo, null);
  }
}

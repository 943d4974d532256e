package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * {@code PUT /catalogs/{name}}: new properties and/or a new storage configuration (each replaces
 * the stored one whole; absent keeps it), guarded by the entity version the caller read (optimistic
 * concurrency, as in Polaris; absent: the version the server read).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record UpdateCatalogRequest(
    Long currentEntityVersion, Map<String, String> properties, ObjectNode storageConfigInfo) {
  public UpdateCatalogRequest {
    properties = properties == null ? null : Fields.copy(properties);
  }
}

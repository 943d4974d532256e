package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * A catalog, in Polaris's shape. In a create request only {@code name} and {@code
 * storageConfigInfo} are needed; the timestamps and version are the server's (read-only). {@code
 * storageConfigInfo} is each storage type's own object (its keys: the OpenAPI document's {@code
 * <Type>StorageConfigInfo}), checked by the storage backend, which refuses a key it does not know.
 * {@code verification} is only in the answer to a create that asked for the self-check.
 */
public record Catalog(
    String type,
    @JsonProperty(required = true) String name,
    Map<String, String> properties,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long createTimestamp,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long lastUpdateTimestamp,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long entityVersion,
    @JsonProperty(required = true) ObjectNode storageConfigInfo,
    @JsonInclude(JsonInclude.Include.NON_NULL) VerificationReport verification) {
  public Catalog {
    Fields.nonEmpty(name, "catalog.name");
    properties = Fields.copy(properties);
    if (storageConfigInfo == null) {
      throw new IllegalArgumentException("Missing field: catalog.storageConfigInfo");
    }
  }

  /** A catalog to create. */
  public static Catalog of(
      String name, Map<String, String> properties, ObjectNode storageConfigInfo) {
    return new Catalog("INTERNAL", name, properties, null, null, null, storageConfigInfo, null);
  }

  /** This catalog with the self-check's report of its creation. */
  public Catalog withVerification(VerificationReport report) {
    return new Catalog(
        type,
        name,
        properties,
        createTimestamp,
        lastUpdateTimestamp,
        entityVersion,
        storageConfigInfo,
        report);
  }
}

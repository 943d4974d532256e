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
 * {@code verification} is only in the answer to a create that asked for the self-check. {@code
 * type} is {@code INTERNAL} (the default) or {@code EXTERNAL}, a federated catalog in front of a
 * remote Iceberg REST catalog, which alone has a {@code connectionConfigInfo}.
 */
public record Catalog(
    String type,
    @JsonProperty(required = true) String name,
    Map<String, String> properties,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long createTimestamp,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long lastUpdateTimestamp,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long entityVersion,
    @JsonProperty(required = true) ObjectNode storageConfigInfo,
    @JsonInclude(JsonInclude.Include.NON_NULL) VerificationReport verification,
    @JsonInclude(JsonInclude.Include.NON_NULL) ConnectionConfigInfo connectionConfigInfo) {
  public Catalog {
    Fields.nonEmpty(name, "catalog.name");
    properties = Fields.copy(properties);
    if (storageConfigInfo == null) {
      throw new IllegalArgumentException("Missing field: catalog.storageConfigInfo");
    }
  }

  /** A catalog without a connection (INTERNAL), as before federation. */
  public Catalog(
      String type,
      String name,
      Map<String, String> properties,
      Long createTimestamp,
      Long lastUpdateTimestamp,
      Long entityVersion,
      ObjectNode storageConfigInfo,
      VerificationReport verification) {
    this(
        type,
        name,
        properties,
        createTimestamp,
        lastUpdateTimestamp,
        entityVersion,
        storageConfigInfo,
        verification,
        null);
  }

  /** A federated catalog to create, in front of the remote {@code connection} names. */
  public static Catalog external(
      String name,
      Map<String, String> properties,
      ObjectNode storageConfigInfo,
      ConnectionConfigInfo connection) {
    return new Catalog(
        "EXTERNAL", name, properties, null, null, null, storageConfigInfo, null, connection);
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
        report,
        connectionConfigInfo);
  }
}

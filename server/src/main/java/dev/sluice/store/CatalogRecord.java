package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * A catalog as stored. {@code storageConfig} is the catalog's storage configuration as JSON text,
 * {@code connectionConfig} how a federated (EXTERNAL) catalog reaches its remote catalog, also JSON
 * text, null for others; their meaning belongs to the catalog, federation and vending packages, not
 * the store.
 */
public record CatalogRecord(
    String name,
    String type,
    Map<String, String> properties,
    String storageConfig,
    String connectionConfig,
    long version,
    long createdAt,
    long updatedAt) {
  public CatalogRecord {
    requireNonNull(name, "name");
    requireNonNull(type, "type");
    properties = Map.copyOf(requireNonNull(properties, "properties"));
    requireNonNull(storageConfig, "storageConfig");
  }

  /** A catalog without a connection configuration (an INTERNAL one). */
  public CatalogRecord(
      String name,
      String type,
      Map<String, String> properties,
      String storageConfig,
      long version,
      long createdAt,
      long updatedAt) {
    this(name, type, properties, storageConfig, null, version, createdAt, updatedAt);
  }
}

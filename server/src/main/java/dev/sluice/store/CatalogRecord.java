package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * A catalog as stored. {@code storageConfig} is the catalog's storage configuration as JSON text;
 * its meaning belongs to the catalog and vending packages, not the store.
 */
public record CatalogRecord(
    String name,
    String type,
    Map<String, String> properties,
    String storageConfig,
    long version,
    long createdAt,
    long updatedAt) {
  public CatalogRecord {
    requireNonNull(name, "name");
    requireNonNull(type, "type");
    properties = Map.copyOf(requireNonNull(properties, "properties"));
    requireNonNull(storageConfig, "storageConfig");
  }
}

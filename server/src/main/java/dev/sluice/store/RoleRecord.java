package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/** A principal role, or a catalog role within {@code catalog} (null for principal roles). */
public record RoleRecord(
    String catalog, String name, Map<String, String> properties, long createdAt) {
  public RoleRecord {
    requireNonNull(name, "name");
    properties = Map.copyOf(requireNonNull(properties, "properties"));
  }
}

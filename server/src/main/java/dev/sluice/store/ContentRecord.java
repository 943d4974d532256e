package dev.sluice.store;

import static java.util.Objects.requireNonNull;

/** A table or view: its identity and the pointer to its current metadata file. */
public record ContentRecord(
    String catalog,
    NamespacePath namespace,
    String name,
    ContentKind kind,
    String metadataLocation,
    long version) {
  public ContentRecord {
    requireNonNull(catalog, "catalog");
    requireNonNull(namespace, "namespace");
    requireNonNull(name, "name");
    requireNonNull(kind, "kind");
    requireNonNull(metadataLocation, "metadataLocation");
  }
}

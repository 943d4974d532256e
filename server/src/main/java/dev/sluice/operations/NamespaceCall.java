package dev.sluice.operations;

import static java.util.Objects.requireNonNull;

import dev.sluice.authz.Caller;
import dev.sluice.catalog.SluiceCatalog;
import org.apache.iceberg.catalog.Namespace;

/**
 * Who asks about which namespace, in a catalog already resolved for them ({@link CatalogAccess}).
 */
public record NamespaceCall(Caller caller, SluiceCatalog catalog, Namespace namespace) {
  public NamespaceCall {
    requireNonNull(caller, "caller");
    requireNonNull(catalog, "catalog");
    requireNonNull(namespace, "namespace");
  }
}

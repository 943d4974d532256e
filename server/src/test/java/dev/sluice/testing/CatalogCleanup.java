package dev.sluice.testing;

import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * Drops every table and view of a catalog through its client, as a user clears a catalog: Iceberg's
 * catalog tests reuse fixed custom locations in every test, and a location stays claimed until its
 * table or view is dropped.
 */
public final class CatalogCleanup {
  private CatalogCleanup() {}

  public static void dropAll(RESTCatalog catalog) {
    dropAll(catalog, Namespace.empty());
  }

  private static void dropAll(RESTCatalog catalog, Namespace parent) {
    for (Namespace ns : catalog.listNamespaces(parent)) {
      dropAll(catalog, ns);
      for (TableIdentifier view : catalog.listViews(ns)) {
        catalog.dropView(view);
      }
      for (TableIdentifier table : catalog.listTables(ns)) {
        catalog.dropTable(table, false);
      }
    }
  }
}

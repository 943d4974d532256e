package dev.sluice.operations;

import static java.util.Objects.requireNonNull;

import dev.sluice.authz.Caller;
import dev.sluice.catalog.SluiceCatalog;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Who asks about which table (or view: Iceberg names both with a {@link TableIdentifier}), in a
 * catalog already resolved for them ({@link CatalogAccess}): the three things every table request
 * carries, so that no method takes them as loose parameters.
 */
public record TableCall(Caller caller, SluiceCatalog catalog, TableIdentifier table) {
  public TableCall {
    requireNonNull(caller, "caller");
    requireNonNull(catalog, "catalog");
    requireNonNull(table, "table");
  }

  /** The same caller and catalog, about {@code other}. */
  TableCall about(TableIdentifier other) {
    return new TableCall(caller, catalog, other);
  }
}

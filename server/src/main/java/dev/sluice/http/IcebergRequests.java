package dev.sluice.http;

import static dev.sluice.http.Securables.namespace;
import static dev.sluice.http.Securables.tableRef;
import static dev.sluice.http.Securables.viewRef;
import static java.util.Objects.requireNonNull;

import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.authz.CatalogVisibility;
import dev.sluice.authz.ObjectVisibility;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.CatalogRegistry;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.store.SecurableRef;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * What an Iceberg request names (its caller, catalog, table or view) and the checks every route
 * makes before it: shared by {@link IcebergRoutes}, {@link TableLoads} and {@link TableMutations}
 * so that each resolves a catalog and refuses a caller the same way.
 */
final class IcebergRequests {
  private final CatalogRegistry catalogs;
  private final Authorizer authz;
  private final CatalogVisibility visibility;
  private final ObjectVisibility objects;

  IcebergRequests(
      CatalogRegistry catalogs,
      Authorizer authz,
      CatalogVisibility visibility,
      ObjectVisibility objects) {
    this.catalogs = requireNonNull(catalogs, "catalogs");
    this.authz = requireNonNull(authz, "authz");
    this.visibility = requireNonNull(visibility, "visibility");
    this.objects = requireNonNull(objects, "objects");
  }

  Caller caller(Exchange x) {
    return x.caller(authz);
  }

  /**
   * The prefix's catalog. A caller who may not learn whether it exists is refused here, with the
   * same 403 for a catalog that exists and one that does not; others get the precise 404.
   */
  SluiceCatalog catalog(Exchange x) {
    String name = x.path("prefix");
    visibility.require(caller(x), "accessCatalog", name);
    return catalogs.resolve(name);
  }

  static TableIdentifier table(Exchange x) {
    return TableIdentifier.of(x.namespace("namespace"), x.path("table"));
  }

  static TableIdentifier view(Exchange x) {
    return TableIdentifier.of(x.namespace("namespace"), x.path("view"));
  }

  /**
   * Loads and probes of a table or view: 403 without the privilege, except 404 for a missing object
   * to a caller who may know it is missing ({@link ObjectVisibility}).
   */
  void readable(
      Caller caller,
      String action,
      SluiceCatalog catalog,
      SecurableRef object,
      TableIdentifier id,
      Privilege privilege) {
    objects.requireRead(
        caller, action, catalog.name(), object, privilege, () -> catalog.kindAt(id));
  }

  /** The catalog, once the caller holds {@code privilege} on the path's namespace. */
  SluiceCatalog onNamespace(Exchange x, String action, Privilege privilege) {
    SluiceCatalog catalog = catalog(x);
    authz.require(
        caller(x), action, catalog.name(), namespace(x.namespace("namespace")), privilege);
    return catalog;
  }

  /** The catalog, once the caller holds {@code privilege} on the path's table. */
  SluiceCatalog onTable(Exchange x, String action, Privilege privilege) {
    SluiceCatalog catalog = catalog(x);
    authz.require(caller(x), action, catalog.name(), tableRef(table(x)), privilege);
    return catalog;
  }

  /** The catalog, once the caller holds {@code privilege} on the path's view. */
  SluiceCatalog onView(Exchange x, String action, Privilege privilege) {
    SluiceCatalog catalog = catalog(x);
    authz.require(caller(x), action, catalog.name(), viewRef(view(x)), privilege);
    return catalog;
  }
}

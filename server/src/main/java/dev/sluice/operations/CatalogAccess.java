package dev.sluice.operations;

import static dev.sluice.operations.Securables.namespace;
import static dev.sluice.operations.Securables.tableRef;
import static dev.sluice.operations.Securables.viewRef;
import static java.util.Objects.requireNonNull;

import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.authz.CatalogVisibility;
import dev.sluice.authz.ObjectVisibility;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.CatalogRegistry;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.store.SecurableRef;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * The checks every Iceberg request makes before it acts: that the caller may know of the catalog it
 * names, and that it holds a privilege on a namespace, table or view. One place, so that every
 * route resolves a catalog and refuses a caller the same way.
 */
public final class CatalogAccess {
  private final CatalogRegistry catalogs;
  private final Authorizer authz;
  private final CatalogVisibility visibility;
  private final ObjectVisibility objects;

  public CatalogAccess(
      CatalogRegistry catalogs,
      Authorizer authz,
      CatalogVisibility visibility,
      ObjectVisibility objects) {
    this.catalogs = requireNonNull(catalogs, "catalogs");
    this.authz = requireNonNull(authz, "authz");
    this.visibility = requireNonNull(visibility, "visibility");
    this.objects = requireNonNull(objects, "objects");
  }

  /**
   * The catalog named {@code name}. A caller who may not learn whether it exists is refused here,
   * with the same 403 for a catalog that exists and one that does not; others get the precise 404.
   */
  public SluiceCatalog catalog(Caller caller, String name) {
    visibility.require(caller, "accessCatalog", name);
    return catalogs.resolve(name);
  }

  /**
   * The catalog a client configures itself for ({@code GET /v1/config?warehouse=}): the caller must
   * be allowed to know of it (checked before the lookup, so no 404 for those who may not know), and
   * must hold some privilege in it, or may act for a principal role that does (an engine whose
   * users' tokens it exchanges: PRINCIPAL_ACT_AS).
   */
  public SluiceCatalog configurable(Caller caller, String warehouse) {
    visibility.require(caller, "getConfig", warehouse);
    SluiceCatalog catalog = catalogs.resolve(warehouse);
    boolean allowed =
        authz.seesAnythingAt(caller, catalog.name(), SecurableRef.CATALOG)
            || authz.actsForSomeoneIn(caller, catalog.name());
    authz.record(caller, "getConfig", catalog.name(), "catalog", allowed);
    if (!allowed) {
      throw new ForbiddenException(
          "Principal '%s' has no privilege in catalog %s", caller.principal(), catalog.name());
    }
    return catalog;
  }

  /**
   * Loads and probes of a table or view: 403 without the privilege, except 404 for a missing object
   * to a caller who may know it is missing ({@link ObjectVisibility}). The 403 for a table of a
   * catalog that hands out storage access (vended credentials, remote signing) also names
   * TABLE_READ_DATA, which reading its files takes.
   */
  public void requireReadable(
      Caller caller,
      String action,
      SluiceCatalog catalog,
      SecurableRef object,
      TableIdentifier id,
      Privilege privilege) {
    Privilege forData =
        object.type() == SecurableRef.Type.TABLE
                && !catalog.settings().storage().offered().isEmpty()
            ? Privilege.TABLE_READ_DATA
            : null;
    objects.requireRead(
        caller, action, catalog.name(), object, privilege, forData, () -> catalog.kindAt(id));
  }

  /**
   * A namespace's existence check: 404 for a missing one only to a caller who may know it is
   * missing ({@link ObjectVisibility}).
   */
  public void requireExistenceCheck(
      Caller caller, String action, SluiceCatalog catalog, Namespace ns) {
    objects.requireExistenceCheck(caller, action, catalog.name(), namespace(ns));
  }

  /** True when the caller may read {@code ns}'s properties, false for its existence only. */
  public boolean requireNamespaceLoad(
      Caller caller, String action, SluiceCatalog catalog, Namespace ns) {
    return objects.requireNamespaceLoad(caller, action, catalog.name(), namespace(ns));
  }

  public void requireOnNamespace(
      Caller caller, String action, SluiceCatalog catalog, Namespace ns, Privilege privilege) {
    authz.require(caller, action, catalog.name(), namespace(ns), privilege);
  }

  public void requireOnTable(
      Caller caller,
      String action,
      SluiceCatalog catalog,
      TableIdentifier table,
      Privilege privilege) {
    authz.require(caller, action, catalog.name(), tableRef(table), privilege);
  }

  public void requireOnView(
      Caller caller,
      String action,
      SluiceCatalog catalog,
      TableIdentifier view,
      Privilege privilege) {
    authz.require(caller, action, catalog.name(), viewRef(view), privilege);
  }
}

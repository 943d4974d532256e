package dev.sluice.management;

import static java.util.Objects.requireNonNull;

import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.authz.CatalogVisibility;
import dev.sluice.authz.Privilege;
import dev.sluice.store.SecurableRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which operations a caller may take, by operation id (the management API's and, inside a catalog,
 * the Iceberg REST API's), so that a console shows only what its user can use (like Lakekeeper's
 * {@code actions} endpoints). Derived from the same {@link Authorizer} and the same rules as the
 * checks of {@link ManagementAccess} and {@code operations/CatalogAccess}; asking decides nothing
 * and records no decision per operation. {@code CallerActionsTest} holds each answer to the real
 * calls.
 */
public final class CallerActions {
  /** The service admin's service-level operations, in the API reference's order. */
  static final List<String> SERVICE_ADMIN =
      List.of(
          "createCatalog",
          "listPrincipals",
          "createPrincipal",
          "updatePrincipal",
          "deletePrincipal",
          "assignPrincipalRole",
          "revokePrincipalRole",
          "createPrincipalRole",
          "listPrincipalRoles",
          "getPrincipalRole",
          "deletePrincipalRole",
          "listPrincipalsWithRole",
          "listActAsTargets",
          "grantActAs",
          "revokeActAs",
          "listSigningKeys",
          "rotateSigningKey",
          "retireSigningKey");

  /** Every principal's, about itself or the server. */
  static final List<String> ANYONE =
      List.of("listCatalogs", "listStorageTypes", "getActions", "getCatalogActions");

  /** Management operations on one catalog, each with the catalog privilege that allows it. */
  static final Map<String, Privilege> ON_CATALOG =
      Map.ofEntries(
          Map.entry("getCatalog", Privilege.CATALOG_READ_PROPERTIES),
          Map.entry("updateCatalog", Privilege.CATALOG_WRITE_PROPERTIES),
          Map.entry("verifyCatalog", Privilege.CATALOG_MANAGE_CONTENT),
          Map.entry("listCatalogRoles", Privilege.CATALOG_MANAGE_ACCESS),
          Map.entry("createCatalogRole", Privilege.CATALOG_MANAGE_ACCESS),
          Map.entry("getCatalogRole", Privilege.CATALOG_MANAGE_ACCESS),
          Map.entry("deleteCatalogRole", Privilege.CATALOG_MANAGE_ACCESS),
          Map.entry("listPrincipalRolesWithCatalogRole", Privilege.CATALOG_MANAGE_ACCESS),
          Map.entry("listGrants", Privilege.CATALOG_MANAGE_ACCESS),
          Map.entry("addGrant", Privilege.CATALOG_MANAGE_ACCESS),
          Map.entry("revokeGrant", Privilege.CATALOG_MANAGE_ACCESS),
          Map.entry("listCatalogRolesOfPrincipalRole", Privilege.CATALOG_MANAGE_ACCESS),
          Map.entry("grantCatalogRole", Privilege.CATALOG_MANAGE_ACCESS),
          Map.entry("revokeCatalogRole", Privilege.CATALOG_MANAGE_ACCESS),
          Map.entry("listEvents", Privilege.CATALOG_MANAGE_ACCESS));

  /** The service admin's operations on one namespace: its storage identity. */
  static final List<String> SERVICE_ADMIN_ON_NAMESPACE =
      List.of(
          "getNamespaceStorageIdentity",
          "setNamespaceStorageIdentity",
          "clearNamespaceStorageIdentity");

  /** Iceberg REST operations on a catalog or namespace and the privilege each needs there. */
  static final Map<String, Privilege> ON_NAMESPACE =
      Map.ofEntries(
          Map.entry("listNamespaces", Privilege.NAMESPACE_LIST),
          Map.entry("createNamespace", Privilege.NAMESPACE_CREATE),
          Map.entry("loadNamespaceMetadata", Privilege.NAMESPACE_READ_PROPERTIES),
          Map.entry("updateProperties", Privilege.NAMESPACE_WRITE_PROPERTIES),
          Map.entry("dropNamespace", Privilege.NAMESPACE_DROP),
          Map.entry("listTables", Privilege.TABLE_LIST),
          Map.entry("createTable", Privilege.TABLE_CREATE),
          Map.entry("registerTable", Privilege.TABLE_CREATE),
          Map.entry("listViews", Privilege.VIEW_LIST),
          Map.entry("createView", Privilege.VIEW_CREATE),
          Map.entry("registerView", Privilege.VIEW_CREATE));

  /** On the catalog itself, only these of {@link #ON_NAMESPACE} apply (the root namespace). */
  static final Set<String> AT_ROOT = Set.of("listNamespaces", "createNamespace");

  /**
   * Lists answer (filtered to what the caller sees) also without the list privilege, to a caller
   * with a grant at or below where it lists, as {@code operations/CatalogListings} does.
   */
  static final Set<String> LISTS = Set.of("listNamespaces", "listTables", "listViews");

  static final Map<String, Privilege> ON_TABLE =
      Map.of(
          "loadTable", Privilege.TABLE_READ_PROPERTIES,
          "dropTable", Privilege.TABLE_DROP,
          "loadCredentials", Privilege.TABLE_READ_DATA);

  /** A table's read restrictions: the service admin's, or CATALOG_MANAGE_ACCESS on the catalog. */
  static final List<String> MANAGE_ACCESS_ON_TABLE =
      List.of("listTableReadRestrictions", "setTableReadRestriction", "removeTableReadRestriction");

  static final Map<String, Privilege> ON_VIEW =
      Map.of(
          "loadView", Privilege.VIEW_READ_PROPERTIES,
          "replaceView", Privilege.VIEW_WRITE_PROPERTIES,
          "dropView", Privilege.VIEW_DROP);

  private final Authorizer authz;
  private final CatalogVisibility visibility;
  private final CatalogAdmin catalogs;

  public CallerActions(Authorizer authz, CatalogAdmin catalogs) {
    this.authz = requireNonNull(authz, "authz");
    this.visibility = new CatalogVisibility(authz);
    this.catalogs = requireNonNull(catalogs, "catalogs");
  }

  /** The operations not about one catalog that {@code caller} may take. */
  public List<String> service(Caller caller) {
    List<String> out = new ArrayList<>(ANYONE);
    // Every principal may read itself and rotate its own secret (with an unnarrowed token: the
    // guard checks that; the console offers it and shows the guard's answer).
    out.addAll(List.of("getPrincipal", "rotateCredentials", "listPrincipalRolesOfPrincipal"));
    if (caller.isServiceAdmin()) {
      out.addAll(SERVICE_ADMIN);
      out.add("listEvents");
    } else if (managesAnyCatalog(caller)) {
      out.add("listEvents");
    }
    return List.copyOf(out);
  }

  /**
   * The operations {@code caller} may take on {@code securable} in {@code catalog}. A caller with
   * no standing in the catalog gets none, whether it exists or not; the service admin learns that
   * it does not exist (404).
   */
  public List<String> onCatalog(Caller caller, String catalog, SecurableRef securable) {
    if (caller.isServiceAdmin()) {
      catalogs.get(catalog);
    } else if (!visibility.mayKnow(caller, catalog)) {
      return List.of();
    }
    Set<Privilege> held = authz.effective(caller, catalog, securable);
    boolean seesBelow = authz.seesAnythingAt(caller, catalog, securable);
    List<String> out = new ArrayList<>();
    switch (securable.type()) {
      case CATALOG -> {
        if (caller.isServiceAdmin()) {
          out.addAll(ON_CATALOG.keySet());
          out.add("deleteCatalog");
        } else {
          ON_CATALOG.forEach((op, p) -> add(out, op, held.contains(p)));
        }
        // Each principal may see how it holds what it holds; access managers, anyone's.
        out.add("explainPrivileges");
        ON_NAMESPACE.forEach(
            (op, p) ->
                add(
                    out,
                    op,
                    AT_ROOT.contains(op)
                        && (held.contains(p) || (LISTS.contains(op) && seesBelow))));
      }
      case NAMESPACE -> {
        ON_NAMESPACE.forEach(
            (op, p) -> add(out, op, held.contains(p) || (LISTS.contains(op) && seesBelow)));
        if (caller.isServiceAdmin()) {
          out.addAll(SERVICE_ADMIN_ON_NAMESPACE);
        }
      }
      case TABLE -> {
        ON_TABLE.forEach((op, p) -> add(out, op, held.contains(p)));
        add(
            out,
            "updateTable",
            held.contains(Privilege.TABLE_WRITE_PROPERTIES)
                || held.contains(Privilege.TABLE_WRITE_DATA));
        if (caller.isServiceAdmin()
            || authz
                .effective(caller, catalog, SecurableRef.CATALOG)
                .contains(Privilege.CATALOG_MANAGE_ACCESS)) {
          out.addAll(MANAGE_ACCESS_ON_TABLE);
        }
      }
      case VIEW -> ON_VIEW.forEach((op, p) -> add(out, op, held.contains(p)));
    }
    return out.stream().sorted().toList();
  }

  private boolean managesAnyCatalog(Caller caller) {
    for (String catalog : authz.catalogsOf(caller)) {
      if (authz
          .effective(caller, catalog, SecurableRef.CATALOG)
          .contains(Privilege.CATALOG_MANAGE_ACCESS)) {
        return true;
      }
    }
    return false;
  }

  private static void add(List<String> out, String operation, boolean allowed) {
    if (allowed) {
      out.add(operation);
    }
  }
}

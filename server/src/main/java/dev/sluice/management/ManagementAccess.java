package dev.sluice.management;

import static java.util.Objects.requireNonNull;

import dev.sluice.audit.RequestAudit;
import dev.sluice.auth.AuthenticatedPrincipal;
import dev.sluice.auth.RoleScopes;
import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.authz.Callers;
import dev.sluice.authz.CatalogVisibility;
import dev.sluice.authz.Privilege;
import dev.sluice.store.SecurableRef;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * Who may make each management call, decided and audited here, below HTTP: the routes declare which
 * of these checks guards each route and name its action, and run the check before reading a body.
 * Service-level objects (principals, principal roles, signing keys, creating and deleting catalogs)
 * are the service admin's; a catalog's roles and grants need CATALOG_MANAGE_ACCESS on it; a caller
 * with no standing in a catalog gets one 403 whether it exists or not.
 */
public final class ManagementAccess implements Callers {
  private final Authorizer authz;
  private final CatalogVisibility visibility;
  private final CatalogAdmin catalogs;
  private final AccessAdmin access;

  public ManagementAccess(Authorizer authz, CatalogAdmin catalogs, AccessAdmin access) {
    this.authz = requireNonNull(authz, "authz");
    this.visibility = new CatalogVisibility(authz);
    this.catalogs = requireNonNull(catalogs, "catalogs");
    this.access = requireNonNull(access, "access");
  }

  @Override
  public Caller caller(AuthenticatedPrincipal token, String requestId) {
    return authz.caller(token, requestId);
  }

  @Override
  public Caller caller(AuthenticatedPrincipal token, RequestAudit trail) {
    return authz.caller(token, trail);
  }

  /** Anyone authenticated; recorded as allowed. */
  public void anyone(Caller caller, String action, String target) {
    authz.record(caller, action, null, target, true);
  }

  public void serviceAdmin(Caller caller, String action, String target) {
    authz.requireServiceAdmin(caller, action, target);
  }

  /**
   * A principal may read itself and rotate its own secret, but only with a token that acts with all
   * of its roles: a token narrowed to some (a {@code PRINCIPAL_ROLE:} scope) acts only through
   * them, so it could otherwise buy a new secret and, with it, an unnarrowed token. Never with a
   * delegated token: an engine acting for a user must not take over the user's credentials.
   */
  public void selfOrServiceAdmin(
      AuthenticatedPrincipal token, Caller caller, String action, String principal) {
    if (caller.principal().equals(principal)
        && token.externalRoles() == null
        && !token.delegated()
        && RoleScopes.requested(token.scopes()).isEmpty()) {
      authz.record(caller, action, null, "principal " + caller.principal(), true);
      return;
    }
    authz.requireServiceAdmin(caller, action, "principal " + principal);
  }

  /**
   * CATALOG_MANAGE_ACCESS on {@code catalog}; a caller with no standing in it cannot tell whether
   * it exists.
   */
  public void manageAccess(Caller caller, String action, String catalog) {
    if (caller.isServiceAdmin()) {
      // The service admin may always repair a catalog's roles and grants, also when no catalog
      // role holds CATALOG_MANAGE_ACCESS any more; and may learn that a catalog does not exist.
      access.requireCatalog(catalog);
      authz.record(caller, action, catalog, "catalog", true);
      return;
    }
    visibility.require(caller, action, catalog);
    authz.require(caller, action, catalog, SecurableRef.CATALOG, Privilege.CATALOG_MANAGE_ACCESS);
  }

  /**
   * The service admin may act on any catalog (and learns that one does not exist); others need
   * {@code privilege} on it, and without any standing in it get the same 403 whether it exists or
   * not.
   */
  public void onCatalog(Caller caller, String action, String catalog, Privilege privilege) {
    if (caller.isServiceAdmin()) {
      authz.record(caller, action, catalog, "catalog", true);
      return;
    }
    visibility.require(caller, action, catalog);
    catalogs.get(catalog);
    authz.require(caller, action, catalog, SecurableRef.CATALOG, privilege);
  }

  /**
   * The catalogs a caller sees in the catalog list, or null for all of them (the service admin):
   * others see the catalogs they hold a role in.
   */
  public Set<String> listedCatalogs(Caller caller) {
    return caller.isServiceAdmin() ? null : Set.copyOf(authz.catalogsOf(caller));
  }

  /**
   * Where credentials come from and where tables may live is the service admin's alone, whoever may
   * update a catalog's other properties.
   */
  public void updateCatalogStorage(Caller caller, String catalog, List<String> restricted) {
    if (!restricted.isEmpty()) {
      serviceAdmin(caller, "updateCatalogStorage", "catalog " + catalog + " " + restricted);
    }
  }

  /**
   * The catalogs whose audit events the caller may read, or null for all of them (the service
   * admin): others read the catalogs whose access they manage, and with none are refused.
   */
  public Set<String> auditedCatalogs(Caller caller, String action) {
    if (caller.isServiceAdmin()) {
      authz.record(caller, action, null, "events", true);
      return null;
    }
    Set<String> visible = new HashSet<>();
    for (String catalog : authz.catalogsOf(caller)) {
      if (authz
          .effective(caller, catalog, SecurableRef.CATALOG)
          .contains(Privilege.CATALOG_MANAGE_ACCESS)) {
        visible.add(catalog);
      }
    }
    authz.record(caller, action, null, "events", !visible.isEmpty());
    if (visible.isEmpty()) {
      throw new ForbiddenException("Principal '%s' may not read audit events", caller.principal());
    }
    return Set.copyOf(visible);
  }

  /**
   * Who may see the privileges {@code principal} holds on {@code securable}: the service admin
   * learns what does not exist (404); anyone else must have standing in the catalog (else one 403
   * for a catalog that exists and one that does not), and then be the principal asked about or hold
   * CATALOG_MANAGE_ACCESS. An access manager asking about a principal that does not exist gets an
   * empty answer, as for one holding nothing: principal names are the service admin's to list.
   */
  public void explainPrivileges(
      AuthenticatedPrincipal token,
      Caller caller,
      String action,
      String catalog,
      String principal,
      SecurableRef securable) {
    String target = "principal " + principal + " on " + securable;
    if (caller.isServiceAdmin()) {
      access.requireCatalog(catalog);
      access.principal(principal);
      authz.record(caller, action, catalog, target, true);
      return;
    }
    visibility.require(caller, action, catalog);
    // An external identity's roles come from its token, not the store: it is not "itself" here.
    if (caller.principal().equals(principal) && token.externalRoles() == null) {
      authz.record(caller, action, catalog, target, true);
      return;
    }
    authz.require(caller, action, catalog, SecurableRef.CATALOG, Privilege.CATALOG_MANAGE_ACCESS);
  }
}

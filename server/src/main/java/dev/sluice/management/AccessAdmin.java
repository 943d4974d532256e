package dev.sluice.management;

import static java.util.Objects.requireNonNull;

import dev.sluice.auth.SecretHasher;
import dev.sluice.authz.Caller;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.IdentifierRules;
import dev.sluice.store.AccessStore;
import dev.sluice.store.AlreadyExists;
import dev.sluice.store.GrantRecord;
import dev.sluice.store.NotFound;
import dev.sluice.store.Page;
import dev.sluice.store.PageRequest;
import dev.sluice.store.PrincipalRecord;
import dev.sluice.store.RoleRecord;
import dev.sluice.store.SecurableRef;
import dev.sluice.store.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * Principals, principal roles, catalog roles and grants: validation, storage, and clearing the
 * authorization caches after every change so it applies to the next request. The caller is
 * authorized before any of this runs, by the check its route declares ({@link ManagementAccess}).
 */
public final class AccessAdmin {
  public static final String ROOT = "root";

  /** A new principal's credentials; the secret exists only in this object and the HTTP response. */
  public record NewCredentials(PrincipalRecord principal, String clientSecret) {
    @Override
    public String toString() {
      return "NewCredentials[principal=" + principal.name() + "]";
    }
  }

  private final Store store;
  private final AccessStore access;
  private final Runnable onChange;

  public AccessAdmin(Store store, Runnable onChange) {
    this.store = requireNonNull(store, "store");
    this.access = store.access();
    this.onChange = requireNonNull(onChange, "onChange");
  }

  // ---------------------------------------------------------------- principals

  public NewCredentials createPrincipal(
      String name, Map<String, String> properties, List<String> roles) {
    IdentifierRules.checkName("principal name", name);
    String clientId = SecretHasher.randomToken(8);
    String secret = SecretHasher.randomToken(16);
    PrincipalRecord record =
        new PrincipalRecord(
            name, clientId, SecretHasher.hash(secret), properties, System.currentTimeMillis());
    try {
      access.createPrincipal(record, roles);
    } catch (AlreadyExists e) {
      throw new AlreadyExistsException("Principal already exists: %s", name);
    } catch (NotFound e) {
      throw new NotFoundException("%s", e.getMessage());
    }
    changed();
    return new NewCredentials(principal(name), secret);
  }

  public PrincipalRecord principal(String name) {
    return access
        .getPrincipal(name)
        .orElseThrow(() -> new NotFoundException("Principal not found: %s", name));
  }

  public Page<PrincipalRecord> principals(PageRequest page) {
    return access.listPrincipals(page);
  }

  public PrincipalRecord updatePrincipal(String name, Map<String, String> properties) {
    try {
      access.updatePrincipalProperties(name, properties);
    } catch (NotFound e) {
      throw new NotFoundException("Principal not found: %s", name);
    }
    changed();
    return principal(name);
  }

  public void deletePrincipal(String name) {
    if (ROOT.equals(name)) {
      throw new BadRequestException("The root principal cannot be deleted");
    }
    if (!access.deletePrincipal(name)) {
      throw new NotFoundException("Principal not found: %s", name);
    }
    changed();
  }

  /** New secret, same client id; every token issued before stops working. */
  public NewCredentials rotate(String name) {
    PrincipalRecord current = principal(name);
    String secret = SecretHasher.randomToken(16);
    access.updatePrincipalCredentials(name, current.clientId(), SecretHasher.hash(secret));
    changed();
    return new NewCredentials(principal(name), secret);
  }

  // ---------------------------------------------------------------- principal roles

  public RoleRecord createPrincipalRole(String name, Map<String, String> properties) {
    IdentifierRules.checkName("principal role name", name);
    try {
      access.createPrincipalRole(new RoleRecord(null, name, properties, 0));
    } catch (AlreadyExists e) {
      throw new AlreadyExistsException("Principal role already exists: %s", name);
    }
    return principalRole(name);
  }

  public RoleRecord principalRole(String name) {
    return access
        .getPrincipalRole(name)
        .orElseThrow(() -> new NotFoundException("Principal role not found: %s", name));
  }

  public Page<RoleRecord> principalRoles(PageRequest page) {
    return access.listPrincipalRoles(page);
  }

  public void deletePrincipalRole(String name) {
    if (Caller.SERVICE_ADMIN.equals(name)) {
      throw new BadRequestException("The %s principal role cannot be deleted", name);
    }
    if (!access.deletePrincipalRole(name)) {
      throw new NotFoundException("Principal role not found: %s", name);
    }
    changed();
  }

  public void assignPrincipalRole(String principal, String role) {
    principal(principal);
    principalRole(role);
    access.assignPrincipalRole(principal, role);
    changed();
  }

  public void unassignPrincipalRole(String principal, String role) {
    if (ROOT.equals(principal) && Caller.SERVICE_ADMIN.equals(role)) {
      throw new BadRequestException("The root principal keeps the %s principal role", role);
    }
    if (!access.unassignPrincipalRole(principal, role)) {
      throw new NotFoundException("Principal %s does not hold principal role %s", principal, role);
    }
    changed();
  }

  public Page<RoleRecord> rolesOfPrincipal(String principal, PageRequest page) {
    principal(principal);
    return access.principalRolesOf(principal, page);
  }

  public Page<PrincipalRecord> principalsWithRole(String role, PageRequest page) {
    principalRole(role);
    return access.principalsWithRole(role, page);
  }

  // ---------------------------------------------------------------- PRINCIPAL_ACT_AS

  /** The principal roles holders of {@code role} may act for; 404 when the role does not exist. */
  public List<String> actAsTargets(String role) {
    principalRole(role);
    return store.delegations().targetsOf(role);
  }

  /**
   * Lets holders of {@code role} act for users through {@code target} (idempotent). Never for
   * service_admin: a delegated token must never carry it, so a grant that could only lead there is
   * refused rather than stored to be ignored; nor for the role itself, which says nothing.
   */
  public void grantActAs(String role, String target) {
    if (Caller.SERVICE_ADMIN.equals(target)) {
      throw new BadRequestException(
          "Principal role %s cannot be an act-as target: a delegated token never carries it",
          target);
    }
    if (role.equals(target)) {
      throw new BadRequestException(
          "Principal role %s cannot act for itself: name another principal role", role);
    }
    try {
      store.delegations().grant(role, target);
    } catch (NotFound e) {
      throw new NotFoundException("%s", e.getMessage());
    }
    changed();
  }

  public void revokeActAs(String role, String target) {
    if (!store.delegations().revoke(role, target)) {
      throw new NotFoundException(
          "Principal role %s may not act for principal role %s", role, target);
    }
    changed();
  }

  // ---------------------------------------------------------------- catalog roles

  public RoleRecord createCatalogRole(String catalog, String name, Map<String, String> properties) {
    IdentifierRules.checkName("catalog role name", name);
    requireCatalog(catalog);
    try {
      access.createCatalogRole(new RoleRecord(catalog, name, properties, 0));
    } catch (AlreadyExists e) {
      throw new AlreadyExistsException("Catalog role already exists: %s", name);
    }
    return catalogRole(catalog, name);
  }

  public RoleRecord catalogRole(String catalog, String name) {
    requireCatalog(catalog);
    return access
        .getCatalogRole(catalog, name)
        .orElseThrow(
            () -> new NotFoundException("Catalog role not found: %s in catalog %s", name, catalog));
  }

  public Page<RoleRecord> catalogRoles(String catalog, PageRequest page) {
    requireCatalog(catalog);
    return access.listCatalogRoles(catalog, page);
  }

  public void deleteCatalogRole(String catalog, String name) {
    deleteCatalogRole(catalog, name, false);
  }

  /**
   * Deletes a catalog role; unless {@code force}, not the last one holding CATALOG_MANAGE_ACCESS on
   * the catalog ({@link #requireAnotherManager}).
   */
  public void deleteCatalogRole(String catalog, String name, boolean force) {
    requireCatalog(catalog);
    if (!force) {
      requireAnotherManager(catalog, name, "Deleting catalog role " + name);
    }
    if (!access.deleteCatalogRole(catalog, name)) {
      throw new NotFoundException("Catalog role not found: %s in catalog %s", name, catalog);
    }
    changed();
  }

  public void assignCatalogRole(String catalog, String catalogRole, String principalRole) {
    catalogRole(catalog, catalogRole);
    principalRole(principalRole);
    access.assignCatalogRole(catalog, catalogRole, principalRole);
    changed();
  }

  public void unassignCatalogRole(String catalog, String catalogRole, String principalRole) {
    if (!access.unassignCatalogRole(catalog, catalogRole, principalRole)) {
      throw new NotFoundException(
          "Catalog role %s of catalog %s is not granted to principal role %s",
          catalogRole, catalog, principalRole);
    }
    changed();
  }

  /**
   * The catalog roles of {@code catalog} granted to {@code principalRole}. For a caller who may not
   * know which principal roles exist ({@code mayKnowPrincipalRoles} false: a catalog's access
   * manager), a missing principal role answers as one holding none, not 404: otherwise the answer
   * would tell which names exist.
   */
  public Page<RoleRecord> catalogRolesOf(
      String principalRole, String catalog, PageRequest page, boolean mayKnowPrincipalRoles) {
    requireCatalog(catalog);
    if (mayKnowPrincipalRoles) {
      principalRole(principalRole);
    } else if (access.getPrincipalRole(principalRole).isEmpty()) {
      return new Page<>(java.util.List.of(), null);
    }
    return access.catalogRolesOf(principalRole, catalog, page);
  }

  public Page<RoleRecord> principalRolesWith(String catalog, String catalogRole, PageRequest page) {
    catalogRole(catalog, catalogRole);
    return access.principalRolesWith(catalog, catalogRole, page);
  }

  // ---------------------------------------------------------------- grants

  public void grant(GrantRecord grant) {
    Privilege.parse(grant.privilege());
    catalogRole(grant.catalog(), grant.catalogRole());
    access.grantPrivilege(grant);
    changed();
  }

  public void revoke(GrantRecord grant) {
    revoke(grant, false);
  }

  /**
   * Revokes a grant; unless {@code force}, not CATALOG_MANAGE_ACCESS from the last catalog role
   * that holds it on the catalog.
   */
  public void revoke(GrantRecord grant, boolean force) {
    Privilege privilege = Privilege.parse(grant.privilege());
    catalogRole(grant.catalog(), grant.catalogRole());
    if (!force
        && privilege == Privilege.CATALOG_MANAGE_ACCESS
        && grant.securable().equals(SecurableRef.CATALOG)) {
      requireAnotherManager(
          grant.catalog(),
          grant.catalogRole(),
          "Revoking CATALOG_MANAGE_ACCESS from catalog role " + grant.catalogRole());
    }
    if (!access.revokePrivilege(grant)) {
      throw new NotFoundException("No such grant: %s on %s", grant.privilege(), grant.securable());
    }
    changed();
  }

  /**
   * Refuses a change that would leave {@code catalog} with no catalog role holding
   * CATALOG_MANAGE_ACCESS on it: after it only the service admin could manage its roles and grants.
   * The change is refused only when {@code role} is the last such role.
   */
  private void requireAnotherManager(String catalog, String role, String change) {
    List<String> managers = new ArrayList<>();
    for (RoleRecord r : access.listCatalogRoles(catalog, PageRequest.all()).items()) {
      boolean manages =
          access.grantsOf(catalog, r.name(), PageRequest.all()).items().stream()
              .anyMatch(
                  g ->
                      g.securable().equals(SecurableRef.CATALOG)
                          && Privilege.CATALOG_MANAGE_ACCESS.name().equals(g.privilege()));
      if (manages) {
        managers.add(r.name());
      }
    }
    if (managers.equals(List.of(role))) {
      throw new BadRequestException(
          "%s would leave catalog %s with no catalog role holding CATALOG_MANAGE_ACCESS, so that"
              + " only the service admin could manage its roles and grants: grant"
              + " CATALOG_MANAGE_ACCESS to another catalog role first, or repeat with force=true",
          change, catalog);
    }
  }

  public Page<GrantRecord> grants(String catalog, String catalogRole, PageRequest page) {
    catalogRole(catalog, catalogRole);
    return access.grantsOf(catalog, catalogRole, page);
  }

  public void requireCatalog(String catalog) {
    if (store.getCatalog(catalog).isEmpty()) {
      throw new NotFoundException("Catalog not found: %s", catalog);
    }
  }

  private void changed() {
    onChange.run();
  }
}

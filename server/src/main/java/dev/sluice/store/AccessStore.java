package dev.sluice.store;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Who may do what: principals, principal roles, catalog roles, the grants between them, and
 * privileges on securables. Same outcome exceptions as {@link Store}.
 */
public interface AccessStore {
  // --- principals ---
  void createPrincipal(PrincipalRecord principal, List<String> principalRoles);

  Optional<PrincipalRecord> getPrincipal(String name);

  Optional<PrincipalRecord> getPrincipalByClientId(String clientId);

  List<PrincipalRecord> listPrincipals();

  boolean deletePrincipal(String name);

  /** Replaces the client id and secret hash and bumps the credential version (rotation). */
  void updatePrincipalCredentials(String name, String clientId, String secretHash);

  void updatePrincipalProperties(String name, java.util.Map<String, String> properties);

  // --- principal roles ---
  void createPrincipalRole(RoleRecord role);

  Optional<RoleRecord> getPrincipalRole(String name);

  List<RoleRecord> listPrincipalRoles();

  boolean deletePrincipalRole(String name);

  void assignPrincipalRole(String principal, String role);

  boolean unassignPrincipalRole(String principal, String role);

  List<String> principalRolesOf(String principal);

  List<String> principalsWithRole(String role);

  // --- catalog roles ---
  void createCatalogRole(RoleRecord role);

  Optional<RoleRecord> getCatalogRole(String catalog, String name);

  List<RoleRecord> listCatalogRoles(String catalog);

  boolean deleteCatalogRole(String catalog, String name);

  void assignCatalogRole(String catalog, String catalogRole, String principalRole);

  boolean unassignCatalogRole(String catalog, String catalogRole, String principalRole);

  List<String> catalogRolesOf(String principalRole, String catalog);

  List<String> principalRolesWith(String catalog, String catalogRole);

  // --- privileges ---
  /** Idempotent: granting what is already granted changes nothing. */
  void grantPrivilege(GrantRecord grant);

  boolean revokePrivilege(GrantRecord grant);

  List<GrantRecord> grantsOf(String catalog, String catalogRole);

  /** Every grant that reaches any of {@code principalRoles} in {@code catalog}: the input of a decision. */
  List<GrantRecord> grantsFor(String catalog, Collection<String> principalRoles);

  /** The catalogs in which any of {@code principalRoles} holds a catalog role. */
  List<String> catalogsFor(Collection<String> principalRoles);

  // --- audit ---
  void appendEvents(List<AuditEvent> events);

  /** Events newest first, keyset-paged by id. */
  Page<AuditEvent> events(AuditFilter filter, PageRequest page);
}

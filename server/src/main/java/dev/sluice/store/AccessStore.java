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

  /** Principals by name, one page. */
  Page<PrincipalRecord> listPrincipals(PageRequest page);

  boolean deletePrincipal(String name);

  /** Replaces the client id and secret hash and bumps the credential version (rotation). */
  void updatePrincipalCredentials(String name, String clientId, String secretHash);

  void updatePrincipalProperties(String name, java.util.Map<String, String> properties);

  // --- principal roles ---
  void createPrincipalRole(RoleRecord role);

  Optional<RoleRecord> getPrincipalRole(String name);

  Page<RoleRecord> listPrincipalRoles(PageRequest page);

  boolean deletePrincipalRole(String name);

  void assignPrincipalRole(String principal, String role);

  boolean unassignPrincipalRole(String principal, String role);

  /**
   * Every principal role {@code principal} holds: the input of a decision (one principal's roles,
   * not a table).
   */
  List<String> principalRolesOf(String principal);

  /** The principal roles {@code principal} holds, one page. */
  Page<RoleRecord> principalRolesOf(String principal, PageRequest page);

  Page<PrincipalRecord> principalsWithRole(String role, PageRequest page);

  // --- catalog roles ---
  void createCatalogRole(RoleRecord role);

  Optional<RoleRecord> getCatalogRole(String catalog, String name);

  Page<RoleRecord> listCatalogRoles(String catalog, PageRequest page);

  boolean deleteCatalogRole(String catalog, String name);

  void assignCatalogRole(String catalog, String catalogRole, String principalRole);

  boolean unassignCatalogRole(String catalog, String catalogRole, String principalRole);

  /** The catalog roles of {@code catalog} granted to {@code principalRole}, one page. */
  Page<RoleRecord> catalogRolesOf(String principalRole, String catalog, PageRequest page);

  /** The principal roles {@code catalogRole} is granted to, one page. */
  Page<RoleRecord> principalRolesWith(String catalog, String catalogRole, PageRequest page);

  // --- privileges ---
  /** Idempotent: granting what is already granted changes nothing. */
  void grantPrivilege(GrantRecord grant);

  boolean revokePrivilege(GrantRecord grant);

  /** The grants of one catalog role, one page, by (securable type, namespace, name, privilege). */
  Page<GrantRecord> grantsOf(String catalog, String catalogRole, PageRequest page);

  /**
   * Every grant that reaches any of {@code principalRoles} in {@code catalog}: the input of a
   * decision.
   */
  List<GrantRecord> grantsFor(String catalog, Collection<String> principalRoles);

  /** The catalogs in which any of {@code principalRoles} holds a catalog role. */
  List<String> catalogsFor(Collection<String> principalRoles);

  // --- audit ---
  /**
   * Stores {@code events} all or none; field lengths must fit the columns ({@code
   * dev.sluice.audit.AuditFields}).
   */
  void appendEvents(List<AuditEvent> events);

  /** Events newest first, keyset-paged by id. */
  Page<AuditEvent> events(AuditFilter filter, PageRequest page);

  /**
   * Deletes at most {@code limit} of the events recorded before {@code time} (epoch ms), oldest
   * first; returns how many it deleted (fewer than {@code limit}: none older is left).
   */
  int deleteEventsBefore(long time, int limit);
}

package dev.sluice.store;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@link AccessStore} on the same JDBC database as {@link JdbcStore}. */
final class JdbcAccessStore extends JdbcSupport implements AccessStore {
  private static final String PRINCIPAL_COLUMNS =
      "name, client_id, secret_hash, properties, created_at, credential_version, principal_id";

  private final JdbcAuditEvents auditEvents;

  JdbcAccessStore(HikariDataSource dataSource, StoreConnections connections) {
    super(dataSource, connections);
    this.auditEvents = new JdbcAuditEvents(dataSource, connections);
  }

  // ---------------------------------------------------------------- principals

  @Override
  public void createPrincipal(PrincipalRecord p, List<String> principalRoles) {
    inTransaction(
        conn -> {
          long now = System.currentTimeMillis();
          try {
            update(
                conn,
                "INSERT INTO principals (name, client_id, secret_hash, properties, created_at, updated_at, credential_version, principal_id)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                p.name(),
                p.clientId(),
                p.secretHash(),
                toJson(p.properties()),
                now,
                now,
                p.credentialVersion(),
                p.id());
          } catch (SQLException e) {
            if (UNIQUE_VIOLATION.equals(e.getSQLState())) {
              throw new AlreadyExists("Principal already exists: " + p.name());
            }
            throw e;
          }
          for (String role : principalRoles) {
            assign(conn, p.name(), role);
          }
          return null;
        });
  }

  @Override
  public Optional<PrincipalRecord> getPrincipal(String name) {
    return queryOne(
        "SELECT " + PRINCIPAL_COLUMNS + " FROM principals WHERE name = ?",
        JdbcAccessStore::principalRow,
        name);
  }

  @Override
  public Optional<PrincipalRecord> getPrincipalByClientId(String clientId) {
    return queryOne(
        "SELECT " + PRINCIPAL_COLUMNS + " FROM principals WHERE client_id = ?",
        JdbcAccessStore::principalRow,
        clientId);
  }

  @Override
  public Page<PrincipalRecord> listPrincipals(PageRequest page) {
    return pageOf(
        "SELECT " + PRINCIPAL_COLUMNS + " FROM principals WHERE 1 = 1",
        List.of("name"),
        JdbcAccessStore::principalRow,
        p -> List.of(p.name()),
        page);
  }

  @Override
  public boolean deletePrincipal(String name) {
    return execute("DELETE FROM principals WHERE name = ?", name) == 1;
  }

  @Override
  public void updatePrincipalCredentials(String name, String clientId, String secretHash) {
    if (execute(
            "UPDATE principals SET client_id = ?, secret_hash = ?, credential_version = credential_version + 1, updated_at = ?"
                + " WHERE name = ?",
            clientId,
            secretHash,
            System.currentTimeMillis(),
            name)
        == 0) {
      throw new NotFound("Principal not found: " + name);
    }
  }

  @Override
  public void updatePrincipalProperties(String name, Map<String, String> properties) {
    if (execute(
            "UPDATE principals SET properties = ?, updated_at = ? WHERE name = ?",
            toJson(properties),
            System.currentTimeMillis(),
            name)
        == 0) {
      throw new NotFound("Principal not found: " + name);
    }
  }

  // ---------------------------------------------------------------- principal roles

  @Override
  public void createPrincipalRole(RoleRecord role) {
    insertUnique(
        "Principal role already exists: " + role.name(),
        "INSERT INTO principal_roles (name, properties, created_at) VALUES (?, ?, ?)",
        role.name(),
        toJson(role.properties()),
        System.currentTimeMillis());
  }

  @Override
  public Optional<RoleRecord> getPrincipalRole(String name) {
    return queryOne(
        "SELECT name, properties, created_at FROM principal_roles WHERE name = ?",
        rs -> new RoleRecord(null, rs.getString(1), fromJson(rs.getString(2)), rs.getLong(3)),
        name);
  }

  @Override
  public Page<RoleRecord> listPrincipalRoles(PageRequest page) {
    return pageOf(
        "SELECT name, properties, created_at FROM principal_roles WHERE 1 = 1",
        List.of("name"),
        rs -> roleRow(null, rs),
        r -> List.of(r.name()),
        page);
  }

  @Override
  public boolean deletePrincipalRole(String name) {
    return execute("DELETE FROM principal_roles WHERE name = ?", name) == 1;
  }

  @Override
  public void assignPrincipalRole(String principal, String role) {
    inTransaction(
        conn -> {
          assign(conn, principal, role);
          return null;
        });
  }

  private static void assign(Connection conn, String principal, String role) throws SQLException {
    if (exists(
        conn,
        "SELECT 1 FROM principal_role_assignments WHERE principal_name = ? AND role_name = ?",
        principal,
        role)) {
      return;
    }
    try {
      update(
          conn,
          "INSERT INTO principal_role_assignments (principal_name, role_name) VALUES (?, ?)",
          principal,
          role);
    } catch (SQLException e) {
      if (FK_VIOLATION.contains(e.getSQLState())) {
        throw new NotFound("Principal or principal role not found: " + principal + ", " + role);
      }
      throw e;
    }
  }

  @Override
  public boolean unassignPrincipalRole(String principal, String role) {
    return execute(
            "DELETE FROM principal_role_assignments WHERE principal_name = ? AND role_name = ?",
            principal,
            role)
        == 1;
  }

  @Override
  public List<String> principalRolesOf(String principal) {
    return queryList(
        "SELECT role_name FROM principal_role_assignments WHERE principal_name = ? ORDER BY role_name",
        rs -> rs.getString(1),
        principal);
  }

  @Override
  public Page<RoleRecord> principalRolesOf(String principal, PageRequest page) {
    return pageOf(
        "SELECT r.name, r.properties, r.created_at FROM principal_roles r JOIN principal_role_assignments a"
            + " ON a.role_name = r.name WHERE a.principal_name = ?",
        List.of("r.name"),
        rs -> roleRow(null, rs),
        r -> List.of(r.name()),
        page,
        principal);
  }

  @Override
  public Page<PrincipalRecord> principalsWithRole(String role, PageRequest page) {
    return pageOf(
        "SELECT p."
            + PRINCIPAL_COLUMNS.replace(", ", ", p.")
            + " FROM principals p JOIN principal_role_assignments a"
            + " ON a.principal_name = p.name WHERE a.role_name = ?",
        List.of("p.name"),
        JdbcAccessStore::principalRow,
        p -> List.of(p.name()),
        page,
        role);
  }

  // ---------------------------------------------------------------- catalog roles

  @Override
  public void createCatalogRole(RoleRecord role) {
    try {
      insertUnique(
          "Catalog role already exists: " + role.name(),
          "INSERT INTO catalog_roles (catalog_name, name, properties, created_at) VALUES (?, ?, ?, ?)",
          role.catalog(),
          role.name(),
          toJson(role.properties()),
          System.currentTimeMillis());
    } catch (StoreUnavailable e) {
      if (e.getCause() instanceof SQLException sql && FK_VIOLATION.contains(sql.getSQLState())) {
        throw new NotFound("Catalog not found: " + role.catalog());
      }
      throw e;
    }
  }

  @Override
  public Optional<RoleRecord> getCatalogRole(String catalog, String name) {
    return queryOne(
        "SELECT name, properties, created_at FROM catalog_roles WHERE catalog_name = ? AND name = ?",
        rs -> new RoleRecord(catalog, rs.getString(1), fromJson(rs.getString(2)), rs.getLong(3)),
        catalog,
        name);
  }

  @Override
  public Page<RoleRecord> listCatalogRoles(String catalog, PageRequest page) {
    return pageOf(
        "SELECT name, properties, created_at FROM catalog_roles WHERE catalog_name = ?",
        List.of("name"),
        rs -> roleRow(catalog, rs),
        r -> List.of(r.name()),
        page,
        catalog);
  }

  @Override
  public boolean deleteCatalogRole(String catalog, String name) {
    return execute("DELETE FROM catalog_roles WHERE catalog_name = ? AND name = ?", catalog, name)
        == 1;
  }

  @Override
  public void assignCatalogRole(String catalog, String catalogRole, String principalRole) {
    inTransaction(
        conn -> {
          if (exists(
              conn,
              "SELECT 1 FROM catalog_role_assignments WHERE catalog_name = ? AND catalog_role = ? AND principal_role = ?",
              catalog,
              catalogRole,
              principalRole)) {
            return null;
          }
          try {
            update(
                conn,
                "INSERT INTO catalog_role_assignments (catalog_name, catalog_role, principal_role) VALUES (?, ?, ?)",
                catalog,
                catalogRole,
                principalRole);
          } catch (SQLException e) {
            if (FK_VIOLATION.contains(e.getSQLState())) {
              throw new NotFound(
                  "Catalog role or principal role not found: "
                      + catalogRole
                      + ", "
                      + principalRole);
            }
            throw e;
          }
          return null;
        });
  }

  @Override
  public boolean unassignCatalogRole(String catalog, String catalogRole, String principalRole) {
    return execute(
            "DELETE FROM catalog_role_assignments WHERE catalog_name = ? AND catalog_role = ? AND principal_role = ?",
            catalog,
            catalogRole,
            principalRole)
        == 1;
  }

  @Override
  public Page<RoleRecord> catalogRolesOf(String principalRole, String catalog, PageRequest page) {
    return pageOf(
        "SELECT r.name, r.properties, r.created_at FROM catalog_roles r JOIN catalog_role_assignments a"
            + " ON a.catalog_name = r.catalog_name AND a.catalog_role = r.name"
            + " WHERE a.principal_role = ? AND a.catalog_name = ?",
        List.of("r.name"),
        rs -> roleRow(catalog, rs),
        r -> List.of(r.name()),
        page,
        principalRole,
        catalog);
  }

  @Override
  public Page<RoleRecord> principalRolesWith(String catalog, String catalogRole, PageRequest page) {
    return pageOf(
        "SELECT r.name, r.properties, r.created_at FROM principal_roles r JOIN catalog_role_assignments a"
            + " ON a.principal_role = r.name WHERE a.catalog_name = ? AND a.catalog_role = ?",
        List.of("r.name"),
        rs -> roleRow(null, rs),
        r -> List.of(r.name()),
        page,
        catalog,
        catalogRole);
  }

  // ---------------------------------------------------------------- privileges

  @Override
  public void grantPrivilege(GrantRecord g) {
    inTransaction(
        conn -> {
          if (exists(
              conn,
              "SELECT 1 FROM privilege_grants WHERE catalog_name = ? AND catalog_role = ? AND securable_type = ?"
                  + " AND securable_ns = ? AND securable_name = ? AND privilege = ?",
              g.catalog(),
              g.catalogRole(),
              g.securable().type().name(),
              g.securable().namespace().key(),
              g.securable().name(),
              g.privilege())) {
            return null;
          }
          try {
            update(
                conn,
                "INSERT INTO privilege_grants (catalog_name, catalog_role, securable_type, securable_ns, securable_name, privilege, created_at)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?)",
                g.catalog(),
                g.catalogRole(),
                g.securable().type().name(),
                g.securable().namespace().key(),
                g.securable().name(),
                g.privilege(),
                System.currentTimeMillis());
          } catch (SQLException e) {
            if (FK_VIOLATION.contains(e.getSQLState())) {
              throw new NotFound("Catalog role not found: " + g.catalogRole());
            }
            throw e;
          }
          return null;
        });
  }

  @Override
  public boolean revokePrivilege(GrantRecord g) {
    return execute(
            "DELETE FROM privilege_grants WHERE catalog_name = ? AND catalog_role = ? AND securable_type = ?"
                + " AND securable_ns = ? AND securable_name = ? AND privilege = ?",
            g.catalog(),
            g.catalogRole(),
            g.securable().type().name(),
            g.securable().namespace().key(),
            g.securable().name(),
            g.privilege())
        == 1;
  }

  @Override
  public Page<GrantRecord> grantsOf(String catalog, String catalogRole, PageRequest page) {
    return pageOf(
        "SELECT catalog_name, catalog_role, securable_type, securable_ns, securable_name, privilege FROM privilege_grants"
            + " WHERE catalog_name = ? AND catalog_role = ?",
        List.of("securable_type", "securable_ns", "securable_name", "privilege"),
        JdbcAccessStore::grantRow,
        g ->
            List.of(
                g.securable().type().name(),
                g.securable().namespace().key(),
                g.securable().name(),
                g.privilege()),
        page,
        catalog,
        catalogRole);
  }

  @Override
  public List<GrantRecord> grantsFor(String catalog, Collection<String> principalRoles) {
    if (principalRoles.isEmpty()) {
      return List.of();
    }
    String marks = String.join(", ", Collections.nCopies(principalRoles.size(), "?"));
    List<Object> args = new ArrayList<>();
    args.add(catalog);
    args.addAll(principalRoles);
    return queryList(
        "SELECT DISTINCT g.catalog_name, g.catalog_role, g.securable_type, g.securable_ns, g.securable_name, g.privilege"
            + " FROM privilege_grants g JOIN catalog_role_assignments a"
            + " ON a.catalog_name = g.catalog_name AND a.catalog_role = g.catalog_role"
            + " WHERE g.catalog_name = ? AND a.principal_role IN ("
            + marks
            + ")",
        JdbcAccessStore::grantRow,
        args.toArray());
  }

  @Override
  public List<String> catalogsFor(Collection<String> principalRoles) {
    if (principalRoles.isEmpty()) {
      return List.of();
    }
    String marks = String.join(", ", Collections.nCopies(principalRoles.size(), "?"));
    return queryList(
        "SELECT DISTINCT catalog_name FROM catalog_role_assignments WHERE principal_role IN ("
            + marks
            + ") ORDER BY catalog_name",
        rs -> rs.getString(1),
        principalRoles.toArray());
  }

  // ---------------------------------------------------------------- audit

  @Override
  public void appendEvents(List<AuditEvent> events) {
    auditEvents.append(events);
  }

  @Override
  public Page<AuditEvent> events(AuditFilter filter, PageRequest page) {
    return auditEvents.events(filter, page);
  }

  @Override
  public int deleteEventsBefore(long time, int limit) {
    return auditEvents.deleteBefore(time, limit);
  }

  // ---------------------------------------------------------------- helpers

  private int execute(String sql, Object... args) {
    try (Connection conn = connection()) {
      return update(conn, sql, args);
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  private void insertUnique(String existsMessage, String sql, Object... args) {
    try (Connection conn = connection()) {
      update(conn, sql, args);
    } catch (SQLException e) {
      if (UNIQUE_VIOLATION.equals(e.getSQLState())) {
        throw new AlreadyExists(existsMessage);
      }
      throw unavailable(e);
    }
  }

  private static RoleRecord roleRow(String catalog, ResultSet rs) throws SQLException {
    return new RoleRecord(catalog, rs.getString(1), fromJson(rs.getString(2)), rs.getLong(3));
  }

  private static PrincipalRecord principalRow(ResultSet rs) throws SQLException {
    return new PrincipalRecord(
        rs.getString(1),
        rs.getString(2),
        rs.getString(3),
        fromJson(rs.getString(4)),
        rs.getLong(5),
        rs.getLong(6),
        rs.getString(7));
  }

  private static GrantRecord grantRow(ResultSet rs) throws SQLException {
    SecurableRef.Type type = SecurableRef.Type.valueOf(rs.getString(3));
    NamespacePath ns = NamespacePath.fromKey(rs.getString(4));
    return new GrantRecord(
        rs.getString(1),
        rs.getString(2),
        new SecurableRef(type, ns, rs.getString(5)),
        rs.getString(6));
  }
}

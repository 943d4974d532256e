package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The SQL of namespaces for {@link JdbcStore}: created under a locked parent, listed, dropped only
 * when empty (with their grants), and their properties and location claim updated under a row lock.
 */
final class JdbcNamespaces extends JdbcSupport {
  private final JdbcLocationClaims claimSql;

  JdbcNamespaces(
      HikariDataSource dataSource, StoreConnections connections, JdbcLocationClaims claimSql) {
    super(dataSource, connections);
    this.claimSql = requireNonNull(claimSql, "claimSql");
  }

  void createNamespace(
      String catalog,
      NamespacePath path,
      Map<String, String> properties,
      LocationClaim claim,
      IdempotencyClaim idempotency) {
    List<LocationClaim> claims = claim == null ? List.of() : List.of(claim);
    ensureRoots(claimSql, claims);
    inTransaction(
        conn -> {
          IdempotencyClaim.recordIn(idempotency, conn); // in the change's own transaction
          JdbcLocationClaims.lockRoots(conn, claims);
          if (!path.parent().isRoot() && !lockNamespace(conn, catalog, path.parent())) {
            throw new NotFound("Namespace does not exist: " + path.parent());
          }
          try (PreparedStatement ps =
              conn.prepareStatement(
                  "INSERT INTO namespaces (catalog_name, ns_path, parent_path, properties, created_at, updated_at)"
                      + " VALUES (?, ?, ?, ?, ?, ?)")) {
            long now = System.currentTimeMillis();
            ps.setString(1, catalog);
            ps.setString(2, path.key());
            ps.setString(3, path.parent().key());
            ps.setString(4, toJson(properties));
            ps.setLong(5, now);
            ps.setLong(6, now);
            ps.executeUpdate();
          } catch (SQLException e) {
            if (UNIQUE_VIOLATION.equals(e.getSQLState())) {
              throw new AlreadyExists("Namespace already exists: " + path);
            }
            if (FK_VIOLATION.contains(e.getSQLState())) {
              throw new NotFound("Catalog not found: " + catalog);
            }
            throw e;
          }
          if (claim != null) {
            claimNamespace(conn, catalog, path, claim);
          }
          return null;
        });
  }

  private static void claimNamespace(
      Connection conn, String catalog, NamespacePath path, LocationClaim claim)
      throws SQLException {
    Optional<LocationConflict> conflict =
        JdbcLocationClaims.findNamespaceConflict(conn, catalog, path, claim);
    if (conflict.isPresent()) {
      throw conflict.get();
    }
    JdbcRemoteClaims.yieldTo(conn, List.of(claim));
    JdbcLocationClaims.replaceNamespaceClaim(conn, catalog, path, claim);
  }

  Optional<Map<String, String>> loadNamespace(String catalog, NamespacePath path) {
    if (path.isRoot()) {
      return Optional.empty();
    }
    return queryOne(
        "SELECT properties FROM namespaces WHERE catalog_name = ? AND ns_path = ?",
        rs -> fromJson(rs.getString(1)),
        catalog,
        path.key());
  }

  Page<NamespacePath> listNamespaces(String catalog, NamespacePath parent, PageRequest page) {
    Page<String> keys =
        pageOf(
            "SELECT ns_path FROM namespaces WHERE catalog_name = ? AND parent_path = ?",
            List.of("catalog_name", "parent_path"), // namespaces_by_parent
            "ns_path",
            page,
            catalog,
            parent.key());
    return new Page<>(keys.items().stream().map(NamespacePath::fromKey).toList(), keys.nextToken());
  }

  boolean dropNamespace(String catalog, NamespacePath path, IdempotencyClaim idempotency) {
    return inTransaction(
        conn -> {
          IdempotencyClaim.recordIn(idempotency, conn); // in the change's own transaction
          if (!lockNamespace(conn, catalog, path)) {
            return false;
          }
          if (holdsAnything(conn, catalog, path)) {
            throw new NotEmpty("Namespace " + path + " is not empty");
          }
          update(
              conn,
              "DELETE FROM privilege_grants WHERE catalog_name = ? AND securable_type = 'NAMESPACE' AND securable_ns = ?",
              catalog,
              path.key());
          try (PreparedStatement ps =
              conn.prepareStatement(
                  "DELETE FROM namespaces WHERE catalog_name = ? AND ns_path = ?")) {
            ps.setString(1, catalog);
            ps.setString(2, path.key());
            ps.executeUpdate();
          } catch (SQLException e) {
            if (FK_VIOLATION.contains(e.getSQLState())) {
              throw new NotEmpty("Namespace " + path + " is not empty");
            }
            throw e;
          }
          return true;
        });
  }

  Map<String, String> updateNamespaceProperties(
      String catalog,
      NamespacePath path,
      Set<String> removals,
      Map<String, String> updates,
      LocationClaim newClaim,
      IdempotencyClaim idempotency) {
    List<LocationClaim> claims = newClaim == null ? List.of() : List.of(newClaim);
    ensureRoots(claimSql, claims);
    return inTransaction(
        conn -> {
          IdempotencyClaim.recordIn(idempotency, conn); // in the change's own transaction
          JdbcLocationClaims.lockRoots(conn, claims);
          Map<String, String> current;
          try (PreparedStatement ps =
              conn.prepareStatement(
                  "SELECT properties FROM namespaces WHERE catalog_name = ? AND ns_path = ? FOR UPDATE")) {
            ps.setString(1, catalog);
            ps.setString(2, path.key());
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next()) {
                throw new NotFound("Namespace does not exist: " + path);
              }
              current = fromJson(rs.getString(1));
            }
          }
          if (newClaim != null) {
            // A namespace that moves leaves its tables where they are: only an empty one may move.
            if (holdsAnything(conn, catalog, path)) {
              throw new NotEmpty("Namespace " + path + " holds tables, views or namespaces");
            }
            claimNamespace(conn, catalog, path, newClaim);
          }
          Map<String, String> next = new TreeMap<>(current);
          removals.forEach(next::remove);
          next.putAll(updates);
          try (PreparedStatement ps =
              conn.prepareStatement(
                  "UPDATE namespaces SET properties = ?, updated_at = ? WHERE catalog_name = ? AND ns_path = ?")) {
            ps.setString(1, toJson(next));
            ps.setLong(2, System.currentTimeMillis());
            ps.setString(3, catalog);
            ps.setString(4, path.key());
            ps.executeUpdate();
          }
          return current;
        });
  }

  /** Whether the namespace holds a namespace, table or view. */
  private static boolean holdsAnything(Connection conn, String catalog, NamespacePath path)
      throws SQLException {
    return exists(
            conn,
            "SELECT 1 FROM namespaces WHERE catalog_name = ? AND parent_path = ?",
            catalog,
            path.key())
        || exists(
            conn,
            "SELECT 1 FROM contents WHERE catalog_name = ? AND ns_path = ?",
            catalog,
            path.key());
  }

  /** Locks namespace {@code path}'s row for this transaction; false when there is none. */
  static boolean lockNamespace(Connection conn, String catalog, NamespacePath path)
      throws SQLException {
    try (PreparedStatement ps =
        conn.prepareStatement(
            "SELECT 1 FROM namespaces WHERE catalog_name = ? AND ns_path = ? FOR UPDATE")) {
      ps.setString(1, catalog);
      ps.setString(2, path.key());
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }
}

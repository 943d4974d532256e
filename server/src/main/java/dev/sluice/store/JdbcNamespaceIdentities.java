package dev.sluice.store;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The SQL of namespaces' storage identities for {@link JdbcStore}: set under the namespace's row
 * lock (so a concurrent drop either sees the identity and removes it, or the set finds no
 * namespace), read per catalog.
 */
final class JdbcNamespaceIdentities extends JdbcSupport implements NamespaceIdentityStore {
  JdbcNamespaceIdentities(HikariDataSource dataSource, StoreConnections connections) {
    super(dataSource, connections);
  }

  @Override
  public Map<NamespacePath, String> identities(String catalog) {
    Map<NamespacePath, String> out = new LinkedHashMap<>();
    for (String[] row :
        queryList(
            "SELECT ns_path, identity_json FROM namespace_storage_identities"
                + " WHERE catalog_name = ? ORDER BY ns_path",
            rs -> new String[] {rs.getString(1), rs.getString(2)},
            catalog)) {
      out.put(NamespacePath.fromKey(row[0]), row[1]);
    }
    return out;
  }

  @Override
  public String set(String catalog, NamespacePath path, String identityJson) {
    return inTransaction(
        conn -> {
          if (path.isRoot() || !JdbcNamespaces.lockNamespace(conn, catalog, path)) {
            throw new NotFound("Namespace does not exist: " + path);
          }
          String before = current(conn, catalog, path);
          // Delete and insert rather than an upsert: one statement pair both databases share.
          update(
              conn,
              "DELETE FROM namespace_storage_identities WHERE catalog_name = ? AND ns_path = ?",
              catalog,
              path.key());
          update(
              conn,
              "INSERT INTO namespace_storage_identities (catalog_name, ns_path, identity_json,"
                  + " updated_at) VALUES (?, ?, ?, ?)",
              catalog,
              path.key(),
              identityJson,
              System.currentTimeMillis());
          return before;
        });
  }

  @Override
  public String clear(String catalog, NamespacePath path) {
    return inTransaction(
        conn -> {
          String before = current(conn, catalog, path);
          if (before != null) {
            update(
                conn,
                "DELETE FROM namespace_storage_identities WHERE catalog_name = ? AND ns_path = ?",
                catalog,
                path.key());
          }
          return before;
        });
  }

  private static String current(Connection conn, String catalog, NamespacePath path)
      throws SQLException {
    try (PreparedStatement ps =
        conn.prepareStatement(
            "SELECT identity_json FROM namespace_storage_identities"
                + " WHERE catalog_name = ? AND ns_path = ? FOR UPDATE")) {
      ps.setString(1, catalog);
      ps.setString(2, path.key());
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }
}

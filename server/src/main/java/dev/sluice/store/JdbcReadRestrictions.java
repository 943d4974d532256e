package dev.sluice.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * The SQL of read restrictions for {@link JdbcStore}. The table's row is locked while a restriction
 * is put (a concurrent drop either finds the restriction and cascades it away, or the put finds no
 * table); the foreign keys carry a restriction along a rename and away on a drop.
 */
final class JdbcReadRestrictions extends JdbcSupport implements ReadRestrictionStore {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<List<Integer>> IDS = new TypeReference<>() {};
  private static final TypeReference<Map<Integer, String>> MASKS = new TypeReference<>() {};

  JdbcReadRestrictions(HikariDataSource dataSource, StoreConnections connections) {
    super(dataSource, connections);
  }

  @Override
  public List<StoredReadRestriction> forTable(
      String catalog, NamespacePath namespace, String table) {
    return queryList(
        "SELECT principal_role, row_filter, hidden_field_ids, masked_field_ids"
            + " FROM table_read_restrictions WHERE catalog_name = ? AND ns_path = ? AND table_name = ?"
            + " ORDER BY principal_role",
        rs ->
            new StoredReadRestriction(
                catalog,
                namespace,
                table,
                rs.getString(1),
                rs.getString(2),
                read(rs.getString(3), IDS),
                read(rs.getString(4), MASKS)),
        catalog,
        namespace.key(),
        table);
  }

  @Override
  public void put(StoredReadRestriction r) {
    inTransaction(
        conn -> {
          if (!lockTable(conn, r)) {
            throw new NotFound("Table does not exist: " + r.namespace() + "." + r.table());
          }
          if (!exists(conn, "SELECT 1 FROM principal_roles WHERE name = ?", r.principalRole())) {
            throw new NotFound("Principal role does not exist: " + r.principalRole());
          }
          // Delete and insert rather than an upsert: one statement pair both databases share.
          update(
              conn,
              "DELETE FROM table_read_restrictions WHERE catalog_name = ? AND ns_path = ?"
                  + " AND table_name = ? AND principal_role = ?",
              r.catalog(),
              r.namespace().key(),
              r.table(),
              r.principalRole());
          update(
              conn,
              "INSERT INTO table_read_restrictions (catalog_name, ns_path, table_name,"
                  + " principal_role, row_filter, hidden_field_ids, masked_field_ids, updated_at)"
                  + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
              r.catalog(),
              r.namespace().key(),
              r.table(),
              r.principalRole(),
              r.rowFilterJson(),
              write(r.hiddenFieldIds()),
              write(r.maskedFieldIds()),
              System.currentTimeMillis());
          return null;
        });
  }

  @Override
  public boolean remove(
      String catalog, NamespacePath namespace, String table, String principalRole) {
    return inTransaction(
        conn ->
            update(
                    conn,
                    "DELETE FROM table_read_restrictions WHERE catalog_name = ? AND ns_path = ?"
                        + " AND table_name = ? AND principal_role = ?",
                    catalog,
                    namespace.key(),
                    table,
                    principalRole)
                == 1);
  }

  private static boolean lockTable(Connection conn, StoredReadRestriction r) throws SQLException {
    try (PreparedStatement ps =
        conn.prepareStatement(
            "SELECT 1 FROM contents WHERE catalog_name = ? AND ns_path = ? AND name = ?"
                + " AND kind = 'TABLE' FOR UPDATE")) {
      bind(ps, r.catalog(), r.namespace().key(), r.table());
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  private static String write(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static <T> T read(String json, TypeReference<T> type) {
    try {
      return JSON.readValue(json, type);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Corrupt read restriction", e);
    }
  }
}

package dev.sluice.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** JDBC plumbing for {@link JdbcStore}: queries, transactions, keyset pages, JSON columns. */
abstract class JdbcSupport {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};

  protected final HikariDataSource dataSource;

  protected JdbcSupport(HikariDataSource dataSource) {
    this.dataSource = dataSource;
  }

  @FunctionalInterface
  protected interface RowMapper<T> {
    T map(ResultSet rs) throws SQLException;
  }

  @FunctionalInterface
  protected interface TxBody<T> {
    T run(Connection conn) throws SQLException;
  }

  protected Connection connection() throws SQLException {
    return dataSource.getConnection();
  }

  protected <T> T inTransaction(TxBody<T> body) {
    try (Connection conn = connection()) {
      conn.setAutoCommit(false);
      try {
        T result = body.run(conn);
        conn.commit();
        return result;
      } catch (SQLException | RuntimeException e) {
        rollbackQuietly(conn);
        throw e;
      }
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }


  protected static boolean exists(Connection conn, String sql, String... args) throws SQLException {
    try (PreparedStatement ps = conn.prepareStatement(sql + " FETCH FIRST 1 ROWS ONLY")) {
      for (int i = 0; i < args.length; i++) {
        ps.setString(i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }


  protected <T> Optional<T> queryOne(String sql, RowMapper<T> mapper, String... args) {
    try (Connection conn = connection();
        PreparedStatement ps = conn.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setString(i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(mapper.map(rs)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  protected <T> List<T> queryList(String sql, RowMapper<T> mapper, String... args) {
    try (Connection conn = connection();
        PreparedStatement ps = conn.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setString(i + 1, args[i]);
      }
      List<T> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(mapper.map(rs));
        }
      }
      return out;
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  /** Keyset pagination over one string key column; fetches one extra row to learn if more follow. */
  protected Page<String> pageOf(String baseSql, String keyColumn, PageRequest page, String... args) {
    StringBuilder sql = new StringBuilder(baseSql);
    List<String> params = new ArrayList<>(List.of(args));
    if (page.after() != null) {
      sql.append(" AND ").append(keyColumn).append(" > ?");
      params.add(page.after());
    }
    sql.append(" ORDER BY ").append(keyColumn);
    boolean bounded = page.size() != Integer.MAX_VALUE;
    if (bounded) {
      sql.append(" FETCH FIRST ").append(page.size() + 1).append(" ROWS ONLY");
    }
    List<String> keys = queryList(sql.toString(), rs -> rs.getString(1), params.toArray(String[]::new));
    if (bounded && keys.size() > page.size()) {
      List<String> items = keys.subList(0, page.size());
      return new Page<>(items, PageRequest.tokenFor(items.get(items.size() - 1)));
    }
    return new Page<>(keys, null);
  }



  protected static void rollbackQuietly(Connection conn) {
    try {
      conn.rollback();
    } catch (SQLException ignored) {
      // the connection is broken; the pool discards it
    }
  }

  protected static StoreUnavailable unavailable(SQLException e) {
    return new StoreUnavailable("The catalog database is unavailable: " + e.getMessage(), e);
  }

  protected static String toJson(Map<String, String> map) {
    try {
      return JSON.writeValueAsString(new TreeMap<>(map));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot serialize properties", e);
    }
  }

  protected static Map<String, String> fromJson(String json) {
    try {
      return new LinkedHashMap<>(JSON.readValue(json, STRING_MAP));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Corrupt properties in the store", e);
    }
  }
}

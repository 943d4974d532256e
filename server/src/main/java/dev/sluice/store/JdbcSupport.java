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

  protected static final String UNIQUE_VIOLATION = "23505";
  // PostgreSQL reports both sides of a foreign-key violation as 23503; H2 uses 23506 for a missing parent.
  protected static final java.util.Set<String> FK_VIOLATION = java.util.Set.of("23503", "23506");

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

  /** Runs one statement with positional parameters (String, Long, Integer or null); returns the update count. */
  protected static int update(Connection conn, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      bind(ps, args);
      return ps.executeUpdate();
    }
  }

  protected static void bind(PreparedStatement ps, Object... args) throws SQLException {
    for (int i = 0; i < args.length; i++) {
      Object arg = args[i];
      if (arg instanceof Long l) {
        ps.setLong(i + 1, l);
      } else if (arg instanceof Integer n) {
        ps.setInt(i + 1, n);
      } else if (arg == null) {
        ps.setNull(i + 1, java.sql.Types.VARCHAR);
      } else {
        ps.setString(i + 1, arg.toString());
      }
    }
  }

  protected Connection connection() throws SQLException {
    return dataSource.getConnection();
  }

  /**
   * Runs {@code body} in one transaction. A serialization failure or deadlock (the database
   * rolled the whole transaction back, so nothing was applied) is retried a few times; any
   * other failure is reported.
   */
  protected <T> T inTransaction(TxBody<T> body) {
    for (int attempt = 1; ; attempt++) {
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
        if (!retryable(e) || attempt >= MAX_ATTEMPTS) {
          throw unavailable(e);
        }
      }
    }
  }

  protected static final int MAX_ATTEMPTS = 3;

  /** PostgreSQL's serialization failure and deadlock: the transaction was rolled back entirely. */
  protected static boolean retryable(SQLException e) {
    return "40001".equals(e.getSQLState()) || "40P01".equals(e.getSQLState());
  }


  protected static boolean exists(Connection conn, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = conn.prepareStatement(sql + " FETCH FIRST 1 ROWS ONLY")) {
      bind(ps, args);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }


  protected <T> Optional<T> queryOne(String sql, RowMapper<T> mapper, Object... args) {
    try (Connection conn = connection();
        PreparedStatement ps = conn.prepareStatement(sql)) {
      bind(ps, args);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(mapper.map(rs)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  protected <T> List<T> queryList(String sql, RowMapper<T> mapper, Object... args) {
    try (Connection conn = connection();
        PreparedStatement ps = conn.prepareStatement(sql)) {
      bind(ps, args);
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
  protected Page<String> pageOf(String baseSql, String keyColumn, PageRequest page, Object... args) {
    StringBuilder sql = new StringBuilder(baseSql);
    List<Object> params = new ArrayList<>(List.of(args));
    if (page.after() != null) {
      sql.append(" AND ").append(keyColumn).append(" > ?");
      params.add(page.after());
    }
    sql.append(" ORDER BY ").append(keyColumn);
    boolean bounded = page.size() != Integer.MAX_VALUE;
    if (bounded) {
      sql.append(" FETCH FIRST ").append(page.size() + 1).append(" ROWS ONLY");
    }
    List<String> keys = queryList(sql.toString(), rs -> rs.getString(1), params.toArray());
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

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
  // PostgreSQL reports both sides of a foreign-key violation as 23503; H2 uses 23506 for a missing
  // parent.
  protected static final java.util.Set<String> FK_VIOLATION = java.util.Set.of("23503", "23506");

  protected final HikariDataSource dataSource;
  private final StoreConnections connections;

  JdbcSupport(HikariDataSource dataSource, StoreConnections connections) {
    this.dataSource = dataSource;
    this.connections = connections;
  }

  @FunctionalInterface
  protected interface RowMapper<T> {
    T map(ResultSet rs) throws SQLException;
  }

  @FunctionalInterface
  protected interface TxBody<T> {
    T run(Connection conn) throws SQLException;
  }

  /**
   * Runs one statement with positional parameters (String, Long, Integer or null); returns the
   * update count.
   */
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
    return connections.connection();
  }

  /**
   * Runs {@code body} in one transaction. A serialization failure or deadlock (the database rolled
   * the whole transaction back, so nothing was applied) is retried a few times; any other failure
   * is reported.
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

  /**
   * Whether {@code e} says the database could not be reached or could not work (connection lost or
   * refused, shutting down, out of resources, a transaction to retry), as opposed to refusing the
   * statement itself (a value too long, a constraint, bad input).
   */
  protected static boolean outage(SQLException e) {
    int depth = 0;
    for (Throwable t = e; t != null && depth++ < 20; t = next(t)) {
      if (t instanceof java.sql.SQLTransientException
          || t instanceof java.sql.SQLRecoverableException
          || t instanceof java.sql.SQLNonTransientConnectionException
          || t instanceof java.io.IOException) {
        return true;
      }
      if (t instanceof SQLException sql && sql.getSQLState() != null) {
        String state = sql.getSQLState();
        // 08 connection, 40 rollback (serialization, deadlock), 53 resources, 57 shutdown, 58
        // system;
        // H2: database closed (90098), closing (90121), file I/O (90028, 90031).
        if (state.startsWith("08")
            || state.startsWith("40")
            || state.startsWith("53")
            || state.startsWith("57")
            || state.startsWith("58")
            || java.util.Set.of("90098", "90121", "90028", "90031").contains(state)) {
          return true;
        }
      }
    }
    return false;
  }

  private static Throwable next(Throwable t) {
    if (t instanceof SQLException sql
        && sql.getNextException() != null
        && sql.getNextException() != t) {
      return sql.getNextException();
    }
    return t.getCause() == t ? null : t.getCause();
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

  /**
   * Keyset pagination over one string key column; fetches one extra row to learn if more follow.
   * {@code equalColumns} are the columns {@code baseSql}'s WHERE clause fixes by equality, in the
   * order of the index that serves the listing: they lead the ORDER BY (which they do not change),
   * so that H2 reads the page in index order instead of sorting every matching row (issue 42;
   * PostgreSQL finds that order either way).
   */
  protected Page<String> pageOf(
      String baseSql,
      List<String> equalColumns,
      String keyColumn,
      PageRequest page,
      Object... args) {
    return pageOf(
        baseSql, equalColumns, List.of(keyColumn), rs -> rs.getString(1), List::of, page, args);
  }

  /**
   * Keyset pagination over rows ordered by {@code keyColumns} (strings; {@code baseSql} ends in a
   * WHERE clause), after the key the page token carries: {@code (a, b) > (?, ?)}, which H2 and
   * PostgreSQL both compare as a row. Fetches one extra row to learn if more follow; the token is
   * the last row's key, as {@code keyOf} gives it.
   */
  protected <T> Page<T> pageOf(
      String baseSql,
      List<String> keyColumns,
      RowMapper<T> mapper,
      java.util.function.Function<T, List<String>> keyOf,
      PageRequest page,
      Object... args) {
    return pageOf(baseSql, List.of(), keyColumns, mapper, keyOf, page, args);
  }

  private <T> Page<T> pageOf(
      String baseSql,
      List<String> equalColumns,
      List<String> keyColumns,
      RowMapper<T> mapper,
      java.util.function.Function<T, List<String>> keyOf,
      PageRequest page,
      Object... args) {
    StringBuilder sql = new StringBuilder(baseSql);
    List<Object> params = new ArrayList<>(List.of(args));
    boolean single = keyColumns.size() == 1;
    List<String> after =
        page.after() == null
            ? null
            : single ? List.of(page.after()) : page.afterKeys(keyColumns.size());
    if (after != null) {
      String columns = String.join(", ", keyColumns);
      String marks = String.join(", ", java.util.Collections.nCopies(keyColumns.size(), "?"));
      sql.append(single ? " AND " + columns + " > ?" : " AND (" + columns + ") > (" + marks + ")");
      params.addAll(after);
    }
    List<String> order = new ArrayList<>(equalColumns);
    order.addAll(keyColumns);
    sql.append(" ORDER BY ").append(String.join(", ", order));
    if (page.bounded()) {
      sql.append(" FETCH FIRST ").append(page.size() + 1).append(" ROWS ONLY");
    }
    List<T> rows = queryList(sql.toString(), mapper, params.toArray());
    if (page.bounded() && rows.size() > page.size()) {
      List<T> items = rows.subList(0, page.size());
      List<String> last = keyOf.apply(items.get(items.size() - 1));
      return new Page<>(
          items, single ? PageRequest.tokenFor(last.get(0)) : PageRequest.tokenFor(last));
    }
    return new Page<>(rows, null);
  }

  /**
   * Makes sure the lock rows of the claims' roots exist; no database call once {@code claimSql}
   * knows them. Here because namespaces and contents both claim, over one shared {@code claimSql}.
   */
  protected void ensureRoots(JdbcLocationClaims claimSql, List<LocationClaim> claims) {
    if (claimSql.knowsRoots(claims)) {
      return;
    }
    try (Connection conn = connection()) {
      claimSql.ensureRoots(conn, claims);
    } catch (SQLException e) {
      throw unavailable(e);
    }
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

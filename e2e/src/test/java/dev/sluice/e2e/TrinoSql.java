package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * A JDBC session with the Trino that {@code ./scripts/test-all.sh} starts ({@code
 * scripts/trino.sh}), found through {@code SLUICE_TEST_TRINO_URL}. Trino runs without
 * authentication on loopback; the Trino user name is only a label. Who acts on Sluice is decided by
 * the OAuth credential of each Trino catalog, not by this session.
 */
final class TrinoSql implements AutoCloseable {
  static final String URL_ENV = "SLUICE_TEST_TRINO_URL";

  private final Connection connection;

  private TrinoSql(Connection connection) {
    this.connection = connection;
  }

  /** Connects; fails (never skips) {@code testName} when the Trino bed is not there. */
  static TrinoSql connect(String testName) {
    String url = System.getenv(URL_ENV);
    if (url == null || url.isBlank()) {
      fail(
          "%s needs a running Trino, described by %s. Run the tests with ./scripts/test-all.sh, "
              + "which starts one (scripts/trino.sh).",
          testName, URL_ENV);
    }
    Properties properties = new Properties();
    properties.setProperty("user", "sluice-e2e");
    try {
      return new TrinoSql(
          DriverManager.getConnection(url.replaceFirst("^http://", "jdbc:trino://"), properties));
    } catch (SQLException e) {
      throw new AssertionError("could not connect to Trino at " + url, e);
    }
  }

  /** Runs a statement that returns no rows (DDL, DML); returns the update count, if any. */
  long execute(String sql) {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
      return statement.getLargeUpdateCount();
    } catch (SQLException e) {
      throw new TrinoFailure(sql, e);
    }
  }

  /** The rows of a query, each as a list of column values (JDBC's Java types). */
  List<List<Object>> rows(String sql) {
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      int columns = result.getMetaData().getColumnCount();
      List<List<Object>> rows = new ArrayList<>();
      while (result.next()) {
        List<Object> row = new ArrayList<>(columns);
        for (int i = 1; i <= columns; i++) {
          row.add(result.getObject(i));
        }
        rows.add(row);
      }
      return rows;
    } catch (SQLException e) {
      throw new TrinoFailure(sql, e);
    }
  }

  /** The first column of {@link #rows}. */
  List<Object> column(String sql) {
    return rows(sql).stream().map(r -> r.get(0)).toList();
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }

  /**
   * A failed statement, its message made of every message in the driver's cause chain (Trino's JDBC
   * driver rebuilds the server-side exception chain, so a storage error deep in a write is there).
   */
  static final class TrinoFailure extends RuntimeException {
    TrinoFailure(String sql, SQLException e) {
      super("Trino refused or failed `" + sql + "`: " + messages(e), e);
    }
  }

  static String messages(Throwable e) {
    StringBuilder all = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      all.append(t.getClass().getName()).append(": ").append(t.getMessage()).append('\n');
    }
    return all.toString();
  }
}

package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.fail;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A JDBC session with the Trino that {@code ./scripts/test-all.sh} starts ({@code
 * scripts/trino.sh}). {@link #connect} uses its plain HTTP port ({@code SLUICE_TEST_TRINO_URL}),
 * where Trino takes a bare user name: the name is only a label, and who acts on Sluice is decided
 * by the OAuth credential of each Trino catalog. {@link #connectAs} logs in as one of its password
 * users over HTTPS ({@code SLUICE_TEST_TRINO_HTTPS_URL}, {@code SLUICE_TEST_TRINO_USERS}), for
 * catalogs with per-user sessions, where the authenticated Trino user is who acts on Sluice.
 */
final class TrinoSql implements AutoCloseable {
  static final String URL_ENV = "SLUICE_TEST_TRINO_URL";
  static final String HTTPS_URL_ENV = "SLUICE_TEST_TRINO_HTTPS_URL";
  static final String USERS_ENV = "SLUICE_TEST_TRINO_USERS";

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

  /**
   * Logs in as {@code user} with its password from {@code SLUICE_TEST_TRINO_USERS}, over HTTPS (the
   * bed's certificate is self-signed and throwaway: not verified); fails (never skips) {@code
   * testName} when the bed or the user is not there.
   */
  static TrinoSql connectAs(String testName, String user) {
    return connectAs(testName, user, password(testName, user));
  }

  /** As {@link #connectAs(String, String)} with {@code password}: Trino checks it on connecting. */
  static TrinoSql connectAs(String testName, String user, String password) {
    String url = env(testName, HTTPS_URL_ENV);
    Properties properties = new Properties();
    properties.setProperty("user", user);
    properties.setProperty("password", password);
    properties.setProperty("SSL", "true");
    properties.setProperty("SSLVerification", "NONE");
    try {
      Connection connection =
          DriverManager.getConnection(url.replaceFirst("^https://", "jdbc:trino://"), properties);
      // The driver connects lazily: a first statement is what makes Trino check the password.
      TrinoSql session = new TrinoSql(connection);
      session.rows("SELECT 1");
      return session;
    } catch (SQLException e) {
      throw new AssertionError("could not connect to Trino at " + url + " as " + user, e);
    }
  }

  private static String password(String testName, String user) {
    for (String entry : env(testName, USERS_ENV).split(",")) {
      int colon = entry.indexOf(':');
      if (colon > 0 && entry.substring(0, colon).equals(user)) {
        return entry.substring(colon + 1);
      }
    }
    return fail("%s: Trino has no password user %s (%s)", testName, user, USERS_ENV);
  }

  private static String env(String testName, String name) {
    String value = System.getenv(name);
    if (value == null || value.isBlank()) {
      fail(
          "%s needs a running Trino, described by %s. Run the tests with ./scripts/test-all.sh, "
              + "which starts one (scripts/trino.sh).",
          testName, name);
    }
    return value;
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

  /**
   * {@code CREATE CATALOG name USING iceberg WITH (...)} from a catalog file's {@code properties}
   * (docs/ENGINES.md's snippets), whose {@code connector.name} must be {@code iceberg}: it becomes
   * the statement's {@code USING}.
   */
  void createIcebergCatalog(String name, Map<String, String> properties) {
    Map<String, String> with = new LinkedHashMap<>(properties);
    String connector = with.remove("connector.name");
    if (!"iceberg".equals(connector)) {
      throw new IllegalArgumentException("connector.name is " + connector + ", not iceberg");
    }
    List<String> pairs = new ArrayList<>();
    with.forEach((k, v) -> pairs.add("\"" + k + "\" = '" + v.replace("'", "''") + "'"));
    execute("CREATE CATALOG " + name + " USING iceberg WITH (" + String.join(", ", pairs) + ")");
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

  /** A row as Trino's JDBC answers compare: DECIMAL values as longs. */
  static List<Object> row(Object... values) {
    List<Object> row = new ArrayList<>();
    for (Object v : values) {
      row.add(v instanceof BigDecimal b ? b.longValue() : v);
    }
    return row;
  }
}

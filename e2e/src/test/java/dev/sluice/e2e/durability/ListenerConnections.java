package dev.sluice.e2e.durability;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The replicas' pointer-change LISTEN connections as PostgreSQL sees them ({@code
 * pg_stat_activity}, by {@code application_name}) on one database only: other tests may share the
 * server. Queries go through the server's {@code postgres} database, so they work while the
 * cluster's own database refuses new connections ({@link #refuseNewConnections}).
 */
final class ListenerConnections {
  static final String APPLICATION_NAME = "sluice-pointer-listener";

  /** One listener connection: its backend pid and when PostgreSQL started that backend. */
  record Listener(int pid, long backendStartMicros) {}

  /** Undoes {@link #refuseNewConnections}. */
  interface Refusal extends AutoCloseable {
    @Override
    void close();
  }

  private final String adminUrl;
  private final String database;

  /**
   * @param adminUrl a JDBC URL of a superuser on another database of the same server
   * @param database the cluster's database
   */
  ListenerConnections(String adminUrl, String database) {
    this.adminUrl = requireNonNull(adminUrl, "adminUrl");
    this.database = requireNonNull(database, "database");
    if (!database.matches("[a-z0-9_]+")) {
      throw new IllegalArgumentException("unexpected database name: " + database);
    }
  }

  /** Backend pids of the listener connections now open on the database. */
  List<Integer> pids() {
    return open().stream().map(Listener::pid).toList();
  }

  /**
   * The listener connections now open on the database, with their backends' start times in
   * microseconds since the epoch (PostgreSQL runs on this machine: same clock as the test's).
   */
  List<Listener> open() {
    List<Listener> listeners = new ArrayList<>();
    query(
        "SELECT pid, (extract(epoch FROM backend_start) * 1000000)::bigint FROM pg_stat_activity"
            + where()
            + " ORDER BY pid",
        rs -> listeners.add(new Listener(rs.getInt(1), rs.getLong(2))));
    return listeners;
  }

  /** Terminates every listener connection on the database; returns the pids terminated. */
  List<Integer> terminateAll() {
    List<Integer> pids = new ArrayList<>();
    // In the select list, not the WHERE clause: PostgreSQL may evaluate WHERE terms in any order.
    query(
        "SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity" + where(),
        rs -> {
          if (rs.getBoolean(2)) {
            pids.add(rs.getInt(1));
          }
        });
    return pids;
  }

  /**
   * Makes the database refuse new connections (open ones, such as the replicas' pools, stay) until
   * the returned handle is closed: a terminated listener cannot subscribe again meanwhile.
   */
  Refusal refuseNewConnections() {
    execute("ALTER DATABASE " + database + " WITH ALLOW_CONNECTIONS false");
    return () -> execute("ALTER DATABASE " + database + " WITH ALLOW_CONNECTIONS true");
  }

  /** Waits until exactly {@code count} listener connections are open; returns them. */
  List<Listener> await(int count, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<Listener> listeners = open();
    while (listeners.size() != count) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "expected "
                + count
                + " "
                + APPLICATION_NAME
                + " connections within "
                + timeout
                + ", pg_stat_activity shows "
                + listeners);
      }
      Thread.sleep(20);
      listeners = open();
    }
    return listeners;
  }

  private String where() {
    return " WHERE application_name = '"
        + APPLICATION_NAME
        + "' AND datname = '"
        + database
        + "' AND backend_type = 'client backend'";
  }

  private interface Row {
    void accept(ResultSet rs) throws SQLException;
  }

  private void query(String sql, Row row) {
    try (Connection conn = DriverManager.getConnection(adminUrl);
        Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        row.accept(rs);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("`" + sql + "` failed: " + e.getMessage(), e);
    }
  }

  private void execute(String sql) {
    try (Connection conn = DriverManager.getConnection(adminUrl);
        Statement st = conn.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("`" + sql + "` failed: " + e.getMessage(), e);
    }
  }
}

package dev.sluice.bench.target;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An empty PostgreSQL database made for one benchmark run on the server that {@code --postgres-url}
 * points at, and dropped after it. Why: Sluice migrates and fills whatever database it is given, so
 * a second run on the same URL found the first run's principal, catalogs and tables and failed; and
 * runs by other people may share the server, so the name is unique per run and only this run's
 * database is ever dropped.
 */
public final class FreshPostgresDatabase implements AutoCloseable {
  /** {@code jdbc:postgresql://hosts} then an optional {@code /database}, then the query. */
  private static final Pattern URL =
      Pattern.compile("^(jdbc:postgresql://[^/?]*)(/[^?]*)?(\\?.*)?$");

  private final String adminUrl;
  private final String name;
  private final String url;
  private boolean dropped;

  private FreshPostgresDatabase(String adminUrl, String name, String url) {
    this.adminUrl = adminUrl;
    this.name = name;
    this.url = url;
  }

  /**
   * Creates {@code sluice_bench_<random>} through {@code adminUrl} (a connection allowed to create
   * databases, e.g. to the server's {@code postgres} database).
   */
  public static FreshPostgresDatabase create(String adminUrl) throws SQLException {
    Objects.requireNonNull(adminUrl, "adminUrl");
    String name = "sluice_bench_" + HexFormat.of().formatHex(new SecureRandom().generateSeed(6));
    String url = withDatabase(adminUrl, name);
    execute(adminUrl, "CREATE DATABASE " + name);
    return new FreshPostgresDatabase(adminUrl, name, url);
  }

  /** {@code jdbcUrl} with its database replaced by {@code database}, parameters kept. */
  private static String withDatabase(String jdbcUrl, String database) {
    Matcher m = URL.matcher(jdbcUrl);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "Not a PostgreSQL JDBC URL (jdbc:postgresql://host:port/db?…): " + jdbcUrl);
    }
    return m.group(1) + "/" + database + (m.group(3) == null ? "" : m.group(3));
  }

  public String name() {
    return name;
  }

  /** The JDBC URL of the fresh database, with the admin URL's parameters (user, …). */
  public String url() {
    return url;
  }

  /**
   * Drops the database; call it once nothing is connected to it any more (the server stopped, the
   * seeder closed). {@code WITH (FORCE)} (PostgreSQL 13+) still ends a connection left behind.
   */
  @Override
  public void close() {
    if (dropped) {
      return;
    }
    dropped = true;
    try {
      execute(adminUrl, "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    } catch (SQLException e) {
      System.err.println(
          "could not drop PostgreSQL database " + name + " (drop it by hand): " + e.getMessage());
    }
  }

  private static void execute(String jdbcUrl, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }
}

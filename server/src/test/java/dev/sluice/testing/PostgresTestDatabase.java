package dev.sluice.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.UUID;

/**
 * Fresh databases on the real PostgreSQL server that {@code scripts/test-all.sh} starts. PostgreSQL
 * tests fail (they do not skip) when that server is not there.
 */
public final class PostgresTestDatabase {
  public static final String ENV = "SLUICE_TEST_PG_URL";

  private PostgresTestDatabase() {}

  /** Creates an empty database and returns its JDBC URL. */
  public static String fresh() {
    String admin = System.getenv(ENV);
    if (admin == null || admin.isBlank()) {
      throw new IllegalStateException(
          ENV
              + " is not set: run ./scripts/test-all.sh, which installs and starts a private PostgreSQL");
    }
    String name = "sluice_" + UUID.randomUUID().toString().replace("-", "");
    try (Connection conn = DriverManager.getConnection(admin);
        Statement st = conn.createStatement()) {
      st.execute("CREATE DATABASE " + name);
    } catch (Exception e) {
      throw new IllegalStateException(
          "Cannot create a test database on " + admin + ": " + e.getMessage(), e);
    }
    return admin.replaceFirst("/postgres\\?", "/" + name + "?");
  }
}

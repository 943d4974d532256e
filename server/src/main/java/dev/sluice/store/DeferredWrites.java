package dev.sluice.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * While Flyway applies migrations to an H2 store that writes every commit to its file at once
 * ({@code WRITE_DELAY=0}, {@link DatabaseConfig#jdbcUrl}), H2's own default delay instead, and a
 * {@code CHECKPOINT} that writes everything before the store serves: one file write per migration
 * statement made a first start about 0.1 s longer. A crash meanwhile loses what a crash between two
 * statements already could (H2's DDL commits on its own): Flyway then finds the history as the file
 * has it. Anything else (PostgreSQL, a delay set in the URL, no right to set it) is left as it is.
 */
final class DeferredWrites implements AutoCloseable {
  /** H2's default: commits are written within this many milliseconds. */
  private static final int DELAY_MS = 500;

  private final DataSource dataSource;

  private DeferredWrites(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Defers {@code dataSource}'s writes when it is an H2 store that writes each commit at once. */
  static DeferredWrites during(DataSource dataSource) {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      if (!"H2".equals(c.getMetaData().getDatabaseProductName())) {
        return new DeferredWrites(null);
      }
      try (ResultSet delay =
          s.executeQuery(
              "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS"
                  + " WHERE SETTING_NAME = 'WRITE_DELAY'")) {
        if (!delay.next() || !"0".equals(delay.getString(1))) {
          return new DeferredWrites(null);
        }
      }
      s.execute("SET WRITE_DELAY " + DELAY_MS);
      return new DeferredWrites(dataSource);
    } catch (SQLException e) {
      return new DeferredWrites(null); // the migrations run as they would have
    }
  }

  /** Back to writing each commit at once, everything so far written. */
  @Override
  public void close() {
    if (dataSource == null) {
      return;
    }
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute("SET WRITE_DELAY 0");
      s.execute("CHECKPOINT");
    } catch (SQLException e) {
      throw new IllegalStateException("Cannot write the migrated H2 store: " + e.getMessage(), e);
    }
  }
}

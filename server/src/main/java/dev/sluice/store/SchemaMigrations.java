package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import com.zaxxer.hikari.util.DriverDataSource;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * The store's schema migrations (Flyway, {@code resources/db/migration}): what the database is at
 * and what a start or {@code sluice migrate} would apply, and applying them. The server applies
 * them at start; {@code sluice migrate --dry-run} shows them before an upgrade.
 */
public final class SchemaMigrations {
  static final String LOCATION = "classpath:db/migration";

  /** One migration: its version and description, as its file names them. */
  public record Migration(String version, String description) {
    @Override
    public String toString() {
      return "V" + version + "  " + description;
    }
  }

  /**
   * Where a database's schema is: its version (null before the first migration) and the migrations
   * not applied yet, in order.
   */
  public record Status(String version, List<Migration> pending) {
    public Status {
      pending = List.copyOf(pending);
    }
  }

  private final Flyway flyway;

  SchemaMigrations(DataSource dataSource) {
    this.flyway =
        Flyway.configure()
            .dataSource(requireNonNull(dataSource, "dataSource"))
            .locations(LOCATION)
            .load();
  }

  /** The migrations of the database {@code config} names, through a connection of its own. */
  public static SchemaMigrations of(DatabaseConfig config) {
    requireNonNull(config, "config");
    return new SchemaMigrations(
        new DriverDataSource(
            config.jdbcUrl(), null, new Properties(), config.user(), config.password()));
  }

  public Status status() {
    MigrationInfoService info = flyway.info();
    MigrationInfo current = info.current();
    return new Status(
        current == null || current.getVersion() == null ? null : current.getVersion().getVersion(),
        Arrays.stream(info.pending())
            .map(m -> new Migration(m.getVersion().getVersion(), m.getDescription()))
            .toList());
  }

  /** Applies every pending migration; returns how many ran. */
  public int apply() {
    MigrateResult result = flyway.migrate();
    return result.migrationsExecuted;
  }
}

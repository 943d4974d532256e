package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import com.zaxxer.hikari.util.DriverDataSource;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
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

  private final DataSource dataSource;
  private Flyway flyway; // configured at first use: a start on a current schema needs none

  SchemaMigrations(DataSource dataSource) {
    this.dataSource = requireNonNull(dataSource, "dataSource");
  }

  private Flyway flyway() {
    if (flyway == null) {
      flyway = Flyway.configure().dataSource(dataSource).locations(LOCATION).load();
    }
    return flyway;
  }

  /** The migrations of the database {@code config} names, through a connection of its own. */
  public static SchemaMigrations of(DatabaseConfig config) {
    requireNonNull(config, "config");
    return new SchemaMigrations(
        new DriverDataSource(
            config.jdbcUrl(), null, new Properties(), config.user(), config.password()));
  }

  public Status status() {
    MigrationInfoService info = flyway().info();
    MigrationInfo current = info.current();
    return new Status(
        current == null || current.getVersion() == null ? null : current.getVersion().getVersion(),
        Arrays.stream(info.pending())
            .map(m -> new Migration(m.getVersion().getVersion(), m.getDescription()))
            .toList());
  }

  /** What {@link #migrate} did: how many migrations ran, and the version the schema is at now. */
  public record Applied(int count, String version) {}

  /** Applies every pending migration; returns how many ran. */
  public int apply() {
    return migrate().count();
  }

  /**
   * Applies every pending migration; returns how many ran and the version reached, from the
   * migration's own result (asking {@link #status} after it would read the history once more). When
   * the history already records every bundled migration as it is ({@link SchemaHistoryCheck}),
   * Flyway is not run: there is nothing to apply.
   */
  public Applied migrate() {
    Optional<String> current =
        SchemaHistoryCheck.current(dataSource, SchemaMigrations.class.getClassLoader());
    if (current.isPresent()) {
      return new Applied(0, current.get());
    }
    MigrateResult result;
    try (DeferredWrites deferred = DeferredWrites.during(dataSource)) {
      result = flyway().migrate();
    }
    return new Applied(
        result.migrationsExecuted,
        result.targetSchemaVersion != null
            ? result.targetSchemaVersion
            : result.initialSchemaVersion);
  }
}

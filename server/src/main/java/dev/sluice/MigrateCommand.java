package dev.sluice;

import dev.sluice.config.ConfigException;
import dev.sluice.config.ServerConfig;
import dev.sluice.store.DatabaseConfig;
import dev.sluice.store.SchemaMigrations;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice migrate [--dry-run]}: the store's schema migrations for the database the config
 * names, shown ({@code --dry-run}) or applied, without starting the server. A server applies them
 * itself at start; this is for seeing what an upgrade will do first, and for applying it once
 * before the replicas of the new version start.
 */
@Command(
    name = "migrate",
    mixinStandardHelpOptions = true,
    description = "Show (--dry-run) or apply the store's schema migrations, without serving.")
final class MigrateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--config", description = "YAML config file (its database section)")
  Path config;

  @Option(
      names = "--data-dir",
      description = "Where the embedded database lives (default ./sluice-data)")
  String dataDir;

  @Option(names = "--dry-run", description = "List the pending migrations; apply nothing")
  boolean dryRun;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    DatabaseConfig database;
    try {
      database =
          ServerConfig.load(
                  config,
                  new ServerConfig.Overrides(null, null, dataDir),
                  System::getenv,
                  StandardBackends.create())
              .database()
              .settings();
    } catch (ConfigException e) {
      spec.commandLine().getErr().println("Invalid configuration: " + e.getMessage());
      return 2;
    }
    String where = database.url().replaceAll("password=[^;&]*", "password=***");
    try {
      return migrate(out, where, SchemaMigrations.of(database));
    } catch (RuntimeException e) {
      // Flyway's own message says what is wrong (an H2 file a server holds open, a refused login).
      spec.commandLine()
          .getErr()
          .println("Cannot migrate the store " + where + ": " + e.getMessage());
      return 1;
    }
  }

  private int migrate(PrintWriter out, String where, SchemaMigrations migrations) {
    SchemaMigrations.Status before = migrations.status();
    out.println(
        "store "
            + where
            + ": "
            + (before.version() == null ? "no schema yet" : "schema at version " + before.version())
            + ", "
            + before.pending().size()
            + " migration(s) pending");
    before.pending().forEach(m -> out.println("  " + m));
    if (dryRun || before.pending().isEmpty()) {
      out.println(before.pending().isEmpty() ? "up to date" : "dry run: nothing applied");
      out.flush();
      return 0;
    }
    int applied = migrations.apply();
    out.println(
        "applied " + applied + " migration(s); schema at version " + migrations.status().version());
    out.flush();
    return 0;
  }
}

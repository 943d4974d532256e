package dev.sluice;

import dev.sluice.config.ConfigException;
import dev.sluice.config.ServerConfig;
import dev.sluice.store.EmbeddedBackup;
import dev.sluice.store.StoreUnavailable;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice backup --to F.zip} and {@code sluice restore --from F.zip}: the embedded default's
 * H2 file and local warehouse, with the server stopped ({@link EmbeddedBackup}).
 */
final class BackupCommands {
  private BackupCommands() {}

  /** The options both commands read the store's place from. */
  abstract static class OnStore implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--config", description = "YAML config file (its database and dataDir)")
    Path config;

    @Option(names = "--data-dir", description = "The data directory (default ./sluice-data)")
    String dataDir;

    @Override
    public Integer call() {
      ServerConfig cfg;
      try {
        cfg =
            ServerConfig.load(
                config,
                new ServerConfig.Overrides(null, null, dataDir),
                System::getenv,
                StandardBackends.create());
      } catch (ConfigException e) {
        spec.commandLine().getErr().println("Invalid configuration: " + e.getMessage());
        return 2;
      }
      try {
        spec.commandLine().getOut().println(run(cfg));
        spec.commandLine().getOut().flush();
        return 0;
      } catch (IllegalArgumentException | StoreUnavailable | UncheckedIOException e) {
        spec.commandLine().getErr().println(e.getMessage());
        return 1;
      }
    }

    abstract String run(ServerConfig cfg);
  }

  @Command(
      name = "backup",
      mixinStandardHelpOptions = true,
      description = "Back up the embedded store and warehouse into a zip (the server stopped).")
  static final class Backup extends OnStore {
    @Option(names = "--to", required = true, description = "The zip to write (must not exist)")
    Path to;

    @Override
    String run(ServerConfig cfg) {
      int files = EmbeddedBackup.backup(cfg.database().settings(), cfg.warehouseDir(), to);
      return "backed up " + files + " file(s) to " + to;
    }
  }

  @Command(
      name = "restore",
      mixinStandardHelpOptions = true,
      description = "Restore a backup into an empty data directory.")
  static final class Restore extends OnStore {
    @Option(names = "--from", required = true, description = "The zip sluice backup wrote")
    Path from;

    @Override
    String run(ServerConfig cfg) {
      int files = EmbeddedBackup.restore(from, cfg.database().settings(), cfg.warehouseDir());
      return "restored " + files + " file(s) into " + cfg.dataDir();
    }
  }
}

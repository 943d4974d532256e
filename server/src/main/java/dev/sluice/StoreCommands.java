package dev.sluice;

import dev.sluice.config.ConfigException;
import dev.sluice.config.ServerConfig;
import dev.sluice.store.DatabaseConfig;
import dev.sluice.store.StoreCopy;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sluice store copy --to <jdbc-url>}: the store moved to another database. */
@Command(
    name = "store",
    mixinStandardHelpOptions = true,
    description = "Work on the store itself.",
    subcommands = {StoreCommands.Copy.class})
final class StoreCommands implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /**
   * Copies the store the config names (the embedded H2 by default) into an empty database, with
   * every server stopped ({@link StoreCopy}): the supported path from H2 to PostgreSQL. The
   * target's password comes from an environment variable, never the command line.
   */
  @Command(
      name = "copy",
      mixinStandardHelpOptions = true,
      description =
          "Copy the store (by default the embedded H2) into an empty database, such as"
              + " PostgreSQL, with the server stopped.")
  static final class Copy implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--config", description = "YAML config file of the source (its database)")
    Path config;

    @Option(names = "--data-dir", description = "The source's data directory (./sluice-data)")
    String dataDir;

    @Option(
        names = "--to",
        required = true,
        description = "JDBC URL of the target, e.g. jdbc:postgresql://db:5432/sluice")
    String to;

    @Option(names = "--to-user", description = "The target's user")
    String toUser;

    @Option(
        names = "--to-password-env",
        paramLabel = "VAR",
        description = "The environment variable holding the target's password")
    String toPasswordEnv;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      ServerConfig cfg;
      try {
        cfg =
            ServerConfig.load(
                config,
                new ServerConfig.Overrides(null, null, dataDir),
                System::getenv,
                StandardBackends.create());
      } catch (ConfigException e) {
        err.println("Invalid configuration: " + e.getMessage());
        return 2;
      }
      String password = null;
      if (toPasswordEnv != null) {
        password = System.getenv(toPasswordEnv);
        if (password == null) {
          err.println("--to-password-env names " + toPasswordEnv + ", which is not set");
          return 2;
        }
      }
      DatabaseConfig source = cfg.database().settings();
      DatabaseConfig target =
          new DatabaseConfig(to, toUser, password, 2, source.connectionTimeoutMs());
      String from = redacted(source.url());
      try {
        StoreCopy.Report report = StoreCopy.copy(source, target);
        out.println(
            "copied "
                + report.total()
                + " row(s) of schema version "
                + report.schemaVersion()
                + " from "
                + from
                + " to "
                + redacted(to)
                + ":");
        for (Map.Entry<String, Long> table : report.rows().entrySet()) {
          out.printf("  %-28s %d%n", table.getKey(), table.getValue());
        }
        out.println(
            "Point database.url (and user, password) at the target, then start the servers. Table"
                + " data and metadata files stay where they are.");
        out.flush();
        return 0;
      } catch (Exception e) {
        // The database's own message says what is wrong (a server holds the H2 file, a refused
        // login, a target in use); nothing was written to the target.
        err.println(
            "Cannot copy the store " + from + " to " + redacted(to) + ": " + e.getMessage());
        return 1;
      }
    }

    private static String redacted(String url) {
      return url.replaceAll("password=[^;&]*", "password=***");
    }
  }
}

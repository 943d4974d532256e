package dev.sluice;

import static java.util.Objects.requireNonNull;

import dev.sluice.cli.CatalogRolesCommand;
import dev.sluice.cli.CatalogsCommand;
import dev.sluice.cli.CompletionCommand;
import dev.sluice.cli.EventsCommand;
import dev.sluice.cli.NamespacesCommand;
import dev.sluice.cli.PrincipalRolesCommand;
import dev.sluice.cli.PrincipalsCommand;
import dev.sluice.cli.PrivilegesCommand;
import dev.sluice.cli.SigningKeysCommand;
import dev.sluice.cli.TablesCommand;
import dev.sluice.config.ConfigException;
import dev.sluice.config.ServerConfig;
import dev.sluice.store.Store;
import dev.sluice.vending.StorageBackends;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** The {@code sluice} command line. */
@Command(
    name = "sluice",
    mixinStandardHelpOptions = true,
    versionProvider = BuildInfo.VersionProvider.class,
    description =
        "An Apache Iceberg REST catalog that vends short-lived, table-scoped storage credentials.",
    subcommands = {
      Main.Serve.class,
      MigrateCommand.class,
      ArchiveClassesCommand.class,
      BackupCommands.Backup.class,
      BackupCommands.Restore.class,
      StoreCommands.class,
      CatalogsCommand.class,
      PrincipalsCommand.class,
      PrincipalRolesCommand.class,
      CatalogRolesCommand.class,
      PrivilegesCommand.class,
      NamespacesCommand.class,
      TablesCommand.class,
      EventsCommand.class,
      SigningKeysCommand.class,
      CompletionCommand.class
    })
public final class Main implements Runnable {

  /** The store the catalogs use ({@link SluiceServer#start}); as it is but in fault tests. */
  private final UnaryOperator<Store> catalogStore;

  public Main() {
    this(UnaryOperator.identity());
  }

  private Main(UnaryOperator<Store> catalogStore) {
    this.catalogStore = catalogStore;
  }

  public static void main(String[] args) {
    System.exit(execute(args, UnaryOperator.identity()));
  }

  /**
   * Runs the command line with {@code serve}'s catalogs using {@code catalogStore} of the store:
   * for the test sources' fault injection, which starts a deliberately broken server this way.
   */
  public static int execute(String[] args, UnaryOperator<Store> catalogStore) {
    Main main = new Main(requireNonNull(catalogStore, "catalogStore"));
    // A plain `serve` skips picocli's model of the whole command line (ServeArguments says why).
    Optional<Serve> serve = ServeArguments.parse(args);
    if (serve.isPresent()) {
      return serve.get().runFor(main);
    }
    return new CommandLine(main).execute(args);
  }

  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }

  @Command(
      name = "serve",
      mixinStandardHelpOptions = true,
      description = "Run the catalog server.",
      footerHeading = "%nEnvironment:%n",
      footer = {
        "  SLUICE_<KEY>                  any config key, in upper snake case: SLUICE_SERVER_PORT,",
        "                                SLUICE_DATABASE_URL, SLUICE_LOGGING_FORMAT, ... (over the",
        "                                file; the options above win over both; lists comma-separated)",
        "  SLUICE_BOOTSTRAP_CREDENTIALS  <client-id>:<secret> of the root principal, first start only",
        "  SLUICE_ACCESS_LOG_LEVEL       the access log's level (INFO; WARN silences it)",
        "  SLUICE_JAVA_OPTS              JVM flags for the launcher, after server/jvm.options",
        "  SLUICE_CLASS_ARCHIVE          the launcher's class-data archive: a file, or off",
        "  ${VAR} in the YAML file       any variable, expanded where it appears"
      })
  static final class Serve implements Callable<Integer> {
    @ParentCommand Main main;

    @Option(names = "--host", description = "Listen address (default 127.0.0.1)")
    String host;

    @Option(names = "--port", description = "Listen port (default 8181)")
    Integer port;

    @Option(
        names = "--data-dir",
        description = "Where the embedded database and warehouse live (default ./sluice-data)")
    String dataDir;

    @Option(names = "--config", description = "YAML config file")
    Path config;

    /**
     * Runs this command for {@code main} without picocli ({@link ServeArguments}), ending as
     * picocli's {@code execute} does: the command's exit code, or 1 with the stack trace on
     * standard error.
     */
    int runFor(Main main) {
      this.main = main;
      try {
        return call();
      } catch (Exception e) {
        e.printStackTrace();
        return 1;
      }
    }

    @Override
    public Integer call() throws Exception {
      SluiceServer server = start(System::getenv);
      if (server == null) {
        return 2;
      }
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    try {
                      server.close();
                    } catch (Exception ignored) {
                      // exiting anyway
                    }
                  },
                  "sluice-shutdown"));
      server.join();
      return 0;
    }

    /**
     * Reads the config (these options over {@code env}'s variables over the file), applies its
     * logging and starts the server; null, said on standard error, when the config is invalid.
     */
    SluiceServer start(Function<String, String> env) throws Exception {
      StorageBackends backends = StandardBackends.create();
      ServerConfig cfg;
      try {
        cfg =
            ServerConfig.load(
                config, new ServerConfig.Overrides(host, port, dataDir), env, backends);
      } catch (ConfigException e) {
        System.err.println("Invalid configuration: " + e.getMessage());
        return null;
      }
      boolean terminal = System.console() != null;
      LogSetup.apply(cfg.logging(), terminal);
      return SluiceServer.start(
          cfg,
          backends,
          env.apply("SLUICE_BOOTSTRAP_CREDENTIALS"),
          // Generated credentials are shown on a terminal only, never into a log stream.
          terminal ? System.out : null,
          main.catalogStore);
    }
  }
}

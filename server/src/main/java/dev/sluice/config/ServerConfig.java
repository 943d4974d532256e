package dev.sluice.config;

import static dev.sluice.config.Bounds.orDefault;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.vending.StorageBackends;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * The server's configuration: one YAML file, {@code ${VAR}} expanded from the environment, bound to
 * one record per section and validated when loaded. Each key is named once, as a component of its
 * section's record, whose constructor gives its default and checks it; every error names the dotted
 * key at fault. Unknown keys are errors, so a typo never silently falls back to a default.
 * docs/CONFIGURATION.md lists every key (ConfigurationDocTest keeps it and this model in step) and
 * holds a complete example.
 */
public record ServerConfig(
    ServerSection server,
    Path dataDir,
    DatabaseSection database,
    AuthSection auth,
    BootstrapSection bootstrap,
    StorageSection storage,
    LoggingSection logging,
    AuditSection audit,
    TracingSection tracing,
    FederationSection federation) {

  public ServerConfig {
    server = orDefault(server, ServerSection.DEFAULT);
    dataDir = orDefault(dataDir, Path.of("./sluice-data")).toAbsolutePath().normalize();
    database = orDefault(database, DatabaseSection.DEFAULT).withDefaultUrl(dataDir);
    auth = orDefault(auth, AuthSection.DEFAULT);
    bootstrap = orDefault(bootstrap, BootstrapSection.DEFAULT);
    storage = orDefault(storage, StorageSection.DEFAULT);
    logging = orDefault(logging, LoggingSection.DEFAULT);
    audit = orDefault(audit, AuditSection.DEFAULT);
    tracing = orDefault(tracing, TracingSection.DEFAULT);
    federation = orDefault(federation, FederationSection.DEFAULT);
  }

  /**
   * Loads a config file (or the defaults when {@code file} is null), applying command-line
   * overrides. Each credential source is typed and checked by its backend in {@code backends}.
   */
  public static ServerConfig load(
      Path file, Overrides overrides, Function<String, String> env, StorageBackends backends) {
    ObjectNode root = ConfigBinder.read(file);
    ConfigBinder.expand(root, "", env);
    EnvironmentKeys.applyTo(root, env);
    overrides.applyTo(root);
    ConfigModel.requireKnownKeys(root, ServerConfig.class, "");
    return new ConfigBinder(backends).bind(root, ServerConfig.class);
  }

  /** Values given on the command line; null means "not given". They are not expanded. */
  public record Overrides(String host, Integer port, String dataDir) {
    public static final Overrides NONE = new Overrides(null, null, null);

    /** Sets the given values in the tree, so that they are checked as the file's would be. */
    void applyTo(ObjectNode root) {
      if (dataDir != null) {
        root.put("dataDir", dataDir);
      }
      if (host == null && port == null) {
        return;
      }
      if (root.get("server") == null || root.get("server").isNull()) {
        root.putObject("server");
      }
      if (root.get("server") instanceof ObjectNode server) {
        if (host != null) {
          server.put("host", host);
        }
        if (port != null) {
          server.put("port", port);
        }
      }
    }
  }

  public Path warehouseDir() {
    return dataDir.resolve("warehouse");
  }
}

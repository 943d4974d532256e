package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.StandardBackends;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Any scalar key set by a {@code SLUICE_*} variable, between the file and the command line. */
class EnvironmentKeysTest {
  private static ServerConfig load(Path file, ServerConfig.Overrides cli, Map<String, String> env) {
    return ServerConfig.load(file, cli, env::get, StandardBackends.create());
  }

  @Test
  void aKeysVariableIsItsDottedNameInUpperSnakeCase() {
    assertThat(EnvironmentKeys.variableFor("server.port")).isEqualTo("SLUICE_SERVER_PORT");
    assertThat(EnvironmentKeys.variableFor("server.limits.maxConnections"))
        .isEqualTo("SLUICE_SERVER_LIMITS_MAX_CONNECTIONS");
    assertThat(EnvironmentKeys.variableFor("dataDir")).isEqualTo("SLUICE_DATA_DIR");
    Map<String, String> variables = EnvironmentKeys.variables();
    assertThat(variables)
        .containsEntry("SLUICE_DATABASE_PASSWORD", "database.password")
        .containsEntry("SLUICE_STORAGE_PROVIDER_TIMEOUTS_CALL", "storage.providerTimeouts.call")
        .doesNotContainKey("SLUICE_STORAGE_CREDENTIAL_SOURCES") // a mapping: the file's
        .doesNotContainKey("SLUICE_SERVER"); // a section
    assertThat(variables).hasSizeGreaterThan(40);
  }

  @Test
  void variablesWinOverTheFileAndTheCommandLineOverBoth() throws Exception {
    Path file = Files.createTempFile("sluice", ".yaml");
    Files.writeString(
        file,
        "server:\n  port: 7000\n  host: 127.0.0.1\ndatabase:\n  maxPoolSize: 4\n"
            + "logging:\n  format: text\n");
    Map<String, String> env =
        Map.of(
            "SLUICE_SERVER_PORT", "9999",
            "SLUICE_DATABASE_MAX_POOL_SIZE", "7",
            "SLUICE_LOGGING_FORMAT", "json",
            "SLUICE_STORAGE_PROVIDER_TIMEOUTS_CALL", "PT8S",
            "SLUICE_SERVER_TRUSTED_PROXIES", "10.0.0.1, 10.0.0.0/24",
            "SLUICE_BOOTSTRAP_QUICKSTART_CATALOG", "false",
            "SLUICE_CLIENT_ID", "not a config key: the CLI's, ignored here");

    ServerConfig fromEnv = load(file, ServerConfig.Overrides.NONE, env);
    assertThat(fromEnv.server().port()).isEqualTo(9999);
    assertThat(fromEnv.database().maxPoolSize()).isEqualTo(7);
    assertThat(fromEnv.logging().format()).isEqualTo("json");
    assertThat(fromEnv.storage().timeouts().provider().call()).isEqualTo(Duration.ofSeconds(8));
    assertThat(fromEnv.server().trustedProxies().size()).isEqualTo(2);
    assertThat(fromEnv.server().trustedProxies().trusts(InetAddress.getByName("10.0.0.77")))
        .isTrue();
    assertThat(fromEnv.bootstrap().quickstartCatalog()).isFalse();

    ServerConfig fromCli = load(file, new ServerConfig.Overrides(null, 1234, null), env);
    assertThat(fromCli.server().port()).isEqualTo(1234);

    ServerConfig fileOnly = load(file, ServerConfig.Overrides.NONE, Map.of());
    assertThat(fileOnly.server().port()).isEqualTo(7000);
    assertThat(fileOnly.database().maxPoolSize()).isEqualTo(4);
  }

  @Test
  void aBadValueInAVariableIsRefusedNamingItsKey() {
    assertThatThrownBy(
            () -> load(null, ServerConfig.Overrides.NONE, Map.of("SLUICE_SERVER_PORT", "eighty")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("server.port");
    assertThatThrownBy(
            () -> load(null, ServerConfig.Overrides.NONE, Map.of("SLUICE_LOGGING_FORMAT", "xml")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("logging.format");
  }
}

package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.StandardBackends;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The binding by types: unknown keys at every depth, type mismatches, strings for scalars. */
class ConfigBindingTest {
  @TempDir Path dir;

  private ServerConfig load(String yaml, Map<String, String> env) throws Exception {
    Path file = Files.writeString(dir.resolve("c.yaml"), yaml);
    return ServerConfig.load(
        file, ServerConfig.Overrides.NONE, env::get, StandardBackends.create());
  }

  private ServerConfig load(String yaml) throws Exception {
    return load(yaml, Map.of());
  }

  /** {@code a.b.c} and a value as nested YAML mappings. */
  private static String nested(String dotted, String value) {
    String[] parts = dotted.split("\\.");
    StringBuilder yaml = new StringBuilder();
    for (int i = 0; i < parts.length; i++) {
      yaml.append("  ".repeat(i)).append(parts[i]).append(':');
      yaml.append(i == parts.length - 1 ? " " + value + "\n" : "\n");
    }
    return yaml.toString();
  }

  @Test
  void anUnknownKeyIsRefusedAtEveryDepthOfTheModel() {
    assertThatThrownBy(() -> load("zzTypo: 1\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("Unknown config key: zzTypo (known: [server, dataDir,");
    for (ConfigModel.Key key : ConfigModel.keys(ServerConfig.class)) {
      if (!key.section()) {
        continue;
      }
      assertThatThrownBy(() -> load(nested(key.name() + ".zzTypo", "1")))
          .as(key.name())
          .isInstanceOf(ConfigException.class)
          .hasMessageStartingWith("Unknown config key: " + key.name() + ".zzTypo (known: [");
    }
    assertThat(ConfigModel.keys(ServerConfig.class).stream().filter(ConfigModel.Key::section))
        .extracting(ConfigModel.Key::name)
        .contains("server.tls.clientAuth", "server.limits", "storage.vendingCache");
  }

  @Test
  void aValueOfTheWrongTypeNamesItsKeyAndWhatItMustBe() {
    Map<String, String> cases =
        Map.ofEntries(
            Map.entry("server:\n  port: abc\n", "server.port must be an integer, got: abc"),
            Map.entry("server:\n  port: 80.5\n", "server.port must be an integer, got: 80.5"),
            Map.entry(
                "server:\n  allowPlaintext: maybe\n",
                "server.allowPlaintext must be true or false, got: maybe"),
            Map.entry(
                "server:\n  allowPlaintext: 1\n",
                "server.allowPlaintext must be true or false, got: 1"),
            Map.entry(
                "server:\n  idempotencyReplayWait: 10s\n",
                "server.idempotencyReplayWait must be an ISO-8601 duration such as PT30M, got: 10s"),
            Map.entry("server:\n  limits: 3\n", "server.limits must be a mapping, got: 3"),
            Map.entry("server:\n  host: [a, b]\n", "server.host must be a string, got a list"),
            Map.entry(
                "server:\n  trustedProxies: { a: 1 }\n",
                "server.trustedProxies must be a list, got a mapping"),
            Map.entry(
                "server:\n  trustedProxies: [{ a: 1 }]\n",
                "server.trustedProxies[0] must be a string, got a mapping"),
            Map.entry("database:\n  maxPoolSize: \"\"\n", "database.maxPoolSize must not be empty"),
            Map.entry("dataDir: \"  \"\n", "dataDir must not be empty"),
            Map.entry("dataDir: { a: 1 }\n", "dataDir must be a file path, got a mapping"),
            Map.entry(
                "auth:\n  oidc:\n    roleMappings:\n      ops: { a: 1 }\n",
                "auth.oidc.roleMappings.ops must be a string, got a mapping"),
            Map.entry(
                "storage:\n  credentialSources:\n    x: { type: static, accessKeyId: [a] }\n",
                "storage.credentialSources.x.accessKeyId must be a string, got a list"));
    cases.forEach(
        (yaml, message) ->
            assertThatThrownBy(() -> load(yaml))
                .as(yaml)
                .isInstanceOf(ConfigException.class)
                .hasMessage(message));
    assertThatThrownBy(() -> load("server:\n  port: 99999999999\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("server.port must be an integer within its range, got: 99999999999");
  }

  @Test
  void scalarsGivenAsStringsAreAccepted() throws Exception {
    ServerConfig config =
        load(
            "server:\n  port: \"${PORT}\"\n  allowPlaintext: \"false\"\n"
                + "  limits: { maxConnections: \"50\" }\n",
            Map.of("PORT", "9001"));
    assertThat(config.server().port()).isEqualTo(9001);
    assertThat(config.server().allowPlaintext()).isFalse();
    assertThat(config.server().limits().maxConnections()).isEqualTo(50);
  }

  @Test
  void nullMeansTheDefaultAsAnAbsentKeyDoes() throws Exception {
    ServerConfig config = load("server:\n  port: ~\n  limits:\ndatabase:\nauth: ~\n");
    assertThat(config.server().port()).isEqualTo(8181);
    assertThat(config.server().limits()).isEqualTo(ServerLimits.DEFAULT);
    assertThat(config.auth()).isEqualTo(AuthSection.DEFAULT);
    assertThat(config.database().url()).startsWith("jdbc:h2:file:");
  }

  @Test
  void theNewTuningKeysDefaultToTodaysValuesAndAreBounded() throws Exception {
    ServerConfig defaults = load("");
    assertThat(defaults.server().metadataCache().maxBytes()).isEqualTo(64L << 20);
    assertThat(defaults.server().metadataCache().idleLifetime()).isEqualTo(Duration.ofMinutes(10));
    assertThat(defaults.server().idempotencyReplayWait()).isEqualTo(Duration.ofSeconds(10));
    assertThat(defaults.storage().providerWait()).isEqualTo(Duration.ofSeconds(7));

    ServerConfig set =
        load(
            "server:\n  idempotencyReplayWait: PT30S\n"
                + "  metadataCache: { maxBytes: 1048576, idleLifetime: PT1H }\n"
                + "storage:\n  providerWait: PT20S\n");
    assertThat(set.server().metadataCache().maxBytes()).isEqualTo(1L << 20);
    assertThat(set.server().metadataCache().idleLifetime()).isEqualTo(Duration.ofHours(1));
    assertThat(set.server().idempotencyReplayWait()).isEqualTo(Duration.ofSeconds(30));
    assertThat(set.storage().providerWait()).isEqualTo(Duration.ofSeconds(20));

    Map<String, String> bad =
        Map.of(
            "server:\n  metadataCache: { maxBytes: 1000 }\n",
            "server.metadataCache.maxBytes must be between 1048576 and 68719476736, got 1000",
            "server:\n  metadataCache: { idleLifetime: P2D }\n",
            "server.metadataCache.idleLifetime must be between PT1S and P1D, got P2D",
            "server:\n  idempotencyReplayWait: PT0S\n",
            "server.idempotencyReplayWait must be between PT1S and PT5M, got PT0S",
            "storage:\n  providerWait: PT10M\n",
            "storage.providerWait must be between PT1S and PT2M, got PT10M");
    bad.forEach(
        (yaml, message) ->
            assertThatThrownBy(() -> load(yaml))
                .as(yaml)
                .isInstanceOf(ConfigException.class)
                .hasMessage(message));
  }
}

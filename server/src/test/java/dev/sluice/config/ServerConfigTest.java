package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.StandardBackends;
import dev.sluice.testing.TestPki;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerConfigTest {
  @TempDir Path dir;

  private ServerConfig load(String yaml, Map<String, String> env) throws Exception {
    Path file = dir.resolve("sluice.yaml");
    Files.writeString(file, yaml);
    return ServerConfig.load(
        file, ServerConfig.Overrides.NONE, env::get, StandardBackends.create());
  }

  @Test
  void defaultsAreTheEmbeddedSetup() {
    ServerConfig config =
        ServerConfig.load(null, ServerConfig.Overrides.NONE, k -> null, StandardBackends.create());
    assertThat(config.server().host()).isEqualTo("127.0.0.1");
    assertThat(config.server().port()).isEqualTo(8181);
    assertThat(config.dataDir()).isEqualTo(Path.of("./sluice-data").toAbsolutePath().normalize());
    assertThat(config.database().url())
        .startsWith("jdbc:h2:file:" + config.dataDir().resolve("catalog"));
    assertThat(config.warehouseDir()).isEqualTo(config.dataDir().resolve("warehouse"));
  }

  @Test
  void oidcRoleMappingsAreReadAsWrittenAndValidatedNamingTheirKey() throws Exception {
    String oidc =
        "auth:\n  oidc:\n    issuer: https://idp.example.test/\n    audience: sluice\n"
            + "    jwksUrl: https://idp.example.test/jwks\n    principalClaim: preferred_username\n";
    ServerConfig mapped =
        load(
            oidc
                + "    roleMappings:\n      \"Data Engineers\": engineers\n"
                + "      platform-admins: service_admin\n",
            Map.of());
    assertThat(mapped.auth().oidc().roleMappings())
        .containsOnly(
            Map.entry("Data Engineers", "engineers"),
            Map.entry("platform-admins", "service_admin"));
    assertThat(load(oidc, Map.of()).auth().oidc().roleMappings()).isEmpty();
    assertThatThrownBy(() -> load(oidc + "    roleMappings: [engineers]\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("auth.oidc.roleMappings");
    assertThatThrownBy(() -> load(oidc + "    roleMappings:\n      ops: [a, b]\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("auth.oidc.roleMappings.ops");
  }

  /** The README's config block, as a reader copies it: every key in it is one the server reads. */
  @Test
  void theReadmesConfigBlockLoads() throws Exception {
    String readme = Files.readString(Path.of("..", "README.md"));
    int start = readme.indexOf("```yaml\nserver:");
    assertThat(start).as("the README's config block").isNotNegative();
    String yaml = readme.substring(start + "```yaml\n".length(), readme.indexOf("```", start + 7));
    // Only the files are the reader's own: a certificate, its key and a client CA made here.
    TestPki pki = TestPki.create(dir.resolve("pki"), "Readme CA");
    TestPki.Issued server = pki.server("readme");
    yaml =
        yaml.replace("/etc/sluice/tls/tls.crt", server.certificatePem().toString())
            .replace("/etc/sluice/tls/tls.key", server.privateKeyPem().toString())
            .replace("/etc/sluice/tls/admin-ca.pem", pki.caPem().toString());
    ServerConfig config =
        load(yaml, Map.of("SLUICE_DB_PASSWORD", "pw", "SLUICE_TLS_PASSWORD", "tls-pw"));
    assertThat(config.server().port()).isEqualTo(8181);
    assertThat(config.server().limits().maxConcurrentRequests()).isEqualTo(128);
    assertThat(config.database().url()).startsWith("jdbc:postgresql://");
    assertThat(config.database().password()).isEqualTo("pw");
    assertThat(config.auth().oidc().roleMappings())
        .containsOnly(Map.entry("sluice-admins", "service_admin"));
    assertThat(config.server().tls()).isNotNull();
  }

  @Test
  void serverLimitsDefaultAndValidateNamingTheirKey() throws Exception {
    assertThat(
            ServerConfig.load(
                    null, ServerConfig.Overrides.NONE, k -> null, StandardBackends.create())
                .server()
                .limits())
        .isEqualTo(ServerLimits.DEFAULT);
    ServerConfig set =
        load(
            "server:\n  limits:\n    maxConnections: 50\n    maxConcurrentRequests: 10\n"
                + "    idleTimeoutSeconds: 5\n",
            Map.of());
    assertThat(set.server().limits().maxConnections()).isEqualTo(50);
    assertThat(set.server().limits().maxConcurrentRequestsPerPrincipal())
        .as("the per-principal default, capped by the total")
        .isEqualTo(10);
    assertThat(set.server().limits().idleTimeout()).hasSeconds(5);
    for (String bad :
        List.of(
            "maxConnections: 1",
            "maxConcurrentRequests: 500",
            "maxConcurrentRequestsPerPrincipal: 200",
            "idleTimeoutSeconds: 0",
            "minRequestDataRate: -1",
            "inFlightBodyBytes: 2048",
            "maxConcurrentRequests: many",
            "burst: 3")) {
      String key = bad.substring(0, bad.indexOf(':'));
      assertThatThrownBy(() -> load("server:\n  limits:\n    " + bad + "\n", Map.of()))
          .as(bad)
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining("server.limits." + key);
    }
    assertThatThrownBy(
            () ->
                load(
                    "server:\n  maxRequestBytes: 104857600\n  limits:\n"
                        + "    inFlightBodyBytes: 67108864\n",
                    Map.of()))
        .hasMessageContaining("server.limits.inFlightBodyBytes")
        .hasMessageContaining("server.maxRequestBytes");
  }

  @Test
  void environmentVariablesAreExpandedAndOverridesWin() throws Exception {
    Path file = dir.resolve("c.yaml");
    Files.writeString(
        file,
        "server:\n  port: 9000\n  allowPlaintext: true\ndatabase:\n  url: jdbc:postgresql://db/${DB_NAME}\n  password: ${DB_PASSWORD}\n");
    ServerConfig config =
        ServerConfig.load(
            file,
            new ServerConfig.Overrides("0.0.0.0", 9100, dir.toString()),
            Map.of("DB_NAME", "cat", "DB_PASSWORD", "pw")::get,
            StandardBackends.create());
    assertThat(config.database().url()).isEqualTo("jdbc:postgresql://db/cat");
    assertThat(config.database().password()).isEqualTo("pw");
    assertThat(config.database().toString()).doesNotContain("pw");
    assertThat(config.server().port()).isEqualTo(9100);
    assertThat(config.server().host()).isEqualTo("0.0.0.0");
  }

  @Test
  void errorsNameTheKey() throws Exception {
    assertThatThrownBy(() -> load("server:\n  prot: 1\n", Map.of()))
        .hasMessageContaining("server.prot");
    assertThatThrownBy(() -> load("datbase: {}\n", Map.of())).hasMessageContaining("datbase");
    assertThatThrownBy(() -> load("server:\n  port: eighty\n", Map.of()))
        .hasMessageContaining("server.port");
    assertThatThrownBy(() -> load("server:\n  port: 70000\n", Map.of()))
        .hasMessageContaining("server.port");
    assertThatThrownBy(() -> load("database:\n  password: ${NOPE}\n", Map.of()))
        .hasMessageContaining("database.password")
        .hasMessageContaining("NOPE");
    assertThatThrownBy(() -> load("database:\n  url: jdbc:mysql://x\n", Map.of()))
        .hasMessageContaining("database.url");
    assertThatThrownBy(() -> load("auth:\n  tokenLifetimeSeconds: 5\n", Map.of()))
        .hasMessageContaining("auth.tokenLifetimeSeconds");
    assertThatThrownBy(() -> load("database:\n  pointerCache: sometimes\n", Map.of()))
        .hasMessageContaining("database.pointerCache");
    assertThatThrownBy(() -> load("database:\n  pointerCacheMaxEntries: 0\n", Map.of()))
        .hasMessageContaining("database.pointerCacheMaxEntries");
    assertThat(load("database:\n  pointerCache: false\n", Map.of()).database().pointerCache())
        .isFalse();
    assertThatThrownBy(() -> load("bootstrap:\n  quickstartCatalog: maybe\n", Map.of()))
        .hasMessageContaining("bootstrap.quickstartCatalog");
    assertThatThrownBy(() -> load("- a\n- b\n", Map.of())).isInstanceOf(ConfigException.class);
  }

  @Test
  void idempotencyKeyLifetimeIsAnIsoDurationWithinBounds() throws Exception {
    assertThat(load("", Map.of()).server().idempotencyKeyLifetime())
        .isEqualTo(Duration.ofMinutes(30));
    assertThat(
            load("server:\n  idempotencyKeyLifetime: PT24H\n", Map.of())
                .server()
                .idempotencyKeyLifetime())
        .isEqualTo(Duration.ofHours(24));
    assertThatThrownBy(() -> load("server:\n  idempotencyKeyLifetime: 30m\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("server.idempotencyKeyLifetime");
    assertThatThrownBy(() -> load("server:\n  idempotencyKeyLifetime: PT10S\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("between PT1M and P7D");
    assertThatThrownBy(() -> load("server:\n  idempotencyKeyLifetime: P30D\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("between PT1M and P7D");
  }

  @Test
  void auditStreamAndRetentionDefaultOffAndAreValidatedNamingTheirKey() throws Exception {
    AuditSection defaults = load("", Map.of()).audit();
    assertThat(defaults.stream()).isEqualTo("none");
    assertThat(defaults.file()).isNull();
    assertThat(defaults.retention()).isNull();
    AuditSection file =
        load("audit:\n  stream: FILE\n  file: audit.jsonl\n  retention: P90D\n", Map.of()).audit();
    assertThat(file.stream()).isEqualTo("file");
    assertThat(file.file()).isEqualTo(Path.of("audit.jsonl").toAbsolutePath());
    assertThat(file.retention()).isEqualTo(Duration.ofDays(90));
    assertThat(load("", Map.of("SLUICE_AUDIT_STREAM", "log")).audit().stream()).isEqualTo("log");
    assertThatThrownBy(() -> load("audit:\n  stream: kafka\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("audit.stream must be none, log or file, got kafka");
    assertThatThrownBy(() -> load("audit:\n  stream: file\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("audit.file is required");
    assertThatThrownBy(() -> load("audit:\n  stream: log\n  file: a.jsonl\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("audit.file is set but audit.stream is log");
    assertThatThrownBy(() -> load("audit:\n  retention: PT10M\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("audit.retention");
    assertThatThrownBy(() -> load("audit:\n  retain: P1D\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("audit.retain");
  }

  @Test
  void tokenThrottleHasDefaultsAndIsValidated() throws Exception {
    ServerConfig defaults =
        ServerConfig.load(null, ServerConfig.Overrides.NONE, k -> null, StandardBackends.create());
    assertThat(defaults.auth().tokenThrottle().limits())
        .isEqualTo(dev.sluice.auth.TokenThrottle.Limits.DEFAULT);
    assertThat(defaults.auth().tokenThrottle().limits().enabled()).isTrue();

    ServerConfig custom =
        load(
            "auth:\n  tokenThrottle:\n    clientBurst: 5\n    clientFailuresPerMinute: 2\n"
                + "    addressBurst: 200\n    addressFailuresPerMinute: 120\n    maxTrackedKeys: 5000\n",
            Map.of());
    assertThat(custom.auth().tokenThrottle().limits())
        .isEqualTo(new dev.sluice.auth.TokenThrottle.Limits(true, 5, 2, 200, 120, 5000));
    assertThat(
            load("auth:\n  tokenThrottle:\n    enabled: false\n", Map.of())
                .auth()
                .tokenThrottle()
                .limits()
                .enabled())
        .isFalse();

    assertThatThrownBy(() -> load("auth:\n  tokenThrottle:\n    clientBurst: 0\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("auth.tokenThrottle.clientBurst");
    assertThatThrownBy(
            () -> load("auth:\n  tokenThrottle:\n    addressFailuresPerMinute: lots\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("auth.tokenThrottle.addressFailuresPerMinute");
    assertThatThrownBy(() -> load("auth:\n  tokenThrottle:\n    maxTrackedKeys: 10\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("auth.tokenThrottle.maxTrackedKeys");
    assertThatThrownBy(() -> load("auth:\n  tokenThrottle:\n    enabled: sometimes\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("auth.tokenThrottle.enabled");
    assertThatThrownBy(() -> load("auth:\n  tokenThrottle:\n    burst: 3\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("auth.tokenThrottle.burst");
    assertThatThrownBy(() -> load("auth:\n  tokenThrottle: 3\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("auth.tokenThrottle");
  }

  @Test
  void verifiedSecretCacheSecondsDefaultsTo60AndIsBounded() throws Exception {
    assertThat(
            ServerConfig.load(
                    null, ServerConfig.Overrides.NONE, k -> null, StandardBackends.create())
                .auth()
                .verifiedSecretTtl())
        .isEqualTo(java.time.Duration.ofSeconds(60));
    assertThat(
            load("auth:\n  verifiedSecretCacheSeconds: 0\n", Map.of()).auth().verifiedSecretTtl())
        .isZero();
    assertThatThrownBy(() -> load("auth:\n  verifiedSecretCacheSeconds: 301\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("auth.verifiedSecretCacheSeconds");
    assertThatThrownBy(() -> load("auth:\n  verifiedSecretCacheSeconds: -1\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("auth.verifiedSecretCacheSeconds");
  }

  @Test
  void storageCredentialSourcesAreValidatedAndNeverPrinted() throws Exception {
    ServerConfig config =
        load(
            "storage:\n  credentialSources:\n    rgw: { type: static, accessKeyId: \"${K}\", secretAccessKey: \"${S}\" }\n"
                + "    aws: { type: default-chain }\n",
            Map.of("K", "AKIAEXAMPLE", "S", "very-secret-value"));
    assertThat(config.storage().credentialSources()).containsOnlyKeys("rgw", "aws");
    assertThat(config.toString()).doesNotContain("very-secret-value").doesNotContain("AKIAEXAMPLE");
    assertThatThrownBy(
            () ->
                load(
                    "storage:\n  credentialSources:\n    x: { type: static, accessKeyId: a }\n",
                    Map.of()))
        .hasMessageContaining("storage.credentialSources.x");
    assertThatThrownBy(
            () -> load("storage:\n  credentialSources:\n    x: { type: magic }\n", Map.of()))
        .hasMessageContaining("storage.credentialSources.x.type");
    assertThatThrownBy(
            () ->
                load(
                    "storage:\n  credentialSources:\n    x: { type: static, accessKey: a }\n",
                    Map.of()))
        .hasMessageContaining("storage.credentialSources.x.accessKey");
    assertThatThrownBy(
            () -> load("storage:\n  credentialSources:\n    x: { type: web-identity }\n", Map.of()))
        .hasMessageContaining("storage.credentialSources.x");
    assertThatThrownBy(() -> load("storage:\n  vendingCache: { ttlCapSeconds: 0 }\n", Map.of()))
        .hasMessageContaining("storage.vendingCache.ttlCapSeconds");
    assertThatThrownBy(() -> load("storage:\n  vendingMinDurationSeconds: 5000\n", Map.of()))
        .hasMessageContaining("storage.vendingMinDurationSeconds");
    // Each source type takes only its own keys.
    assertThatThrownBy(
            () ->
                load(
                    "storage:\n  credentialSources:\n    x: { type: default-chain, accessKeyId: a }\n",
                    Map.of()))
        .hasMessageContaining("storage.credentialSources.x.accessKeyId");
    assertThatThrownBy(() -> load("storage:\n  credentialSources:\n    x: static\n", Map.of()))
        .hasMessageContaining("storage.credentialSources.x must be a mapping");
  }
}

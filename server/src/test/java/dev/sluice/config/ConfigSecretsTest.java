package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.StandardBackends;
import dev.sluice.testing.TestPki;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every {@link Secret} of the model is redacted wherever the config is printed. */
class ConfigSecretsTest {
  @TempDir Path dir;

  @Test
  void theModelsSecretsAreTheseTwo() {
    assertThat(
            ConfigModel.keys(ServerConfig.class).stream()
                .filter(ConfigModel.Key::secret)
                .map(ConfigModel.Key::name))
        .as("a new secret is set below, so that its redaction is tested")
        .containsExactlyInAnyOrder(
            "database.password", "server.tls.keyStorePassword", "federation.secrets");
  }

  @Test
  void aSectionWithASecretPrintsItRedacted() {
    Set<Class<?>> holders = new HashSet<>();
    for (ConfigModel.Key key : ConfigModel.keys(ServerConfig.class)) {
      if (key.section()) {
        for (RecordComponent component : key.type().getRecordComponents()) {
          if (component.isAnnotationPresent(Secret.class)) {
            holders.add(key.type());
          }
        }
      }
    }
    assertThat(holders).isNotEmpty();
    for (Class<?> holder : holders) {
      assertThat(holder.getDeclaredMethods())
          .as(holder.getSimpleName() + " overrides toString (with Redacted)")
          .anyMatch(m -> m.getName().equals("toString") && m.getParameterCount() == 0);
    }
  }

  @Test
  void secretsGivenInTheFileNeverShowInToString() throws Exception {
    TestPki pki = TestPki.create(dir.resolve("pki"), "Secrets CA");
    TestPki.Issued server = pki.server("secrets");
    Path file =
        Files.writeString(
            dir.resolve("c.yaml"),
            "server:\n  tls:\n    keyStore: \""
                + server.pkcs12()
                + "\"\n    keyStorePassword: \"${TLS_PASSWORD}\"\n"
                + "database:\n  user: sluice\n  password: \"${PGPASSWORD}\"\n"
                + "federation:\n  secrets:\n    remote: \"${PGPASSWORD}\"\n");
    String dbPassword = "db-sentinel-93c1";
    ServerConfig config =
        ServerConfig.load(
            file,
            ServerConfig.Overrides.NONE,
            Map.of("TLS_PASSWORD", TestPki.PASSWORD, "PGPASSWORD", dbPassword)::get,
            StandardBackends.create());
    assertThat(config.database().password()).isEqualTo(dbPassword);
    assertThat(config.server().tls().keyStorePassword()).isEqualTo(TestPki.PASSWORD);
    assertThat(config.federation().secrets()).containsEntry("remote", dbPassword);
    for (Object printed :
        new Object[] {config, config.server(), config.database(), config.federation()}) {
      assertThat(printed.toString())
          .doesNotContain(dbPassword)
          .doesNotContain(TestPki.PASSWORD)
          .contains("***");
    }
    assertThat(config.database().toString()).contains("user=sluice");
  }
}

package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.StandardBackends;
import dev.sluice.testing.TestPki;
import dev.sluice.tls.TrustedProxies;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/CONFIGURATION.md and the config model (the section records) name the same keys, with the
 * same types and secret marks, and the doc's example loads.
 */
class ConfigurationDocTest {
  private static final Path DOC = Path.of("..", "docs", "CONFIGURATION.md");

  @TempDir Path dir;

  /** A row of the doc's key table: type and whether marked secret, by key. */
  private record Row(String type, boolean secret) {}

  private static Map<String, Row> documented() throws Exception {
    Map<String, Row> rows = new LinkedHashMap<>();
    for (String line : Files.readAllLines(DOC)) {
      if (!line.startsWith("| `")) {
        continue;
      }
      String[] cells = line.split("\\|", -1);
      String key = cells[1].trim();
      assertThat(cells).as(line).hasSize(7);
      rows.put(
          key.substring(1, key.length() - 1),
          new Row(cells[2].trim(), cells[5].trim().equals("yes")));
    }
    return rows;
  }

  /** Every key of the model that holds a value (sections are their keys' prefixes). */
  private static Map<String, Row> modelled() {
    Map<String, Row> rows = new LinkedHashMap<>();
    for (ConfigModel.Key key : ConfigModel.keys(ServerConfig.class)) {
      if (!key.section()) {
        rows.put(key.name(), new Row(typeName(key.type()), key.secret()));
      }
    }
    return rows;
  }

  private static String typeName(Class<?> type) {
    if (type == Integer.class || type == Long.class) {
      return "integer";
    }
    if (type == Boolean.class) {
      return "boolean";
    }
    if (type == String.class) {
      return "string";
    }
    if (type == Duration.class) {
      return "duration";
    }
    if (type == Path.class) {
      return "path";
    }
    if (Map.class.isAssignableFrom(type)) {
      return "mapping";
    }
    if (type == TrustedProxies.class || List.class.isAssignableFrom(type)) {
      return "list";
    }
    throw new AssertionError("No doc type for " + type + ": add one here and in the doc");
  }

  @Test
  void theDocListsEveryKeyOfTheModelAndNoOther() throws Exception {
    Map<String, Row> doc = documented();
    Map<String, Row> model = modelled();
    assertThat(doc.keySet())
        .as("keys in docs/CONFIGURATION.md vs. the section records")
        .containsExactlyInAnyOrderElementsOf(model.keySet());
    model.forEach((key, row) -> assertThat(doc.get(key)).as(key).isEqualTo(row));
    assertThat(model).as("the model has been walked").containsKey("server.tls.clientAuth.caFile");
  }

  @Test
  void theDocsExampleLoads() throws Exception {
    String text = Files.readString(DOC);
    int start = text.indexOf("```yaml\n", text.indexOf("## Example"));
    assertThat(start).as("the example block").isPositive();
    String yaml = text.substring(start + "```yaml\n".length(), text.indexOf("```", start + 7));
    TestPki pki = TestPki.create(dir.resolve("pki"), "Doc CA");
    TestPki.Issued server = pki.server("doc");
    yaml =
        yaml.replace("/etc/sluice/tls.crt", server.certificatePem().toString())
            .replace("/etc/sluice/tls.key", server.privateKeyPem().toString())
            .replace("/etc/sluice/admin-ca.pem", pki.caPem().toString())
            .replace("./sluice-data", dir.resolve("data").toString());
    Path file = Files.writeString(dir.resolve("sluice.yaml"), yaml);
    Map<String, String> env =
        Map.of(
            "PGPASSWORD",
            "pg-pw",
            "RGW_KEY",
            "AKIAEXAMPLE",
            "RGW_SECRET",
            "rgw-secret",
            "LEGACY_CLIENT_SECRET",
            "legacy-secret");
    ServerConfig config =
        ServerConfig.load(file, ServerConfig.Overrides.NONE, env::get, StandardBackends.create());
    assertThat(config.server().tls().clientAuth().caFile()).isEqualTo(pki.caPem());
    assertThat(config.server().limits().maxConcurrentRequests()).isEqualTo(128);
    assertThat(config.database().password()).isEqualTo("pg-pw");
    assertThat(config.auth().oidc().roleMappings()).containsEntry("sluice-admins", "service_admin");
    assertThat(config.storage().credentialSources()).containsOnlyKeys("rgw", "aws", "irsa");
    assertThat(config.storage().providerWait()).isEqualTo(Duration.ofSeconds(7));
    assertThat(config.federation().secrets()).containsEntry("legacy-oauth", "legacy-secret");
    assertThat(config.toString())
        .doesNotContain("pg-pw")
        .doesNotContain("rgw-secret")
        .doesNotContain("legacy-secret");
  }
}

package dev.sluice.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.StandardBackends;
import dev.sluice.config.ServerConfig;
import dev.sluice.vending.s3.AwsCredentialSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link CredentialSourcesYaml} writes is what the server's own config parser reads. */
class CredentialSourcesYamlTest {
  @TempDir Path dir;

  private ServerConfig load(String yaml, Map<String, String> env) throws Exception {
    Path file = dir.resolve("sluice.yaml");
    Files.writeString(file, yaml);
    return ServerConfig.load(
        file, ServerConfig.Overrides.NONE, env::get, StandardBackends.create());
  }

  @Test
  void staticSourcesParseWithTheirValuesAsWritten() throws Exception {
    String secret = "se\"cr\\et: #not-a-comment";
    ServerConfig config =
        load(
            CredentialSourcesYaml.s3Static("rgw", "AKID", secret)
                .andS3Static("fromEnv", "${K}", "${S}")
                .vendingMinDurationSeconds(1)
                .toYaml(),
            Map.of("K", "AKIAEXAMPLE", "S", "from-the-environment"));
    assertThat(config.storage().credentialSources()).containsOnlyKeys("rgw", "fromEnv");
    AwsCredentialSource rgw = (AwsCredentialSource) config.storage().credentialSources().get("rgw");
    assertThat(rgw.accessKeyId()).isEqualTo("AKID");
    assertThat(rgw.secretAccessKey()).isEqualTo(secret);
    AwsCredentialSource env =
        (AwsCredentialSource) config.storage().credentialSources().get("fromEnv");
    assertThat(env.accessKeyId()).isEqualTo("AKIAEXAMPLE");
    assertThat(env.secretAccessKey()).isEqualTo("from-the-environment");
    assertThat(config.storage().vendingMinDurationSeconds()).isEqualTo(1);
  }

  @Test
  void theOtherSourceTypesAreWrittenKeyByKey() {
    assertThat(
            CredentialSourcesYaml.googleServiceAccount("gcp", "/k.json", "http://127.0.0.1:9")
                .toYaml())
        .isEqualTo(
            "storage:\n  credentialSources:\n    gcp:\n      type: \"google-service-account\"\n"
                + "      keyFile: \"/k.json\"\n      endpoint: \"http://127.0.0.1:9\"\n");
    assertThat(CredentialSourcesYaml.azureClientSecret("az", "t", "c", "s", "h", "e").toYaml())
        .contains("    az:\n      type: \"azure-client-secret\"\n      tenantId: \"t\"\n")
        .contains("      clientSecret: \"s\"\n      authorityHost: \"h\"\n      endpoint: \"e\"\n");
    assertThat(CredentialSourcesYaml.none().vendingMinDurationSeconds(3).toYaml())
        .isEqualTo("storage:\n  vendingMinDurationSeconds: 3\n");
  }

  @Test
  void twoSourcesOfOneNameAreRefused() {
    assertThatThrownBy(
            () -> CredentialSourcesYaml.s3Static("x", "a", "b").andS3Static("x", "c", "d"))
        .hasMessageContaining("Two credential sources named x");
  }
}

package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --profile} and the CLI config file: named connections, overridden by flags. */
class ProfilesTest {
  private static final String SECRET = "prof1le-s3cret";

  @TempDir Path dir;
  private FakeServer server;
  private Path config;

  @BeforeEach
  void start() throws Exception {
    server = FakeServer.start();
    server.answer("GET", "/catalogs", 200, "{\"catalogs\":[]}");
    Files.writeString(dir.resolve("prod.secret"), SECRET + "\n");
    config = dir.resolve("cli.yaml");
    Files.writeString(
        config,
        """
        profiles:
          prod:
            url: %s
            clientId: ops
            clientSecretFile: prod.secret
          staging:
            url: %s
            clientId: stage
            clientSecretEnv: STAGING_SECRET
          default:
            url: %s
            clientId: dflt
            clientSecret: in-clear-because-the-user-wrote-it
        """
            .formatted(server.baseUrl(), server.baseUrl(), server.baseUrl()));
  }

  @AfterEach
  void stop() {
    ConnectionOptions.environment = System::getenv;
    server.close();
  }

  private Cli.Result sluice(String... args) {
    Cli.Result result = Cli.raw(args);
    assertThat(result.out() + result.err()).doesNotContain(SECRET).doesNotContain("in-clear");
    return result;
  }

  @Test
  void aProfileGivesUrlClientIdAndTheSecretFromItsFile() {
    Cli.Result result =
        sluice("catalogs", "list", "--cli-config", config.toString(), "--profile", "prod");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out()).isEqualTo("no catalogs\n");
    assertThat(server.tokenRequests().get(0).form())
        .containsEntry("client_id", "ops")
        .containsEntry("client_secret", SECRET);
  }

  @Test
  void flagsOverrideTheProfile() {
    Cli.Result result =
        sluice(
            "catalogs",
            "list",
            "--cli-config",
            config.toString(),
            "--profile",
            "prod",
            "--client-id",
            "other",
            "--client-secret",
            "other-secret");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(server.tokenRequests().get(0).form())
        .containsEntry("client_id", "other")
        .containsEntry("client_secret", "other-secret");
  }

  @Test
  void theSecretMayComeFromTheVariableTheProfileNames() {
    ConnectionOptions.environment = Map.of("STAGING_SECRET", "from-env")::get;
    Cli.Result result =
        sluice("catalogs", "list", "--cli-config", config.toString(), "--profile", "staging");
    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(server.tokenRequests().get(0).form()).containsEntry("client_secret", "from-env");

    ConnectionOptions.environment = Map.<String, String>of()::get;
    Cli.Result unset =
        sluice("catalogs", "list", "--cli-config", config.toString(), "--profile", "staging");
    assertThat(unset.exit()).isEqualTo(2);
    assertThat(unset.err())
        .contains("profiles.staging.clientSecretEnv names STAGING_SECRET, which is not set");
  }

  @Test
  void withoutAProfileNameTheDefaultProfileApplies() {
    Cli.Result result = sluice("catalogs", "list", "--cli-config", config.toString());
    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(server.tokenRequests().get(0).form()).containsEntry("client_id", "dflt");
  }

  @Test
  void anUnknownProfileOrKeyIsAUsageErrorNamingWhatExists() throws Exception {
    Cli.Result unknown =
        sluice("catalogs", "list", "--cli-config", config.toString(), "--profile", "qa");
    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.err())
        .contains("Profile 'qa' not found in")
        .contains("[prod, staging, default]");

    Path typo = dir.resolve("typo.yaml");
    Files.writeString(typo, "profiles:\n  prod:\n    uri: http://x\n");
    Cli.Result badKey =
        sluice("catalogs", "list", "--cli-config", typo.toString(), "--profile", "prod");
    assertThat(badKey.exit()).isEqualTo(2);
    assertThat(badKey.err()).contains("profiles.prod: unknown key uri");

    Cli.Result noFile =
        sluice(
            "catalogs",
            "list",
            "--cli-config",
            dir.resolve("none.yaml").toString(),
            "--profile",
            "x");
    assertThat(noFile.exit()).isEqualTo(2);
    assertThat(noFile.err()).contains("no CLI config file");
    assertThat(server.calls()).isEmpty();
  }
}

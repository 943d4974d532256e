package dev.sluice.cli;

import static dev.sluice.cli.Calls.assertCall;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.StandardBackends;
import dev.sluice.vending.StorageField;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code catalogs create|update} with the storage flags and {@code --storage-config}: what each
 * sends as {@code storageConfigInfo}, for every storage type.
 */
class CatalogStorageFlagsTest {
  private static final String CREATED =
      "{\"name\":\"lake\",\"type\":\"INTERNAL\",\"properties\":{},\"entityVersion\":1,"
          + "\"storageConfigInfo\":{\"storageType\":\"FILE\"}}";
  private static final String LAKE =
      """
      {"type":"INTERNAL","name":"lake","entityVersion":7,
       "properties":{"default-base-location":"s3://b/wh","owner":"bi","stale":"x"},
       "storageConfigInfo":{"storageType":"S3","allowedLocations":["s3://b/wh"],
         "roleArn":"arn:aws:iam::1:role/old","region":"us-east-1","durationSeconds":900}}""";

  @TempDir Path dir;
  private FakeServer server;

  @BeforeEach
  void start() throws Exception {
    server = FakeServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Cli.Result create(String... args) {
    server.answer("POST", "/catalogs", 201, CREATED);
    List<String> all = new ArrayList<>(List.of("catalogs", "create", "lake"));
    all.addAll(List.of(args));
    return Cli.run(server, all.toArray(String[]::new));
  }

  private void assertStorage(String storageJson) {
    assertThat(server.onlyCall().json().at("/catalog/storageConfigInfo"))
        .isEqualTo(FakeServer.json(storageJson));
  }

  @Test
  void s3FlagsAreTheStorageKeysTyped() {
    Cli.Result result =
        create(
            "--storage-type",
            "s3",
            "--default-base-location",
            "s3://b/wh",
            "--allowed-location",
            "s3://b/wh",
            "--region",
            "us-east-1",
            "--role-arn",
            "arn:aws:iam::1:role/t",
            "--external-id",
            "ext",
            "--endpoint",
            "http://rgw:7480",
            "--sts-endpoint",
            "http://rgw:7480",
            "--path-style-access",
            "--credential-source",
            "rgw",
            "--duration-seconds",
            "900",
            "--vend-credentials",
            "on-request",
            "--delegation",
            "vended-credentials,remote-signing",
            "--session-tags",
            "principal,table",
            "--sts-unavailable=false",
            "--signature-lifetime-seconds",
            "30");

    assertThat(result.exit()).as(result.err()).isZero();
    assertStorage(
        """
        {"storageType":"S3","allowedLocations":["s3://b/wh"],"region":"us-east-1",
         "roleArn":"arn:aws:iam::1:role/t","externalId":"ext","endpoint":"http://rgw:7480",
         "stsEndpoint":"http://rgw:7480","pathStyleAccess":true,"credentialSource":"rgw",
         "durationSeconds":900,"vendCredentials":"on-request",
         "delegation":["vended-credentials","remote-signing"],"sessionTags":["principal","table"],
         "stsUnavailable":false,"signatureLifetimeSeconds":30}""");
  }

  @Test
  void r2GcsAndAzureFlags() {
    assertThat(
            create(
                    "--storage-type", "R2",
                    "--default-base-location", "s3://b/wh",
                    "--account-id", "acct",
                    "--endpoint", "https://acct.r2.cloudflarestorage.com",
                    "--credential-source", "r2")
                .exit())
        .isZero();
    assertStorage(
        """
        {"storageType":"R2","allowedLocations":[],"accountId":"acct",
         "endpoint":"https://acct.r2.cloudflarestorage.com","credentialSource":"r2"}""");

    server.close();
    restart();
    assertThat(
            create(
                    "--storage-type", "gcs",
                    "--default-base-location", "gs://b/wh",
                    "--project-id", "p",
                    "--gcs-service-account", "v@p.iam.gserviceaccount.com",
                    "--credential-source", "gcp")
                .exit())
        .isZero();
    assertStorage(
        """
        {"storageType":"GCS","allowedLocations":[],"projectId":"p",
         "gcsServiceAccount":"v@p.iam.gserviceaccount.com","credentialSource":"gcp"}""");

    server.close();
    restart();
    assertThat(
            create(
                    "--storage-type",
                    "azure",
                    "--default-base-location",
                    "abfss://c@a.dfs.core.windows.net/wh",
                    "--tenant-id",
                    "t",
                    "--hierarchical-namespace",
                    "--allow-container-scope",
                    "false",
                    "--credential-source",
                    "azure",
                    "--duration-seconds",
                    "600")
                .exit())
        .isZero();
    assertStorage(
        """
        {"storageType":"AZURE","allowedLocations":[],"tenantId":"t","hierarchicalNamespace":true,
         "allowContainerScope":false,"credentialSource":"azure","durationSeconds":600}""");
  }

  private void restart() {
    try {
      server = FakeServer.start();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void everyKeyABackendOffersHasAFlag() {
    Cli.Result help = Cli.raw("catalogs", "create", "--help");
    StandardBackends.create()
        .formFields()
        .forEach(
            (type, fields) -> {
              for (StorageField field : fields) {
                String flag = "--" + field.key().replaceAll("([A-Z])", "-$1").toLowerCase();
                assertThat(StorageOptions.key(flag)).isEqualTo(field.key());
                assertThat(help.out()).as(type + " " + field.key()).contains(flag);
              }
            });
  }

  @Test
  void aStorageConfigFileIsTheBaseAndFlagsOverrideItsKeys() throws Exception {
    Path yaml = dir.resolve("lake.yaml");
    Files.writeString(
        yaml,
        """
        storageConfigInfo:
          storageType: S3
          allowedLocations: [s3://b/wh]
          roleArn: arn:aws:iam::1:role/from-file
          region: eu-west-1
          readPolicyTemplate: '{"Version":"2012-10-17","Statement":[]}'
        """);

    Cli.Result result =
        create(
            "--default-base-location",
            "s3://b/wh",
            "--storage-config",
            yaml.toString(),
            "--region",
            "us-east-1");

    assertThat(result.exit()).as(result.err()).isZero();
    assertStorage(
        """
        {"storageType":"S3","allowedLocations":["s3://b/wh"],"roleArn":"arn:aws:iam::1:role/from-file",
         "region":"us-east-1","readPolicyTemplate":"{\\"Version\\":\\"2012-10-17\\",\\"Statement\\":[]}"}""");

    Path json = dir.resolve("lake.json");
    Files.writeString(json, "{\"storageType\": \"FILE\"}");
    server.close();
    restart();
    assertThat(
            create("--default-base-location", "file:/x", "--storage-config", json.toString())
                .exit())
        .isZero();
    assertStorage("{\"storageType\":\"FILE\",\"allowedLocations\":[]}");
  }

  @Test
  void anUnknownFlagOrAMissingTypeIsAUsageErrorBeforeAnyCall() {
    Cli.Result unknown =
        create("--storage-type", "S3", "--default-base-location", "s3://b/wh", "--role", "x");
    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.err())
        .contains("Unknown options: '--role', 'x'")
        .contains("Possible solutions: --role-arn");

    Cli.Result noType = create("--default-base-location", "s3://b/wh", "--region", "x");
    assertThat(noType.exit()).isEqualTo(2);
    assertThat(noType.err()).contains("Missing storage type");

    Cli.Result badFile =
        create("--default-base-location", "s3://b/wh", "--storage-config", "/no/such/file.yaml");
    assertThat(badFile.exit()).isEqualTo(2);
    assertThat(badFile.err()).contains("Cannot read --storage-config /no/such/file.yaml");
    assertThat(server.calls()).isEmpty();
  }

  @Test
  void createWithVerifyAsksTheServerAndFailsOnAFailedVerdict() {
    server.answer(
        "POST",
        "/catalogs",
        201,
        "{\"name\":\"lake\",\"storageConfigInfo\":{\"storageType\":\"FILE\"},\"verification\":{\"catalog\":\"lake\",\"verdict\":\"unavailable\","
            + "\"message\":\"FILE has no credentials to check\"}}");
    Cli.Result result =
        Cli.run(
            server,
            "catalogs",
            "create",
            "lake",
            "--storage-type",
            "FILE",
            "--default-base-location",
            "file:/x",
            "--verify");
    assertThat(server.onlyCall().json().get("verify").asBoolean()).isTrue();
    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.out())
        .contains(
            "created catalog lake", "storage self-check unavailable: FILE has no credentials");
    assertThat(result.err()).contains("was created but did not pass the storage self-check");
  }

  @Test
  void updateReadsTheCatalogAndSendsItsVersionWithTheMergedChange() {
    server.answer("GET", "/catalogs/lake", 200, LAKE);
    server.answer("PUT", "/catalogs/lake", 200, LAKE);

    Cli.Result result =
        Cli.run(
            server,
            "catalogs",
            "update",
            "lake",
            "--property",
            "owner=ops",
            "--remove-property",
            "stale",
            "--role-arn",
            "arn:aws:iam::1:role/new",
            "--duration-seconds",
            "1800");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out()).isEqualTo("updated catalog lake\n");
    assertThat(server.calls()).hasSize(2);
    assertCall(server.calls().get(0), "GET", "/catalogs/lake", null);
    assertCall(
        server.calls().get(1),
        "PUT",
        "/catalogs/lake",
        """
        {"currentEntityVersion":7,
         "properties":{"default-base-location":"s3://b/wh","owner":"ops"},
         "storageConfigInfo":{"storageType":"S3","allowedLocations":["s3://b/wh"],
           "roleArn":"arn:aws:iam::1:role/new","region":"us-east-1","durationSeconds":1800}}""");
  }

  @Test
  void aPropertyOnlyUpdateSendsNoStorageAndAConflictIsExplained() {
    server.answer("GET", "/catalogs/lake", 200, LAKE);
    server.answer(
        "PUT",
        "/catalogs/lake",
        409,
        "{\"error\":{\"message\":\"Catalog lake was changed concurrently (version 8, not 7)\","
            + "\"type\":\"CommitFailedException\",\"code\":409}}");

    Cli.Result result = Cli.run(server, "catalogs", "update", "lake", "--property", "a=b");

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err()).contains("changed concurrently").contains("(HTTP 409)");
    assertThat(server.calls().get(1).json().has("storageConfigInfo")).isFalse();
    assertThat(server.calls().get(1).json().get("currentEntityVersion").asLong()).isEqualTo(7);
  }

  @Test
  void anUpdateWithNothingToChangeIsAUsageError() {
    Cli.Result result = Cli.run(server, "catalogs", "update", "lake");
    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).contains("Nothing to change");
    assertThat(server.calls()).isEmpty();
  }
}

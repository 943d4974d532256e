package dev.sluice;

import static dev.sluice.testing.VerifyReports.names;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.testing.CredentialSourcesYaml;
import dev.sluice.testing.LogCapture;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.R2GatewayBed;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The storage self-check on an R2 catalog, through the {@link dev.sluice.testing.R2Gateway} (R2's
 * documented acceptance of temporary credentials in front of the real Ceph RGW bed; fails, never
 * skips, without it): a healthy catalog passes every row, the negative ones refused by the gateway
 * itself (403 AccessDenied, ExpiredToken for the expired credential); with the gateway set to
 * ignore the tokens' claims, exactly the negative rows fail, each MIS-SCOPED with where to fix it.
 */
@NeedsTestBeds
class R2StorageVerifyTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String M = "/api/management/v1/catalogs/";
  private static final String EXPIRY = "expired read-only credential reads in a";
  private static R2GatewayBed r2;
  private static TestServer server;
  private static String otherBucket;

  @BeforeAll
  static void start() throws Exception {
    r2 = R2GatewayBed.start("r2verify");
    otherBucket = r2.rgw().newBucket("r2verify-other");
    server =
        TestServer.start(
            null,
            CredentialSourcesYaml.s3Static("r2", r2.parentKeyId(), r2.parentSecret())
                .vendingMinDurationSeconds(1)
                .toYaml());
    String location = "s3://" + r2.bucket() + "/wh";
    Map<String, Object> storage =
        Map.of(
            "storageType",
            "R2",
            "allowedLocations",
            List.of(location),
            "endpoint",
            r2.gateway().endpoint(),
            "accountId",
            R2GatewayBed.ACCOUNT,
            "credentialSource",
            "r2");
    String json =
        JSON.writeValueAsString(
            Map.of(
                "catalog",
                Map.of(
                    "name",
                    "r2lake",
                    "type",
                    "INTERNAL",
                    "properties",
                    Map.of("default-base-location", location),
                    "storageConfigInfo",
                    storage)));
    HttpResponse<String> created = server.send("POST", M, json);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    if (r2 != null) {
      r2.close();
    }
  }

  @AfterEach
  void enforceAgain() {
    r2.gateway().setScopeEnforced(true);
  }

  private static JsonNode verify(List<String> logged) throws Exception {
    HttpResponse<String> response;
    try (LogCapture log = new LogCapture()) {
      response =
          server.sendAs(
              server.rootToken(),
              "POST",
              M + "r2lake/verify",
              "{\"otherLocation\": \"s3://" + otherBucket + "/\"}");
      logged.addAll(log.messages());
    }
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(response.body()).doesNotContain(r2.parentSecret()).doesNotContain(r2.parentKeyId());
    for (String line : logged) {
      assertThat(line).doesNotContain(r2.parentSecret()).doesNotContain(r2.parentKeyId());
    }
    return TestServer.json(response.body());
  }

  @Test
  void healthyCatalogPassesEveryRowWithTheGatewaysOwnRefusals() throws Exception {
    long refusedBefore = r2.gateway().refusals();
    JsonNode report = verify(new ArrayList<>());
    List<String> notPassed = new ArrayList<>();
    for (JsonNode check : report.get("checks")) {
      if (!check.get("pass").asBoolean()) {
        notPassed.add(check.toString());
      }
    }
    assertThat(notPassed).as(report.toString()).isEmpty();
    int negative = 0;
    for (JsonNode check : report.get("checks")) {
      if (check.get("expected").asText().equals("refused")) {
        negative++;
        assertThat(check.path("status").asInt()).as(check.toString()).isEqualTo(403);
        assertThat(check.path("code").asText())
            .as(check.toString())
            .isEqualTo(check.get("name").asText().equals(EXPIRY) ? "ExpiredToken" : "AccessDenied");
      }
    }
    assertThat(report.get("verdict").asText()).isEqualTo("pass");
    assertThat(report.get("skipped").asInt()).isZero();
    assertThat(names(report))
        .contains(
            "read-only: write in a",
            "read-write: read in sibling a2",
            "read-write: delete in table b",
            "read-only: list the whole bucket",
            "read-write: write in another bucket",
            "refresh: new read-only credential reads in a",
            EXPIRY);
    // Every negative row was a refusal the gateway itself answered and logged.
    assertThat(r2.gateway().refusals() - refusedBefore).isEqualTo(negative);
    assertThat(report.get("cleanup").asText()).isEqualTo("done");
    String prefix = report.get("probePrefix").asText().replace("s3://" + r2.bucket() + "/", "");
    try (S3Client admin = r2.rgw().adminClient()) {
      assertThat(admin.listObjectsV2(b -> b.bucket(r2.bucket()).prefix(prefix)).contents())
          .isEmpty();
      assertThat(admin.listObjectsV2(b -> b.bucket(otherBucket)).contents()).isEmpty();
    }
  }

  @Test
  void aStoreIgnoringTheTokensClaimsFailsOnExactlyTheNegativeRows() throws Exception {
    r2.gateway().setScopeEnforced(false);
    JsonNode report = verify(new ArrayList<>());
    assertThat(report.get("verdict").asText()).as(report.toString()).isEqualTo("fail");
    List<String> failed = new ArrayList<>();
    List<String> negative = new ArrayList<>();
    for (JsonNode check : report.get("checks")) {
      String name = check.get("name").asText();
      boolean refusal = check.get("expected").asText().equals("refused");
      if (refusal && !name.equals(EXPIRY)) {
        negative.add(name);
      }
      if (check.get("outcome").asText().equals("fail")) {
        failed.add(name);
        assertThat(check.get("observed").asText()).as(check.toString()).isEqualTo("allowed");
        assertThat(check.get("explanation").asText())
            .as(check.toString())
            .startsWith("MIS-SCOPED: ")
            .contains("parent token (credential source r2)")
            .contains("Object Read & Write")
            .contains(r2.gateway().endpoint());
      } else {
        assertThat(check.get("outcome").asText()).as(check.toString()).isEqualTo("pass");
      }
    }
    // The token and its expiry are still checked: only the claims are ignored.
    assertThat(negative).hasSizeGreaterThan(15);
    assertThat(failed).containsExactlyInAnyOrderElementsOf(negative);
    assertThat(report.get("cleanup").asText()).isEqualTo("done");
    try (S3Client admin = r2.rgw().adminClient()) {
      assertThat(admin.listObjectsV2(b -> b.bucket(otherBucket)).contents())
          .as("the write it could make in the other bucket was taken back")
          .isEmpty();
    }
  }
}

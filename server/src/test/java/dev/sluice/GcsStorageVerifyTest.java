package dev.sluice;

import static dev.sluice.testing.VerifyReports.names;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.testing.CredentialSourcesYaml;
import dev.sluice.testing.LogCapture;
import dev.sluice.testing.TestServer;
import dev.sluice.testing.gcp.GoogleCloudFake;
import dev.sluice.testing.gcp.ServiceAccount;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The storage self-check on GCS catalogs, against the loopback {@link GoogleCloudFake} (Google's
 * documented STS, IAM Credentials and Cloud Storage, enforcing each token's account IAM and access
 * boundary). The accounts hold roles on both buckets, so only the access boundary keeps a token in
 * its table: a healthy catalog passes every row with Google's own refusals (403 forbidden; 401
 * authError for the expired token); with the fake set to ignore access boundaries, exactly the
 * negative rows fail, each MIS-SCOPED with where to fix it. Without {@code gcsServiceAccount} the
 * token's lifetime cannot be chosen, and the expiry row says it was skipped.
 */
class GcsStorageVerifyTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String M = "/api/management/v1/catalogs/";
  private static final String PROJECT = "proj-123";
  private static final String BUCKET = "lake";
  private static final String OTHER = "elsewhere";
  private static final String CATALOG_SA = "sluice-catalog@proj-123.iam.gserviceaccount.com";
  private static final String SHORT_SA = "sluice-short@proj-123.iam.gserviceaccount.com";
  private static final String EXPIRY = "expired read-only credential reads in a";
  private static GoogleCloudFake google;
  private static TestServer server;
  private static String keyFile;

  @BeforeAll
  static void start() throws Exception {
    google = GoogleCloudFake.start();
    google.createBucket(BUCKET);
    google.createBucket(OTHER);
    ServiceAccount catalog = google.addServiceAccount(CATALOG_SA, PROJECT, Set.of(BUCKET, OTHER));
    google.addServiceAccount(SHORT_SA, PROJECT, Set.of(BUCKET, OTHER));
    google.allowImpersonation(CATALOG_SA, SHORT_SA);
    Path key = catalog.writeKeyFile(Files.createTempFile("sluice-gcs-verify", ".json"));
    keyFile = Files.readString(key);
    server =
        TestServer.start(
            null,
            CredentialSourcesYaml.googleServiceAccount("gcp", key.toString(), google.endpoint())
                .vendingMinDurationSeconds(3)
                .toYaml());
    createCatalog("impersonating", "imp", Map.of("gcsServiceAccount", SHORT_SA));
    createCatalog("direct", "direct", Map.of());
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    if (google != null) {
      google.close();
    }
  }

  @AfterEach
  void enforceAgain() {
    google.setAccessBoundariesEnforced(true);
  }

  private static void createCatalog(String name, String path, Map<String, Object> extra)
      throws Exception {
    String location = "gs://" + BUCKET + "/" + path;
    Map<String, Object> storage = new HashMap<>(extra);
    storage.put("storageType", "GCS");
    storage.put("allowedLocations", List.of(location));
    storage.put("credentialSource", "gcp");
    String json =
        JSON.writeValueAsString(
            Map.of(
                "catalog",
                Map.of(
                    "name",
                    name,
                    "type",
                    "INTERNAL",
                    "properties",
                    Map.of("default-base-location", location),
                    "storageConfigInfo",
                    storage)));
    HttpResponse<String> created = server.send("POST", M, json);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
  }

  private static JsonNode verify(String catalog) throws Exception {
    HttpResponse<String> response;
    List<String> logged;
    try (LogCapture log = new LogCapture()) {
      response =
          server.sendAs(
              server.rootToken(),
              "POST",
              M + catalog + "/verify",
              "{\"otherLocation\": \"gs://" + OTHER + "/\"}");
      logged = log.messages();
    }
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode report = TestServer.json(response.body());
    // No token Google issued (long base64url runs) and nothing of the key in the answer or log.
    String privateKey = JSON.readTree(keyFile).get("private_key_id").asText();
    for (String text : concat(response.body(), logged)) {
      assertThat(text)
          .doesNotContain(privateKey)
          .doesNotContainPattern("ya29\\.|[A-Za-z0-9_-]{60,}");
    }
    return report;
  }

  private static List<String> concat(String body, List<String> logged) {
    List<String> all = new ArrayList<>(logged);
    all.add(body);
    return all;
  }

  @Test
  void healthyImpersonatingCatalogPassesEveryRowWithGooglesOwnRefusals() throws Exception {
    int refusalsBefore = google.refusals().size();
    JsonNode report = verify("impersonating");
    List<String> notPassed = new ArrayList<>();
    for (JsonNode check : report.get("checks")) {
      if (!check.get("pass").asBoolean()) {
        notPassed.add(check.toString());
      }
    }
    assertThat(notPassed).as(report.toString()).isEmpty();
    assertThat(report.get("verdict").asText()).isEqualTo("pass");
    assertThat(report.get("skipped").asInt()).isZero();
    int negative = 0;
    for (JsonNode check : report.get("checks")) {
      if (check.get("expected").asText().equals("refused")) {
        negative++;
        boolean expiry = check.get("name").asText().equals(EXPIRY);
        assertThat(check.path("status").asInt()).as(check.toString()).isEqualTo(expiry ? 401 : 403);
        assertThat(check.path("code").asText())
            .as(check.toString())
            .isEqualTo(expiry ? "authError" : "forbidden");
      }
    }
    assertThat(names(report))
        .contains(
            "read-only: write in a",
            "read-write: read in sibling a2",
            "read-write: delete in table b",
            "read-only: list the whole bucket",
            "read-write: write in another bucket",
            "refresh: new read-only credential reads in a",
            EXPIRY);
    // Each negative row is one refusal the fake recorded.
    assertThat(google.refusals().size() - refusalsBefore).isEqualTo(negative);
    assertThat(report.get("cleanup").asText()).isEqualTo("done");
    String prefix = report.get("probePrefix").asText().replace("gs://" + BUCKET + "/", "");
    assertThat(google.names(BUCKET, prefix)).isEmpty();
    assertThat(google.names(OTHER, "")).isEmpty();
  }

  @Test
  void withoutAServiceAccountTheExpiryRowIsSkippedNeverPassed() throws Exception {
    JsonNode report = verify("direct");
    for (JsonNode check : report.get("checks")) {
      if (check.get("name").asText().equals(EXPIRY)) {
        assertThat(check.get("outcome").asText()).isEqualTo("skipped");
        assertThat(check.get("pass").asBoolean()).isFalse();
        assertThat(check.get("explanation").asText()).startsWith("skipped: ");
      } else {
        assertThat(check.get("outcome").asText()).as(check.toString()).isEqualTo("pass");
      }
    }
    assertThat(report.get("skipped").asInt()).isEqualTo(1);
    assertThat(report.get("verdict").asText()).isEqualTo("pass");
  }

  @Test
  void aStoreIgnoringAccessBoundariesFailsOnExactlyTheNegativeRows() throws Exception {
    google.setAccessBoundariesEnforced(false);
    JsonNode report = verify("impersonating");
    assertThat(report.get("verdict").asText()).as(report.toString()).isEqualTo("fail");
    List<String> failed = new ArrayList<>();
    List<String> negative = new ArrayList<>();
    for (JsonNode check : report.get("checks")) {
      String name = check.get("name").asText();
      if (check.get("expected").asText().equals("refused") && !name.equals(EXPIRY)) {
        negative.add(name);
      }
      if (check.get("outcome").asText().equals("fail")) {
        failed.add(name);
        assertThat(check.get("observed").asText()).as(check.toString()).isEqualTo("allowed");
        assertThat(check.get("explanation").asText())
            .as(check.toString())
            .startsWith("MIS-SCOPED: ")
            .contains("service account " + SHORT_SA)
            .contains("Credential Access Boundary")
            .contains("[gs://" + BUCKET + "/imp]");
      } else {
        assertThat(check.get("outcome").asText()).as(check.toString()).isEqualTo("pass");
      }
    }
    // Expiry is still Google's: only the boundary is ignored.
    assertThat(negative).hasSizeGreaterThan(15);
    assertThat(failed).containsExactlyInAnyOrderElementsOf(negative);
    assertThat(report.get("cleanup").asText()).isEqualTo("done");
    assertThat(google.names(OTHER, ""))
        .as("its write in the other bucket was taken back")
        .isEmpty();
  }
}

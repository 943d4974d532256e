package dev.sluice.testing.gcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fake STS on the wire: a valid exchange, and each request Google documents as invalid answered
 * 400 with an OAuth error, granting nothing.
 */
class StsEndpointTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String RULE =
      "{\"availableResource\":\"//storage.googleapis.com/projects/_/buckets/lake\","
          + "\"availablePermissions\":[\"inRole:roles/storage.objectViewer\"]}";

  @TempDir Path dir;
  private GoogleCloudFake fake;
  private String sourceToken;

  @BeforeEach
  void start() throws Exception {
    fake = GoogleCloudFake.start();
    fake.createBucket("lake");
    fake.setSourceTokenLifetime(Duration.ofMinutes(10));
    ServiceAccount vendor =
        fake.addServiceAccount(
            "vendor@lakehouse.iam.gserviceaccount.com", "lakehouse", Set.of("lake"));
    sourceToken = GcpFixtures.source(vendor, dir).refreshAccessToken().getTokenValue();
  }

  @AfterEach
  void stop() {
    fake.close();
  }

  @Test
  void aValidExchangeIsRecordedAndLivesAsLongAsItsSource() throws Exception {
    String options =
        "{\"accessBoundary\":{\"accessBoundaryRules\":[{\"availableResource\":"
            + "\"//storage.googleapis.com/projects/_/buckets/lake\",\"availablePermissions\":"
            + "[\"inRole:roles/storage.objectViewer\",\"inRole:roles/storage.legacyObjectReader\"],"
            + "\"availabilityCondition\":{\"expression\":"
            + JSON.writeValueAsString(GcpFixtures.tableCondition("lake", "wh/t/"))
            + ",\"title\":\"t\",\"description\":\"d\"}}]}}";

    HttpResponse<String> response = exchange(valid(options));

    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode body = JSON.readTree(response.body());
    assertThat(body.path("issued_token_type").asText())
        .isEqualTo("urn:ietf:params:oauth:token-type:access_token");
    assertThat(body.path("token_type").asText()).isEqualTo("Bearer");
    assertThat(body.path("expires_in").asLong()).isBetween(590L, 600L);
    String token = body.path("access_token").asText();
    assertThat(fake.exchanges())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.subjectAccount()).isEqualTo("vendor@lakehouse.iam.gserviceaccount.com");
              assertThat(e.optionsJson()).isEqualTo(options);
              assertThat(e.token()).isEqualTo(token);
              assertThat(e.expiresAt())
                  .isBetween(Instant.now().plusSeconds(580), Instant.now().plusSeconds(601));
            });
    Boundary boundary = fake.boundaryOf(token).orElseThrow();
    assertThat(boundary.rules())
        .singleElement()
        .satisfies(
            rule -> {
              assertThat(rule.bucket()).isEqualTo("lake");
              assertThat(rule.roles())
                  .containsExactly(
                      "roles/storage.objectViewer", "roles/storage.legacyObjectReader");
              assertThat(rule.condition().orElseThrow().expression())
                  .isEqualTo(GcpFixtures.tableCondition("lake", "wh/t/"));
              assertThat(rule.title()).contains("t");
            });
  }

  @Test
  void missingOptionsIsRefused() throws Exception {
    Map<String, String> form = valid(null);
    form.remove("options");

    assertRefused(form, "invalid_request", "Missing options");
  }

  @Test
  void aGrantTypeOtherThanTokenExchangeIsRefused() throws Exception {
    Map<String, String> form = valid(options(RULE));
    form.put("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer");

    assertRefused(form, "unsupported_grant_type", "grant_type");
  }

  @Test
  void aSubjectTokenTypeOtherThanAnAccessTokenIsRefused() throws Exception {
    Map<String, String> form = valid(options(RULE));
    form.put("subject_token_type", "urn:ietf:params:oauth:token-type:id_token");

    assertRefused(form, "invalid_request", "subject_token_type");
  }

  @Test
  void elevenRulesAreRefused() throws Exception {
    String rules = String.join(",", java.util.Collections.nCopies(11, RULE));

    assertRefused(valid(options(rules)), "invalid_request", "at most 10 rules");
  }

  @Test
  void tenRulesAreTheLimitNotAnError() throws Exception {
    String rules = String.join(",", java.util.Collections.nCopies(10, RULE));

    assertThat(exchange(valid(options(rules))).statusCode()).isEqualTo(200);
  }

  @Test
  void anUnknownRoleIsRefused() throws Exception {
    String rule = RULE.replace("roles/storage.objectViewer", "roles/storage.admin");

    assertRefused(valid(options(rule)), "invalid_request", "unknown role roles/storage.admin");
  }

  @Test
  void aPermissionThatIsNotAnInRoleIsRefused() throws Exception {
    String rule = RULE.replace("inRole:roles/storage.objectViewer", "storage.objects.get");

    assertRefused(valid(options(rule)), "invalid_request", "not of the form inRole:ROLE");
  }

  @Test
  void aResourceThatIsNotABucketIsRefused() throws Exception {
    String rule = RULE.replace("buckets/lake", "buckets/lake/objects/wh");

    assertRefused(valid(options(rule)), "invalid_request", "is not a Cloud Storage bucket");
  }

  @Test
  void anUnknownFieldInARuleIsRefused() throws Exception {
    String rule =
        RULE.replace("{\"availableResource\"", "{\"availableResources\":[],\"availableResource\"");

    assertRefused(valid(options(rule)), "invalid_request", "unknown name \"availableResources\"");
  }

  @Test
  void anExpressionTheFakeCannotEvaluateIsRefused() throws Exception {
    String rule =
        RULE.replace(
            "]}",
            "],\"availabilityCondition\":{\"expression\":"
                + "\"resource.name.startsWith('projects/_/buckets/lake/objects/a') &&"
                + " resource.type == 'storage.googleapis.com/Object'\"}}");

    assertRefused(valid(options(rule)), "invalid_request", "the fake evaluates only");
  }

  @Test
  void anExpiredSubjectTokenIsRefused() throws Exception {
    fake.expireNow(sourceToken);

    assertRefused(valid(options(RULE)), "invalid_grant", "invalid or expired");
  }

  @Test
  void aTokenTheFakeNeverIssuedIsRefused() throws Exception {
    Map<String, String> form = valid(options(RULE));
    form.put("subject_token", "ya29.not-from-the-fake");

    assertRefused(form, "invalid_grant", "invalid or expired");
  }

  @Test
  void aDownscopedTokenCannotBeDownscopedAgain() throws Exception {
    HttpResponse<String> first = exchange(valid(options(RULE)));
    String downscoped = JSON.readTree(first.body()).path("access_token").asText();
    fake.clearRecords();
    Map<String, String> form = valid(options(RULE));
    form.put("subject_token", downscoped);

    assertRefused(form, "invalid_request", "already carries a Credential Access Boundary");
  }

  private Map<String, String> valid(String options) {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange");
    form.put("subject_token_type", "urn:ietf:params:oauth:token-type:access_token");
    form.put("requested_token_type", "urn:ietf:params:oauth:token-type:access_token");
    form.put("subject_token", sourceToken);
    form.put("scope", GcpFixtures.CLOUD_PLATFORM);
    if (options != null) {
      form.put("options", options);
    }
    return form;
  }

  private static String options(String rules) {
    return "{\"accessBoundary\":{\"accessBoundaryRules\":[" + rules + "]}}";
  }

  private HttpResponse<String> exchange(Map<String, String> form) throws Exception {
    return GcpFixtures.post(
        fake.endpoint() + "/v1/token", "application/x-www-form-urlencoded", GcpFixtures.form(form));
  }

  private void assertRefused(Map<String, String> form, String error, String description)
      throws Exception {
    HttpResponse<String> response = exchange(form);

    assertThat(response.statusCode()).isEqualTo(400);
    JsonNode body = JSON.readTree(response.body());
    assertThat(body.path("error").asText()).isEqualTo(error);
    assertThat(body.path("error_description").asText()).contains(description);
    assertThat(fake.exchanges()).isEmpty();
  }
}

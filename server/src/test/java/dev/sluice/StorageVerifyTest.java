package dev.sluice;

import static dev.sluice.testing.VerifyReports.names;
import static dev.sluice.testing.VerifyReports.row;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Admin;
import dev.sluice.testing.CephRgw;
import dev.sluice.testing.LogCapture;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The storage self-check ({@code POST /api/management/v1/catalogs/{c}/verify}) on the real Ceph RGW
 * with STS: a healthy catalog passes every row; the bed's role is as wide as a role gets ({@code
 * s3:*} on every bucket), so that pass is also the proof that the session policy, not the role,
 * narrows the credential; a catalog whose session-policy template grants the whole bucket fails on
 * exactly the negative rows, each explained; RBAC; no secret in the answer or the log.
 */
@NeedsTestBeds
class StorageVerifyTest {
  private static final String M = "/api/management/v1/catalogs/";
  // Ceph's access key ids are 20 upper-case alphanumerics; secrets and session tokens are long
  // base64 runs. Nothing in a report is either (probe names are short lower-case hex).
  private static final Pattern KEY_LIKE = Pattern.compile("[A-Z0-9]{16,}|[A-Za-z0-9+/=]{39,}");
  private static final String WIDE_TEMPLATE =
      "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":[\"s3:*\"],"
          + "\"Resource\":[\"arn:aws:s3:::{{.Bucket}}\",\"arn:aws:s3:::{{.Bucket}}/*\"]}]}";

  private static RgwVendingBed bed;
  private static CephRgw rgw;
  private static TestServer server;
  private static String otherBucket;
  private static String[] manager;
  private static String[] stranger;

  @BeforeAll
  static void start() throws Exception {
    bed = RgwVendingBed.start("verify");
    rgw = bed.rgw();
    server = bed.server();
    otherBucket = rgw.newBucket("verify-other");
    bed.createCatalog("healthy", "wh", "wh", Map.of());
    bed.createCatalog(
        "wide_template",
        "wide",
        "wide",
        Map.of(),
        Map.of("readPolicyTemplate", WIDE_TEMPLATE, "writePolicyTemplate", WIDE_TEMPLATE));
    bed.createCatalog(
        "signing", "signing", "signing", Map.of(), Map.of("delegation", List.of("remote-signing")));
    bed.createCatalog(
        "both",
        "both",
        "both",
        Map.of(),
        Map.of("delegation", List.of("remote-signing", "vended-credentials")));
    bed.createCatalog(
        "parser_only",
        "parser",
        "parser",
        Map.of(),
        Map.of(
            "delegation",
            List.of("remote-signing"),
            "stsUnavailable",
            true,
            "unscopedSigning",
            true));
    Admin admin = bed.admin();
    manager = admin.principal("manager", "managers");
    stranger = admin.principal("stranger", "strangers");
    admin.catalogRole("healthy", "content", "managers");
    admin.grant(
        "healthy", "content", Admin.grantJson("catalog", null, null, "CATALOG_MANAGE_CONTENT"));
    admin.catalogRole("healthy", "reading", "strangers");
    admin.grant("healthy", "reading", Admin.grantJson("catalog", null, null, "TABLE_READ_DATA"));
  }

  @AfterAll
  static void stop() throws Exception {
    bed.close();
  }

  private static HttpResponse<String> verify(String token, String catalog, String body)
      throws Exception {
    return server.sendAs(token, "POST", M + catalog + "/verify", body);
  }

  private static String otherBody() {
    return "{\"otherLocation\": \"s3://" + otherBucket + "/\"}";
  }

  @Test
  void healthyCatalogPassesEveryRowAndLeavesNothing() throws Exception {
    HttpResponse<String> response;
    List<String> logged;
    try (LogCapture log = new LogCapture()) {
      response = verify(server.rootToken(), "healthy", otherBody());
      logged = log.messages();
    }
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode report = TestServer.json(response.body());
    assertThat(report.get("catalog").asText()).isEqualTo("healthy");
    List<String> notPassed = new ArrayList<>();
    for (JsonNode check : report.get("checks")) {
      if (!check.get("pass").asBoolean()) {
        notPassed.add(check.toString());
      }
    }
    assertThat(notPassed).as(response.body()).isEmpty();
    assertThat(report.get("verdict").asText()).isEqualTo("pass");
    assertThat(report.get("skipped").asInt()).isZero();
    assertThat(names(report))
        .contains(
            "read-only: write in a",
            "read-only: delete in a",
            "read-write: read in sibling a2",
            "read-only: read in sibling a2",
            "read-write: write in table b",
            "read-only: list the whole bucket",
            "read-write: list another bucket",
            "read-write: write in another bucket",
            "refresh: new read-only credential reads in a",
            "expired read-only credential reads in a");
    // The negative rows were refused by RGW itself: 403, not a guess.
    for (JsonNode check : report.get("checks")) {
      if (check.get("expected").asText().equals("refused")) {
        assertThat(check.get("status").asInt()).as(check.toString()).isEqualTo(403);
      }
    }
    assertThat(report.get("cleanup").asText()).isEqualTo("done");
    String prefix = bed.key(report.get("probePrefix").asText(), "");
    try (S3Client admin = rgw.adminClient()) {
      assertThat(admin.listObjectsV2(b -> b.bucket(bed.bucket()).prefix(prefix)).contents())
          .isEmpty();
      assertThat(admin.listObjectsV2(b -> b.bucket(otherBucket)).contents()).isEmpty();
    }
    assertNoSecret(response.body(), logged);
  }

  @Test
  void templateGrantingTheBucketFailsOnTheNegativeRowsWithTheExplanation() throws Exception {
    HttpResponse<String> response;
    List<String> logged;
    try (LogCapture log = new LogCapture()) {
      response = verify(server.rootToken(), "wide_template", otherBody());
      logged = log.messages();
    }
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode report = TestServer.json(response.body());
    assertThat(report.get("verdict").asText()).as(response.body()).isEqualTo("fail");
    List<String> failed = new ArrayList<>();
    for (JsonNode check : report.get("checks")) {
      String name = check.get("name").asText();
      if (check.get("outcome").asText().equals("fail")) {
        failed.add(name);
        assertThat(check.get("expected").asText()).as(check.toString()).isEqualTo("refused");
        assertThat(check.get("observed").asText()).as(check.toString()).isEqualTo("allowed");
        assertThat(check.get("explanation").asText())
            .as(check.toString())
            .startsWith("MIS-SCOPED: ")
            .contains("readPolicyTemplate / writePolicyTemplate) may grant it")
            .contains(rgw.roleArn())
            .contains("Ceph RGW Pacific");
      } else {
        // Everything that must work still works: the template is too wide, not broken.
        assertThat(check.get("outcome").asText()).as(check.toString()).isEqualTo("pass");
      }
    }
    // The whole bucket was granted: every refusal inside it is missing; the other bucket is not
    // in the template, so RGW still refuses that.
    assertThat(failed)
        .contains(
            "read-only: write in a",
            "read-only: delete in a",
            "read-only: read in sibling a2",
            "read-write: write in sibling a2",
            "read-write: delete in table b",
            "read-only: list table b",
            "read-write: list the whole bucket",
            "read-only: list the whole bucket")
        .doesNotContain("read-write: list another bucket", "read-write: write in another bucket");
    assertThat(report.get("cleanup").asText()).isEqualTo("done");
    assertNoSecret(response.body(), logged);
  }

  @Test
  void onlyTheServiceAdminOrCatalogManageContentMayVerify() throws Exception {
    String managerToken = server.token(manager[0], manager[1]);
    HttpResponse<String> allowed = verify(managerToken, "healthy", null);
    assertThat(allowed.statusCode()).as(allowed.body()).isEqualTo(200);
    JsonNode report = TestServer.json(allowed.body());
    // Without otherLocation the other-bucket row says it did not run, and is not a pass.
    JsonNode other = row(report, "both: another bucket");
    assertThat(other.get("outcome").asText()).isEqualTo("skipped");
    assertThat(other.get("pass").asBoolean()).isFalse();
    assertThat(other.get("explanation").asText()).startsWith("not applicable");
    assertThat(report.get("skipped").asInt()).isEqualTo(1);

    String strangerToken = server.token(stranger[0], stranger[1]);
    HttpResponse<String> refused = verify(strangerToken, "healthy", null);
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
    assertThat(TestServer.json(refused.body()).get("error").get("code").asInt()).isEqualTo(403);
    assertThat(verify(strangerToken, "wide_template", null).statusCode()).isEqualTo(403);

    HttpResponse<String> missing = verify(server.rootToken(), "no_such_catalog", null);
    assertThat(missing.statusCode()).as(missing.body()).isEqualTo(404);
    assertThat(TestServer.json(missing.body()).get("error").get("type").asText())
        .isEqualTo("NotFoundException");
  }

  @Test
  void verifyAtCreationAnswersTheReportWithTheCatalog() throws Exception {
    String json = "{\"verify\": true, " + bed.catalogJson("checked", rgw.endpoint()).substring(1);
    HttpResponse<String> created = server.send("POST", "/api/management/v1/catalogs", json);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    JsonNode body = TestServer.json(created.body());
    assertThat(body.get("name").asText()).isEqualTo("checked");
    JsonNode verification = body.get("verification");
    assertThat(verification.get("verdict").asText()).as(created.body()).isEqualTo("pass");
    assertThat(verification.get("failed").asInt()).isZero();
    assertThat(verification.get("cleanup").asText()).isEqualTo("done");

    HttpResponse<String> bad =
        server.send(
            "POST",
            "/api/management/v1/catalogs",
            "{\"verify\": \"yes\", " + bed.catalogJson("checked2", rgw.endpoint()).substring(1));
    assertThat(bad.statusCode()).as(bad.body()).isEqualTo(400);
    // Refused before anything was created.
    assertThat(server.send("GET", M + "checked2", null).statusCode()).isEqualTo(404);
  }

  @Test
  void otherLocationInTheCatalogsOwnBucketIsRefused() throws Exception {
    HttpResponse<String> response =
        verify(server.rootToken(), "healthy", "{\"otherLocation\": \"" + bed.s3("x") + "\"}");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
    assertThat(response.body()).contains("another bucket");
  }

  @Test
  void aCatalogThatOnlySignsIsProvenThroughTheIdentityItSignsWith() throws Exception {
    HttpResponse<String> response = verify(server.rootToken(), "signing", otherBody());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode report = TestServer.json(response.body());
    assertThat(report.get("verdict").asText()).as(response.body()).isEqualTo("pass");
    assertThat(names(report))
        .contains(
            "read-only: write in a",
            "read-write: write in table b",
            "read-write: write in another bucket");
    for (JsonNode check : report.get("checks")) {
      if (check.get("expected").asText().equals("refused") && check.get("pass").asBoolean()) {
        assertThat(check.get("status").asInt()).as(check.toString()).isEqualTo(403);
      }
    }
    assertThat(report.get("cleanup").asText()).isEqualTo("done");
  }

  @Test
  void aCatalogThatVendsAndSignsProvesBothIdentities() throws Exception {
    HttpResponse<String> response = verify(server.rootToken(), "both", otherBody());
    JsonNode report = TestServer.json(response.body());
    assertThat(report.get("verdict").asText()).as(response.body()).isEqualTo("pass");
    assertThat(names(report))
        .contains(
            "remote signing: the signing identity for a reads in a",
            "remote signing: the signing identity for a reads in b",
            "read-only: write in a",
            "refresh: new read-only credential reads in a");
  }

  @Test
  void signingTheStoreCannotConfineIsReportedAndNeverPasses() throws Exception {
    HttpResponse<String> response = verify(server.rootToken(), "parser_only", null);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode report = TestServer.json(response.body());
    assertThat(report.get("verdict").asText()).as(response.body()).isEqualTo("fail");
    assertThat(report.get("passed").asInt()).isZero();
    JsonNode row = report.get("checks").get(0);
    assertThat(row.get("name").asText())
        .isEqualTo("remote signing: signed with an identity the store confines to the table");
    assertThat(row.get("outcome").asText()).isEqualTo("skipped");
    assertThat(row.get("explanation").asText())
        .contains("UNSCOPED", "storageConfigInfo.unscopedSigning");
  }

  @Test
  void backendWithoutSelfCheckIsUnprocessable() throws Exception {
    String file = server.createCatalog("files");
    HttpResponse<String> response = verify(server.rootToken(), file, null);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(422);
    assertThat(response.body()).contains("not available for storageType FILE");
  }

  private static void assertNoSecret(String body, List<String> logged) {
    assertThat(body).doesNotContain(rgw.secretKey()).doesNotContain(rgw.accessKey());
    assertThat(KEY_LIKE.matcher(body).find()).as(body).isFalse();
    assertThat(logged).isNotEmpty();
    for (String line : logged) {
      assertThat(line).doesNotContain(rgw.secretKey()).doesNotContain(rgw.accessKey());
      assertThat(KEY_LIKE.matcher(line).find()).as(line).isFalse();
    }
  }
}

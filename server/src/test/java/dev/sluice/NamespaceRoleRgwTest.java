package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.api.Grant;
import dev.sluice.testing.Admin;
import dev.sluice.testing.CephRgw;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwIam;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A storage identity per namespace on the real Ceph RGW with STS: two roles made through RGW's IAM
 * API beside the bed's own ({@code s3:*}); {@code finance}'s role may only read, {@code
 * marketing}'s may do anything. A writer's vended credential for a table under {@code finance} is
 * refused a PUT into its own table by RGW (403: the role's permission policy bounds the session, so
 * the credential was vended by finance's role, not the catalog's, which would allow it), while the
 * same grant under {@code marketing} writes, and a table in {@code ops} (no identity) is vended by
 * the catalog's role and writes too. The session policy still scopes each to its table. Clearing
 * finance's identity takes effect at once; the self-check reports each identity on its own.
 */
@NeedsTestBeds
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NamespaceRoleRgwTest {
  private static final String M = "/api/management/v1/catalogs/lake/namespaces/";
  private static final byte[] BYTES = "written".getBytes(StandardCharsets.UTF_8);
  private static final String READ_ONLY =
      "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":[\"s3:GetObject\","
          + "\"s3:ListBucket\",\"s3:GetBucketLocation\"],\"Resource\":[\"arn:aws:s3:::*\"]}]}";
  private static final String ALL =
      "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":[\"s3:*\"],"
          + "\"Resource\":[\"arn:aws:s3:::*\"]}]}";

  private static RgwVendingBed bed;
  private static RgwIam iam;
  private static TestServer server;
  private static String bucket;
  private static final List<String> roles = new ArrayList<>();
  private static String financeRole;
  private static String marketingRole;
  private static String writerToken;

  @BeforeAll
  static void start() throws Exception {
    bed = RgwVendingBed.start("nsrole");
    server = bed.server();
    bucket = bed.bucket();
    iam = new RgwIam(bed.rgw());
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    roles.add("finance-" + suffix);
    roles.add("marketing-" + suffix);
    financeRole = iam.createRole(roles.get(0), READ_ONLY);
    marketingRole = iam.createRole(roles.get(1), ALL);
    assertThat(financeRole).isNotEqualTo(marketingRole).isNotEqualTo(bed.rgw().roleArn());
    bed.createCatalog("lake", "wh", "wh", Map.of());
    for (String ns : List.of("finance", "marketing", "ops")) {
      bed.createNamespace("lake", ns);
      bed.createTable("lake", ns, "t");
    }
    Admin admin = bed.admin();
    String[] writer = admin.principal("writer", "writers");
    admin.catalogRole("lake", "writing", "writers");
    admin.grant("lake", "writing", Grant.onCatalog("TABLE_WRITE_DATA"));
    writerToken = server.token(writer[0], writer[1]);
    setIdentity("finance", "{\"roleArn\": \"" + financeRole + "\"}", 200);
    setIdentity(
        "marketing",
        "{\"roleArn\": \"" + marketingRole + "\", \"credentialSource\": \"rgw\"}",
        200);
  }

  @AfterAll
  static void stop() throws Exception {
    if (iam != null) {
      roles.forEach(iam::deleteRole);
    }
    if (bed != null) {
      bed.close();
    }
  }

  private static HttpResponse<String> setIdentity(String ns, String identity, int expected)
      throws Exception {
    return setIdentity(server.rootToken(), ns, identity, expected);
  }

  private static HttpResponse<String> setIdentity(
      String token, String ns, String identity, int expected) throws Exception {
    HttpResponse<String> answer =
        server.sendAs(
            token, "PUT", M + ns + "/storage-identity", "{\"storageIdentity\": " + identity + "}");
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(expected);
    return answer;
  }

  /** An S3 client holding the writer's vended credential for table {@code ns}.t, and its key. */
  private static S3Client writerClient(String ns) throws Exception {
    JsonNode load = bed.load(writerToken, "lake", ns, "t", true);
    assertThat(load.get("storage-credentials")).as(load.toString()).hasSize(1);
    return bed.vendedClient(load);
  }

  private static String inTable(String ns, String name) throws Exception {
    return bed.tableKey("lake", ns, "t") + "data/" + name;
  }

  @Test
  @Order(1)
  void eachTableIsVendedByItsNamespacesRole() throws Exception {
    S3Client finance = writerClient("finance");
    S3Client marketing = writerClient("marketing");
    S3Client ops = writerClient("ops");

    // finance's role may only read: its vended session reads its table and writes nothing,
    // although the session policy (read-write, the writer's grant) would allow the write.
    String metadata = bed.tableKey("lake", "finance", "t") + "metadata/";
    assertThat(CephRgw.list(finance, bucket, metadata)).isEqualTo(200);
    CephRgw.assertPutRefused(finance, bucket, inTable("finance", "refused.txt"), BYTES);

    // marketing's role may do anything: the same grant writes into its own table...
    assertThat(CephRgw.put(marketing, bucket, inTable("marketing", "ok.txt"), BYTES))
        .isEqualTo(200);
    // ...and only there: the session policy still scopes the namespace's role to the table.
    CephRgw.assertPutRefused(marketing, bucket, inTable("ops", "stray.txt"), BYTES);
    CephRgw.assertPutRefused(marketing, bucket, inTable("finance", "stray.txt"), BYTES);

    // ops has no identity: the catalog's role (s3:*) vends, and the write goes through.
    assertThat(CephRgw.put(ops, bucket, inTable("ops", "ok.txt"), BYTES)).isEqualTo(200);
    CephRgw.assertPutRefused(ops, bucket, inTable("marketing", "stray.txt"), BYTES);
  }

  @Test
  @Order(2)
  void theSelfCheckReportsEachIdentityOnItsOwn() throws Exception {
    HttpResponse<String> response =
        server.sendAs(server.rootToken(), "POST", "/api/management/v1/catalogs/lake/verify", null);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode report = TestServer.json(response.body());
    assertThat(report.get("failed").asInt()).as("the catalog's own rows").isZero();
    JsonNode finance = null;
    JsonNode marketing = null;
    for (JsonNode ns : report.get("namespaces")) {
      String name = ns.get("namespace").get(0).asText();
      if (name.equals("finance")) {
        finance = ns;
      } else if (name.equals("marketing")) {
        marketing = ns;
      }
    }
    assertThat(report.get("namespaces")).as(response.body()).hasSize(2);
    assertThat(marketing.get("verdict").asText()).as(marketing.toString()).isEqualTo("pass");
    assertThat(marketing.get("probePrefix").asText()).contains("/wh/marketing/sluice-verify-");
    for (JsonNode check : marketing.get("checks")) {
      if (check.get("expected").asText().equals("refused") && check.has("status")) {
        assertThat(check.get("status").asInt()).as(check.toString()).isEqualTo(403);
      }
    }
    // finance's read-only role cannot write even its own probe table: that identity fails, on
    // exactly its writing rows, and so does the verdict.
    assertThat(finance.get("verdict").asText()).as(finance.toString()).isEqualTo("fail");
    List<String> failed = new ArrayList<>();
    for (JsonNode check : finance.get("checks")) {
      if (check.get("outcome").asText().equals("fail")) {
        failed.add(check.get("name").asText());
      }
    }
    assertThat(failed).isNotEmpty().allSatisfy(name -> assertThat(name).contains("write"));
    assertThat(report.get("verdict").asText()).isEqualTo("fail");
    assertThat(response.body()).doesNotContain(bed.rgw().secretKey());
  }

  @Test
  @Order(3)
  void onlyTheServiceAdminSetsOneAndAnUnknownCredentialSourceIsRefused() throws Exception {
    String wider = "{\"roleArn\": \"" + bed.rgw().roleArn() + "\"}";
    setIdentity(writerToken, "finance", wider, 403);
    setIdentity(
        "finance", "{\"roleArn\": \"" + financeRole + "\", \"credentialSource\": \"nope\"}", 400);
    // Still finance's read-only role.
    CephRgw.assertPutRefused(
        writerClient("finance"), bucket, inTable("finance", "refused2.txt"), BYTES);
  }

  @Test
  @Order(4)
  void clearingTheIdentityVendsWithTheCatalogsRoleAtOnce() throws Exception {
    assertThat(
            server
                .sendAs(server.rootToken(), "DELETE", M + "finance/storage-identity", null)
                .statusCode())
        .isEqualTo(204);
    assertThat(CephRgw.put(writerClient("finance"), bucket, inTable("finance", "now.txt"), BYTES))
        .isEqualTo(200);
  }
}

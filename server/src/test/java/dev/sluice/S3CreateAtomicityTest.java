package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.NamespacePath;
import dev.sluice.testing.CephRgw;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A create whose answer cannot be given (here: its credentials cannot be vended, STS is
 * unreachable) leaves no table: no pointer, no metadata file, and the name free. On Ceph RGW, so
 * the catalog's own writes would succeed; the catalog vends only when asked, so the same create
 * without asking shows the name is free.
 */
@NeedsTestBeds
class S3CreateAtomicityTest {
  private static final String CATALOG = "nosts_atomic";
  private static final String TABLES = "/api/catalog/v1/" + CATALOG + "/namespaces/n/tables";
  private static RgwVendingBed bed;
  private static String token;

  @BeforeAll
  static void start() throws Exception {
    bed = RgwVendingBed.start("atomic");
    String json =
        bed.catalogJson(CATALOG, "http://127.0.0.1:1")
            .replace(
                "\"durationSeconds\": 900",
                "\"durationSeconds\": 900, \"vendCredentials\": \"on-request\"");
    HttpResponse<String> created = bed.server().send("POST", "/api/management/v1/catalogs", json);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    bed.createNamespace(CATALOG, "n");
    token = bed.server().rootToken();
  }

  @AfterAll
  static void stop() throws Exception {
    bed.close();
  }

  @Test
  void aCreateWhoseCredentialsCannotBeVendedLeavesNoTable() throws Exception {
    HttpResponse<String> failed = send("POST", TABLES, table("direct"), true);
    assertThat(failed.statusCode()).as(failed.body()).isEqualTo(503);
    assertNothingLeft("direct");
    assertThat(send("POST", TABLES, table("direct"), false).statusCode()).isEqualTo(200);
  }

  @Test
  void aStagedCreateWhoseCommitCannotVendLeavesNoTable() throws Exception {
    HttpResponse<String> staged =
        send(
            "POST",
            TABLES,
            table("staged").replace("{\"name\"", "{\"stage-create\":true,\"name\""),
            false);
    assertThat(staged.statusCode()).as(staged.body()).isEqualTo(200);
    String location = TestServer.json(staged.body()).get("metadata").get("location").asText();

    HttpResponse<String> failed = send("POST", TABLES + "/staged", createCommit(location), true);
    assertThat(failed.statusCode()).as(failed.body()).isEqualTo(503);
    assertNothingLeft("staged");
    HttpResponse<String> retried = send("POST", TABLES + "/staged", createCommit(location), false);
    assertThat(retried.statusCode()).as(retried.body()).isEqualTo(200);
  }

  /** The registered file is the caller's: it stays, and only the table is not made. */
  @Test
  void aRegisterWhoseCredentialsCannotBeVendedLeavesNoTable() throws Exception {
    HttpResponse<String> source = send("POST", TABLES, table("source"), false);
    assertThat(source.statusCode()).as(source.body()).isEqualTo(200);
    String file = TestServer.json(source.body()).get("metadata-location").asText();
    assertThat(send("DELETE", TABLES + "/source", null, false).statusCode()).isEqualTo(204);

    String register = "{\"name\":\"registered\",\"metadata-location\":\"" + file + "\"}";
    String path = "/api/catalog/v1/" + CATALOG + "/namespaces/n/register";
    HttpResponse<String> failed = send("POST", path, register, true);
    assertThat(failed.statusCode()).as(failed.body()).isEqualTo(503);
    assertThat(send("HEAD", TABLES + "/registered", null, false).statusCode()).isEqualTo(404);
    assertThat(bed.server().server().store().getContent(CATALOG, ns(), "registered")).isEmpty();
    try (S3Client admin = bed.rgw().adminClient()) {
      assertThat(CephRgw.get(admin, bed.bucket(), bed.key(file, ""))).isEqualTo(200);
    }
    assertThat(send("POST", path, register, false).statusCode()).isEqualTo(200);
  }

  private static void assertNothingLeft(String name) throws Exception {
    assertThat(send("HEAD", TABLES + "/" + name, null, false).statusCode()).isEqualTo(404);
    assertThat(bed.server().server().store().getContent(CATALOG, ns(), name)).isEmpty();
    try (S3Client admin = bed.rgw().adminClient()) {
      assertThat(
              admin
                  .listObjectsV2(b -> b.bucket(bed.bucket()).prefix("wh/n/" + name + "/"))
                  .keyCount())
          .isZero();
    }
  }

  private static NamespacePath ns() {
    return new NamespacePath(List.of("n"));
  }

  private static HttpResponse<String> send(
      String method, String path, String body, boolean delegate) throws Exception {
    return bed.send(token, method, path, body, delegate);
  }

  private static String table(String name) {
    return "{\"name\":\"" + name + "\",\"schema\":" + AuthorizationMatrixTest.SCHEMA + "}";
  }

  /** The commit of a staged create, as Iceberg's client sends it. */
  private static String createCommit(String location) {
    return "{\"requirements\":[{\"type\":\"assert-create\"}],\"updates\":["
        + "{\"action\":\"assign-uuid\",\"uuid\":\"6f7d3c43-1a9e-4b39-a3c5-2b2c4f0c2d11\"},"
        + "{\"action\":\"upgrade-format-version\",\"format-version\":2},"
        + "{\"action\":\"add-schema\",\"schema\":"
        + AuthorizationMatrixTest.SCHEMA
        + ",\"last-column-id\":1},"
        + "{\"action\":\"set-current-schema\",\"schema-id\":-1},"
        + "{\"action\":\"add-spec\",\"spec\":{\"spec-id\":0,\"fields\":[]}},"
        + "{\"action\":\"set-default-spec\",\"spec-id\":-1},"
        + "{\"action\":\"add-sort-order\",\"sort-order\":{\"order-id\":0,\"fields\":[]}},"
        + "{\"action\":\"set-default-sort-order\",\"sort-order-id\":-1},"
        + "{\"action\":\"set-location\",\"location\":\""
        + location
        + "\"}]}";
  }
}

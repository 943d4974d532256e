package dev.sluice.federation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.api.Grant;
import dev.sluice.testing.Admin;
import dev.sluice.testing.CephRgw;
import dev.sluice.testing.CredentialSourcesYaml;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A federated catalog's credentials on the real store (Ceph RGW): the remote is a Sluice whose S3
 * catalog {@code prod} lives in the bed's bucket under {@code wh}; the federated catalog {@code
 * fed} on a second Sluice allows only {@code wh/sales} and vends through its own STS role. RGW, not
 * Sluice, decides what a vended credential may touch.
 */
@NeedsTestBeds
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FederationRgwTest {
  private RgwVendingBed remote;
  private TestServer local;
  private String[] reader;
  private String readerToken;
  private final List<S3Client> clients = new java.util.ArrayList<>();

  @BeforeAll
  void start() throws Exception {
    remote = RgwVendingBed.start("fedrgw");
    remote.createCatalog("prod", "wh", "wh", java.util.Map.of());
    Admin remoteAdmin = remote.admin();
    String[] federation = remoteAdmin.principal("sluice_federation", "federation_role");
    remoteAdmin.catalogRole("prod", "content", "federation_role");
    remoteAdmin.grant("prod", "content", Grant.onCatalog("CATALOG_MANAGE_CONTENT"));

    CephRgw rgw = remote.rgw();
    local =
        TestServer.start(
            null,
            CredentialSourcesYaml.s3Static(
                        "rgw", "${SLUICE_TEST_RGW_ACCESS_KEY}", "${SLUICE_TEST_RGW_SECRET_KEY}")
                    .vendingMinDurationSeconds(1)
                    .toYaml()
                + "federation:\n  secrets:\n    prod-oauth: \""
                + federation[1]
                + "\"\n");
    String body =
        "{\"catalog\":{\"type\":\"EXTERNAL\",\"name\":\"fed\",\"properties\":"
            + "{\"default-base-location\":\""
            + remote.s3("wh/sales")
            + "\"},\"storageConfigInfo\":{\"storageType\":\"S3\",\"allowedLocations\":[\""
            + remote.s3("wh/sales")
            + "\"],\"roleArn\":\""
            + rgw.roleArn()
            + "\",\"region\":\""
            + rgw.region()
            + "\",\"endpoint\":\""
            + rgw.endpoint()
            + "\",\"pathStyleAccess\":true,\"credentialSource\":\"rgw\",\"durationSeconds\":900},"
            + "\"connectionConfigInfo\":{\"connectionType\":\"ICEBERG_REST\",\"uri\":\""
            + remote.server().catalogUri()
            + "\",\"remoteCatalogName\":\"prod\",\"authenticationParameters\":"
            + "{\"authenticationType\":\"OAUTH\",\"clientId\":\""
            + federation[0]
            + "\",\"scopes\":[\"PRINCIPAL_ROLE:ALL\"],\"secretReference\":\"prod-oauth\"}}}}";
    HttpResponse<String> created = local.send("POST", "/api/management/v1/catalogs", body);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(created.body()).doesNotContain(federation[1]).doesNotContain(rgw.secretKey());

    Admin localAdmin = new Admin(local);
    reader = localAdmin.principal("reader", "readers");
    localAdmin.catalogRole("fed", "read", "readers");
    localAdmin.grant("fed", "read", Grant.onCatalog("TABLE_READ_DATA"));
    readerToken = local.token(reader[0], reader[1]);

    // Through the federated catalog: two tables of sales; one of hr made at the remote directly.
    post(local, "fed", "/namespaces", "{\"namespace\":[\"sales\"]}");
    post(local, "fed", "/namespaces/sales/tables", table("orders"));
    post(local, "fed", "/namespaces/sales/tables", table("other"));
    remote.createNamespace("prod", "hr");
    remote.createTable("prod", "hr", "people");
    S3Client admin = rgw.adminClient();
    clients.add(admin);
    for (String key :
        List.of(
            "wh/sales/orders/data/part-0.parquet",
            "wh/sales/other/data/part-0.parquet",
            "wh/hr/people/data/part-0.parquet")) {
      CephRgw.put(admin, remote.bucket(), key, "rows".getBytes(StandardCharsets.UTF_8));
    }
  }

  @AfterAll
  void stop() throws Exception {
    clients.forEach(S3Client::close);
    if (local != null) {
      local.close();
    }
    if (remote != null) {
      remote.close();
    }
  }

  private static String table(String name) {
    return "{\"name\":\""
        + name
        + "\",\"schema\":{\"type\":\"struct\",\"fields\":"
        + "[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}}";
  }

  private static void post(TestServer server, String catalog, String path, String body)
      throws Exception {
    HttpResponse<String> response = server.send("POST", "/api/catalog/v1/" + catalog + path, body);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
  }

  private JsonNode load(String token, String ns, String name) throws Exception {
    HttpResponse<String> response =
        local.sendAs(
            token,
            "GET",
            "/api/catalog/v1/fed/namespaces/" + ns + "/tables/" + name,
            null,
            java.util.Map.of(RgwVendingBed.DELEGATION, "vended-credentials"));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return TestServer.json(response.body());
  }

  private S3Client vended(JsonNode response) {
    JsonNode config = response.get("storage-credentials").get(0).get("config");
    S3Client client =
        remote
            .rgw()
            .clientWith(
                config.get("s3.access-key-id").asText(),
                config.get("s3.secret-access-key").asText(),
                config.get("s3.session-token").asText());
    clients.add(client);
    return client;
  }

  @Test
  void theVendedCredentialIsSluicesAndScopedToTheTable() throws Exception {
    JsonNode loaded = load(readerToken, "sales", "orders");
    JsonNode config = loaded.get("storage-credentials").get(0).get("config");
    // An STS session of Sluice's role, never the bed's key, the remote's, or the remote's own vend.
    assertThat(config.get("s3.access-key-id").asText()).isNotEqualTo(remote.rgw().accessKey());
    assertThat(config.get("s3.session-token").asText()).isNotEmpty();
    assertThat(loaded.get("storage-credentials").get(0).get("prefix").asText())
        .startsWith(remote.s3("wh/sales/orders"));

    S3Client s3 = vended(loaded);
    assertThat(CephRgw.get(s3, remote.bucket(), "wh/sales/orders/data/part-0.parquet"))
        .isEqualTo(200);
    RgwVendingBed.assertS3Status(
        403, () -> CephRgw.get(s3, remote.bucket(), "wh/sales/other/data/part-0.parquet"));
    // The reader holds TABLE_READ_DATA only: RGW refuses its credential's writes.
    CephRgw.assertPutRefused(
        s3,
        remote.bucket(),
        "wh/sales/orders/data/written-by-reader.parquet",
        "x".getBytes(StandardCharsets.UTF_8));
  }

  /**
   * A table the remote placed outside its own folder (inside the namespace, so the remote allowed
   * it) gets no credential: a federated table is vended only in its own folder, whatever claims
   * Sluice holds, since it claims lazily.
   */
  @Test
  void aTableOutsideItsOwnFolderGetsNoCredential() throws Exception {
    HttpResponse<String> created =
        remote
            .server()
            .send(
                "POST",
                "/api/catalog/v1/prod/namespaces/sales/tables",
                "{\"name\":\"placed\",\"location\":\""
                    + remote.s3("wh/sales/misc/placed")
                    + "\",\"schema\":{\"type\":\"struct\",\"fields\":"
                    + "[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
    JsonNode loaded = load(local.rootToken(), "sales", "placed");
    assertThat(
            loaded.path("storage-credentials").isMissingNode()
                || loaded.path("storage-credentials").isEmpty())
        .as(loaded.toString())
        .isTrue();
    assertThat(loaded.path("config").has("s3.access-key-id")).isFalse();
    // Its neighbour in its own folder is vended as before.
    assertThat(load(readerToken, "sales", "orders").path("storage-credentials").size())
        .isEqualTo(1);
  }

  @Test
  void aTableOutsideTheFederatedCatalogsLocationsGetsNoCredential() throws Exception {
    JsonNode loaded = load(local.rootToken(), "hr", "people");
    assertThat(
            loaded.path("storage-credentials").isMissingNode()
                || loaded.path("storage-credentials").isEmpty())
        .as(loaded.toString())
        .isTrue();
    assertThat(loaded.path("config").has("s3.access-key-id")).isFalse();
  }
}

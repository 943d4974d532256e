package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Admin;
import dev.sluice.testing.CephRgw;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.TestServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * S3 credential vending, end to end on a real Ceph RGW with STS: Sluice's HTTP API, the real
 * Iceberg client with S3FileIO holding no keys of its own, and RGW deciding what a vended
 * credential may touch.
 */
@NeedsTestBeds
class S3VendingTest {
  private static final Schema SCHEMA = RgwVendingBed.SCHEMA;
  private static RgwVendingBed bed;
  private static CephRgw rgw;
  private static TestServer server;
  private static Admin admin;
  private static String bucket;
  private static String otherBucket;
  private static String catalog = "lake";
  private static String[] writer;
  private static String[] reader;
  private static String[] stranger;

  @BeforeAll
  static void start() throws Exception {
    bed = RgwVendingBed.start("vend");
    rgw = bed.rgw();
    server = bed.server();
    admin = bed.admin();
    bucket = bed.bucket();
    otherBucket = rgw.newBucket("other");
    HttpResponse<String> created =
        server.send("POST", "/api/management/v1/catalogs", catalogJson(catalog, rgw.endpoint()));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(created.body()).doesNotContain(rgw.secretKey());
    for (String ns : List.of("sales", "hr")) {
      bed.createNamespace(catalog, ns);
    }
    writer = admin.principal("writer", "writers");
    reader = admin.principal("reader", "readers");
    stranger = admin.principal("stranger", "strangers");
    admin.catalogRole(catalog, "write_sales", "writers");
    admin.catalogRole(catalog, "read_sales", "readers");
    admin.catalogRole(catalog, "props_only", "strangers");
    admin.grant(
        catalog,
        "write_sales",
        Admin.grantJson("namespace", List.of("sales"), null, "TABLE_WRITE_DATA"));
    admin.grant(
        catalog,
        "write_sales",
        Admin.grantJson("namespace", List.of("sales"), null, "TABLE_CREATE"));
    admin.grant(
        catalog,
        "write_sales",
        Admin.grantJson("namespace", List.of("hr"), null, "TABLE_WRITE_DATA"));
    admin.grant(
        catalog, "write_sales", Admin.grantJson("namespace", List.of("hr"), null, "TABLE_CREATE"));
    admin.grant(
        catalog,
        "write_sales",
        Admin.grantJson("namespace", List.of("sales"), null, "TABLE_FULL_METADATA"));
    admin.grant(
        catalog,
        "write_sales",
        Admin.grantJson("namespace", List.of("hr"), null, "TABLE_FULL_METADATA"));
    admin.grant(
        catalog,
        "read_sales",
        Admin.grantJson("namespace", List.of("sales"), null, "TABLE_READ_DATA"));
    admin.grant(
        catalog,
        "props_only",
        Admin.grantJson("namespace", List.of("sales"), null, "TABLE_READ_PROPERTIES"));
  }

  @AfterAll
  static void stop() throws Exception {
    bed.close();
  }

  static String catalogJson(String name, String stsEndpoint) {
    return bed.catalogJson(name, stsEndpoint);
  }

  /** The real client, configured with no storage keys at all. */
  private static RESTCatalog client(String[] credentials) {
    return bed.client(catalog, credentials);
  }

  private static JsonNode load(String token, String ns, String table, boolean askForCredentials)
      throws Exception {
    return load(token, catalog, ns, table, askForCredentials);
  }

  private static JsonNode load(
      String token, String catalogName, String ns, String table, boolean askForCredentials)
      throws Exception {
    return bed.load(token, catalogName, ns, table, askForCredentials);
  }

  private static S3Client vendedClient(JsonNode loaded) {
    return bed.vendedClient(loaded);
  }

  private static String key(String location, String suffix) {
    return bed.key(location, suffix);
  }

  private static DataFile writeDataFile(Table table, String name, String content) throws Exception {
    return RgwVendingBed.writeDataFile(table, name, content);
  }

  @Test
  void writerCreatesAppendsAndReadsBackWithVendedCredentialsOnly() throws Exception {
    try (RESTCatalog client = client(writer)) {
      Table table = client.createTable(TableIdentifier.of("sales", "orders"), SCHEMA);
      DataFile file = writeDataFile(table, "a.parquet", "order-1");
      table.newAppend().appendFile(file).commit();
      Table reloaded = client.loadTable(TableIdentifier.of("sales", "orders"));
      assertThat(reloaded.currentSnapshot().addedDataFiles(reloaded.io())).hasSize(1);
      try (var in = reloaded.io().newInputFile(file.location()).newStream()) {
        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("order-1");
      }
    }
    JsonNode loaded = load(server.token(writer[0], writer[1]), "sales", "orders", true);
    JsonNode credential = loaded.get("storage-credentials").get(0);
    assertThat(credential.get("prefix").asText())
        .isEqualTo(loaded.get("metadata").get("location").asText());
    for (String key :
        List.of(
            "s3.access-key-id",
            "s3.secret-access-key",
            "s3.session-token",
            "s3.session-token-expires-at-ms",
            "client.region",
            "s3.endpoint",
            "s3.path-style-access")) {
      assertThat(credential.get("config").has(key)).as(key).isTrue();
      assertThat(loaded.get("config").has(key)).as(key).isTrue();
    }
    assertThat(loaded.get("config").get("client.refresh-credentials-endpoint").asText())
        .isEqualTo("v1/" + catalog + "/namespaces/sales/tables/orders/credentials");
    assertThat(credential.get("config").get("s3.access-key-id").asText())
        .isNotEqualTo(rgw.accessKey());
  }

  @Test
  void readersCannotWriteAndCredentialsStayInsideTheirTable() throws Exception {
    try (RESTCatalog client = client(writer)) {
      Table a = client.createTable(TableIdentifier.of("sales", "a"), SCHEMA);
      a.newAppend().appendFile(writeDataFile(a, "x.parquet", "in-a")).commit();
      Table b = client.createTable(TableIdentifier.of("sales", "b"), SCHEMA);
      b.newAppend().appendFile(writeDataFile(b, "y.parquet", "in-b")).commit();
    }
    JsonNode a = load(server.token(reader[0], reader[1]), "sales", "a", true);
    String aLocation = a.get("metadata").get("location").asText();
    JsonNode b = load(server.token(writer[0], writer[1]), "sales", "b", false);
    String bLocation = b.get("metadata").get("location").asText();
    try (S3Client readOnly = vendedClient(a);
        S3Client admin = rgw.adminClient()) {
      assertThat(CephRgw.get(readOnly, bucket, key(aLocation, "/data/x.parquet"))).isEqualTo(200);
      assertThat(CephRgw.list(readOnly, bucket, key(aLocation, "/"))).isEqualTo(200);
      // refused by RGW, not by Sluice:
      CephRgw.assertPutRefused(
          readOnly, bucket, key(aLocation, "/data/evil.parquet"), new byte[] {1});
      CephRgw.assertPutRefused(readOnly, bucket, key(aLocation, "/data/x.parquet"), new byte[] {1});
      assertThatThrownBy(() -> CephRgw.delete(readOnly, bucket, key(aLocation, "/data/x.parquet")))
          .isInstanceOf(S3Exception.class)
          .satisfies(e -> assertThat(((S3Exception) e).statusCode()).isEqualTo(403));
      assertThat(CephRgw.get(admin, bucket, key(aLocation, "/data/x.parquet"))).isEqualTo(200);
      // another table's prefix, a bucket-wide list, another bucket
      assertThatThrownBy(() -> CephRgw.get(readOnly, bucket, key(bLocation, "/data/y.parquet")))
          .isInstanceOf(S3Exception.class)
          .satisfies(e -> assertThat(((S3Exception) e).statusCode()).isEqualTo(403));
      assertThatThrownBy(() -> CephRgw.list(readOnly, bucket, ""))
          .isInstanceOf(S3Exception.class)
          .satisfies(e -> assertThat(((S3Exception) e).statusCode()).isEqualTo(403));
      CephRgw.put(admin, otherBucket, "secret.txt", new byte[] {7});
      assertThatThrownBy(() -> CephRgw.get(readOnly, otherBucket, "secret.txt"))
          .isInstanceOf(S3Exception.class)
          .satisfies(e -> assertThat(((S3Exception) e).statusCode()).isEqualTo(403));
    }
    try (S3Client writable = vendedClient(b)) {
      assertThat(CephRgw.put(writable, bucket, key(bLocation, "/data/new.parquet"), new byte[] {2}))
          .isEqualTo(200);
      CephRgw.assertPutRefused(
          writable, bucket, key(aLocation, "/data/new.parquet"), new byte[] {2});
    }
  }

  @Test
  void aLoadThatDeclinesDelegationGetsNoCredentialsFromAnAlwaysCatalog() throws Exception {
    try (RESTCatalog client = client(writer)) {
      client.createTable(TableIdentifier.of("sales", "declined"), SCHEMA);
    }
    String token = server.token(writer[0], writer[1]);
    String path = "/api/catalog/v1/" + catalog + "/namespaces/sales/tables/declined";
    HttpResponse<String> plain = server.sendAs(token, "GET", path, null);
    assertThat(TestServer.json(plain.body()).path("storage-credentials").size())
        .as("this catalog vends unasked")
        .isEqualTo(1);
    HttpResponse<String> declined =
        server.sendAs(token, "GET", path, null, Map.of("X-Iceberg-Access-Delegation", "none"));
    assertThat(declined.statusCode()).isEqualTo(200);
    JsonNode body = TestServer.json(declined.body());
    assertThat(body.path("storage-credentials").size()).isZero();
    assertThat(declined.body()).doesNotContain("s3.access-key-id", "s3.session-token");
    assertThat(body.path("metadata").path("location").asText()).isNotEmpty();
  }

  @Test
  void withoutReadDataAskingIsRefusedAndNotAskingGetsNoCredentials() throws Exception {
    try (RESTCatalog client = client(writer)) {
      client.createTable(TableIdentifier.of("sales", "props"), SCHEMA);
    }
    String token = server.token(stranger[0], stranger[1]);
    HttpResponse<String> asked =
        server.sendAs(
            token, "GET", "/api/catalog/v1/" + catalog + "/namespaces/sales/tables/props", null);
    assertThat(asked.statusCode()).isEqualTo(200);
    assertThat(TestServer.json(asked.body()).path("storage-credentials").size()).isZero();
    HttpResponse<String> withHeader =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            server.baseUrl()
                                + "/api/catalog/v1/"
                                + catalog
                                + "/namespaces/sales/tables/props"))
                    .header("Authorization", "Bearer " + token)
                    .header("X-Iceberg-Access-Delegation", "vended-credentials")
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(withHeader.statusCode()).isEqualTo(403);
  }

  @Test
  void refreshVendsWhatALoadWouldNow() throws Exception {
    try (RESTCatalog client = client(writer)) {
      client.createTable(TableIdentifier.of("hr", "staff"), SCHEMA);
    }
    String token = server.token(writer[0], writer[1]);
    String base = "/api/catalog/v1/" + catalog + "/namespaces/hr/tables/staff/credentials";
    JsonNode rw = TestServer.json(server.sendAs(token, "GET", base, null).body());
    String location = load(token, "hr", "staff", false).get("metadata").get("location").asText();
    assertThat(rw.get("storage-credentials").get(0).get("prefix").asText()).isEqualTo(location);
    try (S3Client client = vendedClient(rw)) {
      assertThat(CephRgw.put(client, bucket, key(location, "/data/ok"), new byte[] {1}))
          .isEqualTo(200);
    }
    // Take write away (keep read): the next refresh is read-only.
    admin.revoke(
        catalog,
        "write_sales",
        Admin.grantJson("namespace", List.of("hr"), null, "TABLE_WRITE_DATA"));
    admin.grant(
        catalog,
        "write_sales",
        Admin.grantJson("namespace", List.of("hr"), null, "TABLE_READ_DATA"));
    JsonNode ro = TestServer.json(server.sendAs(token, "GET", base, null).body());
    try (S3Client client = vendedClient(ro)) {
      CephRgw.assertPutRefused(client, bucket, key(location, "/data/no"), new byte[] {1});
      assertThat(CephRgw.get(client, bucket, key(location, "/data/ok"))).isEqualTo(200);
    }
    assertThat(server.sendAs(token, "GET", base + "?planId=p1", null).statusCode()).isEqualTo(400);
    assertThat(server.sendAs(token, "GET", base.replace("staff", "missing"), null).statusCode())
        .isEqualTo(404);
    admin.revoke(
        catalog,
        "write_sales",
        Admin.grantJson("namespace", List.of("hr"), null, "TABLE_READ_DATA"));
    admin.grant(
        catalog,
        "write_sales",
        Admin.grantJson("namespace", List.of("hr"), null, "TABLE_WRITE_DATA"));
  }

  @Test
  void renameKeepsTheRecordedLocationAsTheScope() throws Exception {
    try (RESTCatalog client = client(writer)) {
      Table t = client.createTable(TableIdentifier.of("sales", "before"), SCHEMA);
      String location = t.location();
      client.renameTable(TableIdentifier.of("sales", "before"), TableIdentifier.of("hr", "after"));
      JsonNode loaded = load(server.token(writer[0], writer[1]), "hr", "after", true);
      assertThat(loaded.get("storage-credentials").get(0).get("prefix").asText())
          .isEqualTo(location);
      try (S3Client vended = vendedClient(loaded)) {
        assertThat(CephRgw.put(vended, bucket, key(location, "/data/after"), new byte[] {1}))
            .isEqualTo(200);
      }
      // The folder stays the renamed table's: a new table under the old name would default to it.
      HttpResponse<String> again =
          server.sendAs(
              server.token(writer[0], writer[1]),
              "POST",
              "/api/catalog/v1/" + catalog + "/namespaces/sales/tables",
              "{\"name\": \"before\", \"schema\": " + AuthorizationMatrixTest.SCHEMA + "}");
      assertThat(again.statusCode()).as(again.body()).isEqualTo(403);
      assertThat(again.body()).doesNotContain("s3.session-token");
    }
  }

  @Test
  void anUnsafeLocationIsServedWithoutCredentials() throws Exception {
    String token = server.token(writer[0], writer[1]);
    HttpResponse<String> created =
        server.sendAs(
            token,
            "POST",
            "/api/catalog/v1/" + catalog + "/namespaces/sales/tables",
            "{\"name\": \"dollar\", \"location\": \"s3://"
                + bucket
                + "/wh/sales/$dollar\", \"schema\": "
                + AuthorizationMatrixTest.SCHEMA
                + "}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
    assertThat(TestServer.json(created.body()).path("storage-credentials").size()).isZero();
    JsonNode loaded = load(token, "sales", "dollar", true);
    assertThat(loaded.path("storage-credentials").size()).isZero();
    assertThat(loaded.path("config").has("s3.access-key-id")).isFalse();
  }

  @Test
  void aThousandConcurrentLoadsOfAColdKeyMakeOneStsCall() throws Exception {
    try (RESTCatalog client = client(writer)) {
      client.createTable(TableIdentifier.of("sales", "hot"), SCHEMA);
    }
    String token = server.token(reader[0], reader[1]);
    double before = stsCalls();
    ExecutorService pool = Executors.newFixedThreadPool(32);
    HttpClient http = HttpClient.newHttpClient();
    List<Future<Integer>> results = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      results.add(
          pool.submit(
              () ->
                  http.send(
                          HttpRequest.newBuilder(
                                  URI.create(
                                      server.baseUrl()
                                          + "/api/catalog/v1/"
                                          + catalog
                                          + "/namespaces/sales/tables/hot"))
                              .header("Authorization", "Bearer " + token)
                              .build(),
                          HttpResponse.BodyHandlers.discarding())
                      .statusCode()));
    }
    for (Future<Integer> result : results) {
      assertThat(result.get()).isEqualTo(200);
    }
    pool.shutdown();
    assertThat(stsCalls() - before).isEqualTo(1.0);
  }

  private static double stsCalls() throws Exception {
    String metrics =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    for (String line : metrics.split("\n")) {
      if (line.startsWith("sluice_vending_provider_calls_total{backend=\"s3\"")) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return 0;
  }

  @Test
  void stsUnreachable_aCreateGets503_anAppliedCommit200WithoutCredentials() throws Exception {
    HttpResponse<String> created =
        server.send(
            "POST",
            "/api/management/v1/catalogs",
            catalogJson("nosts", "http://127.0.0.1:9").replace("/wh\"", "/nosts\""));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String base = "/api/catalog/v1/nosts";
    assertThat(server.send("POST", base + "/namespaces", "{\"namespace\": [\"n\"]}").statusCode())
        .isEqualTo(200);
    HttpResponse<String> failed =
        server.send(
            "POST",
            base + "/namespaces/n/tables",
            "{\"name\": \"t\", \"schema\": " + AuthorizationMatrixTest.SCHEMA + "}");
    assertThat(failed.statusCode()).as(failed.body()).isEqualTo(503);
    JsonNode error = TestServer.json(failed.body()).get("error");
    assertThat(error.get("type").asText()).isEqualTo("ServiceUnavailableException");
    assertThat(error.get("message").asText()).contains("nosts").contains("STS");
    assertThat(failed.body()).doesNotContain(rgw.secretKey());

    // A commit is applied before its answer vends: STS down then must not turn it into an error,
    // which Iceberg's client would take for a failed commit and send again (issue 33).
    Map<String, String> noDelegation = Map.of("X-Iceberg-Access-Delegation", "none");
    HttpResponse<String> table =
        server.sendAs(
            server.rootToken(),
            "POST",
            base + "/namespaces/n/tables",
            "{\"name\": \"t\", \"schema\": " + AuthorizationMatrixTest.SCHEMA + "}",
            noDelegation);
    assertThat(table.statusCode()).as(table.body()).isEqualTo(200);
    String key = "0190b3c4-6f2a-7c11-8a5e-0d6b9e1f2a33";
    String commit =
        "{\"requirements\": [], \"updates\": [{\"action\": \"set-properties\","
            + " \"updates\": {\"after-commit\": \"1\"}}]}";
    HttpResponse<String> committed =
        server.sendAs(
            server.rootToken(),
            "POST",
            base + "/namespaces/n/tables/t",
            commit,
            Map.of("Idempotency-Key", key));
    assertThat(committed.statusCode()).as(committed.body()).isEqualTo(200);
    JsonNode answer = TestServer.json(committed.body());
    assertThat(answer.path("metadata").path("properties").path("after-commit").asText())
        .isEqualTo("1");
    assertThat(answer.path("storage-credentials")).as("nothing could be vended").isEmpty();
    HttpResponse<String> loaded =
        server.sendAs(
            server.rootToken(), "GET", base + "/namespaces/n/tables/t", null, noDelegation);
    assertThat(
            TestServer.json(loaded.body())
                .path("metadata")
                .path("properties")
                .path("after-commit")
                .asText())
        .as("the commit stands")
        .isEqualTo("1");
    HttpResponse<String> again =
        server.sendAs(
            server.rootToken(),
            "POST",
            base + "/namespaces/n/tables/t",
            commit,
            Map.of("Idempotency-Key", key));
    assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
    assertThat(again.headers().firstValue("Idempotent-Replayed"))
        .as("the key kept the applied commit's answer, given again without credentials")
        .hasValue("true");
  }

  @Test
  void purgeDeletesTheTablesFilesServerSide() throws Exception {
    try (RESTCatalog client = client(writer);
        S3Client admin = rgw.adminClient()) {
      Table t = client.createTable(TableIdentifier.of("hr", "purged"), SCHEMA);
      DataFile file = writeDataFile(t, "p.parquet", "gone");
      t.newAppend().appendFile(file).commit();
      String dataKey = key(file.location(), "");
      assertThat(CephRgw.get(admin, bucket, dataKey)).isEqualTo(200);
      assertThat(client.dropTable(TableIdentifier.of("hr", "purged"), true)).isTrue();
      assertThatThrownBy(() -> CephRgw.get(admin, bucket, dataKey))
          .isInstanceOf(S3Exception.class)
          .satisfies(e -> assertThat(((S3Exception) e).statusCode()).isEqualTo(404));
    }
  }

  @Test
  void aLongReadOutlivesItsCredentialByRefreshing() throws Exception {
    HttpResponse<String> created =
        server.send(
            "POST",
            "/api/management/v1/catalogs",
            catalogJson("short", rgw.endpoint())
                .replace("\"durationSeconds\": 900", "\"durationSeconds\": 3")
                .replace("/wh\"", "/short\""));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(
            server
                .send("POST", "/api/catalog/v1/short/namespaces", "{\"namespace\": [\"n\"]}")
                .statusCode())
        .isEqualTo(200);
    RESTCatalog client = new RESTCatalog();
    client.initialize(
        "sluice",
        Map.of(
            "uri",
            server.catalogUri(),
            "warehouse",
            "short",
            "credential",
            TestServer.CLIENT_ID + ":" + TestServer.SECRET));
    try (client) {
      Table table = client.createTable(TableIdentifier.of("n", "long_read"), SCHEMA);
      DataFile file = writeDataFile(table, "r.parquet", "still-readable");
      table.newAppend().appendFile(file).commit();
      JsonNode first = load(server.rootToken(), "short", "n", "long_read", true);
      long expiresAt =
          first
              .get("storage-credentials")
              .get(0)
              .get("config")
              .get("s3.session-token-expires-at-ms")
              .asLong();
      Table reader = client.loadTable(TableIdentifier.of("n", "long_read"));
      Thread.sleep(Math.max(0, expiresAt - System.currentTimeMillis()) + 1500);
      // The first credential is dead at RGW...
      try (S3Client expired =
          rgw.clientWith(
              first
                  .get("storage-credentials")
                  .get(0)
                  .get("config")
                  .get("s3.access-key-id")
                  .asText(),
              first
                  .get("storage-credentials")
                  .get(0)
                  .get("config")
                  .get("s3.secret-access-key")
                  .asText(),
              first
                  .get("storage-credentials")
                  .get(0)
                  .get("config")
                  .get("s3.session-token")
                  .asText())) {
        String dataKey = file.location().replace("s3://" + bucket + "/", "");
        assertThatThrownBy(() -> CephRgw.get(expired, bucket, dataKey))
            .isInstanceOf(S3Exception.class)
            .satisfies(e -> assertThat(((S3Exception) e).statusCode()).isEqualTo(403));
      }
      // ...yet the client, loaded before it expired, keeps reading: it refreshed through the
      // catalog.
      try (var in = reader.io().newInputFile(file.location()).newStream()) {
        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
            .isEqualTo("still-readable");
      }
    }
  }

  @Test
  void onRequestCatalogsVendOnlyWhenAskedAndCommitsCarryCredentials() throws Exception {
    HttpResponse<String> created =
        server.send(
            "POST",
            "/api/management/v1/catalogs",
            catalogJson("asked", rgw.endpoint())
                .replace(
                    "\"durationSeconds\": 900",
                    "\"durationSeconds\": 900, \"vendCredentials\": \"on-request\"")
                .replace("/wh\"", "/asked\""));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String base = "/api/catalog/v1/asked/namespaces";
    assertThat(server.send("POST", base, "{\"namespace\": [\"n\"]}").statusCode()).isEqualTo(200);
    HttpResponse<String> made =
        server.send(
            "POST",
            base + "/n/tables",
            "{\"name\": \"t\", \"schema\": " + AuthorizationMatrixTest.SCHEMA + "}");
    assertThat(TestServer.json(made.body()).path("storage-credentials").size()).isZero();
    String token = server.rootToken();
    HttpResponse<String> commit =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + base + "/n/tables/t"))
                    .header("Authorization", "Bearer " + token)
                    .header("X-Iceberg-Access-Delegation", "vended-credentials")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"requirements\": [], \"updates\": [{\"action\": \"set-properties\", \"updates\": {\"k\": \"v\"}}]}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(commit.statusCode()).as(commit.body()).isEqualTo(200);
    assertThat(
            TestServer.json(commit.body())
                .get("storage-credentials")
                .get(0)
                .get("config")
                .has("s3.session-token"))
        .isTrue();
    assertThat(server.send("GET", base + "/n/tables/t", null).body())
        .doesNotContain("s3.session-token");
  }

  /**
   * Vend latency, cold (STS call) and warm (cache hit), against loads of the same table that vend
   * nothing (a principal without TABLE_READ_DATA) as the baseline. Printed for the record; timing
   * is not asserted (see the bench module for measurements).
   */
  @Test
  void vendLatencyColdAndWarm() throws Exception {
    try (RESTCatalog client = client(writer)) {
      client.createTable(TableIdentifier.of("sales", "latency"), SCHEMA);
    }
    String[] fresh = admin.principal("latency_reader", "readers");
    String token = server.token(fresh[0], fresh[1]);
    String strangerToken = server.token(stranger[0], stranger[1]);
    long coldStart = System.nanoTime();
    JsonNode cold = load(token, "sales", "latency", true);
    long coldNanos = System.nanoTime() - coldStart;
    assertThat(cold.get("storage-credentials")).hasSize(1);
    long[] warm = new long[300];
    long[] baseline = new long[300];
    for (int i = 0; i < warm.length; i++) {
      long t = System.nanoTime();
      JsonNode loaded = load(token, "sales", "latency", true);
      warm[i] = System.nanoTime() - t;
      assertThat(loaded.get("storage-credentials")).hasSize(1);
      t = System.nanoTime();
      load(strangerToken, "sales", "latency", false);
      baseline[i] = System.nanoTime() - t;
    }
    java.util.Arrays.sort(warm);
    java.util.Arrays.sort(baseline);
    System.out.printf(
        "VEND-LATENCY cold=%.2fms warm_p50=%.2fms warm_p99=%.2fms baseline_p50=%.2fms baseline_p99=%.2fms"
            + " warm/baseline_p50=%.2f%n",
        coldNanos / 1e6,
        warm[150] / 1e6,
        warm[296] / 1e6,
        baseline[150] / 1e6,
        baseline[296] / 1e6,
        (double) warm[150] / baseline[150]);
  }

  /**
   * Register as a user does it under the location rules: the table's files stay where they are, the
   * catalog entry that claimed them is gone (dropped without purge), and the file is registered
   * under a new name in the namespace that holds it. While the original still claims the files,
   * registering them again is refused: the copy's credential would cover its files.
   */
  @Test
  void registerVendsForTheRegisteredTable() throws Exception {
    try (RESTCatalog client = client(writer)) {
      client.createTable(TableIdentifier.of("hr", "original"), SCHEMA);
    }
    String token = server.token(writer[0], writer[1]);
    JsonNode original = load(token, "hr", "original", false);
    String register = "/api/catalog/v1/" + catalog + "/namespaces/hr/register";
    String request =
        "{\"name\": \"copy\", \"metadata-location\": \""
            + original.get("metadata-location").asText()
            + "\"}";
    HttpResponse<String> whileClaimed = server.sendAs(token, "POST", register, request);
    assertThat(whileClaimed.statusCode()).as(whileClaimed.body()).isEqualTo(403);
    assertThat(whileClaimed.body()).doesNotContain("s3.session-token");
    assertThat(
            server
                .sendAs(
                    token,
                    "HEAD",
                    "/api/catalog/v1/" + catalog + "/namespaces/hr/tables/copy",
                    null)
                .statusCode())
        .isEqualTo(404);
    try (RESTCatalog client = client(writer)) {
      assertThat(client.dropTable(TableIdentifier.of("hr", "original"), false)).isTrue();
    }
    HttpResponse<String> registered = server.sendAs(token, "POST", register, request);
    assertThat(registered.statusCode()).as(registered.body()).isEqualTo(200);
    JsonNode body = TestServer.json(registered.body());
    assertThat(body.get("storage-credentials").get(0).get("prefix").asText())
        .isEqualTo(original.get("metadata").get("location").asText());
    assertThat(body.get("config").get("client.refresh-credentials-endpoint").asText())
        .isEqualTo("v1/" + catalog + "/namespaces/hr/tables/copy/credentials");
    try (S3Client vended = vendedClient(body)) {
      assertThat(
              CephRgw.put(
                  vended,
                  bucket,
                  key(original.get("metadata").get("location").asText(), "/data/x"),
                  new byte[] {1}))
          .isEqualTo(200);
    }
  }
}

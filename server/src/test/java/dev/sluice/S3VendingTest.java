package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Admin;
import dev.sluice.testing.CephRgw;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.S3Store;
import dev.sluice.testing.TestServer;
import dev.sluice.testing.VendingContract;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * S3 credential vending, end to end on a real Ceph RGW with STS: Sluice's HTTP API, the real
 * Iceberg client with S3FileIO holding no keys of its own, and RGW deciding what a vended
 * credential may touch. The five scenarios every backend passes are {@link VendingContract}'s; here
 * are S3's own (STS unreachable, purge, one STS call for a cold key, latency, ...).
 */
@NeedsTestBeds
class S3VendingTest extends VendingContract {
  private static final String catalog = "lake";
  private RgwVendingBed bed;
  private CephRgw rgw;
  private String bucket;
  private String otherBucket;
  private String[] stranger;

  @Override
  protected TestServer startBackend() throws Exception {
    bed = RgwVendingBed.start("vend");
    rgw = bed.rgw();
    bucket = bed.bucket();
    otherBucket = rgw.newBucket("other");
    TestServer server = bed.server();
    HttpResponse<String> created =
        server.send(
            "POST", "/api/management/v1/catalogs", bed.catalogJson(catalog, rgw.endpoint()));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(created.body()).doesNotContain(rgw.secretKey());
    for (String ns : List.of("sales", "hr")) {
      bed.createNamespace(catalog, ns);
    }
    return server;
  }

  @Override
  protected void afterPrincipals() throws Exception {
    stranger = admin.principal("stranger", "strangers");
    admin.catalogRole(catalog, "props_only", "strangers");
    admin.grant(
        catalog,
        "props_only",
        Admin.grantJson("namespace", List.of("sales"), null, "TABLE_READ_PROPERTIES"));
  }

  @Override
  protected void stopBackend() throws Exception {
    if (bed != null) {
      bed.close();
    }
  }

  // ---- the contract's hooks ----

  @Override
  protected String catalog() {
    return catalog;
  }

  @Override
  protected void createCatalog(String name, String path, Map<String, Object> storageExtra)
      throws Exception {
    Map<String, Object> storage = new LinkedHashMap<>(storageExtra);
    storage.put("stsEndpoint", rgw.endpoint());
    bed.createCatalog(name, path, path, Map.of(), storage);
  }

  @Override
  protected StoreClient store(JsonNode config) {
    return bed.store(config);
  }

  @Override
  protected byte[] adminRead(String location) {
    return bed.adminRead(location);
  }

  /** Refused by RGW, not by Sluice: its 403. */
  @Override
  protected void assertRefused(ThrowingCallable call) {
    RgwVendingBed.assertS3Status(403, call);
  }

  @Override
  protected String ioRefusal() {
    return "Status Code: 403";
  }

  @Override
  protected String refreshEndpointProperty() {
    return "client.refresh-credentials-endpoint";
  }

  @Override
  protected void assertWriterResponse(JsonNode loaded, Table table) {
    JsonNode credential = loaded.get("storage-credentials").get(0);
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
    assertThat(credential.get("config").get("s3.access-key-id").asText())
        .isNotEqualTo(rgw.accessKey());
  }

  /** The same names in another bucket of the bed. */
  @Override
  protected List<String> filesElsewhere(String t) {
    String key = S3Store.keyOf(t) + "/data/x.parquet";
    try (S3Client admin = rgw.adminClient()) {
      CephRgw.put(admin, otherBucket, key, new byte[] {7});
    }
    return List.of("s3://" + otherBucket + "/" + key);
  }

  @Override
  protected List<String> widerLists(String t) {
    return List.of(t.substring(0, t.lastIndexOf('/') + 1), "s3://" + bucket + "/");
  }

  @Override
  protected long expiresAtMillis(JsonNode config) {
    return config.get("s3.session-token-expires-at-ms").asLong();
  }

  /** The first credential is dead at RGW. */
  @Override
  protected void assertExpiredRefused(JsonNode config, String location) {
    StoreClient expired = store(config);
    RgwVendingBed.assertS3Status(403, () -> expired.get(location));
  }

  // ---- S3's own ----

  private JsonNode load(String token, String ns, String table, boolean askForCredentials)
      throws Exception {
    return bed.load(token, catalog, ns, table, askForCredentials);
  }

  @Test
  void aLoadThatDeclinesDelegationGetsNoCredentialsFromAnAlwaysCatalog() throws Exception {
    try (RESTCatalog client = client(catalog, writer)) {
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
    try (RESTCatalog client = client(catalog, writer)) {
      client.createTable(TableIdentifier.of("sales", "props"), SCHEMA);
    }
    String token = server.token(stranger[0], stranger[1]);
    HttpResponse<String> asked =
        server.sendAs(
            token, "GET", "/api/catalog/v1/" + catalog + "/namespaces/sales/tables/props", null);
    assertThat(asked.statusCode()).isEqualTo(200);
    assertThat(TestServer.json(asked.body()).path("storage-credentials").size()).isZero();
    HttpResponse<String> withHeader = get(stranger, tablePath(catalog, "sales", "props"));
    assertThat(withHeader.statusCode()).isEqualTo(403);
  }

  @Test
  void renameKeepsTheRecordedLocationAsTheScope() throws Exception {
    try (RESTCatalog client = client(catalog, writer)) {
      Table t = client.createTable(TableIdentifier.of("sales", "before"), SCHEMA);
      String location = t.location();
      client.renameTable(TableIdentifier.of("sales", "before"), TableIdentifier.of("hr", "after"));
      JsonNode loaded = load(server.token(writer[0], writer[1]), "hr", "after", true);
      assertThat(loaded.get("storage-credentials").get(0).get("prefix").asText())
          .isEqualTo(location);
      try (S3Client vended = bed.vendedClient(loaded)) {
        assertThat(CephRgw.put(vended, bucket, bed.key(location, "/data/after"), new byte[] {1}))
            .isEqualTo(200);
      }
      // The folder stays the renamed table's: a new table under the old name gets its own, and
      // its credential does not reach the renamed table's files.
      HttpResponse<String> again =
          server.sendAs(
              server.token(writer[0], writer[1]),
              "POST",
              "/api/catalog/v1/" + catalog + "/namespaces/sales/tables",
              "{\"name\": \"before\", \"schema\": " + AuthorizationMatrixTest.SCHEMA + "}");
      assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
      String fresh = TestServer.json(again.body()).at("/metadata/location").asText();
      assertThat(fresh).startsWith(location + "-");
      JsonNode reloaded = load(server.token(writer[0], writer[1]), "sales", "before", true);
      try (S3Client vended = bed.vendedClient(reloaded)) {
        RgwVendingBed.assertS3Status(
            403, () -> CephRgw.get(vended, bucket, bed.key(location, "/data/after")));
      }
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
    try (RESTCatalog client = client(catalog, writer)) {
      client.createTable(TableIdentifier.of("sales", "hot"), SCHEMA);
    }
    String token = server.token(reader[0], reader[1]);
    double before = stsCalls();
    ExecutorService pool = Executors.newFixedThreadPool(32);
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest load =
        HttpRequest.newBuilder(URI.create(server.baseUrl() + tablePath(catalog, "sales", "hot")))
            .header("Authorization", "Bearer " + token)
            .build();
    List<Future<Integer>> results = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      results.add(
          pool.submit(() -> http.send(load, HttpResponse.BodyHandlers.discarding()).statusCode()));
    }
    for (Future<Integer> result : results) {
      assertThat(result.get()).isEqualTo(200);
    }
    pool.shutdown();
    assertThat(stsCalls() - before).isEqualTo(1.0);
  }

  private double stsCalls() throws Exception {
    String metrics = server.sendAs(null, "GET", "/metrics", null).body();
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
            bed.catalogJson("nosts", "http://127.0.0.1:9").replace("/wh\"", "/nosts\""));
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
    try (RESTCatalog client = client(catalog, writer);
        S3Client admin = rgw.adminClient()) {
      Table t = client.createTable(TableIdentifier.of("hr", "purged"), SCHEMA);
      DataFile file = RgwVendingBed.writeDataFile(t, "p.parquet", "gone");
      t.newAppend().appendFile(file).commit();
      String dataKey = bed.key(file.location(), "");
      assertThat(CephRgw.get(admin, bucket, dataKey)).isEqualTo(200);
      assertThat(client.dropTable(TableIdentifier.of("hr", "purged"), true)).isTrue();
      assertThatThrownBy(() -> CephRgw.get(admin, bucket, dataKey))
          .isInstanceOf(S3Exception.class)
          .satisfies(e -> assertThat(((S3Exception) e).statusCode()).isEqualTo(404));
    }
  }

  @Test
  void onRequestCatalogsVendOnlyWhenAskedAndCommitsCarryCredentials() throws Exception {
    HttpResponse<String> created =
        server.send(
            "POST",
            "/api/management/v1/catalogs",
            bed.catalogJson("asked", rgw.endpoint())
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
        server.sendAs(
            token,
            "POST",
            base + "/n/tables/t",
            "{\"requirements\": [], \"updates\": [{\"action\": \"set-properties\","
                + " \"updates\": {\"k\": \"v\"}}]}",
            Map.of(RgwVendingBed.DELEGATION, "vended-credentials"));
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
    try (RESTCatalog client = client(catalog, writer)) {
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
    try (RESTCatalog client = client(catalog, writer)) {
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
    try (RESTCatalog client = client(catalog, writer)) {
      assertThat(client.dropTable(TableIdentifier.of("hr", "original"), false)).isTrue();
    }
    HttpResponse<String> registered = server.sendAs(token, "POST", register, request);
    assertThat(registered.statusCode()).as(registered.body()).isEqualTo(200);
    JsonNode body = TestServer.json(registered.body());
    assertThat(body.get("storage-credentials").get(0).get("prefix").asText())
        .isEqualTo(original.get("metadata").get("location").asText());
    assertThat(body.get("config").get("client.refresh-credentials-endpoint").asText())
        .isEqualTo("v1/" + catalog + "/namespaces/hr/tables/copy/credentials");
    try (S3Client vended = bed.vendedClient(body)) {
      assertThat(
              CephRgw.put(
                  vended,
                  bucket,
                  bed.key(original.get("metadata").get("location").asText(), "/data/x"),
                  new byte[] {1}))
          .isEqualTo(200);
    }
  }
}

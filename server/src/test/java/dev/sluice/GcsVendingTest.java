package dev.sluice;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.OAuth2Credentials;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageException;
import com.google.cloud.storage.StorageOptions;
import dev.sluice.testing.Admin;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.TestServer;
import dev.sluice.testing.gcp.Boundary;
import dev.sluice.testing.gcp.GoogleCloudFake;
import dev.sluice.testing.gcp.ServiceAccount;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * GCS credential vending end to end without GCS: a real Sluice server with a GCS catalog whose
 * credential source is a service-account key of the loopback {@link GoogleCloudFake} (Google's
 * documented OAuth, STS, IAM Credentials and the GCS JSON API subset GCSFileIO uses, enforcing each
 * token's account IAM and access boundary), the real google-auth exchanging tokens, and the real
 * Iceberg client with GCSFileIO holding no Google credential of its own.
 */
class GcsVendingTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PROJECT = "proj-123";
  private static final String CATALOG = "gcslake";
  private static final String BUCKET = "lake";
  private static final String CATALOG_SA = "sluice-catalog@proj-123.iam.gserviceaccount.com";
  private static final String SHORT_SA = "sluice-short@proj-123.iam.gserviceaccount.com";
  private static final String STRANGER_SA = "stranger@proj-123.iam.gserviceaccount.com";
  private static GoogleCloudFake google;
  private static TestServer server;
  private static Admin admin;
  private static String[] writer;
  private static String[] reader;

  @BeforeAll
  static void start() throws Exception {
    google = GoogleCloudFake.start();
    google.createBucket(BUCKET);
    google.createBucket("elsewhere");
    ServiceAccount catalog = google.addServiceAccount(CATALOG_SA, PROJECT, Set.of(BUCKET));
    google.addServiceAccount(SHORT_SA, PROJECT, Set.of(BUCKET));
    google.addServiceAccount(STRANGER_SA, PROJECT, Set.of(BUCKET));
    google.allowImpersonation(CATALOG_SA, SHORT_SA);
    Path key = catalog.writeKeyFile(Files.createTempFile("sluice-gcs", ".json"));
    server =
        TestServer.start(
            null,
            "storage:\n  credentialSources:\n    gcp:\n      type: google-service-account\n"
                + "      keyFile: \""
                + key
                + "\"\n      endpoint: \""
                + google.endpoint()
                + "\"\n  vendingMinDurationSeconds: 1\n");
    createCatalog(CATALOG, "wh", Map.of());
    admin = new Admin(server);
    for (String ns : List.of("sales", "hr")) {
      assertThat(namespace(CATALOG, ns).statusCode()).isEqualTo(200);
    }
    writer = admin.principal("writer", "writers");
    reader = admin.principal("reader", "readers");
    admin.catalogRole(CATALOG, "write_all", "writers");
    admin.catalogRole(CATALOG, "read_sales", "readers");
    for (String ns : List.of("sales", "hr")) {
      for (String privilege : List.of("TABLE_WRITE_DATA", "TABLE_CREATE", "TABLE_FULL_METADATA")) {
        admin.grant(
            CATALOG, "write_all", Admin.grantJson("namespace", List.of(ns), null, privilege));
      }
    }
    admin.grant(
        CATALOG,
        "read_sales",
        Admin.grantJson("namespace", List.of("sales"), null, "TABLE_READ_DATA"));
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

  /** A GCS catalog allowed at and based on {@code gs://lake/<path>}, with extra storage keys. */
  private static void createCatalog(String name, String path, Map<String, Object> extra)
      throws Exception {
    assertThat(createCatalogResponse(name, path, extra).statusCode()).isEqualTo(201);
  }

  private static HttpResponse<String> createCatalogResponse(
      String name, String path, Map<String, Object> extra) throws Exception {
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
    return server.send("POST", "/api/management/v1/catalogs", json);
  }

  private static HttpResponse<String> namespace(String catalog, String ns) throws Exception {
    return server.send(
        "POST", "/api/catalog/v1/" + catalog + "/namespaces", "{\"namespace\": [\"" + ns + "\"]}");
  }

  /**
   * The real client, configured with no storage credential at all; {credentials} = {id, secret}.
   */
  private static RESTCatalog client(String catalog, String[] credentials) {
    RESTCatalog client = new RESTCatalog();
    client.initialize(
        "sluice",
        Map.of(
            "uri",
            server.catalogUri(),
            "warehouse",
            catalog,
            "credential",
            credentials[0] + ":" + credentials[1]));
    return client;
  }

  private static HttpResponse<String> get(String[] who, String path) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
            .header("Authorization", "Bearer " + server.token(who[0], who[1]))
            .header(RgwVendingBed.DELEGATION, "vended-credentials")
            .build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static String tablePath(String catalog, String ns, String table) {
    return "/api/catalog/v1/" + catalog + "/namespaces/" + ns + "/tables/" + table;
  }

  /** loadTable asking for vended credentials; the whole response. */
  private static JsonNode load(String[] who, String catalog, String ns, String table)
      throws Exception {
    HttpResponse<String> response = get(who, tablePath(catalog, ns, table));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return TestServer.json(response.body());
  }

  /** The one vended credential's config, through the refresh endpoint. */
  private static JsonNode refreshed(String[] who, String catalog, String ns, String table)
      throws Exception {
    HttpResponse<String> response = get(who, tablePath(catalog, ns, table) + "/credentials");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode credentials = TestServer.json(response.body()).get("storage-credentials");
    assertThat(credentials).hasSize(1);
    return credentials.get(0).get("config");
  }

  /** A plain google-cloud-storage client holding only the vended token. */
  private static Storage storage(JsonNode config) {
    AccessToken token =
        new AccessToken(
            config.get("gcs.oauth2.token").asText(),
            new Date(config.get("gcs.oauth2.token-expires-at").asLong()));
    return StorageOptions.newBuilder()
        .setHost(config.get("gcs.service.host").asText())
        .setProjectId(config.get("gcs.project-id").asText())
        .setCredentials(OAuth2Credentials.create(token))
        .build()
        .getService();
  }

  private static String object(String location) {
    return location.replace("gs://" + BUCKET + "/", "");
  }

  private static String read(Table table, String location) throws Exception {
    try (InputStream in = table.io().newInputFile(location).newStream()) {
      return new String(in.readAllBytes(), UTF_8);
    }
  }

  private static void assertGcsStatus(int status, ThrowingCallable call) {
    assertThatThrownBy(call)
        .isInstanceOf(StorageException.class)
        .satisfies(e -> assertThat(((StorageException) e).getCode()).isEqualTo(status));
  }

  private static void put(Storage storage, String name) {
    storage.create(BlobInfo.newBuilder(BUCKET, name).build(), new byte[] {1});
  }

  @Test
  void writerCreatesAppendsReadsBackAndPurgesWithDownscopedTokensOnly() throws Exception {
    TableIdentifier id = TableIdentifier.of("sales", "orders");
    try (RESTCatalog client = client(CATALOG, writer)) {
      Table table = client.createTable(id, RgwVendingBed.SCHEMA);
      DataFile file = RgwVendingBed.writeDataFile(table, "a.parquet", "order-1");
      table.newAppend().appendFile(file).commit();
      Table reloaded = client.loadTable(id);
      assertThat(reloaded.currentSnapshot().addedDataFiles(reloaded.io())).hasSize(1);
      assertThat(read(reloaded, file.location())).isEqualTo("order-1");
      assertThat(google.bytes(BUCKET, object(file.location()))).hasValue("order-1".getBytes(UTF_8));

      JsonNode response = load(writer, CATALOG, "sales", "orders");
      JsonNode config = response.get("config");
      JsonNode credential = response.get("storage-credentials");
      assertThat(credential).hasSize(1);
      assertThat(credential.get(0).get("prefix").asText()).isEqualTo(table.location());
      JsonNode vended = credential.get(0).get("config");
      assertThat(vended.get("gcs.service.host").asText()).isEqualTo(google.endpoint());
      assertThat(vended.get("gcs.project-id").asText()).isEqualTo(PROJECT);
      assertThat(config.get("gcs.oauth2.token").asText())
          .isEqualTo(vended.get("gcs.oauth2.token").asText());
      assertThat(config.get("gcs.oauth2.refresh-credentials-endpoint").asText())
          .isEqualTo("v1/" + CATALOG + "/namespaces/sales/tables/orders/credentials");
      assertThat(config.get("gcs.oauth2.refresh-credentials-enabled").asText()).isEqualTo("true");
      String token = vended.get("gcs.oauth2.token").asText();
      assertThat(google.accountOf(token)).hasValue(CATALOG_SA);
      Boundary boundary = google.boundaryOf(token).orElseThrow();
      assertThat(boundary.rules()).hasSize(1);
      assertThat(boundary.rules().get(0).bucket()).isEqualTo(BUCKET);
      assertThat(boundary.rules().get(0).roles())
          .containsExactlyInAnyOrder(
              "roles/storage.legacyObjectReader",
              "roles/storage.objectViewer",
              "roles/storage.objectUser");
      assertThat(boundary.rules().get(0).condition().orElseThrow().toString())
          .contains("objects/" + object(table.location()) + "/'");
      assertThat(vended.toString()).doesNotContain("PRIVATE KEY");

      reloaded.io().deleteFile(file.location());
      assertThat(google.exists(BUCKET, object(file.location()))).as("deleted").isFalse();
      assertThat(client.dropTable(id, true)).isTrue();
    }
    assertThat(google.names(BUCKET, "wh/sales/orders/")).as("purged").isEmpty();
  }

  @Test
  void aReadOnlyPrincipalsWriteAndDeleteAreRefusedByTheStore() throws Exception {
    DataFile file;
    try (RESTCatalog client = client(CATALOG, writer)) {
      Table table = client.createTable(TableIdentifier.of("sales", "ro"), RgwVendingBed.SCHEMA);
      file = RgwVendingBed.writeDataFile(table, "x.parquet", "read-me");
      table.newAppend().appendFile(file).commit();
    }
    String evil = file.location().replace("x.parquet", "evil.parquet");
    try (RESTCatalog client = client(CATALOG, reader)) {
      Table table = client.loadTable(TableIdentifier.of("sales", "ro"));
      assertThat(read(table, file.location())).isEqualTo("read-me");
      int before = google.refusals().size();
      assertThatThrownBy(
              () -> {
                try (OutputStream out = table.io().newOutputFile(evil).create()) {
                  out.write(1);
                }
              })
          .hasStackTraceContaining("403");
      assertThatThrownBy(() -> table.io().deleteFile(file.location()))
          .hasStackTraceContaining("403");
      assertThat(google.refusals().subList(before, google.refusals().size()))
          .extracting(r -> r.permission())
          .contains("storage.objects.create", "storage.objects.delete");
    }
    JsonNode config = refreshed(reader, CATALOG, "sales", "ro");
    Storage storage = storage(config);
    assertThat(storage.readAllBytes(BlobId.of(BUCKET, object(file.location()))))
        .isEqualTo("read-me".getBytes(UTF_8));
    assertGcsStatus(403, () -> put(storage, object(evil)));
    assertGcsStatus(403, () -> storage.delete(BlobId.of(BUCKET, object(file.location()))));
    assertThat(google.exists(BUCKET, object(evil))).as("after refused writes").isFalse();
    assertThat(google.bytes(BUCKET, object(file.location())))
        .as("after refused deletes")
        .hasValue("read-me".getBytes(UTF_8));
  }

  @Test
  void aTokenForOneTableIsRefusedOnAnotherOnASiblingPrefixAndOnAWiderList() throws Exception {
    String t;
    String sibling;
    String other;
    try (RESTCatalog client = client(CATALOG, writer)) {
      Table a = client.createTable(TableIdentifier.of("hr", "t"), RgwVendingBed.SCHEMA);
      t = a.location();
      // A table whose location starts like t's: t's prefix ".../t/" must not cover it.
      Table s =
          client.createTable(
              TableIdentifier.of("hr", "t_sibling"),
              RgwVendingBed.SCHEMA,
              PartitionSpec.unpartitioned(),
              t + "2",
              Map.of());
      sibling = s.location();
      s.newAppend().appendFile(RgwVendingBed.writeDataFile(s, "s.parquet", "sibling")).commit();
      Table b = client.createTable(TableIdentifier.of("hr", "b"), RgwVendingBed.SCHEMA);
      other = b.location();
      b.newAppend().appendFile(RgwVendingBed.writeDataFile(b, "b.parquet", "other")).commit();
    }
    assertThat(sibling).isEqualTo(t + "2");
    google.put("elsewhere", "wh/hr/t/data/x.parquet", new byte[] {7});
    Storage storage = storage(refreshed(writer, CATALOG, "hr", "t"));
    put(storage, object(t) + "/data/ok.parquet");
    assertThat(google.exists(BUCKET, object(t) + "/data/ok.parquet")).isTrue();
    assertThat(storage.list(BUCKET, Storage.BlobListOption.prefix(object(t) + "/")).getValues())
        .isNotEmpty();
    for (String file : List.of(sibling + "/data/s.parquet", other + "/data/b.parquet")) {
      String prefix = object(file.substring(0, file.indexOf("/data/")));
      assertThat(google.exists(BUCKET, object(file))).as("%s exists", file).isTrue();
      assertGcsStatus(403, () -> storage.readAllBytes(BlobId.of(BUCKET, object(file))));
      assertGcsStatus(403, () -> storage.list(BUCKET, Storage.BlobListOption.prefix(prefix + "/")));
      assertGcsStatus(403, () -> put(storage, prefix + "/data/evil.parquet"));
      assertThat(google.exists(BUCKET, prefix + "/data/evil.parquet")).isFalse();
      assertGcsStatus(403, () -> storage.delete(BlobId.of(BUCKET, object(file))));
      assertThat(google.exists(BUCKET, object(file))).isTrue();
    }
    // A list prefix without the trailing slash would also show t2's names.
    assertGcsStatus(403, () -> storage.list(BUCKET, Storage.BlobListOption.prefix(object(t))));
    assertGcsStatus(403, () -> storage.list(BUCKET, Storage.BlobListOption.prefix("wh/hr/")));
    assertGcsStatus(403, () -> storage.list(BUCKET));
    // The same object name in another bucket is outside the boundary's resource.
    assertGcsStatus(
        403, () -> storage.readAllBytes(BlobId.of("elsewhere", "wh/hr/t/data/x.parquet")));
  }

  /**
   * A catalog impersonating a service account for 3 seconds: the token dies at the store; the
   * client that held it refreshes through the catalog and reads on.
   */
  @Test
  void anExpiredTokenIsRefusedAndTheClientRefreshesThroughTheCatalog() throws Exception {
    createCatalog("gcsshort", "short", Map.of("gcsServiceAccount", SHORT_SA, "durationSeconds", 3));
    assertThat(namespace("gcsshort", "n").statusCode()).isEqualTo(200);
    String[] root = {TestServer.CLIENT_ID, TestServer.SECRET};
    try (RESTCatalog client = client("gcsshort", root)) {
      Table table = client.createTable(TableIdentifier.of("n", "long_read"), RgwVendingBed.SCHEMA);
      DataFile file = RgwVendingBed.writeDataFile(table, "r.parquet", "still-readable");
      table.newAppend().appendFile(file).commit();
      JsonNode first = refreshed(root, "gcsshort", "n", "long_read");
      String token = first.get("gcs.oauth2.token").asText();
      assertThat(google.accountOf(token)).as("impersonated").hasValue(SHORT_SA);
      long expiresAt = first.get("gcs.oauth2.token-expires-at").asLong();
      assertThat(expiresAt).isLessThanOrEqualTo(System.currentTimeMillis() + 3000);
      Table reader = client.loadTable(TableIdentifier.of("n", "long_read"));
      Thread.sleep(Math.max(0, expiresAt - System.currentTimeMillis()) + 1000);
      // google-cloud-storage will not even send an expired token; a raw request does.
      HttpResponse<String> expired =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(
                              google.endpoint()
                                  + "/storage/v1/b/"
                                  + BUCKET
                                  + "/o/"
                                  + URLEncoder.encode(object(file.location()), UTF_8)
                                  + "?alt=media"))
                      .header("Authorization", "Bearer " + token)
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(expired.statusCode()).as(expired.body()).isEqualTo(401);
      int exchanges = google.exchanges().size();
      assertThat(read(reader, file.location())).isEqualTo("still-readable");
      assertThat(google.exchanges().size())
          .as("the client's read went through a fresh token")
          .isGreaterThan(exchanges);
    }
  }

  @Test
  void aRevokedWriteGrantGivesAReadOnlyTokenAtTheNextRefresh() throws Exception {
    String[] editor = admin.principal("editor", "editors");
    admin.catalogRole(CATALOG, "edit_hr", "editors");
    String write = Admin.grantJson("table", List.of("hr"), "payroll", "TABLE_WRITE_DATA");
    try (RESTCatalog client = client(CATALOG, writer)) {
      client.createTable(TableIdentifier.of("hr", "payroll"), RgwVendingBed.SCHEMA);
    }
    admin.grant(CATALOG, "edit_hr", write);
    JsonNode before = refreshed(editor, CATALOG, "hr", "payroll");
    assertThat(google.boundaryOf(before.get("gcs.oauth2.token").asText()).orElseThrow().rules())
        .allSatisfy(rule -> assertThat(rule.roles()).contains("roles/storage.objectUser"));
    String location =
        load(writer, CATALOG, "hr", "payroll").get("metadata").get("location").asText();
    put(storage(before), object(location) + "/data/w.parquet");

    admin.revoke(CATALOG, "edit_hr", write);
    admin.grant(
        CATALOG, "edit_hr", Admin.grantJson("table", List.of("hr"), "payroll", "TABLE_READ_DATA"));
    JsonNode after = refreshed(editor, CATALOG, "hr", "payroll");
    Boundary narrowed = google.boundaryOf(after.get("gcs.oauth2.token").asText()).orElseThrow();
    assertThat(narrowed.rules())
        .allSatisfy(rule -> assertThat(rule.roles()).doesNotContain("roles/storage.objectUser"));
    Storage readOnly = storage(after);
    assertThat(readOnly.readAllBytes(BlobId.of(BUCKET, object(location) + "/data/w.parquet")))
        .containsExactly(1);
    assertGcsStatus(403, () -> put(readOnly, object(location) + "/data/w2.parquet"));
    assertThat(google.exists(BUCKET, object(location) + "/data/w2.parquet")).isFalse();
  }

  /**
   * An STS outage is a 503 naming the catalog on load and on refresh, every time (a failure is not
   * cached), and vending resumes when the STS is back.
   */
  @Test
  void anStsOutageIsA503NamingTheCatalogAndIsNotCached() throws Exception {
    try (RESTCatalog client = client(CATALOG, writer)) {
      client.createTable(TableIdentifier.of("sales", "outage"), RgwVendingBed.SCHEMA);
    }
    // The writer's token is cached; the reader's (read-only) is not yet: its vend needs the STS.
    String path = tablePath(CATALOG, "sales", "outage");
    google.setStsUnavailable(true);
    try {
      for (String uri : List.of(path, path + "/credentials", path)) {
        HttpResponse<String> response = get(reader, uri);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
        assertThat(response.body())
            .contains("Cannot vend credentials for catalog " + CATALOG)
            .contains("HTTP 503")
            .doesNotContain("PRIVATE KEY");
      }
    } finally {
      google.setStsUnavailable(false);
    }
    assertThat(refreshed(reader, CATALOG, "sales", "outage").get("gcs.oauth2.token").asText())
        .isNotEmpty();
  }

  /**
   * Impersonation the catalog's identity may not do is refused by Google: the catalog cannot even
   * write a table's metadata (a 503, not a 500), and vending never got a token for that account.
   */
  @Test
  void impersonationWithoutTokenCreatorIsRefusedByGoogle() throws Exception {
    // On request only: the create below asks for no credentials, so the catalog's own write of
    // the first metadata file is what Google refuses.
    createCatalog(
        "gcsdenied",
        "denied",
        Map.of("gcsServiceAccount", STRANGER_SA, "vendCredentials", "on-request"));
    assertThat(namespace("gcsdenied", "n").statusCode()).isEqualTo(200);
    HttpResponse<String> created =
        server.send(
            "POST",
            "/api/catalog/v1/gcsdenied/namespaces/n/tables",
            "{\"name\":\"t\",\"schema\":" + AuthorizationMatrixTest.SCHEMA + "}");
    // The catalog's own metadata write is refused by Google: the storage's answer, not a bug.
    assertThat(created.statusCode()).as(created.body()).isEqualTo(503);
    assertThat(created.body())
        .contains("ServiceUnavailableException")
        .contains("The catalog's storage refused or failed the request")
        .doesNotContain("PRIVATE KEY");
    assertThat(
            server
                .send("HEAD", "/api/catalog/v1/gcsdenied/namespaces/n/tables/t", null)
                .statusCode())
        .isEqualTo(404);
    assertThat(google.exchanges()).noneMatch(e -> e.subjectAccount().equals(STRANGER_SA));
  }

  /** Location rules apply to gs:// unchanged, and a bucket root can never be scoped. */
  @Test
  void locationRulesHoldForGsLocations() throws Exception {
    String tables = "/api/catalog/v1/" + CATALOG + "/namespaces/hr/tables";
    String schema = "\"schema\":" + AuthorizationMatrixTest.SCHEMA;
    HttpResponse<String> outside =
        server.send(
            "POST", tables, "{\"name\":\"o\",\"location\":\"gs://elsewhere/x\"," + schema + "}");
    assertThat(outside.statusCode()).as(outside.body()).isIn(400, 403);
    HttpResponse<String> escape =
        server.send(
            "POST",
            tables,
            "{\"name\":\"e\",\"location\":\"gs://lake/wh/hr/e/%2e%2e/%2e%2e/sales\","
                + schema
                + "}");
    assertThat(escape.statusCode()).as(escape.body()).isEqualTo(403);
    assertThat(escape.body()).contains("encoded relative segment");
    HttpResponse<String> root =
        server.send(
            "POST",
            tables,
            "{\"name\":\"r\"," + schema + ",\"properties\":{\"write.data.path\":\"gs://lake\"}}");
    assertThat(root.statusCode()).as(root.body()).isIn(400, 403);
    for (String name : List.of("o", "e", "r")) {
      assertThat(server.send("HEAD", tables + "/" + name, null).statusCode()).isEqualTo(404);
    }
  }
}

package dev.sluice;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.OAuth2Credentials;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageException;
import com.google.cloud.storage.StorageOptions;
import dev.sluice.testing.CredentialSourcesYaml;
import dev.sluice.testing.TestServer;
import dev.sluice.testing.VendingContract;
import dev.sluice.testing.gcp.Boundary;
import dev.sluice.testing.gcp.GoogleCloudFake;
import dev.sluice.testing.gcp.ServiceAccount;
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
import java.util.stream.StreamSupport;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * GCS credential vending end to end without GCS: a real Sluice server with a GCS catalog whose
 * credential source is a service-account key of the loopback {@link GoogleCloudFake} (Google's
 * documented OAuth, STS, IAM Credentials and the GCS JSON API subset GCSFileIO uses, enforcing each
 * token's account IAM and access boundary), the real google-auth exchanging tokens, and the real
 * Iceberg client with GCSFileIO holding no Google credential of its own. The five scenarios every
 * backend passes are {@link VendingContract}'s; GCS's own are below.
 */
class GcsVendingTest extends VendingContract {
  private static final String PROJECT = "proj-123";
  private static final String CATALOG = "gcslake";
  private static final String BUCKET = "lake";
  private static final String CATALOG_SA = "sluice-catalog@proj-123.iam.gserviceaccount.com";
  private static final String SHORT_SA = "sluice-short@proj-123.iam.gserviceaccount.com";
  private static final String STRANGER_SA = "stranger@proj-123.iam.gserviceaccount.com";
  private static final String OBJECT_USER = "roles/storage.objectUser";
  private GoogleCloudFake google;

  @Override
  protected TestServer startBackend() throws Exception {
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
            CredentialSourcesYaml.googleServiceAccount("gcp", key.toString(), google.endpoint())
                .vendingMinDurationSeconds(1)
                .toYaml());
    createCatalog(CATALOG, "wh", Map.of());
    for (String ns : List.of("sales", "hr")) {
      assertThat(namespace(CATALOG, ns).statusCode()).isEqualTo(200);
    }
    return server;
  }

  @Override
  protected void stopBackend() throws Exception {
    if (server != null) {
      server.close();
    }
    if (google != null) {
      google.close();
    }
  }

  // ---- the contract's hooks ----

  @Override
  protected String catalog() {
    return CATALOG;
  }

  /** A GCS catalog allowed at and based on {@code gs://lake/<path>}, with extra storage keys. */
  @Override
  protected void createCatalog(String name, String path, Map<String, Object> extra)
      throws Exception {
    HttpResponse<String> created = createCatalogResponse(name, path, extra);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
  }

  private HttpResponse<String> createCatalogResponse(
      String name, String path, Map<String, Object> extra) throws Exception {
    String location = "gs://" + BUCKET + "/" + path;
    Map<String, Object> storage = new HashMap<>(extra);
    storage.put("storageType", "GCS");
    storage.put("allowedLocations", List.of(location));
    storage.put("credentialSource", "gcp");
    return server.postCatalog(name, location, storage);
  }

  /** Impersonating a service account whose tokens live {@code seconds}. */
  @Override
  protected Map<String, Object> shortLived(int seconds) {
    return Map.of("gcsServiceAccount", SHORT_SA, "durationSeconds", seconds);
  }

  /** A plain google-cloud-storage client holding only the vended token. */
  @Override
  protected StoreClient store(JsonNode config) {
    Storage storage = storage(config);
    return new StoreClient() {
      @Override
      public byte[] get(String location) {
        return storage.readAllBytes(BlobId.of(bucketOf(location), object(location)));
      }

      @Override
      public void put(String location, byte[] content) {
        storage.create(BlobInfo.newBuilder(bucketOf(location), object(location)).build(), content);
      }

      @Override
      public void delete(String location) {
        storage.delete(BlobId.of(bucketOf(location), object(location)));
      }

      @Override
      public List<String> list(String location) {
        String prefix = object(location);
        Iterable<com.google.cloud.storage.Blob> page =
            prefix.isEmpty()
                ? storage.list(bucketOf(location)).getValues()
                : storage
                    .list(bucketOf(location), Storage.BlobListOption.prefix(prefix))
                    .getValues();
        return StreamSupport.stream(page.spliterator(), false).map(b -> b.getName()).toList();
      }
    };
  }

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

  @Override
  protected byte[] adminRead(String location) {
    return google.bytes(bucketOf(location), object(location)).orElse(null);
  }

  @Override
  protected void assertRefused(ThrowingCallable call) {
    assertGcsStatus(403, call);
  }

  @Override
  protected String refreshEndpointProperty() {
    return "gcs.oauth2.refresh-credentials-endpoint";
  }

  @Override
  protected void assertWriterResponse(JsonNode response, Table table) {
    JsonNode config = response.get("config");
    JsonNode vended = response.get("storage-credentials").get(0).get("config");
    assertThat(vended.get("gcs.service.host").asText()).isEqualTo(google.endpoint());
    assertThat(vended.get("gcs.project-id").asText()).isEqualTo(PROJECT);
    assertThat(config.get("gcs.oauth2.token").asText())
        .isEqualTo(vended.get("gcs.oauth2.token").asText());
    assertThat(config.get("gcs.oauth2.refresh-credentials-enabled").asText()).isEqualTo("true");
    String token = vended.get("gcs.oauth2.token").asText();
    assertThat(google.accountOf(token)).hasValue(CATALOG_SA);
    Boundary boundary = google.boundaryOf(token).orElseThrow();
    assertThat(boundary.rules()).hasSize(1);
    assertThat(boundary.rules().get(0).bucket()).isEqualTo(BUCKET);
    assertThat(boundary.rules().get(0).roles())
        .containsExactlyInAnyOrder(
            "roles/storage.legacyObjectReader", "roles/storage.objectViewer", OBJECT_USER);
    assertThat(boundary.rules().get(0).condition().orElseThrow().toString())
        .contains("objects/" + object(table.location()) + "/'");
    assertThat(vended.toString()).doesNotContain("PRIVATE KEY");
  }

  @Override
  protected void assertPurged(String tableLocation) {
    assertThat(google.names(BUCKET, object(tableLocation) + "/")).as("purged").isEmpty();
  }

  /** The fake recorded the refusals, with the permissions the boundary withheld. */
  @Override
  protected Runnable watchIoRefusals() {
    int before = google.refusals().size();
    return () ->
        assertThat(google.refusals().subList(before, google.refusals().size()))
            .extracting(r -> r.permission())
            .contains("storage.objects.create", "storage.objects.delete");
  }

  /** The same object name in another bucket is outside the boundary's resource. */
  @Override
  protected List<String> filesElsewhere(String t) {
    google.put("elsewhere", object(t) + "/data/x.parquet", new byte[] {7});
    return List.of("gs://elsewhere/" + object(t) + "/data/x.parquet");
  }

  /** A list prefix without the trailing slash would also show t2's names. */
  @Override
  protected List<String> widerLists(String t) {
    return List.of(t, "gs://" + BUCKET + "/wh/hr/", "gs://" + BUCKET + "/");
  }

  @Override
  protected long expiresAtMillis(JsonNode config) {
    return config.get("gcs.oauth2.token-expires-at").asLong();
  }

  @Override
  protected void assertShortLived(JsonNode config) {
    assertThat(google.accountOf(config.get("gcs.oauth2.token").asText()))
        .as("impersonated")
        .hasValue(SHORT_SA);
  }

  /** google-cloud-storage will not even send an expired token; a raw request does. */
  @Override
  protected void assertExpiredRefused(JsonNode config, String location) throws Exception {
    HttpResponse<String> expired =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            google.endpoint()
                                + "/storage/v1/b/"
                                + bucketOf(location)
                                + "/o/"
                                + URLEncoder.encode(object(location), UTF_8)
                                + "?alt=media"))
                    .header("Authorization", "Bearer " + config.get("gcs.oauth2.token").asText())
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(expired.statusCode()).as(expired.body()).isEqualTo(401);
  }

  @Override
  protected Runnable watchRefresh() {
    int exchanges = google.exchanges().size();
    return () ->
        assertThat(google.exchanges().size())
            .as("the client's read went through a fresh token")
            .isGreaterThan(exchanges);
  }

  @Override
  protected void assertReadWrite(JsonNode config) {
    assertThat(google.boundaryOf(config.get("gcs.oauth2.token").asText()).orElseThrow().rules())
        .allSatisfy(rule -> assertThat(rule.roles()).contains(OBJECT_USER));
  }

  @Override
  protected void assertReadOnly(JsonNode config) {
    assertThat(google.boundaryOf(config.get("gcs.oauth2.token").asText()).orElseThrow().rules())
        .allSatisfy(rule -> assertThat(rule.roles()).doesNotContain(OBJECT_USER));
  }

  private static String bucketOf(String location) {
    String rest = location.substring("gs://".length());
    return rest.substring(0, rest.indexOf('/'));
  }

  /** The object name of a gs:// location ("" for the bucket root). */
  private static String object(String location) {
    String rest = location.substring("gs://".length());
    return rest.substring(rest.indexOf('/') + 1);
  }

  private static void assertGcsStatus(int status, ThrowingCallable call) {
    assertThatThrownBy(call)
        .isInstanceOf(StorageException.class)
        .satisfies(e -> assertThat(((StorageException) e).getCode()).isEqualTo(status));
  }

  // ---- GCS's own ----

  /**
   * An STS outage is a 503 naming the catalog on load and on refresh, every time (a failure is not
   * cached), and vending resumes when the STS is back.
   */
  @Test
  void anStsOutageIsA503NamingTheCatalogAndIsNotCached() throws Exception {
    try (RESTCatalog client = client(CATALOG, writer)) {
      client.createTable(TableIdentifier.of("sales", "outage"), SCHEMA);
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

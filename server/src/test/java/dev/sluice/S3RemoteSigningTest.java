package dev.sluice;

import static dev.sluice.testing.RgwVendingBed.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.testing.Admin;
import dev.sluice.testing.CephRgw;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.SignerClientReset;
import dev.sluice.testing.TestServer;
import dev.sluice.testing.WriterAndReader;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Remote signing on the real Ceph RGW: Iceberg's {@code RESTCatalog} with {@code S3FileIO} and no
 * storage key asks Sluice to sign every S3 request of a table, and Sluice signs only what the
 * caller's grants and the table's own locations allow. What Sluice refuses never reaches RGW (the
 * object is absent afterwards, seen with the bed's admin keys).
 *
 * <p>Iceberg 1.10's signer client keeps its HTTP client and auth manager in static fields, bound to
 * the first server it signs for: {@link SignerClientReset} clears them around this class.
 */
@NeedsTestBeds
class S3RemoteSigningTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CATALOG = "signed";
  private static final String NS = "sales";

  private static RgwVendingBed bed;
  private static TestServer server;
  private static Admin admin;
  private static String[] writer;
  private static String[] reader;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    SignerClientReset.reset();
    bed = RgwVendingBed.start("sluice-sign");
    server = bed.server();
    admin = bed.admin();
    createSigningCatalog(CATALOG, List.of("remote-signing"));
    bed.createNamespace(CATALOG, NS);
    WriterAndReader people =
        WriterAndReader.create(admin)
            .writes(
                CATALOG,
                "writer_cr",
                List.of(NS),
                List.of("TABLE_CREATE", "TABLE_WRITE_DATA", "TABLE_DROP"))
            .reads(CATALOG, "reader_cr", List.of(NS));
    writer = people.writer();
    reader = people.reader();
  }

  @AfterAll
  static void stop() throws Exception {
    SignerClientReset.reset();
    bed.close();
  }

  /** An S3 catalog on the bed's bucket, offering {@code delegation}, with the bed's role. */
  private static void createSigningCatalog(String name, List<String> delegation) throws Exception {
    Map<String, Object> storage = new LinkedHashMap<>();
    storage.put("storageType", "S3");
    storage.put("allowedLocations", List.of(bed.s3("wh")));
    storage.put("roleArn", bed.rgw().roleArn());
    storage.put("region", bed.rgw().region());
    storage.put("endpoint", bed.rgw().endpoint());
    storage.put("pathStyleAccess", true);
    storage.put("credentialSource", "rgw");
    storage.put("durationSeconds", 900);
    storage.put("delegation", delegation);
    Map<String, Object> catalog = new LinkedHashMap<>();
    catalog.put("name", name);
    catalog.put("type", "INTERNAL");
    catalog.put("properties", Map.of("default-base-location", bed.s3("wh")));
    catalog.put("storageConfigInfo", storage);
    HttpResponse<String> created =
        server.send(
            "POST",
            "/api/management/v1/catalogs",
            JSON.writeValueAsString(Map.of("catalog", catalog)));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
  }

  private static RESTCatalog client(String[] credentials) {
    RESTCatalog client = new RESTCatalog();
    client.initialize(
        "signing-" + credentials[0],
        Map.of(
            "uri",
            server.catalogUri(),
            "warehouse",
            CATALOG,
            "credential",
            credentials[0] + ":" + credentials[1],
            "header.X-Iceberg-Access-Delegation",
            "remote-signing"));
    return client;
  }

  private static void write(FileIO io, String location, String content) throws Exception {
    try (OutputStream out = io.newOutputFile(location).createOrOverwrite()) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static String read(FileIO io, String location) throws Exception {
    try (InputStream in = io.newInputFile(location).newStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** Whether RGW holds the object, asked with the bed's admin keys. */
  private static boolean exists(String location) {
    S3Client s3 = bed.rgw().adminClient();
    try {
      return CephRgw.get(s3, bed.bucket(), bed.key(location, "")) == 200;
    } catch (NoSuchKeyException e) {
      return false;
    }
  }

  @Test
  void aKeylessClientCreatesWritesReadsAndDeletesThroughSignedRequests() throws Exception {
    TableIdentifier id = TableIdentifier.of(Namespace.of(NS), "orders");
    try (RESTCatalog client = client(writer)) {
      Table table = client.createTable(id, SCHEMA);
      DataFile file = RgwVendingBed.writeDataFile(table, "part-0.parquet", "signed bytes");
      table.newAppend().appendFile(file).commit();

      // The object is on RGW, written with a signature from Sluice.
      assertThat(exists(file.location())).as("%s on RGW", file.location()).isTrue();
      Table loaded = client.loadTable(id);
      assertThat(loaded.currentSnapshot()).isNotNull();
      assertThat(read(loaded.io(), file.location())).isEqualTo("signed bytes");

      loaded.io().deleteFile(file.location());
      assertThat(exists(file.location())).isFalse();
    }

    // The load response: signing keys, the table's own endpoint, and no storage key at all.
    String token = server.token(writer[0], writer[1]);
    HttpResponse<String> load =
        signingLoad(token, "/api/catalog/v1/" + CATALOG + "/namespaces/" + NS + "/tables/orders");
    assertThat(load.statusCode()).as(load.body()).isEqualTo(200);
    JsonNode config = TestServer.json(load.body()).get("config");
    assertThat(config.get("s3.remote-signing-enabled").asText()).isEqualTo("true");
    assertThat(config.get("s3.signer.endpoint").asText())
        .isEqualTo("v1/" + CATALOG + "/namespaces/" + NS + "/tables/orders/sign");
    assertThat(config.get("signer.endpoint").asText())
        .isEqualTo(config.get("s3.signer.endpoint").asText());
    assertThat(load.body())
        .doesNotContain("s3.access-key-id", "s3.secret-access-key", "s3.session-token")
        .doesNotContain(bed.rgw().secretKey());
    assertThat(TestServer.json(load.body()).path("storage-credentials").size()).isZero();
  }

  @Test
  void aReadersWritesAndDeletesAreRefusedBySluiceBeforeTheyReachRgw() throws Exception {
    TableIdentifier id = TableIdentifier.of(Namespace.of(NS), "readonly");
    String existing;
    try (RESTCatalog client = client(writer)) {
      Table table = client.createTable(id, SCHEMA);
      DataFile file = RgwVendingBed.writeDataFile(table, "kept.parquet", "kept");
      table.newAppend().appendFile(file).commit();
      existing = file.location();
    }
    try (RESTCatalog client = client(reader)) {
      Table table = client.loadTable(id);
      assertThat(read(table.io(), existing)).isEqualTo("kept");

      String planted = table.location() + "/data/planted.parquet";
      assertThatThrownBy(() -> write(table.io(), planted, "nope"))
          .isInstanceOf(ForbiddenException.class)
          .hasMessageContaining("needs TABLE_WRITE_DATA");
      assertThat(exists(planted)).as("the refused PUT never reached RGW").isFalse();

      assertThatThrownBy(() -> table.io().deleteFile(existing))
          .isInstanceOf(ForbiddenException.class);
      assertThat(exists(existing)).as("the refused DELETE never reached RGW").isTrue();
    }
  }

  @Test
  void aSignatureIsOnlyForTheTableItWasAskedFor() throws Exception {
    try (RESTCatalog client = client(writer)) {
      client.createTable(TableIdentifier.of(Namespace.of(NS), "a"), SCHEMA);
      client.createTable(TableIdentifier.of(Namespace.of(NS), "a2"), SCHEMA);
      client.createTable(TableIdentifier.of(Namespace.of(NS), "b"), SCHEMA);
    }
    String token = server.token(writer[0], writer[1]);
    String a = tableKey("a");
    String a2 = tableKey("a2");
    String b = tableKey("b");

    // Each table's own objects are signed for its own endpoint ...
    assertThat(sign(token, "a", "GET", objectUri(a + "data/x.parquet")).statusCode())
        .isEqualTo(200);
    // ... and nothing of another table, a sibling prefix, or outside the tables.
    for (String key :
        List.of(
            b + "data/x.parquet",
            a2 + "data/x.parquet",
            a.substring(0, a.length() - 1) + "x/data/x.parquet",
            "wh/" + NS + "/x.parquet",
            "elsewhere/x.parquet")) {
      for (String method : List.of("GET", "PUT", "DELETE")) {
        HttpResponse<String> refused = sign(token, "a", method, objectUri(key));
        assertThat(refused.statusCode()).as("%s %s for table a", method, key).isEqualTo(403);
        assertThat(refused.body())
            .contains("outside the locations of table")
            .doesNotContain("Signature=");
      }
    }
    // A listing is signed only under the table's own location.
    assertThat(sign(token, "a", "GET", listUri(a + "data/")).statusCode()).isEqualTo(200);
    assertThat(sign(token, "a", "GET", listUri(a.substring(0, a.length() - 1))).statusCode())
        .as("prefix without its trailing slash also matches a2's keys")
        .isEqualTo(403);
    assertThat(sign(token, "a", "GET", listUri("wh/")).statusCode()).isEqualTo(403);
    assertThat(sign(token, "a", "GET", bucketUri("?list-type=2")).statusCode())
        .as("bucket-wide listing")
        .isEqualTo(400);
    // Each refusal is in the audit trail, with why.
    assertThat(deniedSignings("writer"))
        .anyMatch(detail -> detail.startsWith("outside the table's locations: put"))
        .anyMatch(detail -> detail.contains("without a prefix"));
    // Another bucket.
    assertThat(
            sign(token, "a", "GET", bed.rgw().endpoint() + "/other-bucket/" + a + "data/x.parquet")
                .statusCode())
        .isEqualTo(403);
  }

  @Test
  void aRevokedWriteGrantRefusesTheNextWriteWhileReadsGoOn() throws Exception {
    String[] worker = admin.principal("worker", "workers");
    admin.catalogRole(CATALOG, "worker_cr", "workers");
    String read = Admin.grantJson("namespace", List.of(NS), null, "TABLE_READ_DATA");
    String write = Admin.grantJson("namespace", List.of(NS), null, "TABLE_WRITE_DATA");
    admin.grant(CATALOG, "worker_cr", read);
    admin.grant(CATALOG, "worker_cr", write);
    TableIdentifier id = TableIdentifier.of(Namespace.of(NS), "revoked");
    try (RESTCatalog client = client(writer)) {
      client.createTable(id, SCHEMA);
    }
    try (RESTCatalog client = client(worker)) {
      Table table = client.loadTable(id);
      String first = table.location() + "/data/first.parquet";
      write(table.io(), first, "before");
      assertThat(exists(first)).isTrue();

      admin.revoke(CATALOG, "worker_cr", write);
      Thread.sleep(1_100); // the authorization cache's bound

      String second = table.location() + "/data/second.parquet";
      assertThatThrownBy(() -> write(table.io(), second, "after"))
          .isInstanceOf(ForbiddenException.class);
      assertThat(exists(second)).isFalse();
      assertThat(read(table.io(), first)).isEqualTo("before");
    }
  }

  @Test
  void aStagedTableIsSignedThroughItsGrantUntilItsCreateCommits() throws Exception {
    TableIdentifier id = TableIdentifier.of(Namespace.of(NS), "staged");
    String written;
    try (RESTCatalog client = client(writer)) {
      // Spark's and Trino's CTAS: stage, write the data, then commit the create with it.
      Transaction create = client.buildTable(id, SCHEMA).createTransaction();
      DataFile file = RgwVendingBed.writeDataFile(create.table(), "ctas.parquet", "staged bytes");
      assertThat(exists(file.location())).as("written before the table exists").isTrue();
      create.newAppend().appendFile(file).commit();
      create.commitTransaction();
      written = file.location();
      assertThat(read(client.loadTable(id).io(), written)).isEqualTo("staged bytes");
    }
  }

  @Test
  void aStagedTablesGrantServesOnlyItsPrincipalItsTableAndFreeLocations() throws Exception {
    String token = server.token(writer[0], writer[1]);
    String endpoint = stagedEndpoint(token, "grant_test");
    String grant = endpoint.substring(endpoint.lastIndexOf('/') + 1);
    String key = bed.key(bed.s3("wh/" + NS + "/grant_test"), "/data/x.parquet");
    assertThat(signStaged(token, "grant_test", grant, "PUT", objectUri(key)).statusCode())
        .isEqualTo(200);
    // Another principal, even one who may write there, cannot use the writer's grant.
    String[] other = admin.principal("other_writer", "writers");
    String otherToken = server.token(other[0], other[1]);
    HttpResponse<String> stolen =
        signStaged(otherToken, "grant_test", grant, "PUT", objectUri(key));
    assertThat(stolen.statusCode()).as(stolen.body()).isEqualTo(403);
    assertThat(stolen.body()).contains("another principal or table");
    // Nor for another table's name, nor tampered with, nor as a bearer token.
    assertThat(signStaged(token, "other_name", grant, "PUT", objectUri(key)).statusCode())
        .isEqualTo(403);
    String tampered = grant.substring(0, grant.length() - 2) + (grant.endsWith("A") ? "BB" : "AA");
    assertThat(signStaged(token, "grant_test", tampered, "PUT", objectUri(key)).statusCode())
        .isEqualTo(403);
    HttpResponse<String> asBearer =
        server.sendAs(grant, "GET", "/api/catalog/v1/" + CATALOG + "/namespaces/" + NS, null);
    assertThat(asBearer.statusCode()).as(asBearer.body()).isEqualTo(401);
    // Outside the staged locations.
    assertThat(
            signStaged(token, "grant_test", grant, "PUT", objectUri("wh/" + NS + "/else/x"))
                .statusCode())
        .isEqualTo(403);

    // Another table takes the staged location before the create commits: the grant stops.
    HttpResponse<String> taken =
        server.send(
            "POST",
            "/api/catalog/v1/" + CATALOG + "/namespaces/" + NS + "/tables",
            "{\"name\": \"taker\", \"location\": \""
                + bed.s3("wh/" + NS + "/grant_test")
                + "\", \"schema\": "
                + org.apache.iceberg.SchemaParser.toJson(SCHEMA)
                + "}");
    assertThat(taken.statusCode()).as(taken.body()).isEqualTo(200);
    HttpResponse<String> overlapping =
        signStaged(token, "grant_test", grant, "PUT", objectUri(key));
    assertThat(overlapping.statusCode()).as(overlapping.body()).isEqualTo(403);
    assertThat(overlapping.body()).contains("overlaps");
  }

  /** Stage-creates {@code table} as the token's principal; returns its signing endpoint. */
  private static String stagedEndpoint(String token, String table) throws Exception {
    HttpResponse<String> staged =
        HTTP.send(
            HttpRequest.newBuilder(
                    URI.create(
                        server.baseUrl()
                            + "/api/catalog/v1/"
                            + CATALOG
                            + "/namespaces/"
                            + NS
                            + "/tables"))
                .header("Authorization", "Bearer " + token)
                .header("X-Iceberg-Access-Delegation", "remote-signing")
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"name\": \""
                            + table
                            + "\", \"stage-create\": true, \"schema\": "
                            + org.apache.iceberg.SchemaParser.toJson(SCHEMA)
                            + "}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(staged.statusCode()).as(staged.body()).isEqualTo(200);
    String endpoint =
        TestServer.json(staged.body()).get("config").get("s3.signer.endpoint").asText();
    assertThat(endpoint)
        .startsWith("v1/" + CATALOG + "/namespaces/" + NS + "/tables/" + table + "/sign/");
    return endpoint;
  }

  private static HttpResponse<String> signStaged(
      String token, String table, String grant, String method, String uri) throws Exception {
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("region", bed.rgw().region());
    request.put("method", method);
    request.put("uri", uri);
    request.put("headers", Map.of());
    return post(token, table + "/sign/" + grant, JSON.writeValueAsString(request));
  }

  /** The details of {@code principal}'s refused signRequest events (waits for the audit writer). */
  private static List<String> deniedSignings(String principal) throws Exception {
    List<String> details = List.of();
    for (int attempt = 0; attempt < 50 && details.isEmpty(); attempt++) {
      Thread.sleep(100);
      JsonNode events =
          TestServer.json(
                  server
                      .send(
                          "GET",
                          "/api/management/v1/events?principal="
                              + principal
                              + "&decision=DENY&pageSize=1000",
                          null)
                      .body())
              .get("events");
      List<String> found = new java.util.ArrayList<>();
      events.forEach(
          e -> {
            if (e.get("action").asText().equals("signRequest")) {
              found.add(e.path("detail").asText());
            }
          });
      details = found;
    }
    return details;
  }

  @Test
  void withoutStsSigningNeedsTheOperatorToAcceptThatOnlyTheParserConfinesIt() throws Exception {
    HttpResponse<String> created = createWithoutSts("parser_only", "refused", Map.of());
    assertThat(created.statusCode()).as(created.body()).isEqualTo(400);
    assertThat(TestServer.json(created.body()).at("/error/message").asText())
        .contains("storageConfigInfo.unscopedSigning", "no roleArn with STS");
    assertThat(server.send("GET", "/api/management/v1/catalogs/parser_only", null).statusCode())
        .isEqualTo(404);
  }

  @Test
  void withoutStsAndWithTheOperatorsConsentSluiceSignsWithItsCredentialSource() throws Exception {
    HttpResponse<String> created =
        createWithoutSts("keys_only", "keys", Map.of("unscopedSigning", true));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    server.send(
        "POST", "/api/catalog/v1/keys_only/namespaces", "{\"namespace\": [\"" + NS + "\"]}");
    HttpResponse<String> table =
        server.send(
            "POST",
            "/api/catalog/v1/keys_only/namespaces/" + NS + "/tables",
            "{\"name\": \"t\", \"schema\": "
                + org.apache.iceberg.SchemaParser.toJson(SCHEMA)
                + "}");
    assertThat(table.statusCode()).as(table.body()).isEqualTo(200);
    String key = "keys/" + NS + "/t/data/plain.bin";
    byte[] content = "plain http".getBytes(StandardCharsets.UTF_8);

    // Sign a PUT as root, then send it to RGW with the JDK's HTTP client and nothing else.
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("region", bed.rgw().region());
    request.put("method", "PUT");
    request.put("uri", objectUri(key));
    request.put("headers", Map.of("Content-Length", List.of(Integer.toString(content.length))));
    HttpResponse<String> signed =
        HTTP.send(
            HttpRequest.newBuilder(
                    URI.create(
                        server.baseUrl()
                            + "/api/catalog/v1/keys_only/namespaces/"
                            + NS
                            + "/tables/t/sign"))
                .header("Authorization", "Bearer " + server.rootToken())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(request)))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(signed.statusCode()).as(signed.body()).isEqualTo(200);
    assertThat(signed.headers().firstValue("Cache-Control")).hasValue("no-store");
    JsonNode answer = TestServer.json(signed.body());
    assertThat(answer.get("headers").get("Authorization").get(0).asText())
        .startsWith("AWS4-HMAC-SHA256 Credential=" + bed.rgw().accessKey() + "/");
    HttpRequest.Builder put =
        HttpRequest.newBuilder(URI.create(answer.get("uri").asText()))
            .PUT(HttpRequest.BodyPublishers.ofByteArray(content));
    answer
        .get("headers")
        .fields()
        .forEachRemaining(
            h -> {
              String name = h.getKey();
              // The JDK client sets these itself (to the same values).
              if (!List.of("host", "content-length").contains(name.toLowerCase())) {
                h.getValue().forEach(v -> put.header(name, v.asText()));
              }
            });
    HttpResponse<String> stored = HTTP.send(put.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);
    assertThat(CephRgw.getBytes(bed.rgw().adminClient(), bed.bucket(), key)).isEqualTo(content);

    // The same signature for another key is RGW's to refuse.
    HttpRequest.Builder moved =
        HttpRequest.newBuilder(URI.create(objectUri(key + ".moved")))
            .PUT(HttpRequest.BodyPublishers.ofByteArray(content));
    answer
        .get("headers")
        .fields()
        .forEachRemaining(
            h -> {
              if (!List.of("host", "content-length").contains(h.getKey().toLowerCase())) {
                h.getValue().forEach(v -> moved.header(h.getKey(), v.asText()));
              }
            });
    assertThat(HTTP.send(moved.build(), HttpResponse.BodyHandlers.ofString()).statusCode())
        .isEqualTo(403);
    assertThat(CephRgw.stored(bed.bucket(), key + ".moved")).isEqualTo("absent");
  }

  // --- signing requests by hand
  // --------------------------------------------------------------------

  private static String tableKey(String table) throws Exception {
    HttpResponse<String> load =
        signingLoad(
            server.rootToken(),
            "/api/catalog/v1/" + CATALOG + "/namespaces/" + NS + "/tables/" + table);
    String location = TestServer.json(load.body()).get("metadata").get("location").asText();
    return bed.key(location, "/");
  }

  private static String bucketUri(String rest) {
    return bed.rgw().endpoint() + "/" + bed.bucket() + rest;
  }

  private static String objectUri(String key) {
    return bucketUri("/" + key);
  }

  private static String listUri(String prefix) {
    return bucketUri("?list-type=2&prefix=" + prefix.replace("/", "%2F"));
  }

  private static HttpResponse<String> signingLoad(String token, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
            .header("Authorization", "Bearer " + token)
            .header("X-Iceberg-Access-Delegation", "remote-signing")
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> sign(String token, String table, String method, String uri)
      throws Exception {
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("region", bed.rgw().region());
    request.put("method", method);
    request.put("uri", uri);
    request.put("headers", Map.of("amz-sdk-invocation-id", List.of("1")));
    return signRaw(token, table, JSON.writeValueAsString(request));
  }

  static HttpResponse<String> signRaw(String token, String table, String body) throws Exception {
    return post(token, table + "/sign", body);
  }

  /** POSTs {@code body} to {@code tablePath} (a table name and what follows it) as the token. */
  private static HttpResponse<String> post(String token, String tablePath, String body)
      throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(
                URI.create(
                    server.baseUrl()
                        + "/api/catalog/v1/"
                        + CATALOG
                        + "/namespaces/"
                        + NS
                        + "/tables/"
                        + tablePath))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /**
   * Creates catalog {@code name} at {@code s3://bucket/path} that offers remote signing without a
   * role or STS, with {@code more} storage keys; the management API's answer.
   */
  private static HttpResponse<String> createWithoutSts(
      String name, String path, Map<String, Object> more) throws Exception {
    Map<String, Object> storage = new LinkedHashMap<>();
    storage.put("storageType", "S3");
    storage.put("allowedLocations", List.of(bed.s3(path)));
    storage.put("region", bed.rgw().region());
    storage.put("endpoint", bed.rgw().endpoint());
    storage.put("credentialSource", "rgw");
    storage.put("stsUnavailable", true);
    storage.put("delegation", List.of("remote-signing"));
    storage.putAll(more);
    return server.postCatalog(name, bed.s3(path), storage);
  }
}

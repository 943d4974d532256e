package dev.sluice;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.api.Event;
import dev.sluice.testing.Admin;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.TestServer;
import dev.sluice.testing.VendingContract;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A staged table's refresh endpoint (a CREATE TABLE AS SELECT before its create commits), on a real
 * Ceph RGW with STS: the stage-create answer points at {@code …/credentials/{grant}}, which vends
 * for exactly the staged locations, for the principal it names and the table and catalog it names,
 * while that principal still holds the privileges; a signing grant is not a refresh grant; after
 * the commit it answers as the table's own endpoint. Every refusal is Iceberg's ErrorResponse.
 */
@NeedsTestBeds
class S3StagedRefreshTest {
  private static final String CATALOG = "lake";
  private static final String OTHER_CATALOG = "pond";
  private static final String NS = "ns";
  private static final String REFRESH = "client.refresh-credentials-endpoint";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static RgwVendingBed bed;
  private static TestServer server;
  private static Admin admin;
  private static String[] writer;
  private static String[] otherWriter;

  @BeforeAll
  static void start() throws Exception {
    bed = RgwVendingBed.start("staged");
    server = bed.server();
    admin = bed.admin();
    for (String catalog : List.of(CATALOG, OTHER_CATALOG)) {
      bed.createCatalog(
          catalog,
          "wh/" + catalog,
          "wh/" + catalog,
          Map.of(),
          Map.of("delegation", List.of("vended-credentials", "remote-signing")));
      bed.createNamespace(catalog, NS);
    }
    writer = admin.principal("writer", "writers");
    otherWriter = admin.principal("other_writer", "writers");
    for (String catalog : List.of(CATALOG, OTHER_CATALOG)) {
      grantAll(catalog, "write_ns", "writers");
    }
  }

  @AfterAll
  static void stop() throws Exception {
    bed.close();
  }

  private static void grantAll(String catalog, String catalogRole, String principalRole)
      throws Exception {
    grant(
        catalog,
        catalogRole,
        principalRole,
        List.of("TABLE_CREATE", "TABLE_WRITE_DATA", "TABLE_FULL_METADATA"));
  }

  private static void grant(
      String catalog, String catalogRole, String principalRole, List<String> privileges)
      throws Exception {
    admin.catalogRole(catalog, catalogRole, principalRole);
    for (String privilege : privileges) {
      admin.grant(catalog, catalogRole, Admin.grantJson("namespace", List.of(NS), null, privilege));
    }
  }

  @Test
  void aStageCreateAnswersARefreshEndpointThatVendsForTheStagedLocationsOnly() throws Exception {
    String token = token(writer);
    JsonNode staged = stageCreate(token, CATALOG, "ctas", "vended-credentials");
    String location = staged.at("/metadata/location").asText();
    String endpoint = staged.get("config").get(REFRESH).asText();
    assertThat(endpoint)
        .startsWith("v1/" + CATALOG + "/namespaces/" + NS + "/tables/ctas/credentials/");
    assertThat(staged.get("config").get("client.refresh-credentials-enabled").asText())
        .isEqualTo("true");
    JsonNode stagedCredential = staged.get("storage-credentials").get(0);
    assertThat(stagedCredential.get("config").get(REFRESH).asText()).isEqualTo(endpoint);
    assertThat(stagedCredential.get("config").has("s3.session-token-expires-at-ms")).isTrue();

    HttpResponse<String> refreshed = refresh(token, endpoint);
    assertThat(refreshed.statusCode()).as(refreshed.body()).isEqualTo(200);
    JsonNode credentials = TestServer.json(refreshed.body()).get("storage-credentials");
    assertThat(credentials).hasSize(1);
    assertThat(credentials.get(0).get("prefix").asText()).isEqualTo(location);
    JsonNode config = credentials.get(0).get("config");
    for (String key :
        List.of(
            "s3.access-key-id",
            "s3.secret-access-key",
            "s3.session-token",
            "s3.session-token-expires-at-ms",
            REFRESH)) {
      assertThat(config.has(key)).as(key).isTrue();
    }
    assertThat(config.get(REFRESH).asText())
        .as("the same endpoint, same grant")
        .isEqualTo(endpoint);

    // RGW takes a write inside the staged location and refuses one beside it.
    VendingContract.StoreClient store = bed.store(config);
    store.put(location + "/data/part-0.parquet", "ctas".getBytes(UTF_8));
    assertThat(bed.adminRead(location + "/data/part-0.parquet")).isEqualTo("ctas".getBytes(UTF_8));
    String beside = bed.s3("wh/" + CATALOG + "/" + NS + "/ctas_other/data/x.parquet");
    RgwVendingBed.assertS3Status(403, () -> store.put(beside, new byte[] {1}));
    assertThat(bed.adminRead(beside)).isNull();
  }

  @Test
  void aStagedRefreshGrantServesOnlyItsPrincipalItsCatalogAndItsTable() throws Exception {
    String token = token(writer);
    String endpoint =
        stageCreate(token, CATALOG, "bound", "vended-credentials")
            .get("config")
            .get(REFRESH)
            .asText();
    String grant = endpoint.substring(endpoint.lastIndexOf('/') + 1);
    assertThat(refresh(token, endpoint).statusCode()).isEqualTo(200);

    // Another principal holding the very same privileges cannot use the writer's grant.
    assertForbidden(refresh(token(otherWriter), endpoint), "another principal or table");
    // Nor on another table's name, nor in another catalog with the same namespace.
    assertForbidden(
        refresh(token, endpoint.replace("/tables/bound/", "/tables/bound2/")), "another");
    assertForbidden(
        refresh(token, endpoint.replace("v1/" + CATALOG + "/", "v1/" + OTHER_CATALOG + "/")),
        "another");
    // Nor tampered with.
    String tampered = grant.substring(0, grant.length() - 2) + (grant.endsWith("A") ? "BB" : "AA");
    assertForbidden(
        refresh(token, endpoint.replace(grant, tampered)), "Invalid staged-table grant");
    // A grant is no bearer token: the auth layer's 401.
    HttpResponse<String> asBearer =
        server.sendAs(grant, "GET", "/api/catalog/v1/" + CATALOG + "/namespaces/" + NS, null);
    assertThat(asBearer.statusCode()).as(asBearer.body()).isEqualTo(401);
    // The refresh endpoint plans no scans, staged or not.
    assertThat(refresh(token, endpoint + "?planId=p1").statusCode()).isEqualTo(400);
  }

  @Test
  void aSigningGrantIsNoRefreshGrantNorTheOtherWayRound() throws Exception {
    String token = token(writer);
    String signEndpoint =
        stageCreate(token, CATALOG, "purposes", "remote-signing")
            .get("config")
            .get("s3.signer.endpoint")
            .asText();
    String signingGrant = signEndpoint.substring(signEndpoint.lastIndexOf('/') + 1);
    String refreshEndpoint =
        stageCreate(token, CATALOG, "purposes", "vended-credentials")
            .get("config")
            .get(REFRESH)
            .asText();
    String refreshGrant = refreshEndpoint.substring(refreshEndpoint.lastIndexOf('/') + 1);
    String table = "v1/" + CATALOG + "/namespaces/" + NS + "/tables/purposes";

    assertThat(refresh(token, table + "/credentials/" + refreshGrant).statusCode()).isEqualTo(200);
    assertForbidden(
        refresh(token, table + "/credentials/" + signingGrant),
        "for the sign endpoint, not the credentials endpoint");
    String key = bed.key(bed.s3("wh/" + CATALOG + "/" + NS + "/purposes"), "/data/x.parquet");
    Map<String, Object> sign = new LinkedHashMap<>();
    sign.put("region", bed.rgw().region());
    sign.put("method", "PUT");
    sign.put("uri", bed.rgw().endpoint() + "/" + bed.bucket() + "/" + key);
    sign.put("headers", Map.of());
    String body = JSON.writeValueAsString(sign);
    HttpResponse<String> signed =
        server.sendAs(token, "POST", "/api/catalog/" + table + "/sign/" + signingGrant, body);
    assertThat(signed.statusCode()).as(signed.body()).isEqualTo(200);
    assertForbidden(
        server.sendAs(token, "POST", "/api/catalog/" + table + "/sign/" + refreshGrant, body),
        "for the credentials endpoint, not the sign endpoint");
  }

  @Test
  void privilegesRevokedBetweenStageAndRefreshNarrowOrRefuseTheNextRefresh() throws Exception {
    String[] stager = admin.principal("stager", "stagers");
    // No TABLE_FULL_METADATA, which would imply TABLE_CREATE.
    grant(CATALOG, "stage_ns", "stagers", List.of("TABLE_CREATE", "TABLE_WRITE_DATA"));
    String endpoint =
        stageCreate(token(stager), CATALOG, "revoked", "vended-credentials")
            .get("config")
            .get(REFRESH)
            .asText();
    String location = bed.s3("wh/" + CATALOG + "/" + NS + "/revoked");
    VendingContract.StoreClient before = bed.store(refreshedConfig(token(stager), endpoint));
    before.put(location + "/data/a.parquet", new byte[] {1});

    // Write revoked, read granted: the next refresh is read-only, as an ordinary refresh would be.
    String write = Admin.grantJson("namespace", List.of(NS), null, "TABLE_WRITE_DATA");
    admin.revoke(CATALOG, "stage_ns", write);
    admin.grant(
        CATALOG, "stage_ns", Admin.grantJson("namespace", List.of(NS), null, "TABLE_READ_DATA"));
    VendingContract.StoreClient readOnly = bed.store(refreshedConfig(token(stager), endpoint));
    assertThat(readOnly.get(location + "/data/a.parquet")).containsExactly(1);
    RgwVendingBed.assertS3Status(
        403, () -> readOnly.put(location + "/data/b.parquet", new byte[] {2}));
    assertThat(bed.adminRead(location + "/data/b.parquet")).isNull();

    // TABLE_CREATE revoked: the staged create can no longer commit, and nothing more is vended.
    admin.revoke(
        CATALOG, "stage_ns", Admin.grantJson("namespace", List.of(NS), null, "TABLE_CREATE"));
    assertForbidden(refresh(token(stager), endpoint), "TABLE_CREATE");
    // Audited as ordinary refreshes are: allowed, then refused.
    List<String> decisions = new ArrayList<>();
    for (int attempt = 0; attempt < 50 && !decisions.contains("DENY"); attempt++) {
      Thread.sleep(100);
      decisions.clear();
      for (Event event : admin.events("principal=stager&pageSize=1000").events()) {
        if (event.action().equals("loadCredentials")) {
          decisions.add(event.decision());
        }
      }
    }
    assertThat(decisions).contains("ALLOW", "DENY");
  }

  @Test
  void anotherTableTakingTheStagedLocationStopsTheGrant() throws Exception {
    String token = token(writer);
    JsonNode staged = stageCreate(token, CATALOG, "taken", "vended-credentials");
    String endpoint = staged.get("config").get(REFRESH).asText();
    assertThat(refresh(token, endpoint).statusCode()).isEqualTo(200);
    HttpResponse<String> taker =
        server.send(
            "POST",
            "/api/catalog/v1/" + CATALOG + "/namespaces/" + NS + "/tables",
            "{\"name\": \"taker\", \"location\": \""
                + staged.at("/metadata/location").asText()
                + "\", \"schema\": "
                + SchemaParser.toJson(RgwVendingBed.SCHEMA)
                + "}");
    assertThat(taker.statusCode()).as(taker.body()).isEqualTo(200);
    assertForbidden(refresh(token, endpoint), "overlaps");
  }

  @Test
  void afterTheCreateCommitsTheEndpointAnswersAsTheTablesOwn() throws Exception {
    TableIdentifier id = TableIdentifier.of(NS, "committed");
    String token = token(writer);
    try (RESTCatalog client =
        bed.client(
            CATALOG, writer, Map.of("header.X-Iceberg-Access-Delegation", "vended-credentials"))) {
      // Spark's CTAS through Iceberg's client: stage, write, commit the create with the data.
      Transaction create = client.buildTable(id, RgwVendingBed.SCHEMA).createTransaction();
      String endpoint = create.table().io().properties().get(REFRESH);
      assertThat(endpoint).contains("/tables/committed/credentials/");
      DataFile file = RgwVendingBed.writeDataFile(create.table(), "ctas.parquet", "staged");
      JsonNode before = TestServer.json(refresh(token, endpoint).body());
      assertThat(before.get("storage-credentials").get(0).get("config").get(REFRESH).asText())
          .isEqualTo(endpoint);
      create.newAppend().appendFile(file).commit();
      create.commitTransaction();

      HttpResponse<String> after = refresh(token, endpoint);
      assertThat(after.statusCode()).as(after.body()).isEqualTo(200);
      JsonNode credential = TestServer.json(after.body()).get("storage-credentials").get(0);
      Table table = client.loadTable(id);
      assertThat(credential.get("prefix").asText()).isEqualTo(table.location());
      // Served as the table's own endpoint: the credential points there, not at the grant.
      assertThat(credential.get("config").get(REFRESH).asText())
          .isEqualTo("v1/" + CATALOG + "/namespaces/" + NS + "/tables/committed/credentials");
      try (var in = table.io().newInputFile(file.location()).newStream()) {
        assertThat(new String(in.readAllBytes(), UTF_8)).isEqualTo("staged");
      }
    }
  }

  // ---- helpers ----

  private static String token(String[] who) throws Exception {
    return server.token(who[0], who[1]);
  }

  /** Stage-creates {@code table} as the token's principal asking for {@code delegation}. */
  private static JsonNode stageCreate(String token, String catalog, String table, String delegation)
      throws Exception {
    HttpResponse<String> staged =
        server.sendAs(
            token,
            "POST",
            "/api/catalog/v1/" + catalog + "/namespaces/" + NS + "/tables",
            "{\"name\": \""
                + table
                + "\", \"stage-create\": true, \"schema\": "
                + SchemaParser.toJson(RgwVendingBed.SCHEMA)
                + "}",
            Map.of(RgwVendingBed.DELEGATION, delegation));
    assertThat(staged.statusCode()).as(staged.body()).isEqualTo(200);
    return TestServer.json(staged.body());
  }

  /** A GET of a refresh endpoint as the client resolves it (relative to the catalog URI). */
  private static HttpResponse<String> refresh(String token, String endpoint) throws Exception {
    return server.sendAs(token, "GET", "/api/catalog/" + endpoint, null);
  }

  private static JsonNode refreshedConfig(String token, String endpoint) throws Exception {
    HttpResponse<String> response = refresh(token, endpoint);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return TestServer.json(response.body()).get("storage-credentials").get(0).get("config");
  }

  /** A 403 in Iceberg's ErrorResponse shape whose message contains {@code message}. */
  private static void assertForbidden(HttpResponse<String> response, String message)
      throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(403);
    JsonNode error = TestServer.json(response.body()).get("error");
    assertThat(error.get("code").asInt()).isEqualTo(403);
    assertThat(error.get("type").asText()).isEqualTo("ForbiddenException");
    assertThat(error.get("message").asText()).contains(message);
  }
}

package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.testing.Admin;
import dev.sluice.testing.CephRgw;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.TestServer;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code GET /v1/{prefix}/readable-table-locations?bucket=B}: the locations in bucket B of the
 * tables the caller holds TABLE_READ_DATA on, for an engine-side bridge (Comet's {@code
 * getPolicyLocations}).
 *
 * <p>Real {@code s3://} tables are needed for the bucket to mean anything (a FILE catalog's
 * locations have no authority, so every bucket is empty there, checked below): the catalog lives in
 * two fresh buckets of the Ceph RGW bed, with {@code stsUnavailable: true} (no vending needed; the
 * catalog's own FileIO writes the metadata files to RGW with the bed's keys). The expected
 * locations are read back from each table's metadata as root, never restated.
 */
@NeedsTestBeds
class ReadableTableLocationsTest {
  private static final String SCHEMA =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";
  private static final String VIEW_VERSION =
      "{\"version-id\":1,\"timestamp-ms\":1,\"schema-id\":0,\"summary\":{},\"default-namespace\":[\"sales\"],"
          + "\"representations\":[{\"type\":\"sql\",\"sql\":\"select 1\",\"dialect\":\"spark\"}]}";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CATALOG = "lake";
  private static final String MISSING = "absent_lake_zq";

  private static RgwVendingBed bed;
  private static TestServer server;
  private static Admin admin;
  private static String b1;
  private static String b2;
  private static String tableReader;
  private static String nsReader;
  private static String catalogReader;
  private static String propsOnly;
  private static String stranger;
  private static String pager;

  @BeforeAll
  static void start() throws Exception {
    bed = RgwVendingBed.start("locs");
    server = bed.server();
    admin = bed.admin();
    b1 = bed.bucket();
    b2 = bed.rgw().newBucket("locs-other");
    createCatalog();
    for (String ns : List.of("sales", "sales\u001feu", "hr", "far", "bulk")) {
      ok(
          server.send(
              "POST",
              base() + "/namespaces",
              JSON.writeValueAsString(Map.of("namespace", List.of(ns.split("\u001f"))))));
    }
    createTable("sales", "orders", null, Map.of("write.data.path", s3(b1, "wh/sales/orders_data")));
    createTable("sales%1Feu", "customers", null, Map.of());
    createTable("sales", "split", null, Map.of("write.data.path", s3(b2, "wh/split_data")));
    createTable("hr", "people", null, Map.of());
    createTable("hr", "salaries", null, Map.of());
    createTable("far", "remote", s3(b2, "wh/far/remote"), Map.of());
    for (int i = 0; i < 25; i++) {
      createTable("bulk", String.format("t%02d", i), null, Map.of());
    }
    ok(
        server.send(
            "POST",
            base() + "/namespaces/sales/views",
            "{\"name\": \"v\", \"schema\": "
                + SCHEMA
                + ", \"view-version\": "
                + VIEW_VERSION
                + ", \"properties\": {}}"));

    tableReader = principal("t_reader", grant("table", List.of("hr"), "people", "TABLE_READ_DATA"));
    // TABLE_WRITE_DATA implies TABLE_READ_DATA.
    admin.grant(
        CATALOG, "t_reader_cr", grant("table", List.of("far"), "remote", "TABLE_WRITE_DATA"));
    nsReader =
        principal("ns_reader", grant("namespace", List.of("sales"), null, "TABLE_READ_DATA"));
    admin.grant(
        CATALOG,
        "ns_reader_cr",
        grant("namespace", List.of("sales"), null, "VIEW_READ_PROPERTIES"));
    catalogReader = principal("c_reader", grant("catalog", null, null, "TABLE_READ_DATA"));
    // Everything but data: reads properties of every table, lists them, reads views.
    propsOnly = principal("props_only", grant("catalog", null, null, "TABLE_READ_PROPERTIES"));
    admin.grant(CATALOG, "props_only_cr", grant("catalog", null, null, "TABLE_LIST"));
    admin.grant(CATALOG, "props_only_cr", grant("catalog", null, null, "VIEW_READ_PROPERTIES"));
    pager = principal("pager", grant("table", List.of("bulk"), "t01", "TABLE_READ_DATA"));
    for (int i = 3; i < 25; i += 2) {
      admin.grant(
          CATALOG,
          "pager_cr",
          grant("table", List.of("bulk"), String.format("t%02d", i), "TABLE_READ_DATA"));
    }
    String[] s = admin.principal("stranger", "strangers"); // a principal role, no catalog role
    stranger = server.token(s[0], s[1]);
  }

  @AfterAll
  static void stop() throws Exception {
    if (bed != null) {
      bed.close();
    }
  }

  // ------------------------------------------------------------------ who sees what

  @Test
  void aTableGrantShowsThatTableAndWriteDataImpliesRead() throws Exception {
    assertThat(all(tableReader, b1)).isEqualTo(expected(b1, "hr.people"));
    assertThat(all(tableReader, b2)).isEqualTo(expected(b2, "far.remote"));
  }

  @Test
  void aNamespaceGrantIsInheritedByItsTablesAndNestedNamespacesButShowsNoView() throws Exception {
    Map<String, List<String>> sales = all(nsReader, b1);
    assertThat(sales).isEqualTo(expected(b1, "sales.orders", "sales.split", "sales.eu.customers"));
    // write.data.path is one of the table's locations: its own in b1, the split one's in b2.
    assertThat(sales.get("sales.orders"))
        .containsExactly(s3(b1, "wh/sales/orders"), s3(b1, "wh/sales/orders_data"));
    assertThat(sales.get("sales.split")).containsExactly(s3(b1, "wh/sales/split"));
    assertThat(all(nsReader, b2)).isEqualTo(expected(b2, "sales.split"));
    assertThat(all(nsReader, b2).get("sales.split")).containsExactly(s3(b2, "wh/split_data"));
  }

  @Test
  void aCatalogGrantShowsEveryTableOfTheBucketAndNoView() throws Exception {
    List<String> inB1 =
        new ArrayList<>(
            List.of(
                "sales.orders", "sales.split", "sales.eu.customers", "hr.people", "hr.salaries"));
    for (int i = 0; i < 25; i++) {
      inB1.add(String.format("bulk.t%02d", i));
    }
    Map<String, List<String>> b1Tables = all(catalogReader, b1);
    assertThat(b1Tables).isEqualTo(expected(b1, inB1.toArray(String[]::new)));
    assertThat(b1Tables).doesNotContainKeys("sales.v", "far.remote");
    assertThat(all(catalogReader, b2)).isEqualTo(expected(b2, "sales.split", "far.remote"));
    // The root (catalog_admin: every privilege, views included) sees the same: views never.
    assertThat(all(server.rootToken(), b1)).isEqualTo(b1Tables);
    // The view does claim a location in b1: it is left out for being a view, not for lack of one.
    JsonNode view =
        TestServer.json(ok(server.send("GET", base() + "/namespaces/sales/views/v", null)).body());
    assertThat(view.at("/metadata/location").asText()).startsWith("s3://" + b1 + "/");
  }

  @Test
  void anotherBucketOrOneWithoutTablesIsEmpty() throws Exception {
    for (String bucket : List.of(b1 + "x", "nobody-here", b1.substring(0, b1.length() - 1))) {
      JsonNode page = page(catalogReader, bucket, null, null);
      assertThat(page.get("locations")).isEmpty();
      assertThat(page.has("next-page-token")).isFalse();
    }
  }

  @Test
  void tableReadPropertiesListAndViewsShowNothing() throws Exception {
    // 200 with an empty list: standing in the catalog, no readable table; one page, no token.
    JsonNode page = page(propsOnly, b1, null, null);
    assertThat(page.get("locations")).isEmpty();
    assertThat(page.has("next-page-token")).isFalse();
    // The same principal can load the tables' properties: the grants are live, just not data.
    assertThat(server.sendAs(propsOnly, "GET", base() + "/namespaces/hr/tables/people", null))
        .extracting(HttpResponse::statusCode)
        .isEqualTo(200);
  }

  @Test
  void aRevokedGrantIsGoneAtTheNextRequest() throws Exception {
    String salaries = grant("table", List.of("hr"), "salaries", "TABLE_READ_DATA");
    admin.grant(CATALOG, "t_reader_cr", salaries);
    assertThat(all(tableReader, b1)).isEqualTo(expected(b1, "hr.people", "hr.salaries"));
    admin.revoke(CATALOG, "t_reader_cr", salaries);
    // Through this replica, which clears its cache at once; other replicas within 1 s.
    assertThat(all(tableReader, b1)).isEqualTo(expected(b1, "hr.people"));
  }

  // ------------------------------------------------------------------ paging

  @Test
  void pagesOfTenReturnEveryReadableTableExactlyOnce() throws Exception {
    List<JsonNode> pages = pages(catalogReader, b1, 10);
    List<String> seen = new ArrayList<>();
    for (JsonNode page : pages) {
      assertThat(page.get("locations").size()).isLessThanOrEqualTo(10);
      page.get("locations").forEach(entry -> seen.add(id(entry)));
    }
    assertThat(seen).doesNotHaveDuplicates().hasSize(30);
    assertThat(pages).hasSize(3);
    // In identifier order: namespace, then name.
    assertThat(seen.subList(0, 3)).containsExactly("bulk.t00", "bulk.t01", "bulk.t02");
  }

  @Test
  void pagesFilteredByAuthorizationAreFullAndEndWithTheLastReadableTable() throws Exception {
    // The pager reads bulk.t01, t03, ..., t23 (12 of the 30 tables in b1).
    List<String> readable = new ArrayList<>();
    for (int i = 1; i < 25; i += 2) {
      readable.add(String.format("bulk.t%02d", i));
    }
    for (int size : List.of(1, 3, 5, 10, 1000)) {
      List<JsonNode> pages = pages(pager, b1, size);
      List<String> seen = new ArrayList<>();
      pages.forEach(page -> page.get("locations").forEach(entry -> seen.add(id(entry))));
      assertThat(seen).as("pageSize " + size).isEqualTo(readable);
      // Every page but the last is full, and no empty page follows the last readable table:
      // how many tables the pager may not read shows nowhere.
      assertThat(pages).as("pageSize " + size).hasSize((12 + size - 1) / size);
      for (int i = 0; i < pages.size() - 1; i++) {
        assertThat(pages.get(i).get("locations")).as("page %d of size %d", i, size).hasSize(size);
      }
    }
  }

  // ------------------------------------------------------------------ refusals

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "bucket=",
        "bucket=a%2Fb",
        "bucket=a%20b",
        "bucket=a%3A1",
        "bucket=%00",
        "bucket=s3%3A%2F%2Fb",
        "bucket=b&pageSize=0",
        "bucket=b&pageSize=1001",
        "bucket=b&pageSize=abc",
        "bucket=b&pageToken=%25%25%25",
        "bucket=b&pageToken=dDA1" // base64url of "t05": a token of a one-key listing
      })
  void badBucketOrPagingIs400(String query) throws Exception {
    for (String token : List.of(server.rootToken(), catalogReader)) {
      HttpResponse<String> response =
          server.sendAs(token, "GET", base() + "/readable-table-locations?" + query, null);
      assertThat(response.statusCode()).as(query + " " + response.body()).isEqualTo(400);
      JsonNode error = TestServer.json(response.body()).get("error");
      assertThat(error.get("code").asInt()).isEqualTo(400);
      assertThat(error.get("type").asText()).isEqualTo("BadRequestException");
      assertThat(error.get("message").asText()).isNotBlank().doesNotContain("\tat ");
    }
    String longBucket = "b".repeat(256);
    assertThat(
            server
                .send("GET", base() + "/readable-table-locations?bucket=" + longBucket, null)
                .statusCode())
        .isEqualTo(400);
  }

  @Test
  void noExistenceOracleForACallerWithoutStanding() throws Exception {
    HttpResponse<String> exists = request(stranger, CATALOG, "bucket=" + b1);
    HttpResponse<String> missing = request(stranger, MISSING, "bucket=" + b1);
    assertThat(exists.statusCode()).as(exists.body()).isEqualTo(403);
    assertThat(exists.body().replace(CATALOG, "{c}"))
        .isEqualTo(missing.body().replace(MISSING, "{c}"));
    assertThat(TestServer.json(exists.body()).at("/error/type").asText())
        .isEqualTo("ForbiddenException");
    // The service admin learns that a catalog does not exist; a caller with standing elsewhere
    // does not.
    assertThat(request(server.rootToken(), MISSING, "bucket=" + b1).statusCode()).isEqualTo(404);
    assertThat(request(tableReader, MISSING, "bucket=" + b1).statusCode()).isEqualTo(403);
  }

  @Test
  void aFileCatalogHasNoBuckets() throws Exception {
    String files = server.createCatalog("files");
    String ns = "/api/catalog/v1/" + files + "/namespaces";
    ok(server.send("POST", ns, "{\"namespace\": [\"n\"]}"));
    ok(server.send("POST", ns + "/n/tables", "{\"name\": \"t\", \"schema\": " + SCHEMA + "}"));
    JsonNode page = TestServer.json(ok(request(server.rootToken(), files, "bucket=" + b1)).body());
    assertThat(page.get("locations")).isEmpty();
  }

  @Test
  void theDecisionIsAuditedOncePerRequestNotPerTable() throws Exception {
    page(nsReader, b2, null, null);
    JsonNode events =
        TestServer.json(
                ok(server.send(
                        "GET",
                        "/api/management/v1/events?principal=ns_reader&catalog="
                            + CATALOG
                            + "&pageSize=1000",
                        null))
                    .body())
            .get("events");
    List<JsonNode> listed = new ArrayList<>();
    events.forEach(
        e -> {
          if (e.get("action").asText().equals("listReadableTableLocations")) {
            listed.add(e);
          }
        });
    assertThat(listed).isNotEmpty();
    assertThat(listed)
        .allSatisfy(e -> assertThat(e.get("securable").asText()).startsWith("bucket "));
    assertThat(listed.stream().map(e -> e.get("securable").asText())).contains("bucket " + b2);
    // No event names a table for this action: the summary is the decision.
    assertThat(events.findValuesAsText("securable")).noneMatch(s -> s.contains("sales.split"));
  }

  // ------------------------------------------------------------------ helpers

  private static void createCatalog() throws Exception {
    CephRgw rgw = bed.rgw();
    Map<String, Object> storage = new LinkedHashMap<>();
    storage.put("storageType", "S3");
    storage.put("allowedLocations", List.of(s3(b1, "wh"), s3(b2, "wh")));
    storage.put("region", rgw.region());
    storage.put("endpoint", rgw.endpoint());
    storage.put("pathStyleAccess", true);
    storage.put("credentialSource", "rgw");
    storage.put("stsUnavailable", true);
    Map<String, Object> catalog =
        Map.of(
            "name",
            CATALOG,
            "type",
            "INTERNAL",
            "properties",
            Map.of("default-base-location", s3(b1, "wh"), "allowUnstructuredLocations", "true"),
            "storageConfigInfo",
            storage);
    HttpResponse<String> created =
        server.send(
            "POST",
            "/api/management/v1/catalogs",
            JSON.writeValueAsString(Map.of("catalog", catalog)));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
  }

  private static void createTable(
      String ns, String name, String location, Map<String, String> properties) throws Exception {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", name);
    body.put("schema", JSON.readTree(SCHEMA));
    if (location != null) {
      body.put("location", location);
    }
    body.put("properties", properties);
    ok(
        server.send(
            "POST", base() + "/namespaces/" + ns + "/tables", JSON.writeValueAsString(body)));
  }

  /** A principal with a catalog role {@code <name>_cr} holding {@code grant}; returns its token. */
  private static String principal(String name, String grant) throws Exception {
    String[] credentials = admin.principal(name, name + "_pr");
    admin.catalogRole(CATALOG, name + "_cr", name + "_pr");
    admin.grant(CATALOG, name + "_cr", grant);
    return server.token(credentials[0], credentials[1]);
  }

  private static String grant(String type, List<String> ns, String name, String privilege) {
    return Admin.grantJson(type, ns, name, privilege);
  }

  private static String base() {
    return "/api/catalog/v1/" + CATALOG;
  }

  private static String s3(String bucket, String path) {
    return "s3://" + bucket + "/" + path;
  }

  private static HttpResponse<String> request(String token, String catalog, String query)
      throws Exception {
    return server.sendAs(
        token, "GET", "/api/catalog/v1/" + catalog + "/readable-table-locations?" + query, null);
  }

  private static JsonNode page(String token, String bucket, Integer size, String pageToken)
      throws Exception {
    String query = "bucket=" + URLEncoder.encode(bucket, StandardCharsets.UTF_8);
    if (size != null) {
      query += "&pageSize=" + size;
    }
    if (pageToken != null) {
      query += "&pageToken=" + URLEncoder.encode(pageToken, StandardCharsets.UTF_8);
    }
    return TestServer.json(ok(request(token, CATALOG, query)).body());
  }

  /** Every page, following the tokens; fails if a token repeats (no progress). */
  private static List<JsonNode> pages(String token, String bucket, int size) throws Exception {
    List<JsonNode> pages = new ArrayList<>();
    List<String> tokens = new ArrayList<>();
    String next = null;
    do {
      JsonNode page = page(token, bucket, size, next);
      pages.add(page);
      next = page.has("next-page-token") ? page.get("next-page-token").asText() : null;
      assertThat(tokens).as("a token must make progress").doesNotContain(next);
      tokens.add(next);
      assertThat(pages.size()).as("pages of " + size).isLessThanOrEqualTo(100);
    } while (next != null);
    return pages;
  }

  /** Table → its locations in {@code bucket}, over every page (default size). */
  private static Map<String, List<String>> all(String token, String bucket) throws Exception {
    Map<String, List<String>> out = new TreeMap<>();
    for (JsonNode page : pages(token, bucket, 1000)) {
      for (JsonNode entry : page.get("locations")) {
        List<String> locations = new ArrayList<>();
        entry.get("locations").forEach(l -> locations.add(l.asText()));
        assertThat(out.put(id(entry), locations)).as("listed twice: " + id(entry)).isNull();
      }
    }
    return out;
  }

  private static String id(JsonNode entry) {
    List<String> parts = new ArrayList<>();
    entry.get("namespace").forEach(level -> parts.add(level.asText()));
    parts.add(entry.get("table").asText());
    return String.join(".", parts);
  }

  /**
   * What the listing must say for these tables: the location and each write.*.path of the table's
   * current metadata, as root loads it, that lie in {@code bucket}; tables with none are left out.
   */
  private static Map<String, List<String>> expected(String bucket, String... tables)
      throws Exception {
    Map<String, List<String>> out = new TreeMap<>();
    for (String table : tables) {
      int dot = table.lastIndexOf('.');
      String ns = table.substring(0, dot).replace(".", "%1F");
      JsonNode metadata =
          TestServer.json(
                  ok(server.send(
                          "GET",
                          base() + "/namespaces/" + ns + "/tables/" + table.substring(dot + 1),
                          null))
                      .body())
              .get("metadata");
      List<String> locations = new ArrayList<>();
      locations.add(metadata.get("location").asText());
      metadata
          .get("properties")
          .fields()
          .forEachRemaining(
              p -> {
                if (p.getKey().startsWith("write.") && p.getKey().endsWith(".path")) {
                  locations.add(p.getValue().asText());
                }
              });
      List<String> inBucket =
          locations.stream()
              .map(l -> l.replaceAll("/+$", ""))
              .filter(l -> l.startsWith("s3://" + bucket + "/"))
              .sorted()
              .toList();
      if (!inBucket.isEmpty()) {
        out.put(table, inBucket);
      }
    }
    return out;
  }

  private static HttpResponse<String> ok(HttpResponse<String> response) {
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 299);
    return response;
  }
}

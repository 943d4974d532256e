package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Trino 476's Iceberg connector against a Sluice S3 catalog on the real Ceph RGW, with vended
 * credentials only: each Trino catalog names Sluice's URI, warehouse and one principal's OAuth
 * credential, plus the S3 endpoint, region and path style, and no storage key (the Trino process
 * also has no AWS variables; {@code scripts/trino.sh} removes them). Three principals, each behind
 * its own Trino catalog: a writer with the catalog-wide grants of docs/ENGINES.md, a reader with
 * TABLE_READ_DATA on one namespace, and one without grants.
 *
 * <p>Needs the RGW bed and the Trino bed that {@code ./scripts/test-all.sh} starts; fails, not
 * skips, without them. The {@code step*} methods run in order; once one fails, the later steps are
 * skipped ({@link OrderedSteps}) rather than failing for the same cause.
 */
@ExtendWith(OrderedSteps.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TrinoEndToEndTest {

  private static final String WAREHOUSE = "lake";
  private static final String SCHEMA = "sales";
  private static final String MANAGEMENT = "/api/management/v1";
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Map<String, String> rgw;
  private static RgwTestBucket rgwBucket;
  private static SluiceServerProcess server;
  private static TrinoSql trino;
  private static final List<String> trinoCatalogs = new ArrayList<>();
  private static String writer;
  private static String reader;
  private static String nobody;
  private static String creator;

  /** The snapshot of the first INSERT, for time travel. */
  private static long firstSnapshot;

  @BeforeAll
  static void start() throws Exception {
    rgw = RgwTestBucket.environment("TrinoEndToEndTest");
    trino = TrinoSql.connect("TrinoEndToEndTest");
    rgwBucket = RgwTestBucket.create(rgw, "sluice-e2e-trino");
    server = SluiceServerProcess.start("trino", RgwTestBucket.SERVER_CONFIG, rgw);
    createS3Catalog();

    String suffix = ProcessSupport.randomHex(3);
    writer = trinoCatalog("sluice_writer_" + suffix, writerPrincipal());
    reader = trinoCatalog("sluice_reader_" + suffix, readerPrincipal());
    nobody = trinoCatalog("sluice_nobody_" + suffix, principal("trino_nobody"));
    creator = trinoCatalog("sluice_creator_" + suffix, creatorPrincipal());
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (trino != null) {
        for (String catalog : trinoCatalogs) {
          trino.execute("DROP CATALOG IF EXISTS " + catalog);
        }
        trino.close();
      }
    } finally {
      try {
        if (server != null) {
          server.close();
        }
      } finally {
        if (rgwBucket != null) {
          rgwBucket.close();
        }
      }
    }
  }

  @Test
  @Order(1)
  void step01CreateSchemaWithoutLocation() {
    trino.execute("CREATE SCHEMA " + writer + "." + SCHEMA);

    assertThat(trino.column("SHOW SCHEMAS FROM " + writer)).contains(SCHEMA);
    // Sluice answers the schema's effective location (the structured default), which is what
    // makes Trino stage-create its tables below.
    assertThat(trino.column("SHOW CREATE SCHEMA " + writer + "." + SCHEMA).get(0).toString())
        .contains("location = 's3://" + rgwBucket.name() + "/wh/" + SCHEMA + "'");
  }

  @Test
  @Order(2)
  void step02CreateTableWithoutLocation() {
    // The first rough edge of issue 16: this failed with "Cannot create a table on a non-empty
    // location" and left a table behind.
    trino.execute("CREATE TABLE " + orders() + " (id BIGINT, name VARCHAR, qty INTEGER)");

    assertThat(trino.column("SHOW TABLES FROM " + writer + "." + SCHEMA)).containsExactly("orders");
    String prefix = tablePrefix(orders());
    assertThat(prefix).startsWith("wh/" + SCHEMA + "/orders");
    assertThat(rgwBucket.keys(prefix))
        .as("the table's objects on RGW")
        .filteredOn(k -> k.endsWith(".metadata.json"))
        .hasSize(1);
  }

  @Test
  @Order(3)
  void step03InsertAndSelect() {
    trino.execute(
        "INSERT INTO " + orders() + " VALUES (1, 'apple', 10), (2, 'pear', 20), (3, 'plum', 30)");
    firstSnapshot = latestSnapshot(orders());

    assertThat(trino.rows("SELECT id, name, qty FROM " + orders() + " ORDER BY id"))
        .containsExactly(row(1L, "apple", 10), row(2L, "pear", 20), row(3L, "plum", 30));
    assertThat(rgwBucket.keys(tablePrefix(orders()) + "data/"))
        .as("data files written by Trino with the vended credential")
        .anyMatch(k -> k.endsWith(".parquet"));
  }

  @Test
  @Order(4)
  void step04UpdateDeleteAndMerge() {
    trino.execute("UPDATE " + orders() + " SET qty = qty + 1 WHERE id = 1");
    trino.execute("DELETE FROM " + orders() + " WHERE id = 2");
    trino.execute(
        "MERGE INTO "
            + orders()
            + " o USING (VALUES (3, 'plum', 33), (4, 'fig', 40)) AS s (id, name, qty)"
            + " ON o.id = s.id"
            + " WHEN MATCHED THEN UPDATE SET qty = s.qty"
            + " WHEN NOT MATCHED THEN INSERT (id, name, qty) VALUES (s.id, s.name, s.qty)");

    assertThat(trino.rows("SELECT id, name, qty FROM " + orders() + " ORDER BY id"))
        .containsExactly(row(1L, "apple", 11), row(3L, "plum", 33), row(4L, "fig", 40));
  }

  @Test
  @Order(5)
  void step05TimeTravel() {
    assertThat(
            trino.rows(
                "SELECT id, name, qty FROM "
                    + orders()
                    + " FOR VERSION AS OF "
                    + firstSnapshot
                    + " ORDER BY id"))
        .containsExactly(row(1L, "apple", 10), row(2L, "pear", 20), row(3L, "plum", 30));
    // Trino's CREATE TABLE commits an empty snapshot; then INSERT, UPDATE, DELETE, MERGE.
    assertThat(
            trino.column(
                "SELECT operation FROM " + table("orders$snapshots") + " ORDER BY committed_at"))
        .containsExactly("append", "append", "overwrite", "delete", "overwrite");
  }

  @Test
  @Order(6)
  void step06CreateTableAsSelect() {
    trino.execute(
        "CREATE TABLE " + table("big") + " AS SELECT * FROM " + orders() + " WHERE qty > 20");

    assertThat(trino.rows("SELECT id, qty FROM " + table("big") + " ORDER BY id"))
        .containsExactly(row(3L, 33), row(4L, 40));
    assertThat(rgwBucket.keys(tablePrefix(table("big")) + "data/")).isNotEmpty();
  }

  @Test
  @Order(7)
  void step07Optimize() {
    long filesBefore = (Long) trino.column("SELECT count(*) FROM " + table("orders$files")).get(0);
    trino.execute("ALTER TABLE " + orders() + " EXECUTE optimize");

    assertThat(
            trino.column(
                "SELECT operation FROM "
                    + table("orders$snapshots")
                    + " ORDER BY committed_at DESC LIMIT 1"))
        .containsExactly("replace");
    assertThat((Long) trino.column("SELECT count(*) FROM " + table("orders$files")).get(0))
        .as("live files after optimize (before: %d)", filesBefore)
        .isEqualTo(1L);
    assertThat(trino.rows("SELECT id, name, qty FROM " + orders() + " ORDER BY id"))
        .containsExactly(row(1L, "apple", 11), row(3L, "plum", 33), row(4L, "fig", 40));
  }

  @Test
  @Order(8)
  void step08ReaderSelectsButStorageRefusesItsWrites() {
    String readerOrders = reader + "." + SCHEMA + ".orders";
    assertThat(trino.column("SHOW SCHEMAS FROM " + reader)).contains(SCHEMA);
    // Trino checks the schema first (HEAD): the reader's table grant is enough for that.
    assertThat(trino.column("SHOW TABLES FROM " + reader + "." + SCHEMA))
        .containsExactlyInAnyOrder("orders", "big");
    assertThat(trino.rows("SELECT id, qty FROM " + readerOrders + " ORDER BY id"))
        .containsExactly(row(1L, 11), row(3L, 33), row(4L, 40));

    String prefix = tablePrefix(orders());
    List<String> objects = rgwBucket.keys(prefix);
    long snapshots =
        (Long) trino.column("SELECT count(*) FROM " + table("orders$snapshots")).get(0);

    // The reader's credential is read-only: RGW itself refuses the data file (INSERT) and the
    // delete file (DELETE), and says so to the Trino user.
    for (String write :
        List.of(
            "INSERT INTO " + readerOrders + " VALUES (9, 'kiwi', 90)",
            "DELETE FROM " + readerOrders + " WHERE id = 1")) {
      // RGW's 403 carries no message text; Trino names the refused object and the status.
      assertThatThrownBy(() -> trino.execute(write))
          .as(write)
          .hasMessageContaining("Put failed for bucket [" + rgwBucket.name() + "] key [" + prefix)
          .hasMessageContaining("S3Exception")
          .hasMessageContaining("Status Code: 403");
    }

    assertThat(rgwBucket.keys(prefix)).as("objects after the refused writes").isEqualTo(objects);
    assertThat(trino.column("SELECT count(*) FROM " + table("orders$snapshots")))
        .containsExactly(snapshots);
    assertThat(trino.rows("SELECT id, qty FROM " + orders() + " ORDER BY id"))
        .containsExactly(row(1L, 11), row(3L, 33), row(4L, 40));
  }

  @Test
  @Order(9)
  void step09AFailedCreateLeavesNothingBehind() {
    // A creator with TABLE_CREATE and TABLE_READ_DATA but not TABLE_WRITE_DATA: the stage-create
    // is allowed and vends a read-only credential, then RGW refuses the first file Trino writes
    // (even CREATE TABLE writes one: Trino commits an empty snapshot). Nothing may be left: no
    // table in the catalog, no object, and the name stays free.
    String name = creator + "." + SCHEMA + ".staged";
    for (String create :
        List.of(
            "CREATE TABLE " + name + " (id BIGINT)",
            "CREATE TABLE " + name + " AS SELECT id FROM " + orders())) {
      assertThatThrownBy(() -> trino.execute(create))
          .as(create)
          .hasMessageContaining("Status Code: 403")
          .hasMessageContaining(
              "Put failed for bucket [" + rgwBucket.name() + "] key [wh/sales/staged");
    }

    assertThat(trino.column("SHOW TABLES FROM " + writer + "." + SCHEMA))
        .containsExactlyInAnyOrder("orders", "big");
    assertThat(rgwBucket.keys("wh/" + SCHEMA + "/staged"))
        .as("objects of the failed creates")
        .isEmpty();
    trino.execute("CREATE TABLE " + table("staged") + " (id BIGINT)");
    trino.execute("DROP TABLE " + table("staged"));
  }

  @Test
  @Order(12)
  void step12Views() {
    trino.execute(
        "CREATE VIEW "
            + table("plums")
            + " AS SELECT id, qty FROM "
            + orders()
            + " WHERE name = 'plum'");

    assertThat(trino.rows("SELECT id, qty FROM " + table("plums"))).containsExactly(row(3L, 33));
    assertThat(trino.column("SHOW TABLES FROM " + writer + "." + SCHEMA))
        .containsExactlyInAnyOrder("orders", "big", "plums");
    trino.execute("DROP VIEW " + table("plums"));
    assertThat(trino.column("SHOW TABLES FROM " + writer + "." + SCHEMA))
        .containsExactlyInAnyOrder("orders", "big");
  }

  @Test
  @Order(10)
  void step10TrinoTokenRequestsAreServedFromTheVerifiedSecretCache() {
    // The third rough edge of issue 16: Trino asks for a token on almost every call, and each
    // request used to pay the client secret's PBKDF2.
    double cachedBefore = secretChecks("cached");
    double slowBefore = secretChecks("pbkdf2");
    int tokensBefore = requests("POST", "/api/catalog/v1/oauth/tokens", null).size();
    for (int i = 0; i < 5; i++) {
      assertThat(trino.column("SELECT count(*) FROM " + reader + "." + SCHEMA + ".orders"))
          .containsExactly(3L);
    }
    int tokens = requests("POST", "/api/catalog/v1/oauth/tokens", null).size() - tokensBefore;
    double cached = secretChecks("cached") - cachedBefore;
    double slow = secretChecks("pbkdf2") - slowBefore;

    assertThat(tokens).as("token requests Trino made for 5 SELECTs").isGreaterThanOrEqualTo(2);
    assertThat(cached + slow).as("secret checks for %d token requests", tokens).isEqualTo(tokens);
    // At most one PBKDF2: the reader's entry may expire (60 s) during a slow run.
    assertThat(slow).as("PBKDF2 checks among %d token requests", tokens).isLessThanOrEqualTo(1);
  }

  @Test
  @Order(11)
  void step11PrincipalWithoutGrantsSeesNothing() {
    for (String query :
        List.of(
            "SHOW SCHEMAS FROM " + nobody,
            "SHOW TABLES FROM " + nobody + "." + SCHEMA,
            "SELECT * FROM " + nobody + "." + SCHEMA + ".orders")) {
      assertThatThrownBy(() -> trino.rows(query))
          .as(query)
          .satisfies(
              e ->
                  // The same 403 whether or not the catalog exists: Sluice's no-oracle answer.
                  assertThat(TrinoSql.messages(e.getCause()))
                      .contains(
                          "Forbidden: Principal 'trino_nobody' is not authorized for catalog 'lake' or it"
                              + " does not exist")
                      .doesNotContain(rgwBucket.name(), "s3://", "apple"));
    }
  }

  @Test
  @Order(13)
  void step13DropRemovesTablesAndTheirObjects() {
    String ordersPrefix = tablePrefix(orders());
    String bigPrefix = tablePrefix(table("big"));
    trino.execute("DROP TABLE " + orders());
    trino.execute("DROP TABLE " + table("big"));
    trino.execute("DROP SCHEMA " + writer + "." + SCHEMA);

    assertThat(trino.column("SHOW SCHEMAS FROM " + writer)).doesNotContain(SCHEMA);
    assertThat(rgwBucket.keys(ordersPrefix)).as("objects of the dropped table").isEmpty();
    assertThat(rgwBucket.keys(bigPrefix)).as("objects of the dropped CTAS table").isEmpty();
  }

  @Test
  @Order(14)
  void step14NoEngineRequestWasRefusedOrFailed() {
    // The second rough edge of issue 16: Trino looks up a view for every table name, and a 403
    // there is fatal. The reader holds nothing on views, so its lookups must have answered 404.
    List<JsonNode> readerViewLookups =
        requests(
            "GET", "/api/catalog/v1/{prefix}/namespaces/{namespace}/views/{view}", "trino_reader");
    assertThat(readerViewLookups).isNotEmpty();
    assertThat(readerViewLookups)
        .allSatisfy(r -> assertThat(r.path("status").asText()).isEqualTo("404"));

    List<JsonNode> all = requests(null, null, null);
    assertThat(all).as("access log lines").hasSizeGreaterThan(100);
    assertThat(all)
        .as("requests answered 5xx")
        .noneMatch(r -> r.path("status").asText().startsWith("5"));
    assertThat(all)
        .as("requests of the writer and reader answered 401 or 403")
        .noneMatch(
            r ->
                List.of("trino_writer", "trino_reader", "trino_creator")
                        .contains(r.path("principal").asText())
                    && List.of("401", "403").contains(r.path("status").asText()));
  }

  // --- setup -------------------------------------------------------------------------------------

  /** Creates the S3 catalog {@value #WAREHOUSE} on the test bucket as root. */
  private static void createS3Catalog() {
    ObjectNode body = CatalogAdmin.rgwS3Catalog(rgw, rgwBucket.name(), WAREHOUSE);
    ok("POST", MANAGEMENT + "/catalogs", body.toString());
  }

  /** The writer: catalog-wide grants, as docs/ENGINES.md lists them for a Trino writer. */
  private static String writerPrincipal() {
    String credential = principal("trino_writer");
    roleWithGrants(
        "trino_writer",
        List.of(
            catalogGrant("NAMESPACE_FULL_METADATA"),
            catalogGrant("TABLE_FULL_METADATA"),
            catalogGrant("TABLE_WRITE_DATA"),
            catalogGrant("VIEW_FULL_METADATA")));
    return credential;
  }

  /** The reader: TABLE_READ_DATA on the schema, and nothing else (nothing on views). */
  private static String readerPrincipal() {
    String credential = principal("trino_reader");
    roleWithGrants("trino_reader", List.of(namespaceGrant("TABLE_READ_DATA")));
    return credential;
  }

  /** May create tables in the schema and read them, but not write data. */
  private static String creatorPrincipal() {
    String credential = principal("trino_creator");
    roleWithGrants(
        "trino_creator",
        List.of(
            namespaceGrant("TABLE_CREATE"),
            namespaceGrant("TABLE_READ_DATA"),
            namespaceGrant("NAMESPACE_READ_PROPERTIES")));
    return credential;
  }

  /** A principal with no role; returns {@code clientId:clientSecret}. */
  private static String principal(String name) {
    JsonNode created =
        json(ok("POST", MANAGEMENT + "/principals", "{\"principal\":{\"name\":\"" + name + "\"}}"));
    JsonNode credentials = created.path("credentials");
    return credentials.path("clientId").asText() + ":" + credentials.path("clientSecret").asText();
  }

  /**
   * Gives principal {@code name} a principal role and catalog role of the same name holding {@code
   * grants}. Grants on the schema are made before the schema exists on purpose: Sluice accepts
   * them, and they take effect when it is created.
   */
  private static void roleWithGrants(String name, List<String> grants) {
    CatalogAdmin.roleWithGrants(TrinoEndToEndTest::ok, WAREHOUSE, name, name, grants);
  }

  private static String catalogGrant(String privilege) {
    return CatalogAdmin.catalogGrant(privilege);
  }

  private static String namespaceGrant(String privilege) {
    return CatalogAdmin.namespaceGrant(SCHEMA, privilege);
  }

  /**
   * Adds a Trino catalog for one principal, with the catalog file of docs/ENGINES.md (snippet
   * {@code trino-catalog}; its {@code connector.name} is the statement's {@code USING}): Sluice's
   * URI, warehouse and the principal's credential, vended credentials on, and for S3 only where RGW
   * is (no keys).
   */
  private static String trinoCatalog(String name, String credential) {
    Map<String, String> properties =
        new LinkedHashMap<>(
            DocSnippets.properties(
                "trino-catalog",
                DocSnippets.catalogValues(
                    server.catalogUri(),
                    WAREHOUSE,
                    credential,
                    Map.of(
                        "region", rgw.get("SLUICE_TEST_RGW_REGION"),
                        "s3-endpoint", rgw.get("SLUICE_TEST_RGW_ENDPOINT")))));
    assertThat(properties.remove("connector.name")).isEqualTo("iceberg");
    List<String> with = new ArrayList<>();
    properties.forEach((k, v) -> with.add("\"" + k + "\" = '" + v.replace("'", "''") + "'"));
    trino.execute(
        "CREATE CATALOG " + name + " USING iceberg WITH (" + String.join(", ", with) + ")");
    trinoCatalogs.add(name);
    return name;
  }

  // --- helpers -----------------------------------------------------------------------------------

  private static String orders() {
    return table("orders");
  }

  /** A table of the writer's catalog; {@code name} may carry Trino's {@code $} suffixes. */
  private static String table(String name) {
    String quoted = name.contains("$") ? "\"" + name + "\"" : name;
    return writer + "." + SCHEMA + "." + quoted;
  }

  /** The key prefix (ending in '/') of a table's location in the test bucket. */
  private static String tablePrefix(String table) {
    String ddl = trino.column("SHOW CREATE TABLE " + table).get(0).toString();
    int start = ddl.indexOf("location = '");
    assertThat(start).as("location in %s", ddl).isPositive();
    String location = ddl.substring(start + 12, ddl.indexOf('\'', start + 12));
    String key = rgwBucket.keyOf(location);
    return key.endsWith("/") ? key : key + "/";
  }

  private static long latestSnapshot(String table) {
    return (Long)
        trino
            .column(
                "SELECT snapshot_id FROM "
                    + table.replace(".orders", ".\"orders$snapshots\"")
                    + " ORDER BY committed_at DESC LIMIT 1")
            .get(0);
  }

  /**
   * The server's access-log records (method, route, status, principal), filtered by each non-null
   * argument.
   */
  private static List<JsonNode> requests(String method, String route, String principal) {
    return AccessLogLines.records(server.logTail(Integer.MAX_VALUE).lines()).stream()
        .filter(r -> method == null || method.equals(r.path("method").asText()))
        .filter(r -> route == null || route.equals(r.path("route").asText()))
        .filter(r -> principal == null || principal.equals(r.path("principal").asText()))
        .toList();
  }

  /** {@code sluice.auth.secret.checks{check=...}} from the server's Prometheus page. */
  private static double secretChecks(String check) {
    HttpResponse<String> page = server.getPublic("/metrics");
    assertThat(page.statusCode()).isEqualTo(200);
    String prefix = "sluice_auth_secret_checks_total{check=\"" + check + "\"";
    return page.body()
        .lines()
        .filter(l -> l.startsWith(prefix))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + prefix + " in /metrics:\n" + page.body()));
  }

  private static List<Object> row(Object... values) {
    return TrinoSql.row(values);
  }

  private static JsonNode json(String body) {
    return CatalogAdmin.json(body);
  }

  /** A management call as root that must succeed; returns the response body. */
  private static String ok(String method, String path, String body) {
    return CatalogAdmin.ok(server, method, path, body);
  }
}

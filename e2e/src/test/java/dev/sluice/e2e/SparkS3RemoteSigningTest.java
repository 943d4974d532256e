package dev.sluice.e2e;

import static dev.sluice.e2e.SparkSql.column;
import static dev.sluice.e2e.SparkSql.messages;
import static dev.sluice.e2e.SparkSql.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Apache Spark 4.0 (local[2]) with Iceberg's Spark runtime reads and writes an Iceberg table on a
 * real Ceph RGW through a Sluice S3 catalog that offers <em>remote signing only</em> ({@code
 * "delegation": ["remote-signing"]}): the Spark catalog has {@code type}, {@code uri}, {@code
 * warehouse}, {@code credential} and the {@code X-Iceberg-Access-Delegation: remote-signing}
 * header, no S3 key, and Sluice's table responses carry none either. Every S3 request of Iceberg's
 * S3FileIO is signed by {@code POST .../tables/{t}/sign} after Sluice has checked the caller's
 * grants and that the object lies in the table's own locations.
 *
 * <p><b>One remote-signing class per JVM.</b> Iceberg 1.10's {@code S3V4RestSignerClient} keeps its
 * HTTP client and auth manager in static fields, so every signing request in a JVM goes to the
 * first Sluice server it was set up for, and its cache of signed reads (30 s, keyed by method and
 * URI, not by principal) is static too. Surefire runs the e2e classes in one reused JVM, so no
 * other class of this module may use remote signing; this one is the only one.
 *
 * <p>Needs the RGW bed that {@code ./scripts/test-all.sh} starts ({@code SLUICE_TEST_RGW_*});
 * fails, not skips, without it. The {@code step*} methods run in order; once one fails, the
 * following steps are skipped (aborted) rather than failing for the same cause.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SparkS3RemoteSigningTest {

  private static final String WAREHOUSE = "signed";
  private static final String CATALOG = "signed";
  private static final String READER_CATALOG = "signed_reader";
  private static final String NS_NAME = "sign_e2e";
  private static final String TABLE_NAME = "orders";
  private static final String NS = CATALOG + "." + NS_NAME;
  private static final String TABLE = NS + "." + TABLE_NAME;
  private static final String READER_TABLE = READER_CATALOG + "." + NS_NAME + "." + TABLE_NAME;
  private static final Map<String, String> SIGNING_HEADER =
      Map.of("X-Iceberg-Access-Delegation", "remote-signing");

  private static final ObjectMapper JSON = new ObjectMapper();

  private static Map<String, String> rgw;
  private static RgwTestBucket rgwBucket;
  private static String bucket;
  private static SluiceServerProcess server;
  private static SparkSession spark;
  private static String failedStep;

  @RegisterExtension
  static final TestWatcher STOP_AFTER_FIRST_FAILURE =
      new TestWatcher() {
        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
          String name = context.getRequiredTestMethod().getName();
          if (name.startsWith("step") && failedStep == null) {
            failedStep = name;
          }
        }
      };

  @BeforeAll
  static void start() throws Exception {
    rgw = RgwTestBucket.environment("SparkS3RemoteSigningTest");
    rgwBucket = RgwTestBucket.create(rgw, "sluice-e2e-sign");
    bucket = rgwBucket.name();

    server = SluiceServerProcess.start("spark-sign", RgwTestBucket.SERVER_CONFIG, rgw);
    createSigningCatalog();

    Path sparkDir = SluiceServerProcess.repoRoot().resolve("e2e/target/spark-sign");
    spark =
        SparkSql.session(
            "sluice-e2e-sign",
            sparkDir,
            CATALOG,
            server,
            WAREHOUSE,
            Map.of("header.X-Iceberg-Access-Delegation", "remote-signing"));
  }

  /**
   * Creates the S3 catalog {@value #WAREHOUSE} on the test bucket, offering remote signing only.
   */
  private static void createSigningCatalog() throws Exception {
    String location = "s3://" + bucket + "/wh";
    ObjectNode storage =
        JSON.createObjectNode()
            .put("storageType", "S3")
            .put("roleArn", rgw.get("SLUICE_TEST_RGW_ROLE_ARN"))
            .put("region", rgw.get("SLUICE_TEST_RGW_REGION"))
            .put("endpoint", rgw.get("SLUICE_TEST_RGW_ENDPOINT"))
            .put("pathStyleAccess", true)
            .put("credentialSource", "rgw")
            .put("durationSeconds", 900);
    storage.putArray("allowedLocations").add(location);
    storage.putArray("delegation").add("remote-signing");
    ObjectNode catalog = JSON.createObjectNode().put("name", WAREHOUSE).put("type", "INTERNAL");
    catalog.putObject("properties").put("default-base-location", location);
    catalog.set("storageConfigInfo", storage);
    ObjectNode body = JSON.createObjectNode();
    body.set("catalog", catalog);
    ok("POST", "/api/management/v1/catalogs", JSON.writeValueAsString(body));
  }

  @AfterAll
  static void stop() {
    try {
      SparkSql.stop(spark);
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

  @BeforeEach
  void skipAfterAFailedStep(TestInfo info) {
    if (info.getTestMethod().orElseThrow().getName().startsWith("step")) {
      Assumptions.assumeTrue(
          failedStep == null, () -> "skipped: earlier step " + failedStep + " failed");
    }
  }

  @Test
  @Order(1)
  void step01CreateNamespace() {
    spark.sql("CREATE NAMESPACE " + NS);

    assertThat(column(sql("SHOW NAMESPACES IN " + CATALOG), 0)).contains(NS_NAME);
  }

  @Test
  @Order(2)
  void step02CreateTable() {
    // A plain CREATE TABLE, not CTAS: staged creates are not signable yet.
    spark.sql(
        "CREATE TABLE " + TABLE + " (id BIGINT NOT NULL, name STRING, qty INT) USING iceberg");

    assertThat(column(sql("SHOW TABLES IN " + NS), 1)).containsExactly(TABLE_NAME);
    assertThat(tableLocation()).startsWith("s3://" + bucket + "/wh/");
    assertThat(objectKeys(tablePrefix() + "metadata/")).anyMatch(k -> k.endsWith(".metadata.json"));
  }

  @Test
  @Order(3)
  void step03LoadResponseOffersSigningAndNoKey() throws Exception {
    String path = tablePath();
    HttpResponse<String> response =
        server.send("GET", path, server.fetchToken(), null, SIGNING_HEADER);
    assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);

    JsonNode load = JSON.readTree(response.body());
    JsonNode config = load.path("config");
    assertThat(config.path("s3.remote-signing-enabled").asText()).isEqualTo("true");
    String signer = config.path("s3.signer.endpoint").asText();
    assertThat(signer).startsWith("v1/").endsWith("/namespaces/" + NS_NAME + "/tables/orders/sign");
    assertThat(config.path("signer.endpoint").asText()).isEqualTo(signer);
    assertThat(config.path("s3.endpoint").asText()).isEqualTo(rgw.get("SLUICE_TEST_RGW_ENDPOINT"));
    assertThat(config.path("client.region").asText()).isEqualTo(rgw.get("SLUICE_TEST_RGW_REGION"));
    assertThat(config.path("s3.path-style-access").asText()).isEqualTo("true");
    assertThat(load.path("storage-credentials").size())
        .as("storage-credentials in %s", response.body())
        .isZero();
    assertThat(response.body())
        .doesNotContain("s3.access-key-id", "s3.secret-access-key", "s3.session-token")
        .doesNotContain(rgw.get("SLUICE_TEST_RGW_SECRET_KEY"));
  }

  @Test
  @Order(4)
  void step04Insert() {
    spark.sql(
        "INSERT INTO " + TABLE + " VALUES (1, 'apple', 10), (2, 'pear', 20), (3, 'plum', 30)");

    assertThat(sql("SELECT operation FROM " + TABLE + ".snapshots")).containsExactly(row("append"));
  }

  @Test
  @Order(5)
  void step05Select() {
    assertThat(sql("SELECT id, name, qty FROM " + TABLE + " ORDER BY id"))
        .containsExactly(row(1L, "apple", 10), row(2L, "pear", 20), row(3L, "plum", 30));
  }

  @Test
  @Order(6)
  void step06DeleteRow() {
    spark.sql("DELETE FROM " + TABLE + " WHERE id = 2");

    assertThat(sql("SELECT count(*) FROM " + TABLE + ".snapshots")).containsExactly(row(2L));
  }

  @Test
  @Order(7)
  void step07SelectAfterDelete() {
    assertThat(sql("SELECT id, name, qty FROM " + TABLE + " ORDER BY id"))
        .containsExactly(row(1L, "apple", 10), row(3L, "plum", 30));
  }

  @Test
  @Order(8)
  void step08FilesAreOnRgw() {
    String prefix = tablePrefix();
    List<String> keys = objectKeys(prefix);
    String listing = String.join("\n", keys);

    assertThat(keys.stream().filter(k -> k.startsWith(prefix + "data/") && k.endsWith(".parquet")))
        .as("Parquet files under s3://%s/%sdata/ in:%n%s", bucket, prefix, listing)
        .isNotEmpty();
    List<String> live =
        sql("SELECT file_path FROM " + TABLE + ".files").stream()
            .map(r -> (String) r.get(0))
            .toList();
    assertThat(live).isNotEmpty();
    assertThat(live).allSatisfy(p -> assertThat(keys).contains(keyOf(p)));

    List<String> metadata = keys.stream().filter(k -> k.startsWith(prefix + "metadata/")).toList();
    assertThat(metadata)
        .as("metadata objects under s3://%s/%smetadata/ in:%n%s", bucket, prefix, listing)
        .anyMatch(k -> k.matches(".*/snap-.*\\.avro"))
        .anyMatch(k -> k.endsWith("-m0.avro"));
    assertThat(metadata.stream().filter(k -> k.endsWith(".metadata.json")).count())
        .as("create + append + delete")
        .isGreaterThanOrEqualTo(3);
  }

  @Test
  @Order(9)
  void step09AReaderSelectsButItsInsertIsRefusedBySluice() throws Exception {
    String[] reader = readOnlyPrincipal();
    String c = "spark.sql.catalog." + READER_CATALOG;
    spark.conf().set(c, "org.apache.iceberg.spark.SparkCatalog");
    spark.conf().set(c + ".type", "rest");
    spark.conf().set(c + ".uri", server.catalogUri());
    spark.conf().set(c + ".warehouse", WAREHOUSE);
    spark.conf().set(c + ".credential", reader[0] + ":" + reader[1]);
    spark.conf().set(c + ".header.X-Iceberg-Access-Delegation", "remote-signing");

    // Iceberg's signer cache is static and not per principal, but Sluice marks no signature
    // cacheable: the reader's reads, right after the writer's, are signed for the reader.
    assertThat(sql("SELECT id, name, qty FROM " + READER_TABLE + " ORDER BY id"))
        .containsExactly(row(1L, "apple", 10), row(3L, "plum", 30));
    assertThat(signDecisions("reader", "ALLOW"))
        .as("the reader's signed reads in the audit trail")
        .isNotEmpty();

    String dataPrefix = tablePrefix() + "data/";
    List<String> dataBefore = objectKeys(dataPrefix);
    assertThatThrownBy(
            () -> spark.sql("INSERT INTO " + READER_TABLE + " VALUES (4, 'fig', 40)").count())
        .satisfies(e -> assertThat(messages(e)).contains("needs TABLE_WRITE_DATA"));
    assertThat(objectKeys(dataPrefix))
        .as("data objects after the refused INSERT: the PUT never reached RGW")
        .isEqualTo(dataBefore);
    assertThat(signDecisions("reader", "DENY"))
        .as("the reader's refused signing in the audit trail")
        .isNotEmpty();

    assertThat(sql("SELECT id, name, qty FROM " + TABLE + " ORDER BY id"))
        .containsExactly(row(1L, "apple", 10), row(3L, "plum", 30));
  }

  @Test
  @Order(10)
  void step10PurgeRequestedOfTheCatalogDeletesTheObjects() throws Exception {
    String prefix = tablePrefix();
    assertThat(objectKeys(prefix)).isNotEmpty();

    // What RESTCatalog.dropTable(id, true) sends; Sluice purges with its own identity.
    HttpResponse<String> dropped =
        server.send("DELETE", tablePath() + "?purgeRequested=true", server.fetchToken(), null);
    assertThat(dropped.statusCode()).as("drop with purge: %s", dropped.body()).isEqualTo(204);

    assertThat(column(sql("SHOW TABLES IN " + NS), 1)).doesNotContain(TABLE_NAME);
    assertThat(objectKeys(prefix))
        .as("objects under s3://%s/%s after the purge", bucket, prefix)
        .isEmpty();
  }

  /**
   * Spark's {@code DROP TABLE ... PURGE} with Iceberg 1.10 is not a purge request: SparkCatalog
   * drops the table without purge, then deletes its files itself through the table's FileIO
   * (Iceberg issue 14743; later releases have the Spark catalog option {@code rest-catalog-purge}
   * to ask the catalog instead). With remote signing that cannot work: Sluice signs nothing for a
   * table that no longer exists, and never a multi-object delete. The table is gone and its objects
   * stay (orphans), which this step pins down; purging through the catalog (step 10) is the way.
   */
  @Test
  @Order(11)
  void step11SparkDropTablePurgeDropsButCannotDeleteTheFiles() {
    String scratch = NS + ".scratch";
    spark.sql("CREATE TABLE " + scratch + " (id BIGINT) USING iceberg");
    spark.sql("INSERT INTO " + scratch + " VALUES (1)");
    String prefix = tablePrefix(scratch);
    List<String> before = objectKeys(prefix);
    assertThat(before).anyMatch(k -> k.endsWith(".parquet"));

    // Iceberg 1.10 drops first, then deletes client-side: a GET for the dropped table is refused
    // (404, the table is gone) and fails the statement, and its deletes are multi-object deletes,
    // which Sluice refuses and Iceberg only logs. Either way (Spark rethrows a task's failure as a
    // SparkException, a checked exception Scala does not declare):
    try {
      spark.sql("DROP TABLE " + scratch + " PURGE");
    } catch (Exception e) {
      assertThat(messages(e)).containsAnyOf("Table does not exist", "Failed to delete");
    }

    assertThat(column(sql("SHOW TABLES IN " + NS), 1)).doesNotContain("scratch");
    assertThat(objectKeys(prefix))
        .as("no DELETE of a dropped table's objects was signed")
        .isEqualTo(before);
  }

  // --- helpers -------------------------------------------------------------------------------

  /**
   * A principal whose only grant is TABLE_READ_DATA on {@value #NS_NAME}; returns {clientId,
   * clientSecret}.
   */
  private static String[] readOnlyPrincipal() throws Exception {
    String m = "/api/management/v1";
    JsonNode created =
        JSON.readTree(ok("POST", m + "/principals", "{\"principal\":{\"name\":\"reader\"}}"));
    ok("POST", m + "/principal-roles", "{\"principalRole\":{\"name\":\"readers\"}}");
    ok(
        "PUT",
        m + "/principals/reader/principal-roles",
        "{\"principalRole\":{\"name\":\"readers\"}}");
    ok(
        "POST",
        m + "/catalogs/" + WAREHOUSE + "/catalog-roles",
        "{\"catalogRole\":{\"name\":\"read_only\"}}");
    ok(
        "PUT",
        m + "/principal-roles/readers/catalog-roles/" + WAREHOUSE,
        "{\"catalogRole\":{\"name\":\"read_only\"}}");
    ok(
        "PUT",
        m + "/catalogs/" + WAREHOUSE + "/catalog-roles/read_only/grants",
        "{\"grant\":{\"type\":\"namespace\",\"namespace\":[\""
            + NS_NAME
            + "\"],\"privilege\":\"TABLE_READ_DATA\"}}");
    JsonNode credentials = created.path("credentials");
    return new String[] {
      credentials.path("clientId").asText(), credentials.path("clientSecret").asText()
    };
  }

  /** The audit trail's signRequest events of {@code principal} with {@code decision}. */
  private static List<JsonNode> signDecisions(String principal, String decision) throws Exception {
    JsonNode events =
        JSON.readTree(
                ok(
                    "GET",
                    "/api/management/v1/events?pageSize=1000&principal="
                        + principal
                        + "&decision="
                        + decision,
                    null))
            .path("events");
    List<JsonNode> signs = new ArrayList<>();
    events.forEach(
        e -> {
          if ("signRequest".equals(e.path("action").asText())) {
            signs.add(e);
          }
        });
    return signs;
  }

  /** A management call as root that must succeed; returns the response body. */
  private static String ok(String method, String path, String body) {
    HttpResponse<String> response = server.send(method, path, server.fetchToken(), body);
    assertThat(response.statusCode())
        .as("%s %s %s answered: %s", method, path, body, response.body())
        .isBetween(200, 204);
    return response.body();
  }

  /** The REST path of the test table, under the prefix {@code GET /v1/config} answers. */
  private static String tablePath() throws Exception {
    JsonNode config =
        JSON.readTree(
            ok(
                "GET",
                "/api/catalog/v1/config?warehouse="
                    + URLEncoder.encode(WAREHOUSE, StandardCharsets.UTF_8),
                null));
    String prefix = config.path("overrides").path("prefix").asText(null);
    return "/api/catalog/v1/"
        + (prefix == null ? "" : URLEncoder.encode(prefix, StandardCharsets.UTF_8) + "/")
        + "namespaces/"
        + NS_NAME
        + "/tables/"
        + TABLE_NAME;
  }

  private static String tableLocation() {
    return tableLocation(TABLE);
  }

  private static String tableLocation(String table) {
    return sql("DESCRIBE TABLE EXTENDED " + table).stream()
        .filter(r -> "Location".equals(r.get(0)))
        .map(r -> ((String) r.get(1)).trim())
        .findFirst()
        .orElseThrow(
            () -> new AssertionError("DESCRIBE TABLE EXTENDED " + table + " has no Location"));
  }

  /** The test table location's key prefix inside the test bucket, ending with '/'. */
  private static String tablePrefix() {
    return tablePrefix(TABLE);
  }

  private static String tablePrefix(String table) {
    String key = keyOf(tableLocation(table));
    return key.endsWith("/") ? key : key + "/";
  }

  private static String keyOf(String s3Uri) {
    return rgwBucket.keyOf(s3Uri);
  }

  private static List<String> objectKeys(String prefix) {
    return rgwBucket.keys(prefix);
  }

  private static List<List<Object>> sql(String query) {
    return SparkSql.rows(spark, query);
  }
}

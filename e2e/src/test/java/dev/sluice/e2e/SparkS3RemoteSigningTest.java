package dev.sluice.e2e;

import static dev.sluice.e2e.SparkSql.column;
import static dev.sluice.e2e.SparkSql.messages;
import static dev.sluice.e2e.SparkSql.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

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
 * following steps are skipped ({@link OrderedSteps}) rather than failing for the same cause.
 */
@ExtendWith(OrderedSteps.class)
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
  private static SparkOrdersTable orders;

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
    orders = new SparkOrdersTable(spark, rgwBucket, CATALOG, NS_NAME, TABLE_NAME);
  }

  /**
   * Creates the S3 catalog {@value #WAREHOUSE} on the test bucket, offering remote signing only.
   */
  private static void createSigningCatalog() throws Exception {
    ObjectNode body = CatalogAdmin.rgwS3Catalog(rgw, bucket, WAREHOUSE, "remote-signing");
    ok("POST", "/api/management/v1/catalogs", JSON.writeValueAsString(body));
  }

  @AfterAll
  static void stop() throws Exception {
    ProcessSupport.closeAll(() -> SparkSql.stop(spark), server, rgwBucket);
  }

  @Test
  @Order(1)
  void step01CreateNamespace() {
    orders.createNamespace();
  }

  @Test
  @Order(2)
  void step02CreateTable() {
    // A plain CREATE TABLE, not CTAS: staged creates are not signable yet.
    orders.createTable();
    orders.assertCreatedInTheBucket();
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
    orders.insert();
  }

  @Test
  @Order(5)
  void step05Select() {
    orders.select();
  }

  @Test
  @Order(6)
  void step06DeleteRow() {
    orders.deleteRow();
  }

  @Test
  @Order(7)
  void step07SelectAfterDelete() {
    orders.selectAfterDelete();
  }

  @Test
  @Order(8)
  void step08FilesAreOnRgw() {
    orders.assertFilesAreInTheBucket();
  }

  @Test
  @Order(9)
  void step09AReaderSelectsButItsInsertIsRefusedBySluice() throws Exception {
    String[] reader = CatalogAdmin.readOnlyPrincipal(server, WAREHOUSE, NS_NAME);
    SparkSql.addCatalog(
        spark,
        READER_CATALOG,
        server,
        WAREHOUSE,
        reader[0] + ":" + reader[1],
        Map.of("header.X-Iceberg-Access-Delegation", "remote-signing"));

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
    return CatalogAdmin.ok(server, method, path, body);
  }

  private static String tablePath() {
    return CatalogAdmin.tablePath(server, WAREHOUSE, NS_NAME, TABLE_NAME);
  }

  private static String tablePrefix() {
    return orders.tablePrefix();
  }

  private static String tablePrefix(String table) {
    return orders.tablePrefix(table);
  }

  private static List<String> objectKeys(String prefix) {
    return rgwBucket.keys(prefix);
  }

  private static List<List<Object>> sql(String query) {
    return SparkSql.rows(spark, query);
  }
}

package dev.sluice.e2e;

import static dev.sluice.e2e.SparkSql.messages;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
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
 * real Ceph RGW through a Sluice S3 catalog, with <em>vended credentials only</em>: the Spark
 * catalog is configured with {@code type}, {@code uri}, {@code warehouse} and {@code credential}
 * and nothing else; S3 keys, session token, endpoint, region and path-style access all come from
 * the {@code config}/{@code storage-credentials} of Sluice's table responses (STS AssumeRole on
 * RGW, done by the server with its own static identity from {@code storage.credentialSources}).
 *
 * <p>Needs the RGW bed that {@code ./scripts/test-all.sh} starts, described by the {@code
 * SLUICE_TEST_RGW_*} environment variables; fails, not skips, without them.
 *
 * <p>The {@code step*} methods run in order; once one fails, the following steps are skipped
 * ({@link OrderedSteps}) rather than failing for the same cause.
 */
@ExtendWith(OrderedSteps.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SparkS3VendingTest {

  private static final String WAREHOUSE = "lake";
  private static final String CATALOG = "lake";
  private static final String NOBODY_CATALOG = "lake_nobody";
  private static final String NS_NAME = "s3_e2e";
  private static final String TABLE_NAME = "orders";
  private static final String NS = CATALOG + "." + NS_NAME;
  private static final String TABLE = NS + "." + TABLE_NAME;

  private static final ObjectMapper JSON = new ObjectMapper();

  private static Map<String, String> rgw;
  private static RgwTestBucket rgwBucket;
  private static String bucket;
  private static SluiceServerProcess server;
  private static SparkSession spark;
  private static SparkOrdersTable orders;

  @BeforeAll
  static void start() throws Exception {
    rgw = RgwTestBucket.environment("SparkS3VendingTest");
    rgwBucket = RgwTestBucket.create(rgw, "sluice-e2e-spark");
    bucket = rgwBucket.name();

    // The bed's STS allows 1-second sessions: SparkStagedCtas's catalog vends 3-second ones.
    server =
        SluiceServerProcess.start(
            "spark-s3", RgwTestBucket.SERVER_CONFIG + "  vendingMinDurationSeconds: 1\n", rgw);
    createS3Catalog();

    Path sparkDir = SluiceServerProcess.repoRoot().resolve("e2e/target/spark-s3");
    // The Iceberg REST catalog: no S3 keys, no endpoint, no region. All of it is vended.
    spark = SparkSql.session("sluice-e2e-s3", sparkDir, CATALOG, server, WAREHOUSE);
    orders = new SparkOrdersTable(spark, rgwBucket, CATALOG, NS_NAME, TABLE_NAME);
  }

  /** Creates the S3 catalog {@value #WAREHOUSE} on the test bucket as root. */
  private static void createS3Catalog() throws Exception {
    ObjectNode body = CatalogAdmin.rgwS3Catalog(rgw, bucket, WAREHOUSE);

    HttpResponse<String> response =
        server.send(
            "POST",
            "/api/management/v1/catalogs",
            server.fetchToken(),
            JSON.writeValueAsString(body));
    assertThat(response.statusCode())
        .as("POST /api/management/v1/catalogs %s answered: %s", body, response.body())
        .isEqualTo(201);
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
    orders.createTable();
    assertThat(spark.table(TABLE).schema().fieldNames()).containsExactly("id", "name", "qty");
    // The table's first metadata file was written by the server, not by Spark: it is on RGW.
    orders.assertCreatedInTheBucket();
  }

  @Test
  @Order(3)
  void step03TableResponsesCarryVendedStsCredentials() throws Exception {
    String token = server.fetchToken();
    String path = tablePath();
    HttpResponse<String> response =
        server.send(
            "GET", path, token, null, Map.of("X-Iceberg-Access-Delegation", "vended-credentials"));
    assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);

    JsonNode load = JSON.readTree(response.body());
    JsonNode creds = load.path("storage-credentials");
    assertThat(creds.isArray() && creds.size() > 0)
        .as("storage-credentials in %s", response.body())
        .isTrue();
    JsonNode vended = creds.get(0).path("config");
    assertThat(creds.get(0).path("prefix").asText()).startsWith("s3://" + bucket + "/");
    assertThat(vended.path("s3.access-key-id").asText())
        .isNotBlank()
        .isNotEqualTo(rgw.get("SLUICE_TEST_RGW_ACCESS_KEY"));
    assertThat(vended.path("s3.secret-access-key").asText()).isNotBlank();
    assertThat(vended.path("s3.session-token").asText()).isNotBlank();
    assertThat(load.path("config").path("s3.endpoint").asText())
        .isEqualTo(rgw.get("SLUICE_TEST_RGW_ENDPOINT"));
    assertThat(load.path("config").path("s3.path-style-access").asText()).isEqualTo("true");
    assertThat(load.path("config").path("client.region").asText())
        .isEqualTo(rgw.get("SLUICE_TEST_RGW_REGION"));
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
    List<String> keys = orders.assertFilesAreInTheBucket();
    String currentMetadata =
        (String)
            sql("SELECT file FROM "
                    + TABLE
                    + ".metadata_log_entries "
                    + "ORDER BY timestamp DESC LIMIT 1")
                .get(0)
                .get(0);
    assertThat(keys).contains(rgwBucket.keyOf(currentMetadata));
  }

  @Test
  @Order(9)
  void principalWithoutPrivilegesCannotReadTheTable() throws Exception {
    HttpResponse<String> created =
        server.send(
            "POST",
            "/api/management/v1/principals",
            server.fetchToken(),
            "{\"principal\":{\"name\":\"nobody\"}}");
    assertThat(created.statusCode()).as("create principal: %s", created.body()).isEqualTo(201);
    JsonNode credentials = JSON.readTree(created.body()).path("credentials");
    String id = credentials.path("clientId").asText();
    String secret = credentials.path("clientSecret").asText();
    assertThat(id).isNotBlank();
    assertThat(secret).isNotBlank();

    // Straight at the REST API: loading the table is refused, and no credentials come back.
    String nobodyToken = server.fetchToken(id, secret);
    HttpResponse<String> load =
        server.send(
            "GET",
            tablePath(),
            nobodyToken,
            null,
            Map.of("X-Iceberg-Access-Delegation", "vended-credentials"));
    assertThat(load.statusCode()).as("load table as nobody: %s", load.body()).isEqualTo(403);
    assertThat(load.body()).doesNotContain("s3.access-key-id", "s3.session-token");

    // Through Spark.
    SparkSql.addCatalog(spark, NOBODY_CATALOG, server, WAREHOUSE, id + ":" + secret);

    assertThatThrownBy(
            () ->
                spark
                    .sql("SELECT * FROM " + NOBODY_CATALOG + "." + NS_NAME + "." + TABLE_NAME)
                    .collectAsList())
        .satisfies(
            e ->
                assertThat(messages(e).toLowerCase(Locale.ROOT))
                    .containsAnyOf("forbiddenexception", "403", "forbidden", "not authorized"));
  }

  /** A CTAS whose writing outlives its credential refreshes through the staged table's endpoint. */
  @Test
  @Order(10)
  void aCtasOutlivingItsCredentialRefreshesThroughTheStagedTablesEndpoint() throws Exception {
    new SparkStagedCtas(spark, server, rgw, rgwBucket).run();
  }

  // --- helpers -------------------------------------------------------------------------------

  private static String tablePath() {
    return CatalogAdmin.tablePath(server, WAREHOUSE, NS_NAME, TABLE_NAME);
  }

  private static List<List<Object>> sql(String query) {
    return SparkSql.rows(spark, query);
  }
}

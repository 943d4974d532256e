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
import java.util.List;
import java.util.Locale;
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
 * (aborted) rather than failing for the same cause.
 */
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
    rgw = RgwTestBucket.environment("SparkS3VendingTest");
    rgwBucket = RgwTestBucket.create(rgw, "sluice-e2e-spark");
    bucket = rgwBucket.name();

    server = SluiceServerProcess.start("spark-s3", RgwTestBucket.SERVER_CONFIG, rgw);
    createS3Catalog();

    Path sparkDir = SluiceServerProcess.repoRoot().resolve("e2e/target/spark-s3");
    // The Iceberg REST catalog: no S3 keys, no endpoint, no region. All of it is vended.
    spark = SparkSql.session("sluice-e2e-s3", sparkDir, CATALOG, server, WAREHOUSE);
  }

  /** Creates the S3 catalog {@value #WAREHOUSE} on the test bucket as root. */
  private static void createS3Catalog() throws Exception {
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
    ObjectNode catalog = JSON.createObjectNode().put("name", WAREHOUSE).put("type", "INTERNAL");
    catalog.putObject("properties").put("default-base-location", location);
    catalog.set("storageConfigInfo", storage);
    ObjectNode body = JSON.createObjectNode();
    body.set("catalog", catalog);

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
    spark.sql(
        "CREATE TABLE " + TABLE + " (id BIGINT NOT NULL, name STRING, qty INT) USING iceberg");

    assertThat(column(sql("SHOW TABLES IN " + NS), 1)).containsExactly(TABLE_NAME);
    assertThat(spark.table(TABLE).schema().fieldNames()).containsExactly("id", "name", "qty");
    assertThat(tableLocation()).startsWith("s3://" + bucket + "/wh/");
    // The table's first metadata file was written by the server, not by Spark: it is on RGW.
    assertThat(objectKeys(tablePrefix() + "metadata/")).anyMatch(k -> k.endsWith(".metadata.json"));
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

    List<String> dataFiles =
        keys.stream()
            .filter(k -> k.startsWith(prefix + "data/") && k.endsWith(".parquet"))
            .toList();
    assertThat(dataFiles)
        .as("Parquet files under s3://%s/%sdata/ in:%n%s", bucket, prefix, listing)
        .isNotEmpty();
    // Every data file the current snapshot references is one of those objects.
    List<String> live =
        sql("SELECT file_path FROM " + TABLE + ".files").stream()
            .map(r -> (String) r.get(0))
            .toList();
    assertThat(live).isNotEmpty();
    assertThat(live).allSatisfy(p -> assertThat(keys).contains(keyOf(p)));

    List<String> metadata = keys.stream().filter(k -> k.startsWith(prefix + "metadata/")).toList();
    assertThat(metadata)
        .as("metadata objects under s3://%s/%smetadata/ in:%n%s", bucket, prefix, listing)
        .anyMatch(k -> k.endsWith(".metadata.json"))
        .anyMatch(k -> k.matches(".*/snap-.*\\.avro"))
        .anyMatch(k -> k.endsWith("-m0.avro"));
    // Create + append + delete: at least three metadata versions.
    assertThat(metadata.stream().filter(k -> k.endsWith(".metadata.json")).count())
        .isGreaterThanOrEqualTo(3);
    String currentMetadata =
        (String)
            sql("SELECT file FROM "
                    + TABLE
                    + ".metadata_log_entries "
                    + "ORDER BY timestamp DESC LIMIT 1")
                .get(0)
                .get(0);
    assertThat(keys).contains(keyOf(currentMetadata));
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
    String c = "spark.sql.catalog." + NOBODY_CATALOG;
    spark.conf().set(c, "org.apache.iceberg.spark.SparkCatalog");
    spark.conf().set(c + ".type", "rest");
    spark.conf().set(c + ".uri", server.catalogUri());
    spark.conf().set(c + ".warehouse", WAREHOUSE);
    spark.conf().set(c + ".credential", id + ":" + secret);

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

  // --- helpers -------------------------------------------------------------------------------

  /**
   * The REST path of the test table. The catalog's URL prefix is what {@code GET /v1/config}
   * answers root with; it does not depend on the caller.
   */
  private static String tablePath() throws Exception {
    String rootToken = server.fetchToken();
    HttpResponse<String> config =
        server.send(
            "GET",
            "/api/catalog/v1/config?warehouse="
                + URLEncoder.encode(WAREHOUSE, StandardCharsets.UTF_8),
            rootToken,
            null);
    assertThat(config.statusCode()).as("GET /v1/config: %s", config.body()).isEqualTo(200);
    String prefix = JSON.readTree(config.body()).path("overrides").path("prefix").asText(null);
    return "/api/catalog/v1/"
        + (prefix == null ? "" : URLEncoder.encode(prefix, StandardCharsets.UTF_8) + "/")
        + "namespaces/"
        + NS_NAME
        + "/tables/"
        + TABLE_NAME;
  }

  private static String tableLocation() {
    return sql("DESCRIBE TABLE EXTENDED " + TABLE).stream()
        .filter(r -> "Location".equals(r.get(0)))
        .map(r -> ((String) r.get(1)).trim())
        .findFirst()
        .orElseThrow(
            () -> new AssertionError("DESCRIBE TABLE EXTENDED " + TABLE + " has no Location"));
  }

  /** The table location's key prefix inside the test bucket, ending with '/'. */
  private static String tablePrefix() {
    String key = keyOf(tableLocation());
    return key.endsWith("/") ? key : key + "/";
  }

  /** The object key of an {@code s3://bucket/key} URI in the test bucket. */
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

package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.client.comet.SluiceCometCredentialProvider;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Apache Spark 4.1 (local[2]) with Apache DataFusion Comet's native scans reading through a Sluice
 * S3 catalog on Ceph RGW, with the Sluice bridge ({@link SluiceCometCredentialProvider}) as the
 * only source of storage credentials: no S3 key anywhere in Spark's configuration or environment.
 * Hadoop S3A (Spark's file listing on the Parquet path) runs anonymously against a bucket policy
 * that allows listing only, so every object read that succeeds carried a vended credential.
 *
 * <p>Needs the RGW bed ({@code ./scripts/test-all.sh}); fails, not skips, without it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SparkCometVendingTest {
  private static final String SERVER_CONFIG =
      """
      storage:
        vendingMinDurationSeconds: 1
        credentialSources:
          rgw:
            type: static
            accessKeyId: ${SLUICE_TEST_RGW_ACCESS_KEY}
            secretAccessKey: ${SLUICE_TEST_RGW_SECRET_KEY}
      """;

  private static final String WAREHOUSE = "lake";

  /** The reader's catalog: credentials come from the bridge on Comet's native Iceberg scan. */
  private static final String READER = "lake";

  /** Root's catalog, to create and fill the tables (Iceberg's own writer, vended credentials). */
  private static final String ADMIN = "lake_admin";

  private static final String NS = "comet";
  private static final String ORDERS = "orders";
  private static final String ORDERS_EU = "orders_eu";
  private static final int CREDENTIAL_SECONDS = 30;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final StructType SCHEMA =
      new StructType()
          .add("id", DataTypes.LongType, false)
          .add("item", DataTypes.StringType)
          .add("qty", DataTypes.IntegerType);

  private static CometTestBed bed;
  private static SluiceServerProcess server;
  private static SparkSession spark;
  private static String readerId;
  private static String readerSecret;

  @BeforeAll
  static void start() throws Exception {
    Map<String, String> env = CometTestBed.environment("SparkCometVendingTest");
    bed = CometTestBed.create(env, "sluice-e2e-comet");
    bed.allowAnonymousListing();
    server = SluiceServerProcess.start("spark-comet", SERVER_CONFIG, env);
    createCatalog();
    createReader();

    Path sparkDir = SluiceServerProcess.repoRoot().resolve("e2e-comet/target/spark");
    spark = session(sparkDir);
    spark.sql("CREATE NAMESPACE " + ADMIN + "." + NS);
    for (String table : List.of(ORDERS, ORDERS_EU)) {
      spark.sql(
          "CREATE TABLE "
              + ADMIN
              + "."
              + NS
              + "."
              + table
              + " (id BIGINT NOT NULL, item STRING, qty INT) USING iceberg");
    }
    spark.sql("INSERT INTO " + adminTable(ORDERS) + " VALUES (1, 'apple', 10), (2, 'pear', 20)");
    spark.sql("INSERT INTO " + adminTable(ORDERS_EU) + " VALUES (7, 'fig', 70)");
  }

  @AfterAll
  static void stop() {
    try {
      if (spark != null) {
        spark.stop();
        SparkSession.clearActiveSession();
        SparkSession.clearDefaultSession();
      }
    } finally {
      try {
        if (server != null) {
          server.close();
        }
      } finally {
        if (bed != null) {
          bed.close();
        }
      }
    }
  }

  private static SparkSession session(Path sparkDir) {
    String bridge = SluiceCometCredentialProvider.class.getName();
    String endpoint = bed.env("SLUICE_TEST_RGW_ENDPOINT");
    String region = bed.env("SLUICE_TEST_RGW_REGION");
    SparkSession.Builder b =
        SparkSession.builder()
            .master("local[2]")
            .appName("sluice-e2e-comet")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.sql.warehouse.dir", sparkDir.resolve("warehouse").toUri().toString())
            // Comet, with its native scans
            .config("spark.plugins", "org.apache.spark.CometPlugin")
            .config("spark.comet.enabled", "true")
            .config("spark.comet.exec.enabled", "true")
            .config("spark.comet.scan.icebergNative.enabled", "true")
            .config("spark.comet.write.iceberg.enabled", "false")
            .config(
                "spark.shuffle.manager",
                "org.apache.spark.sql.comet.execution.shuffle.CometShuffleManager")
            .config("spark.memory.offHeap.enabled", "true")
            .config("spark.memory.offHeap.size", "1g")
            // Parquet path: S3A lists anonymously; Comet's reads get credentials from the bridge.
            .config("spark.hadoop.fs.s3a.endpoint", endpoint)
            .config("spark.hadoop.fs.s3a.endpoint.region", region)
            .config("spark.hadoop.fs.s3a.path.style.access", "true")
            .config("spark.hadoop.fs.s3a.connection.ssl.enabled", "false")
            .config(
                "spark.hadoop.fs.s3a.aws.credentials.provider",
                "org.apache.hadoop.fs.s3a.AnonymousAWSCredentialsProvider")
            .config("spark.hadoop.fs.s3a.comet.credential.provider.class", bridge)
            .config("spark.hadoop.fs.s3a.sluice.uri", server.catalogUri())
            .config("spark.hadoop.fs.s3a.sluice.warehouse", WAREHOUSE)
            .config("spark.hadoop.fs.s3a.sluice.credential", readerId + ":" + readerSecret)
            // Iceberg path: the reader's catalog, with the bridge and an explicit region.
            .config("spark.sql.catalog." + READER, "org.apache.iceberg.spark.SparkCatalog")
            .config("spark.sql.catalog." + READER + ".type", "rest")
            .config("spark.sql.catalog." + READER + ".uri", server.catalogUri())
            .config("spark.sql.catalog." + READER + ".warehouse", WAREHOUSE)
            .config("spark.sql.catalog." + READER + ".credential", readerId + ":" + readerSecret)
            .config("spark.sql.catalog." + READER + ".s3.comet.credential.provider.class", bridge)
            .config("spark.sql.catalog." + READER + ".s3.region", region)
            .config("spark.sql.catalog." + READER + ".s3.endpoint", endpoint)
            .config("spark.sql.catalog." + READER + ".s3.path-style-access", "true")
            // Root's catalog, for setup.
            .config("spark.sql.catalog." + ADMIN, "org.apache.iceberg.spark.SparkCatalog")
            .config("spark.sql.catalog." + ADMIN + ".type", "rest")
            .config("spark.sql.catalog." + ADMIN + ".uri", server.catalogUri())
            .config("spark.sql.catalog." + ADMIN + ".warehouse", WAREHOUSE)
            .config("spark.sql.catalog." + ADMIN + ".credential", server.credential());
    return b.getOrCreate();
  }

  @Test
  @Order(1)
  void parquetPathReadsTheFilesOfAReadableTableNatively() {
    List<String> dataKeys = dataKeys(ORDERS);
    long mark = bed.rgwLogMark();

    Dataset<Row> df = spark.read().schema(SCHEMA).parquet(dataDir(ORDERS));
    assertThat(rows(df.orderBy("id")))
        .containsExactly(List.of(1L, "apple", 10), List.of(2L, "pear", 20));

    assertThat(df.queryExecution().executedPlan().toString()).contains("CometNativeScan parquet");
    // Every data file was read by Comet's native reader (object_store) with a vended credential
    // (an STS session of the catalog's role: RGW names its owner); S3A, keyless, only listed.
    List<String> access = bed.rgwAccessLinesSince(mark);
    for (String key : dataKeys) {
      assertThat(reads(access, key))
          .as("RGW's reads of %s in:%n%s", key, String.join("\n", access))
          .isNotEmpty()
          .allSatisfy(
              l ->
                  assertThat(l)
                      .contains("\"object_store/")
                      .contains(" - catalog [")
                      .matches(".*\" 20[06] .*"));
    }
    assertThat(access)
        .as("no anonymous or S3A object read")
        .noneMatch(
            l -> l.contains("\"GET ") && l.contains(" - anonymous ") && l.contains(".parquet"))
        .noneMatch(
            l -> l.contains("\"GET ") && l.contains("Hadoop 3.4.2") && l.contains(".parquet"));
  }

  @Test
  @Order(2)
  void parquetPathRefusesATableWithoutAGrantNamingTheReason() {
    List<String> dataKeys = dataKeys(ORDERS_EU);
    long mark = bed.rgwLogMark();

    // orders_eu shares the prefix "orders" but not the segment: the grant on orders covers none
    // of it. Spark can list it (anonymously); Comet gets no credential for it.
    assertThatThrownBy(() -> rows(spark.read().schema(SCHEMA).parquet(dataDir(ORDERS_EU))))
        .satisfies(
            e ->
                assertThat(messages(e))
                    .contains(
                        "Sluice cannot vend an S3 credential for bucket '" + bed.bucket() + "'")
                    .contains(
                        "no table the principal may read has a location covering it (1 readable"
                            + " location(s) in the bucket)")
                    .doesNotContain(readerSecret));
    List<String> access = bed.rgwAccessLinesSince(mark);
    for (String key : dataKeys) {
      assertThat(reads(access, key)).as("reads of %s", key).isEmpty();
    }
  }

  @Test
  @Order(3)
  void icebergPathReadsNativelyWithTheBridgesCredentials() {
    List<String> dataKeys = dataKeys(ORDERS);
    long mark = bed.rgwLogMark();
    Dataset<Row> df;
    List<String> bridgeLines;
    try (BridgeLog log = new BridgeLog()) {
      df = spark.sql("SELECT id, item, qty FROM " + READER + "." + NS + "." + ORDERS);
      assertThat(rows(df.orderBy("id")))
          .containsExactly(List.of(1L, "apple", 10), List.of(2L, "pear", 20));
      bridgeLines = log.lines();
    }

    assertThat(df.queryExecution().executedPlan().toString())
        .contains("CometIcebergNativeScan")
        .contains("IcebergScan(table=" + READER + "." + NS + "." + ORDERS);
    // The catalog's bridge was set up from the catalog's own properties (as Comet forwards them),
    // and it answered Comet for the table's location (Comet's Iceberg reader asks per table).
    assertThat(bridgeLines)
        .as("the bridge's log")
        .anyMatch(
            l ->
                l.startsWith("Sluice Comet bridge initialized from the catalog properties: ")
                    && l.contains("clientId=" + readerId + ","))
        .anyMatch(
            l ->
                l.startsWith("Comet asks for s3://" + bed.bucket() + "/wh/" + NS + "/" + ORDERS)
                    && l.endsWith("table " + NS + "." + ORDERS));
    // The data files were read by the native reader (iceberg-rust / opendal, which sends no user
    // agent), not by Iceberg's Java S3FileIO, which reads only metadata here.
    List<String> access = bed.rgwAccessLinesSince(mark);
    for (String key : dataKeys) {
      assertThat(reads(access, key))
          .as("RGW's reads of %s in:%n%s", key, String.join("\n", access))
          .isNotEmpty()
          .allSatisfy(
              l ->
                  assertThat(l)
                      .contains(" - catalog [")
                      .doesNotContain("s3fileio")
                      .doesNotContain("aws-sdk-java")
                      .matches(".*\" 20[06] .*"));
    }
  }

  @Test
  @Order(4)
  void icebergPathRefusesATableWithoutAGrant() {
    assertThatThrownBy(
            () -> rows(spark.sql("SELECT * FROM " + READER + "." + NS + "." + ORDERS_EU)))
        .satisfies(
            e ->
                assertThat(messages(e))
                    .contains("ForbiddenException")
                    .contains(
                        "Principal 'reader' with activated principal roles [readers] is not"
                            + " authorized for loadTable on table comet.orders_eu"));
  }

  @Test
  @Order(5)
  void aGrantAddedWhileTheJobRunsIsPickedUpWhenCometAsksAgain() {
    // This read's store uses the bridge behind a hook that grants orders_eu at the bridge's first
    // refusal: after Comet's failed read, before its re-ask for the bucket's locations.
    spark
        .conf()
        .set("fs.s3a.comet.credential.provider.class", GrantOnRefusalBridge.class.getName());
    GrantOnRefusalBridge.ON_REFUSAL.set(() -> grant(ORDERS_EU, true));
    try {
      assertThat(rows(spark.read().schema(SCHEMA).parquet(dataDir(ORDERS_EU))))
          .containsExactly(List.of(7L, "fig", 70));
    } finally {
      spark.conf().unset("fs.s3a.comet.credential.provider.class");
    }
    assertThat(GrantOnRefusalBridge.ON_REFUSAL.get()).as("the grant ran").isNull();
    assertThat(GrantOnRefusalBridge.REFUSALS.get()).isGreaterThanOrEqualTo(1);
    // Comet asked for the locations once more after the refusal, and then saw orders_eu.
    assertThat(GrantOnRefusalBridge.POLICY_CALLS.get()).isGreaterThanOrEqualTo(2);
  }

  @Test
  @Order(6)
  void afterARevokeTheNextCredentialIsRefused() throws Exception {
    Dataset<Row> orders = spark.read().schema(SCHEMA).parquet(dataDir(ORDERS));
    assertThat(rows(orders)).hasSize(2);
    grant(ORDERS, false);
    long revokedAt = System.currentTimeMillis();

    // The credential vended before the revoke stays valid at the store until it expires, and the
    // bridge serves it until shortly before; the next one Sluice refuses. Comet asks the bridge
    // on (about) every request for a credential expiring within minutes, so reads fail by then.
    Throwable refusal = null;
    long deadline = revokedAt + (CREDENTIAL_SECONDS + 15) * 1000L;
    while (refusal == null && System.currentTimeMillis() < deadline) {
      try {
        rows(spark.read().schema(SCHEMA).parquet(dataDir(ORDERS)));
        Thread.sleep(1000);
      } catch (Exception e) {
        refusal = e;
      }
    }
    assertThat(refusal)
        .as("a read refused within %d s of the revoke", CREDENTIAL_SECONDS + 15)
        .isNotNull();
    assertThat(messages(refusal))
        .contains("Sluice cannot vend an S3 credential for bucket '" + bed.bucket() + "'")
        .containsAnyOf(
            "is not authorized for loadCredentials on table comet.orders ",
            "is not authorized for vendCredentials on table comet.orders ",
            "no table the principal may read has a location covering it");
    System.out.println(
        "refused "
            + (System.currentTimeMillis() - revokedAt)
            + " ms after the revoke:\n"
            + messages(refusal));
  }

  // --- setup ---------------------------------------------------------------------------------

  private static void createCatalog() throws Exception {
    String location = "s3://" + bed.bucket() + "/wh";
    ObjectNode storage =
        JSON.createObjectNode()
            .put("storageType", "S3")
            .put("roleArn", bed.env("SLUICE_TEST_RGW_ROLE_ARN"))
            .put("region", bed.env("SLUICE_TEST_RGW_REGION"))
            .put("endpoint", bed.env("SLUICE_TEST_RGW_ENDPOINT"))
            .put("pathStyleAccess", true)
            .put("credentialSource", "rgw")
            .put("durationSeconds", CREDENTIAL_SECONDS);
    storage.putArray("allowedLocations").add(location);
    ObjectNode catalog = JSON.createObjectNode().put("name", WAREHOUSE).put("type", "INTERNAL");
    catalog.putObject("properties").put("default-base-location", location);
    catalog.set("storageConfigInfo", storage);
    ObjectNode body = JSON.createObjectNode();
    body.set("catalog", catalog);
    ok("POST", "/api/management/v1/catalogs", JSON.writeValueAsString(body));
  }

  /** A principal whose only grant is TABLE_READ_DATA on {@value #NS}.{@value #ORDERS}. */
  private static void createReader() throws Exception {
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
        "{\"catalogRole\":{\"name\":\"orders_readers\"}}");
    ok(
        "PUT",
        m + "/principal-roles/readers/catalog-roles/" + WAREHOUSE,
        "{\"catalogRole\":{\"name\":\"orders_readers\"}}");
    grant(ORDERS, true);
    readerId = created.path("credentials").path("clientId").asText();
    readerSecret = created.path("credentials").path("clientSecret").asText();
  }

  /** Grants (or revokes) TABLE_READ_DATA on {@code table} to the reader's catalog role. */
  private static void grant(String table, boolean add) {
    ok(
        add ? "PUT" : "POST",
        "/api/management/v1/catalogs/" + WAREHOUSE + "/catalog-roles/orders_readers/grants",
        "{\"grant\":{\"type\":\"table\",\"namespace\":[\""
            + NS
            + "\"],\"tableName\":\""
            + table
            + "\",\"privilege\":\"TABLE_READ_DATA\"}}");
  }

  private static String ok(String method, String path, String body) {
    HttpResponse<String> response = server.send(method, path, server.fetchToken(), body);
    assertThat(response.statusCode())
        .as("%s %s %s answered: %s", method, path, body, response.body())
        .isBetween(200, 204);
    return response.body();
  }

  // --- helpers -------------------------------------------------------------------------------

  private static String adminTable(String table) {
    return ADMIN + "." + NS + "." + table;
  }

  /** The data folder of a table, as S3A sees it. */
  private static String dataDir(String table) {
    return "s3a://" + bed.bucket() + "/wh/" + NS + "/" + table + "/data/";
  }

  private static List<List<Object>> rows(Dataset<Row> df) {
    List<List<Object>> out = new ArrayList<>();
    for (Row r : df.collectAsList()) {
      List<Object> values = new ArrayList<>();
      for (int i = 0; i < r.size(); i++) {
        values.add(r.get(i));
      }
      out.add(values);
    }
    return out;
  }

  static String messages(Throwable e) {
    return Stream.iterate(e, t -> t != null, Throwable::getCause)
        .map(t -> t.getClass().getName() + ": " + t.getMessage())
        .collect(Collectors.joining("\n"));
  }

  /** The keys of a table's data files, as the admin sees them. */
  private static List<String> dataKeys(String table) {
    List<String> keys =
        bed.keys("wh/" + NS + "/" + table + "/data/").stream()
            .filter(k -> k.endsWith(".parquet"))
            .toList();
    assertThat(keys).as("data files of %s", table).isNotEmpty();
    return keys;
  }

  /** RGW's access lines that read (GET) {@code key}. */
  private static List<String> reads(List<String> access, String key) {
    String request = "\"GET /" + bed.bucket() + "/" + key + " ";
    return access.stream().filter(l -> l.contains(request)).toList();
  }
}

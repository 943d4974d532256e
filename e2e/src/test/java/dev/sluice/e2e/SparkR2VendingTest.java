package dev.sluice.e2e;

import static dev.sluice.e2e.SparkSql.column;
import static dev.sluice.e2e.SparkSql.messages;
import static dev.sluice.e2e.SparkSql.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.e2e.R2GatewayProcess.Counters;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
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
 * Apache Spark 4.0 (local[2]) with Iceberg's Spark runtime on a Sluice <em>R2</em> catalog, with
 * vended credentials only: the Spark catalog has {@code type}, {@code uri}, {@code warehouse} and
 * {@code credential} and nothing else. There is no R2 here: the catalog's endpoint is the loopback
 * R2 gateway of the server's test sources ({@link R2GatewayProcess}), which accepts what R2
 * documents for temporary credentials (a JWT under the parent key, the derived secret, the token's
 * bucket, prefixes and scope) and forwards what it allows to the Ceph RGW bed. Its counters tell
 * which requests carried a minted credential and which it refused.
 *
 * <p>Needs the RGW bed ({@code SLUICE_TEST_RGW_*}, started by {@code ./scripts/test-all.sh});
 * fails, not skips, without it. The {@code step*} methods run in order; once one fails, the
 * following steps are skipped ({@link OrderedSteps}) rather than failing for the same cause.
 */
@ExtendWith(OrderedSteps.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SparkR2VendingTest {
  /** A Cloudflare account id (32 lowercase hex); the gateway is not on an r2 host, so explicit. */
  private static final String ACCOUNT = ProcessSupport.randomHex(16);

  /** The parent API key, in the server's YAML by reference only (block style: see S3 test). */
  private static final String SERVER_CONFIG =
      """
      storage:
        credentialSources:
          r2:
            type: static
            accessKeyId: ${E2E_R2_PARENT_KEY_ID}
            secretAccessKey: ${E2E_R2_PARENT_SECRET}
      """;

  /** The server's default minimum (vendingMinDurationSeconds left at 900). */
  private static final int DURATION_SECONDS = 900;

  private static final String WAREHOUSE = "r2lake";
  private static final String CATALOG = "r2lake";
  private static final String READER_CATALOG = "r2lake_reader";
  private static final String NS_NAME = "r2_e2e";
  private static final String TABLE_NAME = "orders";
  private static final String NS = CATALOG + "." + NS_NAME;
  private static final String TABLE = NS + "." + TABLE_NAME;
  private static final String RO_NS_NAME = "r2_ro";
  private static final String RO_TABLE_NAME = "prices";

  private static final ObjectMapper JSON = new ObjectMapper();

  private static RgwTestBucket bucket;
  private static R2GatewayProcess gateway;
  private static SluiceServerProcess server;
  private static SparkSession spark;
  private static SparkOrdersTable orders;
  private static String parentSecret;

  @BeforeAll
  static void start() throws Exception {
    Map<String, String> rgw = RgwTestBucket.environment("SparkR2VendingTest");
    bucket = RgwTestBucket.create(rgw, "sluice-e2e-r2");
    String parentKeyId = ProcessSupport.randomHex(16);
    parentSecret = ProcessSupport.randomHex(32);
    gateway = R2GatewayProcess.start("spark-r2", ACCOUNT, parentKeyId, parentSecret, rgw);

    Map<String, String> serverEnv = new HashMap<>();
    serverEnv.put("E2E_R2_PARENT_KEY_ID", parentKeyId);
    serverEnv.put("E2E_R2_PARENT_SECRET", parentSecret);
    server = SluiceServerProcess.start("spark-r2", SERVER_CONFIG, serverEnv);
    createR2Catalog();

    Path sparkDir = SluiceServerProcess.repoRoot().resolve("e2e/target/spark-r2");
    // No keys, endpoint or region for storage: all of it comes from the catalog.
    spark = SparkSql.session("sluice-e2e-r2", sparkDir, CATALOG, server, WAREHOUSE);
    orders = new SparkOrdersTable(spark, bucket, CATALOG, NS_NAME, TABLE_NAME);
  }

  /** The R2 catalog {@value #WAREHOUSE}: endpoint = the gateway, allowed at {@code /wh}. */
  private static void createR2Catalog() throws Exception {
    String location = "s3://" + bucket.name() + "/wh";
    ObjectNode storage =
        JSON.createObjectNode()
            .put("storageType", "R2")
            .put("endpoint", gateway.endpoint())
            .put("accountId", ACCOUNT)
            .put("credentialSource", "r2")
            .put("durationSeconds", DURATION_SECONDS);
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
    assertThat(response.body()).doesNotContain(parentSecret);
  }

  @AfterAll
  static void stop() throws Exception {
    ProcessSupport.closeAll(() -> SparkSql.stop(spark), server, gateway, bucket);
  }

  @Test
  @Order(1)
  void step01CreateNamespace() {
    orders.createNamespace();
  }

  @Test
  @Order(2)
  void step02CreateTable() {
    Counters before = gateway.counters();
    orders.createTable();
    // The first metadata file is the server's, written through the gateway with the parent key.
    orders.assertCreatedInTheBucket();
    assertThat(gateway.counters().parentRequests()).isGreaterThan(before.parentRequests());
  }

  @Test
  @Order(3)
  void step03Insert() {
    Counters before = gateway.counters();
    orders.insert();
    assertThat(bucket.keys(orders.tablePrefix() + "data/")).anyMatch(k -> k.endsWith(".parquet"));
    assertThat(gateway.counters().minted())
        .as("Spark's data and manifest writes, with minted credentials")
        .isGreaterThan(before.minted());
  }

  @Test
  @Order(4)
  void step04Select() {
    Counters before = gateway.counters();
    orders.select();
    assertThat(gateway.counters().minted())
        .as("Spark's reads, with minted credentials")
        .isGreaterThan(before.minted());
  }

  @Test
  @Order(5)
  void step05DeleteRow() {
    orders.deleteRow();
  }

  @Test
  @Order(6)
  void step06SelectAfterDelete() {
    orders.selectAfterDelete();
  }

  @Test
  @Order(7)
  void step07DropTablePurge() {
    String prefix = orders.tablePrefix();
    assertThat(bucket.keys(prefix)).isNotEmpty();

    spark.sql("DROP TABLE " + TABLE + " PURGE");

    assertThat(column(sql("SHOW TABLES IN " + NS), 1)).doesNotContain(TABLE_NAME);
    assertThat(bucket.keys(prefix)).as("objects left under %s", prefix).isEmpty();
  }

  @Test
  @Order(8)
  void step08TheEngineUsedMintedCredentialsAndNothingWasRefused() {
    Counters counters = gateway.counters();
    assertThat(counters.minted()).as("requests with minted (JWT) credentials").isPositive();
    assertThat(counters.refusals()).as("refused by the gateway: %s", gateway.refusalLog()).isZero();
  }

  /** Reads work with the read-only credential; the gateway refuses the INSERT's data write. */
  @Test
  @Order(9)
  void aReadOnlyPrincipalsInsertIsRefusedByTheGateway() throws Exception {
    String table = CATALOG + "." + RO_NS_NAME + "." + RO_TABLE_NAME;
    spark.sql("CREATE NAMESPACE IF NOT EXISTS " + CATALOG + "." + RO_NS_NAME);
    spark.sql("CREATE TABLE " + table + " (id BIGINT, price INT) USING iceberg");
    spark.sql("INSERT INTO " + table + " VALUES (1, 5), (2, 7)");
    String dataPrefix = orders.tablePrefix(table) + "data/";
    List<String> dataFiles = bucket.keys(dataPrefix);
    assertThat(dataFiles).isNotEmpty();

    String[] reader = CatalogAdmin.readOnlyPrincipal(server, WAREHOUSE, RO_NS_NAME);
    SparkSql.addCatalog(spark, READER_CATALOG, server, WAREHOUSE, reader[0] + ":" + reader[1]);
    String readerTable = READER_CATALOG + "." + RO_NS_NAME + "." + RO_TABLE_NAME;

    Counters before = gateway.counters();
    assertThat(sql("SELECT id, price FROM " + readerTable + " ORDER BY id"))
        .containsExactly(row(1L, 5), row(2L, 7));
    Counters afterRead = gateway.counters();
    assertThat(afterRead.minted()).isGreaterThan(before.minted());
    assertThat(afterRead.refusals()).isEqualTo(before.refusals());

    assertThatThrownBy(() -> spark.sql("INSERT INTO " + readerTable + " VALUES (3, 9)"))
        .satisfies(
            e ->
                assertThat(messages(e).toLowerCase(Locale.ROOT))
                    .containsAnyOf("accessdenied", "status code: 403"));
    List<String> refusals = gateway.refusalLog();
    List<String> fresh = refusals.subList((int) afterRead.refusals(), refusals.size());
    String tableKeys = "/" + bucket.name() + "/" + dataPrefix;
    assertThat(fresh)
        .as("the gateway's refusals of the reader's INSERT")
        .anyMatch(r -> r.startsWith("PUT " + tableKeys))
        .allMatch(r -> r.contains(" -> 403 AccessDenied"));
    assertThat(bucket.keys(dataPrefix))
        .as("data files after the refused INSERT")
        .isEqualTo(dataFiles);
    assertThat(sql("SELECT id, price FROM " + table + " ORDER BY id"))
        .containsExactly(row(1L, 5), row(2L, 7));
  }

  // --- helpers -------------------------------------------------------------------------------

  private static List<List<Object>> sql(String query) {
    return SparkSql.rows(spark, query);
  }
}

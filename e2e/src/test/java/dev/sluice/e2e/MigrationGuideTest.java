package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Follows docs/MIGRATING.md on Ceph RGW: Iceberg's reference REST server is the old catalog, its
 * tables written by a Spark that holds RGW's key (as engines do before a migration). Every {@code
 * ./sluice} line of the page's {@code <!-- migrating: … -->} blocks runs, in order, as the CLI a
 * user runs; between the phases the test checks what each phase promises, with Spark 4.0 and
 * Iceberg's runtime as the engine: through the federated catalog the engine reads with Sluice's own
 * credential, scoped by the store to the table; a reader's write is refused by Sluice; an imported
 * domain moves to the internal catalog; and phase 5's engine job, configured from the page's
 * snippet without a key, is refused while the same read through Sluice succeeds.
 */
@ExtendWith(OrderedSteps.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MigrationGuideTest {
  private static final Path PAGE = DocSnippets.page("MIGRATING.md");
  private static final Pattern BLOCK =
      Pattern.compile("<!-- migrating: ([a-z0-9-]+) -->\\n```\\w*\\n(.*?)```", Pattern.DOTALL);
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Map<String, String> rgw;
  private static RgwTestBucket rgwBucket;
  private static ReferenceServerProcess old;
  private static SluiceServerProcess server;
  private static SparkSession spark;
  private static Map<String, String> vars;
  private static Map<String, String> blocks;
  private static String salesCredential;

  @BeforeAll
  static void start() throws Exception {
    rgw = RgwTestBucket.environment("MigrationGuideTest");
    rgwBucket = RgwTestBucket.create(rgw, "sluice-e2e-migrate");
    String warehouse = "s3://" + rgwBucket.name() + "/wh";
    // The old catalog holds RGW's key, and so does the engine that writes through it.
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("s3.endpoint", rgw.get("SLUICE_TEST_RGW_ENDPOINT"));
    keys.put("s3.path-style-access", "true");
    keys.put("s3.access-key-id", rgw.get("SLUICE_TEST_RGW_ACCESS_KEY"));
    keys.put("s3.secret-access-key", rgw.get("SLUICE_TEST_RGW_SECRET_KEY"));
    keys.put("client.region", rgw.get("SLUICE_TEST_RGW_REGION"));
    Map<String, String> oldEnv = new LinkedHashMap<>();
    oldEnv.put("CATALOG_IO__IMPL", "org.apache.iceberg.aws.s3.S3FileIO");
    keys.forEach(
        (k, v) -> oldEnv.put("CATALOG_" + k.replace("-", "__").replace('.', '_').toUpperCase(), v));
    // Its AWS SDK (Iceberg's bundle) adds request checksums that RGW refuses (docs/ENGINES.md).
    oldEnv.put("AWS_REQUEST_CHECKSUM_CALCULATION", "WHEN_REQUIRED");
    oldEnv.put("AWS_RESPONSE_CHECKSUM_VALIDATION", "WHEN_REQUIRED");
    old = ReferenceServerProcess.start("migrate", warehouse, oldEnv);
    server = SluiceServerProcess.start("migrate", RgwTestBucket.SERVER_CONFIG, rgw);

    Path sparkDir = SluiceServerProcess.repoRoot().resolve("e2e/target/spark-migrate");
    spark =
        SparkSql.localBuilder(sparkDir, "sluice-e2e-migrate")
            .config(
                "spark.sql.extensions",
                "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
            .getOrCreate();
    String before = "spark.sql.catalog.before";
    spark.conf().set(before, "org.apache.iceberg.spark.SparkCatalog");
    spark.conf().set(before + ".type", "rest");
    spark.conf().set(before + ".uri", old.uri());
    spark.conf().set(before + ".io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
    keys.forEach((k, v) -> spark.conf().set(before + "." + k, v));
    sql("CREATE NAMESPACE before.pilot");
    sql("CREATE NAMESPACE before.sales");
    sql("CREATE TABLE before.pilot.events (id BIGINT, kind STRING) USING iceberg");
    sql("INSERT INTO before.pilot.events VALUES (1, 'click'), (2, 'view')");
    sql("CREATE TABLE before.sales.orders (id BIGINT, region STRING, qty INT) USING iceberg");
    sql("INSERT INTO before.sales.orders VALUES (1, 'emea', 3), (2, 'apac', 5), (3, 'emea', 7)");

    vars = new LinkedHashMap<>();
    vars.put("OLD_CATALOG_URI", old.uri());
    vars.put("OLD_CATALOG_AUTH", "implicit");
    vars.put("OLD_WAREHOUSE", warehouse);
    vars.put("S3_REGION", rgw.get("SLUICE_TEST_RGW_REGION"));
    vars.put("S3_ENDPOINT", rgw.get("SLUICE_TEST_RGW_ENDPOINT"));
    vars.put("LAKE_ROLE_ARN", rgw.get("SLUICE_TEST_RGW_ROLE_ARN"));
    vars.put("CREDENTIAL_SOURCE", "rgw");

    blocks = new LinkedHashMap<>();
    Matcher m = BLOCK.matcher(Files.readString(PAGE));
    while (m.find()) {
      blocks.put(m.group(1), m.group(2));
    }
    assertThat(blocks.keySet())
        .as("the blocks of %s this test runs, in order", PAGE)
        .containsExactly("phase-1", "phase-1-pilot", "phase-2", "phase-3", "phase-4", "phase-5");
  }

  @AfterAll
  static void stop() throws Exception {
    ProcessSupport.closeAll(() -> SparkSql.stop(spark), server, old, rgwBucket);
  }

  @Test
  @Order(1)
  void step01FederateTheOldCatalog() throws Exception {
    List<SluiceCli.Run> runs = guide("phase-1");
    assertThat(runs.get(1).out()).contains("pilot").contains("sales");

    SparkSql.addCatalog(spark, "legacy", server, "legacy", server.credential());
    assertThat(count("legacy.sales.orders")).isEqualTo(3);

    // The engine's credential is Sluice's own (an STS session of Sluice's role, not the key the old
    // catalog holds), scoped by RGW to the table: another table's file is refused.
    JsonNode orders = load(server.fetchToken(), "legacy", "sales", "orders");
    JsonNode credential = orders.path("storage-credentials").get(0);
    assertThat(credential.path("prefix").asText())
        .isEqualTo("s3://" + rgwBucket.name() + "/wh/sales/orders")
        .isEqualTo(orders.path("metadata").path("location").asText());
    JsonNode config = credential.path("config");
    assertThat(config.path("s3.access-key-id").asText())
        .isNotBlank()
        .isNotEqualTo(rgw.get("SLUICE_TEST_RGW_ACCESS_KEY"));
    assertThat(config.path("s3.session-token").asText()).isNotBlank();
    try (S3Client vended = RgwTestBucket.vendedClient(rgw, config)) {
      String ownFile = dataFile("wh/sales/orders/");
      vended.getObjectAsBytes(b -> b.bucket(rgwBucket.name()).key(ownFile));
      String otherFile = dataFile("wh/pilot/events/");
      assertThatThrownBy(
              () -> vended.getObjectAsBytes(b -> b.bucket(rgwBucket.name()).key(otherFile)))
          .isInstanceOfSatisfying(
              S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
    }
  }

  @Test
  @Order(2)
  void step02RegisterAPilotDomain() throws Exception {
    List<SluiceCli.Run> runs = guide("phase-1-pilot");
    assertThat(runs.get(2).out()).contains("would register");
    assertThat(runs.get(3).out()).contains("registered");
    SparkSql.addCatalog(spark, "lake", server, "lake", server.credential());
    assertThat(count("lake.pilot.events")).isEqualTo(2);
    // One owner per folder: the federated catalog vends nothing more for the moved table.
    HttpResponse<String> moved =
        server.send(
            "GET",
            CatalogAdmin.tablePath(server, "legacy", "pilot", "events"),
            server.fetchToken(),
            null,
            Map.of("X-Iceberg-Access-Delegation", "vended-credentials"));
    assertThat(
            moved.statusCode() == 200
                && JSON.readTree(moved.body()).path("storage-credentials").size() > 0)
        .as("legacy.pilot.events after the import answered %s", moved.body())
        .isFalse();
  }

  @Test
  @Order(3)
  void step03BuildTheRoleModel() throws Exception {
    List<SluiceCli.Run> runs = guide("phase-2");
    String created = runs.get(runs.size() - 1).out();
    Matcher id = Pattern.compile("client id: (\\S+)").matcher(created);
    Matcher secret = Pattern.compile("client secret: (\\S+)").matcher(created);
    assertThat(id.find() && secret.find()).as("principals create printed %s", created).isTrue();
    salesCredential = id.group(1) + ":" + secret.group(1);

    // The analyst reads through the federated catalog; its commit is refused by Sluice and never
    // reaches the old catalog, and its INSERT is refused by the store (read-only credential).
    SparkSql.addCatalog(spark, "legacy_sales", server, "legacy", salesCredential);
    assertThat(count("legacy_sales.sales.orders")).isEqualTo(3);
    String before = remoteMetadataLocation("sales", "orders");
    assertThatThrownBy(
            () -> sql("ALTER TABLE legacy_sales.sales.orders SET TBLPROPERTIES ('team'='me')"))
        .satisfies(
            e ->
                assertThat(SparkSql.messages(e))
                    .containsIgnoringCase("forbidden")
                    .contains("spark-sales"));
    assertThatThrownBy(() -> sql("INSERT INTO legacy_sales.sales.orders VALUES (9, 'emea', 1)"))
        .satisfies(e -> assertThat(SparkSql.messages(e)).containsAnyOf("403", "Forbidden"));
    assertThat(remoteMetadataLocation("sales", "orders")).isEqualTo(before);
    assertThat(count("before.sales.orders")).isEqualTo(3);

    // Its credential is read-only at the store too.
    String[] idSecret = salesCredential.split(":", 2);
    String token = server.fetchToken(idSecret[0], idSecret[1]);
    JsonNode config =
        load(token, "legacy", "sales", "orders").path("storage-credentials").get(0).path("config");
    try (S3Client vended = RgwTestBucket.vendedClient(rgw, config)) {
      assertThatThrownBy(
              () ->
                  vended.putObject(
                      b -> b.bucket(rgwBucket.name()).key("wh/sales/orders/data/forged.parquet"),
                      RequestBody.fromString("forged")))
          .isInstanceOfSatisfying(
              S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
    }
  }

  @Test
  @Order(4)
  void step04MigrateTheSalesDomain() {
    List<SluiceCli.Run> runs = guide("phase-3");
    assertThat(runs.get(0).out()).contains("would register");
    assertThat(runs.get(2).out()).contains("orders");
    assertThat(count("lake.sales.orders")).isEqualTo(3);
  }

  @Test
  @Order(5)
  void step05WatchTheAuditTrail() {
    SparkSql.addCatalog(spark, "lake_sales", server, "lake", salesCredential);
    assertThat(count("lake_sales.sales.orders")).isEqualTo(3);
    List<SluiceCli.Run> runs = guide("phase-4");
    assertThat(runs.get(0).out()).contains("spark-sales").contains("loadTable");
  }

  @Test
  @Order(6)
  void step06ProveThatEnginesHoldNoKey() {
    guide("phase-5");
    Map<String, String> values = new LinkedHashMap<>();
    values.put("oldCatalogUri", old.uri());
    values.put("s3Endpoint", rgw.get("SLUICE_TEST_RGW_ENDPOINT"));
    values.put("region", rgw.get("SLUICE_TEST_RGW_REGION"));
    DocSnippets.properties(PAGE, "migrating-no-key-job", values).forEach(spark.conf()::set);
    Throwable refused = catchThrowable(() -> count("old.sales.orders"));
    assertThat(refused).as("the engine read the old catalog's table without a key").isNotNull();
    assertThat(SparkSql.messages(refused))
        .containsAnyOf("Unable to load credentials", "403", "AccessDenied");
    assertThat(count("lake_sales.sales.orders")).isEqualTo(3);
  }

  /** Runs every {@code ./sluice} line of the page's block {@code id}; each must exit 0. */
  private static List<SluiceCli.Run> guide(String id) {
    List<SluiceCli.Run> runs = new ArrayList<>();
    for (String line : blocks.get(id).replace("\\\n", " ").split("\n")) {
      String command = line.strip();
      if (!command.startsWith("./sluice ")) {
        continue;
      }
      for (Map.Entry<String, String> var : vars.entrySet()) {
        command = command.replace("$" + var.getKey(), var.getValue());
      }
      assertThat(command).as("a variable of %s the test does not give", id).doesNotContain("$");
      String[] args = command.substring("./sluice ".length()).trim().split("\\s+");
      SluiceCli.Run run = SluiceCli.run(server, Map.of(), args);
      assertThat(run.exit())
          .as("%s: %s\nout: %s\nerr: %s", id, command, run.out(), run.err())
          .isZero();
      runs.add(run);
    }
    assertThat(runs).as("commands in block %s", id).isNotEmpty();
    return runs;
  }

  private static List<org.apache.spark.sql.Row> sql(String query) {
    return spark.sql(query).collectAsList();
  }

  private static long count(String table) {
    return (Long) spark.sql("SELECT count(*) FROM " + table).collectAsList().get(0).get(0);
  }

  /** A table's load through Sluice with vended credentials, as {@code token}'s principal. */
  private static JsonNode load(String token, String catalog, String namespace, String table)
      throws Exception {
    HttpResponse<String> response =
        server.send(
            "GET",
            CatalogAdmin.tablePath(server, catalog, namespace, table),
            token,
            null,
            Map.of("X-Iceberg-Access-Delegation", "vended-credentials"));
    assertThat(response.statusCode()).as("load: %s", response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  private static String remoteMetadataLocation(String namespace, String table) throws Exception {
    HttpResponse<String> response =
        old.send("GET", "/v1/namespaces/" + namespace + "/tables/" + table, null);
    assertThat(response.statusCode()).as("old catalog: %s", response.body()).isEqualTo(200);
    return JSON.readTree(response.body()).path("metadata-location").asText();
  }

  /** The key of one Parquet data file under {@code tablePrefix} of the bucket. */
  private static String dataFile(String tablePrefix) {
    return rgwBucket.keys(tablePrefix).stream()
        .filter(key -> key.endsWith(".parquet"))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no data file under " + tablePrefix));
  }
}

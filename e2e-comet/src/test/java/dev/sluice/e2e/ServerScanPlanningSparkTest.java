package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.IcebergBuild;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.spark.Spark3Util;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Spark 4.1 with Iceberg 1.11's runtime (Comet off) reading a Sluice table planned by Sluice: a
 * catalog with {@code scan-planning-mode=server} and vended credentials (docs/ENGINES.md, snippet
 * {@code spark-server-planning}) answers the same rows as a catalog that plans on the client, for
 * filters on the partition column and on a data column, projections, an aggregate and time travel
 * by snapshot id and by timestamp, both as the same read-only principal on the Ceph RGW bed.
 *
 * <p>That Sluice planned, and Spark did not: Spark's {@code SparkScanBuilder} asks the table for
 * {@code newBatchScan()}, which on a 1.11 {@code RESTTable} is a {@code RESTTableScan} posting to
 * {@code …/plan}; its readers use the scan's own FileIO, built on the plan's {@code
 * storage-credentials}. Proven here by Sluice's audit events (one {@code planTableScan} per query,
 * naming the plan's file count and what its credential covers), its access log (no {@code …/plan}
 * call from client-side planning), and RGW's ops log: with server planning, the reader's sessions
 * read data files only, never a manifest; with client-side planning they read the manifests.
 *
 * <p>Needs the RGW bed; fails, not skips, without it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ServerScanPlanningSparkTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The warehouse, and root's catalog in Spark, which creates and fills the table. */
  private static final String LAKE = "lake";

  /** The analyst's catalog planning on the client (Iceberg's default). */
  private static final String CLIENT = "client_planned";

  /** The analyst's catalog planning on the server. */
  private static final String SERVER = "server_planned";

  private static final String ANALYST = "analyst";
  private static final String NS = "sales";
  private static final String TABLE = "orders";
  private static final String AGGREGATE = "an aggregate";
  private static final String PARTITION = "a partition filter and a projection";
  private static final String PLAN_ROUTE = SluiceAccessLog.TABLE_ROUTE + "/plan";

  private static CometTestBed bed;
  private static SluiceServerProcess server;
  private static SluiceAccessLog accessLog;
  private static RgwOpsLog opsLog;
  private static SparkSession spark;

  /** The table's snapshots, oldest first, and their commit times. */
  private static final List<Long> SNAPSHOTS = new ArrayList<>();

  private static final List<Long> COMMITTED_MS = new ArrayList<>();

  /** What the server-planned queries ran between (epoch ms), in order, and their plan count. */
  private static final Map<Query, long[]> PLANNED_WINDOWS = new LinkedHashMap<>();

  private static long rgwMark;
  private static long[] clientWindow;
  private static long[] serverWindow;

  /**
   * A query of the table ({@code %s}: a catalog's {@code sales.orders}), and the same scan as
   * Iceberg's API states it: the filter Spark pushes down, at {@code snapshot} (null: the current
   * one).
   */
  private record Query(String name, String sql, Expression filter, Long snapshot) {}

  @BeforeAll
  static void start() throws Exception {
    assertThat(IcebergBuild.version())
        .as("the Iceberg runtime on the class path (-Diceberg.expected.version)")
        .isEqualTo(System.getProperty("iceberg.expected.version"));
    Map<String, String> env = CometTestBed.environment("ServerScanPlanningSparkTest");
    bed = CometTestBed.create(env, "sluice-e2e-plan");
    opsLog = RgwOpsLog.ofBed();
    server = SluiceServerProcess.start("server-scan-planning", CometTestBed.SERVER_CONFIG, env);
    accessLog = new SluiceAccessLog(server);
    SluiceAdmin admin = new SluiceAdmin(server, bed);
    admin.createCatalog(LAKE, LAKE, 3600);
    String analyst = admin.createPrincipal(ANALYST, "analysts");
    admin.createCatalogRole(LAKE, "sales_read", "analysts");

    Path sparkDir = SluiceServerProcess.repoRoot().resolve("e2e-comet/target/spark-plan");
    // Iceberg's own runtime and nothing else: no Comet, no S3A, no storage settings.
    SparkSession.Builder b =
        SparkSql.localBuilder(sparkDir, "sluice-e2e-server-planning")
            .config(
                "spark.sql.extensions",
                "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions");
    String uri = server.catalogUri();
    SparkSql.catalogConf(LAKE, uri, LAKE, server.credential()).forEach(b::config);
    SparkSql.catalogConf(CLIENT, uri, LAKE, analyst).forEach(b::config);
    SparkSql.catalogConf(SERVER, uri, LAKE, analyst, "spark-server-planning").forEach(b::config);
    spark = b.getOrCreate();

    String orders = LAKE + "." + NS + "." + TABLE;
    spark.sql("CREATE NAMESPACE " + LAKE + "." + NS);
    spark.sql(
        "CREATE TABLE "
            + orders
            + " (id BIGINT NOT NULL, region STRING, amount INT, note STRING)"
            + " PARTITIONED BY (region)");
    spark.sql("INSERT INTO " + orders + " VALUES (1, 'emea', 10, 'a'), (2, 'apac', 20, 'b')");
    spark.sql(
        "INSERT INTO "
            + orders
            + " VALUES (3, 'amer', 30, 'c'), (4, 'emea', 40, 'd'), (5, 'apac', 50, 'e')");
    spark.sql(
        "INSERT INTO "
            + orders
            + " VALUES (6, 'emea', 60, 'f'), (7, 'amer', 70, 'g'), (8, 'apac', 80, null)");
    for (Row r :
        spark
            .sql(
                "SELECT snapshot_id, unix_millis(committed_at) FROM "
                    + orders
                    + ".snapshots ORDER BY committed_at")
            .collectAsList()) {
      SNAPSHOTS.add(r.getLong(0));
      COMMITTED_MS.add(r.getLong(1));
    }
    assertThat(SNAPSHOTS).hasSize(3);
    admin.grantRead(LAKE, "sales_read", NS, TABLE, true);
  }

  @AfterAll
  static void stop() throws Exception {
    ProcessSupport.closeAll(() -> SparkSql.stop(spark), server, bed);
  }

  @Test
  @Order(1)
  void serverPlannedQueriesAnswerTheRowsOfClientSidePlanning() throws Exception {
    List<Query> queries = queries();
    Map<Query, List<String>> expected = new LinkedHashMap<>();
    rgwMark = opsLog.mark();
    int logMark = accessLog.mark();
    clientWindow = new long[] {System.currentTimeMillis(), 0};
    for (Query q : queries) {
      expected.put(q, rows(q.sql().formatted(CLIENT + "." + NS + "." + TABLE)));
    }
    clientWindow[1] = System.currentTimeMillis();
    assertThat(plans(accessLog.since(logMark, l -> false)))
        .as("plan calls while Spark planned on the client")
        .isEmpty();

    serverWindow = new long[] {System.currentTimeMillis(), 0};
    for (Query q : queries) {
      long from = System.currentTimeMillis();
      logMark = accessLog.mark();
      List<String> rows = rows(q.sql().formatted(SERVER + "." + NS + "." + TABLE));
      PLANNED_WINDOWS.put(q, new long[] {from, System.currentTimeMillis()});
      assertThat(rows).as(q.name()).isNotEmpty().isEqualTo(expected.get(q));
      assertThat(plans(accessLog.since(logMark, l -> !plans(l).isEmpty())))
          .as("%s: Spark's plan calls to Sluice", q.name())
          .isNotEmpty()
          .allSatisfy(r -> assertThat(r.path("status").asInt()).isEqualTo(200));
    }
    serverWindow[1] = System.currentTimeMillis();
  }

  @Test
  @Order(2)
  void eachServerPlanIsAuditedWithItsFilesAndWhatItsCredentialCovers() throws Exception {
    long from = PLANNED_WINDOWS.values().iterator().next()[0];
    List<JsonNode> audited = planEvents(from);
    for (Map.Entry<Query, long[]> w : PLANNED_WINDOWS.entrySet()) {
      Query q = w.getKey();
      List<JsonNode> details =
          audited.stream()
              .filter(e -> e.path("timestamp").asLong() >= w.getValue()[0])
              .filter(e -> e.path("timestamp").asLong() <= w.getValue()[1])
              .map(e -> json(e.path("detail").asText()))
              .toList();
      // Spark plans an aggregate with stats first, to answer it from them (aggregate push-down).
      // Iceberg 1.11's RESTTableScan sends no stats-fields for "all columns' stats", so the plan
      // has none, push-down gives up, and Spark plans the scan again.
      assertThat(details)
          .as("%s: its planTableScan events", q.name())
          .hasSize(q.name().equals(AGGREGATE) ? 2 : 1);
      int files = clientPlannedFiles(q);
      for (JsonNode d : details) {
        System.out.printf("server plan of %s: %s%n", q.name(), d);
        assertThat(d.path("planId").asText()).as(q.name()).isNotEmpty();
        assertThat(d.path("files").asInt())
            .as("%s: files planned, as many as Iceberg plans on the client", q.name())
            .isEqualTo(files)
            .isPositive();
        // RGW takes session policies: the plan's files or their folders, never the whole table.
        assertThat(d.path("access").asText())
            .as("%s: what the plan's credential covers", q.name())
            .startsWith("vended: ")
            .doesNotContain("the table's locations");
      }
    }
  }

  @Test
  @Order(3)
  void withServerPlanningTheReaderReadsDataFilesOnlyWhileClientPlanningReadsManifests() {
    List<JsonNode> entries = rgwEntries();
    List<JsonNode> clientSide = within(entries, clientWindow);
    assertThat(analysts(clientSide).stream().filter(e -> isManifest(key(e))).toList())
        .as("manifests the analyst's sessions read while Spark planned on the client")
        .isNotEmpty();
    List<JsonNode> serverSide = within(entries, serverWindow);
    assertThat(analysts(serverSide))
        .as("the analyst's requests while Sluice planned")
        .isNotEmpty()
        .allSatisfy(e -> assertThat(key(e)).contains("/data/region%3D").contains(".parquet"));
    // The partition filter's query read that partition's files only.
    long[] partition =
        PLANNED_WINDOWS.entrySet().stream()
            .filter(w -> w.getKey().name().equals(PARTITION))
            .findFirst()
            .orElseThrow()
            .getValue();
    assertThat(analysts(within(entries, partition)))
        .as("the analyst's reads for region = 'emea'")
        .isNotEmpty()
        .allSatisfy(e -> assertThat(key(e)).contains("/data/region%3Demea/"));
    // Sluice read the manifests itself, with its own keys.
    assertThat(serverSide.stream().filter(e -> isManifest(key(e))).toList())
        .as("manifest reads while Sluice planned")
        .isNotEmpty()
        .allSatisfy(e -> assertThat(RgwOpsLog.session(e)).isNotEqualTo(ANALYST));
  }

  @Test
  @Order(4)
  void incrementalReadsArePlannedBySparkEvenInServerMode() throws Exception {
    // RESTTable overrides newScan and newBatchScan only: newIncrementalAppendScan is BaseTable's,
    // which reads the manifests itself with the table's credential.
    List<String> expected = appendedSinceFirst(CLIENT);
    int logMark = accessLog.mark();
    long[] window = {System.currentTimeMillis(), 0};
    List<String> rows = appendedSinceFirst(SERVER);
    window[1] = System.currentTimeMillis();
    assertThat(rows).isNotEmpty().isEqualTo(expected);
    assertThat(plans(accessLog.since(logMark, l -> false)))
        .as("plan calls for an incremental read in server mode")
        .isEmpty();
    assertThat(analysts(within(rgwEntries(), window)).stream().filter(e -> isManifest(key(e))))
        .as("manifests the analyst's session read for it")
        .isNotEmpty();
  }

  /** The rows appended after the first snapshot, read incrementally through {@code catalog}. */
  private static List<String> appendedSinceFirst(String catalog) {
    return spark
        .read()
        .option("start-snapshot-id", SNAPSHOTS.get(0))
        .option("end-snapshot-id", SNAPSHOTS.get(2))
        .table(catalog + "." + NS + "." + TABLE)
        .collectAsList()
        .stream()
        .map(r -> r.mkString(","))
        .sorted()
        .toList();
  }

  // --- helpers -------------------------------------------------------------------------------

  /** The queries each catalog runs, in order. */
  private static List<Query> queries() {
    return List.of(
        new Query("everything", "SELECT * FROM %s", Expressions.alwaysTrue(), null),
        new Query(
            PARTITION,
            "SELECT id, amount FROM %s WHERE region = 'emea'",
            Expressions.equal("region", "emea"),
            null),
        new Query(
            "a data column filter",
            "SELECT id, region FROM %s WHERE amount > 45",
            Expressions.greaterThan("amount", 45),
            null),
        new Query(
            "both, a null in the projection",
            "SELECT id, note FROM %s WHERE region = 'apac' AND amount >= 50",
            Expressions.and(
                Expressions.equal("region", "apac"), Expressions.greaterThanOrEqual("amount", 50)),
            null),
        new Query(
            AGGREGATE,
            "SELECT count(*), min(id), max(amount) FROM %s WHERE region = 'amer'",
            Expressions.equal("region", "amer"),
            null),
        new Query(
            "VERSION AS OF the first snapshot",
            "SELECT * FROM %s VERSION AS OF " + SNAPSHOTS.get(0),
            Expressions.alwaysTrue(),
            SNAPSHOTS.get(0)),
        new Query(
            "TIMESTAMP AS OF the second commit",
            "SELECT id, region FROM %s TIMESTAMP AS OF timestamp_millis("
                + COMMITTED_MS.get(1)
                + ") WHERE region <> 'amer'",
            Expressions.notEqual("region", "amer"),
            SNAPSHOTS.get(1)));
  }

  /** The data files Iceberg's own planning (root's catalog, on the client) finds for {@code q}. */
  private static int clientPlannedFiles(Query q) throws Exception {
    Table table = Spark3Util.loadIcebergTable(spark, LAKE + "." + NS + "." + TABLE);
    TableScan scan = table.newScan().filter(q.filter());
    if (q.snapshot() != null) {
      scan = scan.useSnapshot(q.snapshot());
    }
    int files = 0;
    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
      for (FileScanTask ignored : tasks) {
        files++;
      }
    }
    return files;
  }

  /** Sluice's planTableScan events with a detail (a finished plan) since {@code from}. */
  private static List<JsonNode> planEvents(long from) throws Exception {
    HttpResponse<String> page =
        server.send(
            "GET",
            "/api/management/v1/events?principal="
                + ANALYST
                + "&catalog="
                + LAKE
                + "&from="
                + from
                + "&pageSize=1000",
            server.fetchToken(),
            null);
    assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode e : JSON.readTree(page.body()).path("events")) {
      if (e.path("action").asText().equals("planTableScan")
          && e.path("detail").asText().contains("\"planId\"")) {
        assertThat(e.path("securable").asText()).contains(NS).contains(TABLE);
        assertThat(e.path("decision").asText()).isEqualTo("ALLOW");
        out.add(e);
      }
    }
    return out;
  }

  /**
   * RGW's entries of this bucket since the first query, complete: RGW writes its ops log after
   * answering, so a listing made now is awaited as the last entry.
   */
  private static List<JsonNode> rgwEntries() {
    String sentinel = "sentinel-" + ProcessSupport.randomHex(4);
    bed.keys(sentinel);
    return opsLog.await(rgwMark, bed.bucket(), e -> key(e).contains(sentinel), "a listing");
  }

  /** Of {@code entries}, the requests made within {@code window} (epoch ms). */
  private static List<JsonNode> within(List<JsonNode> entries, long[] window) {
    return entries.stream()
        .filter(
            e -> {
              long at = Instant.parse(e.path("time").asText()).toEpochMilli();
              return at >= window[0] && at <= window[1];
            })
        .toList();
  }

  /** Of {@code entries}, those signed with a credential vended to the analyst. */
  private static List<JsonNode> analysts(List<JsonNode> entries) {
    return entries.stream().filter(e -> ANALYST.equals(RgwOpsLog.session(e))).toList();
  }

  private static String key(JsonNode entry) {
    return entry.path("uri").asText();
  }

  private static boolean isManifest(String uri) {
    return uri.contains("/metadata/") && uri.contains(".avro");
  }

  private static List<JsonNode> plans(List<JsonNode> records) {
    return records.stream()
        .filter(r -> r.path("method").asText().equals("POST"))
        .filter(r -> r.path("route").asText().equals(PLAN_ROUTE))
        .toList();
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (Exception e) {
      throw new AssertionError("not JSON: " + text, e);
    }
  }

  /** Each row as its values joined by commas, sorted (no ORDER BY: a sort is one more job). */
  private static List<String> rows(String sql) {
    return spark.sql(sql).collectAsList().stream().map(r -> r.mkString(",")).sorted().toList();
  }
}

package dev.sluice.e2e;

import static org.apache.spark.sql.functions.callUDF;
import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.e2e.RecordingGateway.Exchange;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.iceberg.IcebergBuild;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Iceberg's Java client (1.11 and later, through Spark 4.1's runtime; Comet off) against Sluice on
 * the Ceph RGW bed with vended credentials, proven from Sluice's access log, RGW's log and the
 * data:
 *
 * <ul>
 *   <li>mutations carry the {@code Idempotency-Key} Sluice's {@code /v1/config} invites, and a
 *       commit whose answer a gateway replaced with {@code 503 Retry-After} is retried by the
 *       client itself with the same key and replayed by Sluice, applied once;
 *   <li>after a {@code 504}, 1.11 does not retry: it reconciles an append by reloading the table,
 *       and reports any other change as of unknown state (the engine's own request, sent again, is
 *       replayed); 1.12 retries with the same key, and Sluice replays;
 *   <li>an unchanged table is revalidated with {@code If-None-Match} and answered {@code 304}, a
 *       committed one {@code 200}; behind a proxy that lowercases header names 1.11 finds no {@code
 *       ETag} and caches nothing (1.12 does);
 *   <li>a scan outlives its 4-second credentials: the client fetches fresh ones from the table's
 *       {@code …/credentials} endpoint while it runs.
 * </ul>
 *
 * <p>Spark reaches catalog {@value #LAKE} through a {@link RecordingGateway} (a load balancer's
 * place), which records the headers the client sends. Needs the RGW bed; fails, not skips, without
 * it. The Iceberg version that must be on the class path is {@code -Diceberg.expected.version}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class IcebergJavaClientTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String API = "/api/catalog/v1/";
  private static final String TABLE_ROUTE = SluiceAccessLog.TABLE_ROUTE;
  private static final String CREDENTIALS_ROUTE = SluiceAccessLog.CREDENTIALS_ROUTE;

  /** UUIDv7, as Iceberg's {@code RESTUtil.idempotencyHeaders} makes them. */
  private static final Pattern UUID_V7 =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");

  /** Reached through the gateway; hour-long credentials (a 304 needs a minute left). */
  private static final String LAKE = "lake";

  /** {@value #LAKE} again, through a gateway that lowercases answer header names. */
  private static final String LOWER = "lake_lower";

  /** Reached directly; its credentials last {@value #BRIEF_SECONDS} s once its table is filled. */
  private static final String BRIEF = "brief";

  private static final int BRIEF_SECONDS = 4;
  private static final String NS = "ice";
  private static final String ORDERS = NS + ".orders";
  private static final String EVENTS = NS + ".events";

  /**
   * Iceberg 1.12 retries a request carrying an {@code Idempotency-Key} as it retries a GET (on 500,
   * 502, 503, 504, 408, 429 and lost connections); 1.11 retries a POST only on 429 or 503 with
   * {@code Retry-After}.
   */
  private static final boolean RETRIES_KEYED_MUTATIONS = atLeast112();

  /** Iceberg 1.12 finds the answer's {@code ETag} whatever its name's case; 1.11 does not. */
  private static final boolean CASE_BLIND_ETAG = atLeast112();

  private static CometTestBed bed;
  private static SluiceServerProcess server;
  private static SluiceAccessLog accessLog;
  private static RecordingGateway gateway;
  private static RecordingGateway lowercasing;
  private static SparkSession spark;

  @BeforeAll
  static void start() throws Exception {
    String expected = System.getProperty("iceberg.expected.version");
    assertThat(IcebergBuild.version())
        .as("the Iceberg runtime on the class path (-Diceberg.expected.version)")
        .isEqualTo(expected);
    Map<String, String> env = CometTestBed.environment("IcebergJavaClientTest");
    bed = CometTestBed.create(env, "sluice-e2e-iceberg");
    server = SluiceServerProcess.start("iceberg-java-client", CometTestBed.SERVER_CONFIG, env);
    accessLog = new SluiceAccessLog(server);
    gateway = RecordingGateway.start(server.rootUrl());
    lowercasing = RecordingGateway.lowercasing(server.rootUrl());
    SluiceAdmin admin = new SluiceAdmin(server, bed);
    admin.createCatalog(LAKE, LAKE, 3600);
    admin.createCatalog(BRIEF, BRIEF, 30); // made brief once filled

    Path sparkDir = SluiceServerProcess.repoRoot().resolve("e2e-comet/target/spark-iceberg");
    // Iceberg's own runtime and nothing else: no Comet, no S3A, no storage settings.
    SparkSession.Builder b =
        SparkSql.localBuilder(sparkDir, "sluice-e2e-iceberg-java")
            .config(
                "spark.sql.extensions",
                "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions");
    String root = server.credential();
    SparkSql.catalogConf(
            LAKE, gateway.rootUrl() + "/api/catalog", LAKE, root, "spark-rest-table-cache")
        .forEach(b::config);
    SparkSql.catalogConf(BRIEF, server.catalogUri(), BRIEF, root, "spark-rest-table-cache")
        .forEach(b::config);
    SparkSql.catalogConf(
            LOWER, lowercasing.rootUrl() + "/api/catalog", LAKE, root, "spark-rest-table-cache")
        .forEach(b::config);
    // What a runtime needs beyond the docs' settings on this class path (-Piceberg-1.12 sets it).
    String httpClient = System.getProperty("iceberg.http-client.type");
    if (httpClient != null) {
      for (String catalog : List.of(LAKE, BRIEF, LOWER)) {
        b.config("spark.sql.catalog." + catalog + ".http-client.type", httpClient);
      }
    }
    spark = b.getOrCreate();

    long started = System.currentTimeMillis();
    spark.sql("CREATE NAMESPACE " + BRIEF + "." + NS);
    SlowScan.fill(spark, BRIEF + "." + EVENTS);
    admin.setCredentialSeconds(BRIEF, BRIEF, BRIEF_SECONDS);
    System.out.printf(
        "Iceberg %s; the slow scan's table: %d ms%n",
        IcebergBuild.version(), System.currentTimeMillis() - started);
  }

  @AfterAll
  static void stop() throws Exception {
    ProcessSupport.closeAll(() -> SparkSql.stop(spark), gateway, lowercasing, server, bed);
  }

  @Test
  @Order(1)
  void createsCarryAFreshIdempotencyKeyBecauseSluiceAdvertisesALifetime() throws Exception {
    JsonNode config =
        JSON.readTree(
            server.send("GET", API + "config?warehouse=" + LAKE, server.fetchToken(), null).body());
    assertThat(config.path("idempotency-key-lifetime").asText()).isEqualTo("PT30M");
    int mark = gateway.exchanges().size();
    int logMark = accessLog.mark();

    spark.sql("CREATE NAMESPACE " + LAKE + "." + NS);
    spark.sql("CREATE TABLE " + LAKE + "." + ORDERS + " (id BIGINT NOT NULL, item STRING)");

    List<Exchange> mutations =
        gateway.since(mark).stream()
            .filter(e -> e.method().equals("POST"))
            .filter(e -> e.path().matches("/api/catalog/v1/lake/namespaces(/ice/tables)?"))
            .toList();
    assertThat(mutations).extracting(Exchange::status).containsExactly(200, 200);
    List<String> keys = mutations.stream().map(e -> e.requestHeader("Idempotency-Key")).toList();
    assertThat(keys)
        .allMatch(k -> k != null && UUID_V7.matcher(k).matches())
        .doesNotHaveDuplicates();
    // The keys reached Sluice: its access lines for the two creates name them.
    assertThat(
            accessLog.since(logMark, l -> SluiceAccessLog.keyed(l).size() >= 2).stream()
                .filter(r -> r.path("method").asText().equals("POST"))
                .filter(r -> r.has("idempotencyKey"))
                .map(r -> r.path("idempotencyKey").asText())
                .toList())
        .containsExactlyElementsOf(keys);
    // Reads carry no key.
    assertThat(gateway.since(mark).stream().filter(e -> e.method().equals("GET")).toList())
        .isNotEmpty()
        .allMatch(e -> e.requestHeader("Idempotency-Key") == null);
  }

  @Test
  @Order(2)
  void aCommitAnswered503WithRetryAfterIsRetriedByTheClientWithItsKeyAndReplayed()
      throws Exception {
    String path = tablePath(LAKE, "orders");
    int mark = gateway.exchanges().size();
    int logMark = accessLog.mark();
    gateway.failNext("POST", path, 503, Map.of("Retry-After", "1"));

    spark.sql("INSERT INTO " + LAKE + "." + ORDERS + " VALUES (1, 'apple'), (2, 'pear')");

    assertThat(gateway.armed()).as("the commit met the gateway's 503").isFalse();
    List<Exchange> commits = RecordingGateway.requests("POST", gateway.since(mark), path);
    assertRetriedWithItsKeyAndReplayed(commits, 503);
    Exchange first = commits.get(0);
    // Sluice's access log: the same key twice, the second answer a replay.
    String key = first.requestHeader("Idempotency-Key");
    List<JsonNode> logged =
        accessLog.since(logMark, l -> SluiceAccessLog.keyed(l).size() >= 2).stream()
            .filter(r -> key.equals(r.path("idempotencyKey").asText()))
            .toList();
    assertThat(logged).extracting(r -> r.path("route").asText()).containsOnly(TABLE_ROUTE);
    assertThat(logged).extracting(r -> r.path("status").asInt()).containsExactly(200, 200);
    assertThat(logged).extracting(r -> r.path("replayed").asBoolean()).containsExactly(false, true);
    // Applied once: one snapshot, the rows once.
    assertThat(rows("SELECT id, item FROM " + LAKE + "." + ORDERS + " ORDER BY id"))
        .containsExactly("1,apple", "2,pear");
    assertThat(rows("SELECT operation FROM " + LAKE + "." + ORDERS + ".snapshots"))
        .containsExactly("append");
  }

  @Test
  @Order(3)
  void anAppendAnswered504IsAppliedOnce() throws Exception {
    String path = tablePath(LAKE, "orders");
    int mark = gateway.exchanges().size();
    gateway.failNext("POST", path, 504, Map.of());

    spark.sql("INSERT INTO " + LAKE + "." + ORDERS + " VALUES (3, 'fig')");

    List<Exchange> after = gateway.since(mark);
    List<Exchange> commits = RecordingGateway.requests("POST", after, path);
    if (RETRIES_KEYED_MUTATIONS) {
      // 1.12 retries a request with an Idempotency-Key on a 504 as it would a GET.
      assertRetriedWithItsKeyAndReplayed(commits, 504);
    } else {
      // 1.11 retries a POST only on 429 or a 503 with Retry-After: one attempt, which Sluice
      // applied. It then reloads the table, finds its snapshot, and takes that as success.
      assertThat(commits).hasSize(1);
      assertThat(commits.get(0).upstreamStatus()).isEqualTo(200);
      assertThat(commits.get(0).status()).isEqualTo(504);
      assertThat(
              RecordingGateway.requests(
                  "GET", after.subList(after.indexOf(commits.get(0)), after.size()), path))
          .as("the reconciling load")
          .isNotEmpty();
    }
    assertThat(rows("SELECT id FROM " + LAKE + "." + ORDERS + " ORDER BY id"))
        .containsExactly("1", "2", "3");
    assertThat(rows("SELECT operation FROM " + LAKE + "." + ORDERS + ".snapshots"))
        .containsExactly("append", "append");
  }

  @Test
  @Order(4)
  void aSchemaChangeAnswered504IsUnknownTo111AndReplayedFor112() throws Exception {
    String path = tablePath(LAKE, "orders");
    int mark = gateway.exchanges().size();
    gateway.failNext("POST", path, 504, Map.of());
    String alter = "ALTER TABLE " + LAKE + "." + ORDERS + " ADD COLUMN qty INT";

    if (RETRIES_KEYED_MUTATIONS) {
      spark.sql(alter);
      assertRetriedWithItsKeyAndReplayed(
          RecordingGateway.requests("POST", gateway.since(mark), path), 504);
    } else {
      // Not an append, so 1.11 does not reconcile: the engine reports an unknown state, while
      // Sluice applied the change.
      assertThatThrownBy(() -> spark.sql(alter))
          .satisfies(
              e ->
                  assertThat(SparkCometVendingTest.messages(e))
                      .contains("org.apache.iceberg.exceptions.CommitStateUnknownException"));
      List<Exchange> commits = RecordingGateway.requests("POST", gateway.since(mark), path);
      assertThat(commits).hasSize(1);
      Exchange lost = commits.get(0);
      assertThat(lost.upstreamStatus()).isEqualTo(200);
      JsonNode applied = load(path);
      // The engine's own request sent again, key and all: the first answer, not a second change.
      RecordingGateway.Answer again = gateway.resend(lost);
      assertThat(again.status()).isEqualTo(200);
      assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
      assertThat(JSON.readTree(again.text()).path("metadata-location").asText())
          .isEqualTo(applied.path("metadata-location").asText());
      assertThat(load(path).path("metadata-location")).isEqualTo(applied.path("metadata-location"));
    }
    // Applied once: one more schema, the column once.
    JsonNode table = load(path).path("metadata");
    assertThat(table.path("current-schema-id").asInt()).isEqualTo(1);
    assertThat(table.path("schemas").size()).isEqualTo(2);
    assertThat(rows("SELECT * FROM " + LAKE + "." + ORDERS + " ORDER BY id"))
        .containsExactly("1,apple,null", "2,pear,null", "3,fig,null");
  }

  @Test
  @Order(5)
  void anUnchangedTableIsRevalidatedWith304AndACommittedOneReloadedWith200() throws Exception {
    String path = tablePath(LAKE, "orders");
    String select = "SELECT count(*) FROM " + LAKE + "." + ORDERS;
    int mark = gateway.exchanges().size();
    int logMark = accessLog.mark();
    assertThat(rows(select)).containsExactly("3");
    assertThat(rows(select)).containsExactly("3");
    List<Exchange> unchanged = RecordingGateway.requests("GET", gateway.since(mark), path);
    assertThat(unchanged).as("loads of the unchanged table").hasSizeGreaterThanOrEqualTo(2);
    // The client sent the tag it holds and Sluice confirmed it: no body, no new credential.
    assertThat(unchanged)
        .allSatisfy(
            e -> {
              assertThat(e.requestHeader("If-None-Match")).startsWith("\"");
              assertThat(e.status()).isEqualTo(304);
            });
    String tag = unchanged.get(0).requestHeader("If-None-Match");
    assertThat(loadStatuses(logMark, unchanged.size())).containsOnly(304).hasSize(unchanged.size());

    spark.sql("INSERT INTO " + LAKE + "." + ORDERS + " VALUES (4, 'kiwi', 1)");
    mark = gateway.exchanges().size();
    logMark = accessLog.mark();
    assertThat(rows(select)).containsExactly("4");
    List<Exchange> changed = RecordingGateway.requests("GET", gateway.since(mark), path);
    // The first load after the commit sent the old tag and got the new table.
    assertThat(changed.get(0).requestHeader("If-None-Match")).isEqualTo(tag);
    assertThat(changed.get(0).status()).isEqualTo(200);
    assertThat(changed.get(0).upstreamHeader("ETag")).isNotEqualTo(tag);
    assertThat(loadStatuses(logMark, changed.size())).startsWith(200);
  }

  @Test
  @Order(6)
  void behindAProxyThatLowercasesHeaderNames111CachesNothingAnd112Revalidates() throws Exception {
    String path = tablePath(LAKE, "orders");
    String select = "SELECT count(*) FROM " + LOWER + "." + ORDERS;
    assertThat(rows(select)).containsExactly("4");
    assertThat(rows(select)).containsExactly("4");
    // Sluice sent its ETag each time, named "etag" after the proxy.
    List<Exchange> loads = RecordingGateway.requests("GET", lowercasing.exchanges(), path);
    assertThat(loads).hasSizeGreaterThanOrEqualTo(2);
    assertThat(loads).allSatisfy(e -> assertThat(e.upstreamHeader("ETag")).startsWith("\""));
    if (CASE_BLIND_ETAG) {
      assertThat(loads.get(0).status()).isEqualTo(200);
      assertThat(loads.subList(1, loads.size()))
          .allSatisfy(
              e -> {
                assertThat(e.requestHeader("If-None-Match")).isNotNull();
                assertThat(e.status()).isEqualTo(304);
              });
    } else {
      // 1.11 looks for "ETag" only: it caches nothing, and every load is a full answer.
      assertThat(loads)
          .allSatisfy(
              e -> {
                assertThat(e.requestHeader("If-None-Match")).isNull();
                assertThat(e.status()).isEqualTo(200);
              });
    }
  }

  @Test
  @Order(7)
  void aScanOutlivesItsFourSecondCredentialsAsTheClientFetchesFreshOnes() throws Exception {
    List<String> dataKeys =
        bed.keys(BRIEF + "/" + NS + "/events/data/").stream()
            .filter(k -> k.endsWith(".parquet"))
            .toList();
    assertThat(dataKeys).hasSize(SlowScan.FILES);
    // A credential as the load vends it, to show below that it does not outlive the scan.
    JsonNode before = load(tablePath(BRIEF, "events")).path("config");
    long rgwMark = bed.rgwLogMark();
    int logMark = accessLog.mark();
    long started = System.currentTimeMillis();

    // One file per task, two tasks at a time, each then naps 2 s per row: about 7 s.
    List<Row> rows =
        spark
            .read()
            .option("split-size", "1")
            .table(BRIEF + "." + EVENTS)
            .select(callUDF("nap", col("id")).as("id"), col("item"))
            .collectAsList();
    long ended = System.currentTimeMillis();

    assertThat(rows)
        .extracting(r -> r.getLong(0))
        .containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L);
    List<JsonNode> logged =
        accessLog.since(
            logMark,
            l -> l.stream().anyMatch(r -> r.path("route").asText().equals(CREDENTIALS_ROUTE)));
    Instant loaded =
        logged.stream()
            .filter(r -> r.path("route").asText().equals(TABLE_ROUTE))
            .map(r -> Instant.parse(r.path("@timestamp").asText()))
            .findFirst()
            .orElseThrow();
    // RGW served every data read, the last more than a credential's life after the load.
    List<String> access = bed.rgwAccessLinesSince(rgwMark);
    List<String> dataReads =
        access.stream()
            .filter(
                l ->
                    dataKeys.stream()
                        .anyMatch(k -> l.contains("\"GET /" + bed.bucket() + "/" + k + " ")))
            .toList();
    assertThat(dataReads)
        .as("RGW's reads of the data files")
        .hasSizeGreaterThanOrEqualTo(SlowScan.FILES)
        .allSatisfy(l -> assertThat(l).matches(".*\" 20[06] .*"));
    Instant lastRead = SlowScan.latest(dataReads);
    assertThat(lastRead).isAfter(loaded.plusSeconds(BRIEF_SECONDS));
    // The client asked the table's credentials endpoint while the scan ran.
    List<JsonNode> refreshes =
        logged.stream().filter(r -> r.path("route").asText().equals(CREDENTIALS_ROUTE)).toList();
    assertThat(refreshes).isNotEmpty().allMatch(r -> r.path("status").asInt() == 200);
    assertThat(refreshes)
        .anyMatch(
            r ->
                Instant.parse(r.path("@timestamp").asText()).isBefore(Instant.ofEpochMilli(ended)));
    System.out.printf(
        "slow Iceberg scan: %d ms, %d data reads from %s to %s (table loaded %s), %d credential"
            + " refreshes%n",
        ended - started,
        dataReads.size(),
        SlowScan.earliest(dataReads),
        lastRead,
        loaded,
        refreshes.size());

    // The credential vended just before the scan no longer reads: the scan needed the fresh ones.
    assertThat(Long.parseLong(before.path("s3.session-token-expires-at-ms").asText()))
        .isLessThan(System.currentTimeMillis());
    try (S3Client expired =
        bed.client(
            before.path("s3.access-key-id").asText(),
            before.path("s3.secret-access-key").asText(),
            before.path("s3.session-token").asText())) {
      assertThatThrownBy(() -> expired.headObject(h -> h.bucket(bed.bucket()).key(dataKeys.get(0))))
          .isInstanceOfSatisfying(
              S3Exception.class, e -> assertThat(e.statusCode()).isIn(400, 403));
    }
  }

  // --- helpers -------------------------------------------------------------------------------

  /**
   * {@code commits} are a commit Sluice applied but the gateway answered {@code gatewayStatus}, and
   * the client's own retry, the same request with the same key, which Sluice replayed.
   */
  private static void assertRetriedWithItsKeyAndReplayed(
      List<Exchange> commits, int gatewayStatus) {
    assertThat(commits).as("the commit and the client's own retry").hasSize(2);
    Exchange first = commits.get(0);
    Exchange retry = commits.get(1);
    assertThat(first.upstreamStatus()).isEqualTo(200);
    assertThat(first.status()).isEqualTo(gatewayStatus);
    assertThat(retry.requestHeader("Idempotency-Key"))
        .matches(UUID_V7)
        .isEqualTo(first.requestHeader("Idempotency-Key"));
    assertThat(retry.requestBody()).isEqualTo(first.requestBody());
    // After Retry-After (1 s), or the client's own first pause (1 s plus jitter).
    assertThat(retry.receivedAtMillis() - first.receivedAtMillis()).isGreaterThanOrEqualTo(900);
    assertThat(retry.status()).isEqualTo(200);
    assertThat(retry.upstreamHeader("Idempotent-Replayed")).isEqualTo("true");
  }

  /** Whether the client on the class path is 1.12 or later. */
  private static boolean atLeast112() {
    String[] v = IcebergBuild.version().split("\\.");
    return Integer.parseInt(v[0]) > 1 || Integer.parseInt(v[1]) >= 12;
  }

  private static String tablePath(String catalog, String table) {
    return API + catalog + "/namespaces/" + NS + "/tables/" + table;
  }

  /** The statuses Sluice logged for (at least {@code count}) table loads since the mark. */
  private static List<Integer> loadStatuses(int logMark, int count) throws InterruptedException {
    return SluiceAccessLog.tableLoads(
            accessLog.since(logMark, l -> SluiceAccessLog.tableLoads(l).size() >= count))
        .stream()
        .map(r -> r.path("status").asInt())
        .toList();
  }

  /** The table at {@code path} as root loads it from Sluice directly. */
  private static JsonNode load(String path) throws Exception {
    HttpResponse<String> loaded = server.send("GET", path, server.fetchToken(), null);
    assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
    return JSON.readTree(loaded.body());
  }

  /** Each row as its values joined by commas. */
  private static List<String> rows(String sql) {
    return spark.sql(sql).collectAsList().stream().map(r -> r.mkString(",")).toList();
  }
}

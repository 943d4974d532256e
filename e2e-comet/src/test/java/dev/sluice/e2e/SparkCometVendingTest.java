package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.sluice.client.comet.SluiceCometCredentialProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
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
 * <p>A second catalog vends {@value #BRIEF_SECONDS}-second credentials: a native scan made slower
 * than that ({@link SlowScan}) succeeds because the bridge keeps handing Comet fresh ones, and the
 * same scan fails with RGW's 403 when a test provider keeps serving the first one.
 *
 * <p>Needs the RGW bed ({@code ./scripts/test-all.sh}); fails, not skips, without it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SparkCometVendingTest {
  private static final String WAREHOUSE = "lake";

  /** The reader's catalog: credentials come from the bridge on Comet's native Iceberg scan. */
  private static final String READER = "lake";

  /** Root's catalog, to create and fill the tables (Iceberg's own writer, vended credentials). */
  private static final String ADMIN = "lake_admin";

  private static final String NS = "comet";
  private static final String ORDERS = "orders";
  private static final String ORDERS_EU = "orders_eu";
  private static final int CREDENTIAL_SECONDS = 30;

  /**
   * A second catalog (under s3://bucket/brief), whose credentials last {@value #BRIEF_SECONDS} s.
   */
  private static final String BRIEF = "brief";

  private static final String BRIEF_ADMIN = "brief_admin";
  private static final String EVENTS = "events";
  private static final int BRIEF_SECONDS = 4;

  private static final StructType SCHEMA =
      new StructType()
          .add("id", DataTypes.LongType, false)
          .add("item", DataTypes.StringType)
          .add("qty", DataTypes.IntegerType);

  private static CometTestBed bed;
  private static SluiceServerProcess server;
  private static SluiceAdmin admin;
  private static SparkSession spark;
  private static String readerId;
  private static String readerSecret;

  @BeforeAll
  static void start() throws Exception {
    Map<String, String> env = CometTestBed.environment("SparkCometVendingTest");
    bed = CometTestBed.create(env, "sluice-e2e-comet");
    bed.allowAnonymousListing();
    server = SluiceServerProcess.start("spark-comet", CometTestBed.SERVER_CONFIG, env);
    admin = new SluiceAdmin(server, bed);
    admin.createCatalog(WAREHOUSE, "wh", CREDENTIAL_SECONDS);
    admin.createCatalog(BRIEF, BRIEF, CREDENTIAL_SECONDS); // made brief once filled
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
    fillEvents();
  }

  /** The brief catalog's table, filled with 30 s credentials; then its credentials go brief. */
  private static void fillEvents() throws Exception {
    long started = System.currentTimeMillis();
    spark.sql("CREATE NAMESPACE " + BRIEF_ADMIN + "." + NS);
    SlowScan.fill(spark, BRIEF_ADMIN + "." + NS + "." + EVENTS);
    assertThat(dataKeys(BRIEF, EVENTS)).hasSize(SlowScan.FILES);
    admin.setCredentialSeconds(BRIEF, BRIEF, BRIEF_SECONDS);
    System.out.printf("the slow scan's table: %d ms%n", System.currentTimeMillis() - started);
  }

  @AfterAll
  static void stop() throws Exception {
    ProcessSupport.closeAll(() -> SparkSql.stop(spark), server, bed);
  }

  private static SparkSession session(Path sparkDir) {
    String reader = readerId + ":" + readerSecret;
    SparkSession.Builder b = CometSpark.builder(sparkDir, bed, server, WAREHOUSE, reader);
    // Iceberg path: the reader's catalog, with the bridge and an explicit region.
    CometSpark.restCatalog(b, READER, server, WAREHOUSE, reader);
    CometSpark.cometIceberg(b, READER, bed);
    // Root's catalogs, for setup.
    CometSpark.restCatalog(b, ADMIN, server, WAREHOUSE, server.credential());
    CometSpark.restCatalog(b, BRIEF_ADMIN, server, BRIEF, server.credential());
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
                            + " location(s) in the bucket): reading it needs TABLE_READ_DATA on"
                            + " the table whose location holds it")
                    .matches(
                        TroubleshootingRows.row(
                            "no table the principal may read",
                            Map.of(
                                "'B'", "'" + bed.bucket() + "'",
                                "s3://B/", "s3://" + bed.bucket() + "/")))
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
                            + " authorized for loadTable on table comet.orders_eu in catalog lake"
                            + " (needs TABLE_READ_PROPERTIES; reading its data needs"
                            + " TABLE_READ_DATA)")
                    .matches(
                        TroubleshootingRows.row(
                            "for loadTable",
                            Map.of("ns.t", NS + "." + ORDERS_EU, "catalog c", "catalog lake"))));
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

  @Test
  @Order(7)
  void aNativeScanOutlivesItsCredentialsAsTheBridgeHandsOutFreshOnes() {
    List<String> dataKeys = dataKeys(BRIEF, EVENTS);
    long mark = bed.rgwLogMark();
    Map<String, String> conf = Map.of("fs.s3a.sluice.warehouse", BRIEF);
    Dataset<Row> df = SlowScan.scan(spark, SCHEMA, dataDir(BRIEF, EVENTS));
    List<Row> rows;
    List<String> bridgeLines;
    long started = System.currentTimeMillis();
    try (BridgeLog log = new BridgeLog()) {
      rows = SlowScan.withConf(spark, conf, df::collectAsList);
      bridgeLines = log.lines();
    }
    long tookMillis = System.currentTimeMillis() - started;

    assertThat(rows).hasSize(SlowScan.FILES);
    assertThat(rows)
        .extracting(r -> r.getLong(0))
        .containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L);
    assertThat(rows).allSatisfy(r -> assertThat(r.getString(1)).isEqualTo("e" + r.getLong(0)));
    assertThat(df.queryExecution().executedPlan().toString()).contains("CometNativeScan parquet");
    // Sluice vended several credentials for the table during the scan, and RGW served reads of
    // data files after the first of them had expired: those carried a later one.
    List<Instant> expiries = SlowScan.expiries(bridgeLines, NS + "." + EVENTS);
    assertThat(expiries)
        .as("expiries vended, in the bridge's log:%n%s", bridgeLines)
        .hasSizeGreaterThan(1);
    List<String> access = bed.rgwAccessLinesSince(mark);
    List<String> dataReads = dataKeys.stream().flatMap(k -> reads(access, k).stream()).toList();
    assertThat(dataReads)
        .as("RGW's reads of the data files")
        .hasSizeGreaterThanOrEqualTo(SlowScan.FILES)
        .allSatisfy(
            l ->
                assertThat(l)
                    .contains("\"object_store/")
                    .contains(" - catalog [")
                    .matches(".*\" 20[06] .*"));
    Instant first = SlowScan.earliest(dataReads);
    Instant last = SlowScan.latest(dataReads);
    assertThat(Duration.between(first, last)).isGreaterThan(Duration.ofSeconds(BRIEF_SECONDS));
    assertThat(last).isAfter(expiries.get(0));
    System.out.printf(
        "slow scan (%d ms): %d data reads from %s to %s; %d credentials, expiring %s%n",
        tookMillis, dataReads.size(), first, last, expiries.size(), expiries);
  }

  @Test
  @Order(8)
  void withoutRefreshTheSameScanFailsOnceTheFirstCredentialExpires() {
    List<String> dataKeys = dataKeys(BRIEF, EVENTS);
    long mark = bed.rgwLogMark();
    List<String> bridgeLines;
    Throwable failure;
    try (BridgeLog log = new BridgeLog()) {
      Map<String, String> conf =
          Map.of(
              "fs.s3a.sluice.warehouse",
              BRIEF,
              "fs.s3a.comet.credential.provider.class",
              FirstCredentialBridge.class.getName());
      Dataset<Row> df = SlowScan.scan(spark, SCHEMA, dataDir(BRIEF, EVENTS));
      failure = catchThrowable(() -> SlowScan.withConf(spark, conf, df::collectAsList));
      bridgeLines = log.lines();
    }

    assertThat(failure).as("the scan without refresh").isNotNull();
    System.out.println("the scan without refresh failed:\n" + messages(failure));
    // RGW refuses an expired session token as it does any bad credential.
    assertThat(messages(failure))
        .contains("Server returned non-2xx status code: 403 Forbidden")
        .contains("<Code>AccessDenied</Code>");
    List<Instant> expiries = SlowScan.expiries(bridgeLines, NS + "." + EVENTS);
    assertThat(expiries).as("one credential, kept").hasSize(1);
    // Reads with it succeeded until it expired; then RGW refused them.
    List<String> access = bed.rgwAccessLinesSince(mark);
    List<String> dataReads = dataKeys.stream().flatMap(k -> reads(access, k).stream()).toList();
    assertThat(dataReads).anyMatch(l -> l.matches(".*\" 20[06] .*"));
    List<String> refused = dataReads.stream().filter(l -> l.matches(".*\" 403 .*")).toList();
    assertThat(refused)
        .as("RGW's reads of the data files:%n%s", String.join("\n", dataReads))
        .isNotEmpty();
    assertThat(SlowScan.earliest(refused)).isAfter(expiries.get(0));
  }

  // --- setup ---------------------------------------------------------------------------------

  /** The reader: its only grants are TABLE_READ_DATA on {@value #ORDERS} and {@value #EVENTS}. */
  private static void createReader() throws Exception {
    String credential = admin.createPrincipal("reader", "readers");
    readerId = credential.substring(0, credential.indexOf(':'));
    readerSecret = credential.substring(credential.indexOf(':') + 1);
    admin.createCatalogRole(WAREHOUSE, "orders_readers", "readers");
    grant(ORDERS, true);
    admin.createCatalogRole(BRIEF, "events_readers", "readers");
    admin.grantRead(BRIEF, "events_readers", NS, EVENTS, true);
  }

  /** Grants (or revokes) TABLE_READ_DATA on {@code table} to the reader's catalog role. */
  private static void grant(String table, boolean add) {
    admin.grantRead(WAREHOUSE, "orders_readers", NS, table, add);
  }

  // --- helpers -------------------------------------------------------------------------------

  private static String adminTable(String table) {
    return ADMIN + "." + NS + "." + table;
  }

  /** The data folder of a table, as S3A sees it. */
  private static String dataDir(String table) {
    return dataDir("wh", table);
  }

  private static String dataDir(String catalogDir, String table) {
    return "s3a://" + bed.bucket() + "/" + catalogDir + "/" + NS + "/" + table + "/data/";
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
    return dataKeys("wh", table);
  }

  private static List<String> dataKeys(String catalogDir, String table) {
    List<String> keys =
        bed.keys(catalogDir + "/" + NS + "/" + table + "/data/").stream()
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

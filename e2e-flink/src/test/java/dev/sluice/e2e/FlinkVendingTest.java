package dev.sluice.e2e;

import static dev.sluice.e2e.FlinkCluster.messages;
import static dev.sluice.e2e.FlinkCluster.rows;
import static dev.sluice.e2e.FlinkCluster.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Apache Flink 1.20 (a MiniCluster in this JVM) with Iceberg's Flink runtime writes and reads
 * Iceberg tables on a real Ceph RGW through a Sluice S3 catalog, with vended credentials only: each
 * Flink catalog is the {@code CREATE CATALOG} of docs/ENGINES.md (snippet {@code flink-catalog}),
 * which names no storage key, endpoint or region, and this JVM has no AWS variables, profile files
 * or instance metadata to fall back on.
 *
 * <p>A writer (the grants docs/ENGINES.md lists for one) creates and fills tables in batch and in a
 * checkpointed streaming job; a reader holding only TABLE_READ_DATA on the namespace reads them,
 * travels back to an earlier snapshot, and has its INSERT refused by the store.
 *
 * <p>Needs the RGW bed ({@code ./scripts/test-all.sh}); fails, not skips, without it. The {@code
 * step*} methods run in order ({@link OrderedSteps}).
 */
@ExtendWith(OrderedSteps.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FlinkVendingTest {
  private static final String WAREHOUSE = "lake";
  private static final String NS = "flink_e2e";
  private static final String ORDERS = "orders";
  private static final String EVENTS = "events";
  private static final String ORDERS_T = WAREHOUSE + "." + NS + "." + ORDERS;
  private static final String EVENTS_T = WAREHOUSE + "." + NS + "." + EVENTS;
  private static final String M = "/api/management/v1";
  private static final String WRITER = "flink_writer";
  private static final String READER = "reader"; // CatalogAdmin.readOnlyPrincipal's name
  private static final String TABLE_ROUTE =
      "/api/catalog/v1/{prefix}/namespaces/{namespace}/tables/{table}";
  private static final String NAMESPACE_ROUTE = "/api/catalog/v1/{prefix}/namespaces/{namespace}";
  private static final int STREAMED_ROWS = 60;

  private static Map<String, String> rgw;
  private static RgwTestBucket bucket;
  private static RgwAccessLog rgwLog;
  private static SluiceServerProcess server;
  private static CompletableFuture<FlinkCluster> starting;
  private static FlinkCluster flink;
  private static TableHistory history;
  private static TableEnvironment writer;
  private static TableEnvironment reader;
  private static String writerCredential;
  private static String readerCredential;
  private static long firstOrdersSnapshot;

  @BeforeAll
  static void start() throws Exception {
    long started = System.currentTimeMillis();
    rgw = RgwTestBucket.environment("FlinkVendingTest");
    useChecksumSettingsOfTheDocs();
    // Flink starts while the server does (each takes seconds, mostly loading classes).
    starting = CompletableFuture.supplyAsync(FlinkVendingTest::startFlink);
    rgwLog = RgwAccessLog.ofBed();
    bucket = RgwTestBucket.create(rgw, "sluice-e2e-flink");
    server = SluiceServerProcess.start("flink", RgwTestBucket.SERVER_CONFIG, rgw);
    CatalogAdmin.ok(
        server,
        "POST",
        M + "/catalogs",
        CatalogAdmin.rgwS3Catalog(rgw, bucket.name(), WAREHOUSE).toString());
    writerCredential = writerPrincipal();
    String[] r = CatalogAdmin.readOnlyPrincipal(server, WAREHOUSE, NS);
    readerCredential = r[0] + ":" + r[1];
    history = new TableHistory(server, WAREHOUSE);
    long serverReady = System.currentTimeMillis() - started;

    flink = starting.get(2, TimeUnit.MINUTES);
    writer = withCatalog(flink.batch(), writerCredential);
    reader = withCatalog(flink.batch(), readerCredential);
    System.out.printf(
        "FlinkVendingTest set up in %d ms (server and principals ready after %d ms)%n",
        System.currentTimeMillis() - started, serverReady);
  }

  /** The cluster, with its planner loaded by a first query (the first takes seconds). */
  private static FlinkCluster startFlink() {
    try {
      FlinkCluster cluster = FlinkCluster.start();
      try {
        assertThat(rows(cluster.batch(), "SELECT 1")).containsExactly(List.of(1));
        return cluster;
      } catch (Exception | AssertionError e) {
        cluster.close();
        throw e;
      }
    } catch (Exception e) {
      throw new CompletionException(e);
    }
  }

  /**
   * The AWS SDK checksum settings RGW needs, taken from the Flink config line of docs/ENGINES.md
   * (snippet {@code flink-rgw-checksums}) and set before any SDK client is built, as {@code
   * env.java.opts.all} sets them in a Flink process.
   */
  private static void useChecksumSettingsOfTheDocs() {
    String line = DocSnippets.text("flink-rgw-checksums", Map.of()).strip();
    String prefix = "env.java.opts.all:";
    assertThat(line).startsWith(prefix);
    List<String> options = Arrays.asList(line.substring(prefix.length()).strip().split("\\s+"));
    assertThat(options).isNotEmpty().allMatch(o -> o.matches("-Daws\\.[A-Za-z]+=[A-Z_]+"));
    for (String option : options) {
      int eq = option.indexOf('=');
      System.setProperty(option.substring(2, eq), option.substring(eq + 1));
    }
  }

  /**
   * A Flink catalog {@code lake} for the principal {@code clientId:secret}, from the snippet. The
   * session stays in Flink's own default catalog and names tables in full ({@code lake.ns.t}).
   */
  private static TableEnvironment withCatalog(TableEnvironment session, String credential)
      throws Exception {
    int colon = credential.indexOf(':');
    String ddl =
        DocSnippets.text(
            "flink-catalog",
            Map.of(
                "uri", server.catalogUri(),
                "warehouse", WAREHOUSE,
                "clientId", credential.substring(0, colon),
                "secret", credential.substring(colon + 1)));
    // What Flink is given about storage: nothing.
    assertThat(ddl.toLowerCase())
        .doesNotContain("s3.")
        .doesNotContain("key")
        .doesNotContain("token");
    run(session, ddl);
    return session; // not USE CATALOG lake: see notInTheCatalogSoFlinkProbesNoNamespace
  }

  /** The writer: the catalog-wide grants docs/ENGINES.md gives a Flink writer. */
  private static String writerPrincipal() {
    String created =
        CatalogAdmin.ok(
            server, "POST", M + "/principals", "{\"principal\":{\"name\":\"" + WRITER + "\"}}");
    String role = "{\"principalRole\":{\"name\":\"" + WRITER + "\"}}";
    CatalogAdmin.ok(server, "POST", M + "/principal-roles", role);
    CatalogAdmin.ok(server, "PUT", M + "/principals/" + WRITER + "/principal-roles", role);
    String catalogRole = "{\"catalogRole\":{\"name\":\"" + WRITER + "\"}}";
    CatalogAdmin.ok(server, "POST", M + "/catalogs/" + WAREHOUSE + "/catalog-roles", catalogRole);
    CatalogAdmin.ok(
        server,
        "PUT",
        M + "/principal-roles/" + WRITER + "/catalog-roles/" + WAREHOUSE,
        catalogRole);
    for (String privilege :
        List.of("NAMESPACE_FULL_METADATA", "TABLE_FULL_METADATA", "TABLE_WRITE_DATA")) {
      CatalogAdmin.ok(
          server,
          "PUT",
          M + "/catalogs/" + WAREHOUSE + "/catalog-roles/" + WRITER + "/grants",
          "{\"grant\":{\"type\":\"catalog\",\"privilege\":\"" + privilege + "\"}}");
    }
    String id = field(created, "clientId");
    String secret = field(created, "clientSecret");
    return id + ":" + secret;
  }

  private static String field(String json, String name) {
    try {
      return new ObjectMapper().readTree(json).path("credentials").path(name).asText();
    } catch (Exception e) {
      throw new AssertionError("not JSON: " + json, e);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (flink == null && starting != null) {
      flink = starting.exceptionally(e -> null).get(2, TimeUnit.MINUTES);
    }
    ProcessSupport.closeAll(flink, server, bucket);
  }

  @Test
  @Order(1)
  void step01WriterCreatesAndFillsATableInBatchAndTheReaderSelectsIt() throws Exception {
    run(writer, "CREATE DATABASE " + WAREHOUSE + "." + NS);
    run(writer, "CREATE TABLE " + ORDERS_T + " (id BIGINT, item STRING, qty INT)");
    run(writer, "INSERT INTO " + ORDERS_T + " VALUES (1, 'apple', 10), (2, 'pear', 20)");
    firstOrdersSnapshot = history.currentSnapshotId(NS, ORDERS);
    assertThat(history.snapshots(NS, ORDERS)).hasSize(1);

    assertThat(sorted(rows(reader, "SELECT id, item, qty FROM " + ORDERS_T)))
        .containsExactly(List.of(1L, "apple", 10), List.of(2L, "pear", 20));

    // The reader's namespace check (a GET of the namespace) was answered, and each principal
    // loaded the table from Sluice (the only way to its vended credential).
    assertThat(requests("GET", NAMESPACE_ROUTE, READER)).extracting(this::status).contains(200);
    assertThat(requests("GET", TABLE_ROUTE, READER)).extracting(this::status).contains(200);
    assertThat(requests("GET", TABLE_ROUTE, WRITER)).extracting(this::status).contains(200);
    // Every data file is on RGW under the table's prefix.
    assertThat(bucket.keys("wh/" + NS + "/" + ORDERS + "/data/")).hasSize(1);
  }

  @Test
  @Order(2)
  void step02StreamingJobCommitsAtEachCheckpoint() throws Exception {
    run(writer, "CREATE TABLE " + EVENTS_T + " (id BIGINT, label STRING)");
    TableEnvironment streaming =
        withCatalog(flink.streaming(Duration.ofSeconds(1)), writerCredential);
    // A bounded source, paced so that the job spans several checkpoints.
    run(
        streaming,
        "CREATE TEMPORARY TABLE default_catalog.default_database.ticks (id BIGINT) WITH ("
            + "'connector' = 'datagen', 'rows-per-second' = '20', "
            + "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
            + "'fields.id.end' = '"
            + STREAMED_ROWS
            + "')");
    long started = System.currentTimeMillis();
    run(
        streaming,
        "INSERT INTO "
            + EVENTS_T
            + " SELECT id, CONCAT('e', CAST(id AS STRING)) FROM"
            + " default_catalog.default_database.ticks");
    long tookMillis = System.currentTimeMillis() - started;

    // Each checkpoint's commit is one append snapshot, stamped with its checkpoint id.
    List<JsonNode> snapshots = history.snapshots(NS, EVENTS);
    assertThat(snapshots).hasSizeGreaterThanOrEqualTo(2);
    assertThat(snapshots)
        .allSatisfy(
            s -> assertThat(s.path("summary").path("operation").asText()).isEqualTo("append"));
    List<Long> checkpoints =
        snapshots.stream()
            .map(s -> s.path("summary").path("flink.max-committed-checkpoint-id").asLong(-1))
            .toList();
    assertThat(checkpoints).doesNotContain(-1L).doesNotHaveDuplicates().isSorted();
    // Long.MAX_VALUE marks the commit at the end of the bounded input; the others, checkpoints.
    assertThat(checkpoints).anyMatch(id -> id < Long.MAX_VALUE);
    assertThat(
            snapshots.stream()
                .mapToLong(s -> s.path("summary").path("added-records").asLong())
                .sum())
        .isEqualTo(STREAMED_ROWS);

    // All rows, none twice, as the reader sees them.
    List<List<Object>> rows = rows(reader, "SELECT id, label FROM " + EVENTS_T);
    assertThat(rows).hasSize(STREAMED_ROWS);
    assertThat(rows.stream().map(r -> (Long) r.get(0)).sorted().toList())
        .isEqualTo(LongStream.rangeClosed(1, STREAMED_ROWS).boxed().toList());
    assertThat(rows).allSatisfy(r -> assertThat(r.get(1)).isEqualTo("e" + r.get(0)));
    System.out.printf(
        "streaming job: %d rows in %d ms, %d snapshots (checkpoints %s)%n",
        STREAMED_ROWS, tookMillis, snapshots.size(), checkpoints);
  }

  @Test
  @Order(3)
  void step03ReaderTravelsBackToAnEarlierSnapshot() throws Exception {
    run(writer, "INSERT INTO " + ORDERS_T + " VALUES (3, 'fig', 30)");
    assertThat(history.snapshots(NS, ORDERS)).hasSize(2);

    String earlier =
        DocSnippets.text(
            "flink-time-travel",
            Map.of(
                "namespace", NS,
                "table", ORDERS,
                "snapshot-id", Long.toString(firstOrdersSnapshot)));
    assertThat(sorted(rows(reader, earlier)))
        .containsExactly(List.of(1L, "apple", 10), List.of(2L, "pear", 20));
    assertThat(sorted(rows(reader, "SELECT * FROM " + ORDERS_T)))
        .containsExactly(List.of(1L, "apple", 10), List.of(2L, "pear", 20), List.of(3L, "fig", 30));
  }

  @Test
  @Order(4)
  void step04ReadersInsertIsRefusedByTheStoreAndTheTableIsUnchanged() throws Exception {
    long before = history.currentSnapshotId(NS, ORDERS);
    int snapshots = history.snapshots(NS, ORDERS).size();
    List<String> dataFiles = bucket.keys("wh/" + NS + "/" + ORDERS + "/data/");
    int readerCommits = requests("POST", TABLE_ROUTE, READER).size();
    long mark = rgwLog.mark();

    Throwable refused =
        catchThrowable(() -> run(reader, "INSERT INTO " + ORDERS_T + " VALUES (9, 'plum', 90)"));

    assertThat(refused).as("the reader's INSERT").isNotNull();
    String seen = messages(refused);
    System.out.println("the reader's INSERT, as Flink reports it:\n" + seen);
    // RGW refused the data file's upload (the credential Sluice vended the reader is read-only):
    // the SDK's AccessDeniedException reaches the user through Flink's job failure, as
    // docs/ENGINES.md shows it (snippet flink-refused-write: each of its lines is in the chain).
    Matcher requestId = Pattern.compile("Status Code: 403, Request ID: ([^)]+)\\)").matcher(seen);
    assertThat(requestId.find()).as("RGW's 403 in:%n%s", seen).isTrue();
    String documented =
        DocSnippets.text("flink-refused-write", Map.of("request-id", requestId.group(1)));
    assertThat(documented.lines().filter(l -> !l.isBlank()))
        .isNotEmpty()
        .allSatisfy(l -> assertThat(seen).contains(l));
    String tableKeys = "/" + bucket.name() + "/wh/" + NS + "/" + ORDERS + "/";
    List<String> puts =
        rgwLog.linesSince(mark, bucket.name()).stream()
            .filter(l -> l.contains("\"PUT " + tableKeys))
            .toList();
    assertThat(puts)
        .as("RGW's answers to the reader's uploads")
        .isNotEmpty()
        .allMatch(l -> l.contains("\"PUT " + tableKeys + "data/") && l.contains("\" 403 "));
    // Sluice never saw a commit from the reader, and the table did not move.
    assertThat(requests("POST", TABLE_ROUTE, READER)).hasSize(readerCommits);
    assertThat(history.currentSnapshotId(NS, ORDERS)).isEqualTo(before);
    assertThat(history.snapshots(NS, ORDERS)).hasSize(snapshots);
    assertThat(bucket.keys("wh/" + NS + "/" + ORDERS + "/data/")).isEqualTo(dataFiles);
    assertThat(sorted(rows(reader, "SELECT id FROM " + ORDERS_T)))
        .containsExactly(List.of(1L), List.of(2L), List.of(3L));
  }

  /**
   * Why the sessions above stay in Flink's default catalog: Flink's planner looks a table name up
   * under the current catalog too, asking whether a database named like the catalog exists. That is
   * a namespace outside the reader's grants, which Sluice answers 403 (not 404, so that the answer
   * does not tell whether it exists), and Iceberg's Flink catalog passes the 403 on.
   */
  @Test
  @Order(5)
  void step05InsideTheCatalogFlinkProbesANamespaceOutsideTheReadersGrants() throws Exception {
    TableEnvironment inside = withCatalog(flink.batch(), readerCredential);
    inside.useCatalog(WAREHOUSE);
    inside.useDatabase(NS); // allowed: the reader's grants reach inside the namespace
    Throwable refused = catchThrowable(() -> rows(inside, "SELECT id FROM " + ORDERS));
    assertThat(messages(refused))
        .contains(
            "Forbidden: Principal 'reader' with activated principal roles [readers] is not"
                + " authorized for loadNamespace on namespace "
                + WAREHOUSE
                + " in catalog "
                + WAREHOUSE);
  }

  @Test
  @Order(6)
  void theClassPathHoldsWhatTheDocsList() throws Exception {
    // The jars on the class path, by file name, found through their manifests (failsafe passes
    // the class path in a manifest-only jar, so java.class.path does not list them).
    List<String> jars =
        Collections.list(getClass().getClassLoader().getResources("META-INF/MANIFEST.MF")).stream()
            .map(URL::toString)
            .filter(u -> u.startsWith("jar:file:") && u.contains("!/"))
            .map(u -> Path.of(URI.create(u.substring(4, u.indexOf("!/")))).getFileName().toString())
            .toList();
    List<String> listed =
        DocSnippets.text("flink-classpath", Map.of()).lines().filter(l -> !l.isBlank()).toList();
    assertThat(listed).isNotEmpty();
    for (String coordinates : listed) {
      String[] gav = coordinates.strip().split(":");
      assertThat(gav).as("group:artifact:version in %s", coordinates).hasSize(3);
      assertThat(jars).as("the test's class path").contains(gav[1] + "-" + gav[2] + ".jar");
    }
  }

  @Test
  @Order(7)
  void sluiceAnsweredFlinkWithoutAServerError() {
    List<JsonNode> flinks =
        AccessLogLines.records(server.logTail(Integer.MAX_VALUE).lines()).stream()
            .filter(r -> List.of(WRITER, READER).contains(r.path("principal").asText()))
            .toList();
    assertThat(flinks).isNotEmpty().noneMatch(r -> r.path("status").asInt() >= 500);
  }

  private static List<List<Object>> sorted(List<List<Object>> rows) {
    return rows.stream().sorted((a, b) -> Long.compare((Long) a.get(0), (Long) b.get(0))).toList();
  }

  private int status(JsonNode record) {
    return record.path("status").asInt();
  }

  /** The server's access-log records of {@code principal} for {@code method} {@code route}. */
  private static List<JsonNode> requests(String method, String route, String principal) {
    return AccessLogLines.records(server.logTail(Integer.MAX_VALUE).lines()).stream()
        .filter(r -> method.equals(r.path("method").asText()))
        .filter(r -> route.equals(r.path("route").asText()))
        .filter(r -> principal.equals(r.path("principal").asText()))
        .toList();
  }
}

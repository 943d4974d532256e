package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.JdbcStore;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.PostgresTestDatabase;
import dev.sluice.testing.TestServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The pointer cache across two replicas on one PostgreSQL: a commit acknowledged by A is served by
 * B within milliseconds (measured), and when B's notification connection is killed B reads the
 * database until it has listened again and flushed, so no load after that serves an older pointer.
 */
@NeedsTestBeds
class PointerCacheReplicaPostgresTest {
  private static final Namespace NS = Namespace.of("ns");
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  private static String url;
  private static TestServer a;
  private static TestServer b;
  private static String catalog;
  private static final List<RESTCatalog> clients = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    url = PostgresTestDatabase.fresh();
    a = TestServer.start(url);
    b = TestServer.start(url);
    catalog = a.createCatalog("ptr");
    client(a).createNamespace(NS);
  }

  @AfterAll
  static void stop() throws Exception {
    for (RESTCatalog c : clients) {
      c.close();
    }
    a.close();
    b.close();
  }

  private static synchronized RESTCatalog client(TestServer server) {
    RESTCatalog c = new RESTCatalog();
    c.initialize("c" + clients.size(), server.clientProperties(catalog));
    clients.add(c);
    return c;
  }

  private static JdbcStore store(TestServer server) {
    return (JdbcStore) server.server().store();
  }

  /** The metadata location a plain loadTable on {@code server} answers. */
  private static String served(TestServer server, String table) throws Exception {
    var response =
        server.send("GET", "/api/catalog/v1/" + catalog + "/namespaces/ns/tables/" + table, null);
    assertThat(response.statusCode()).isEqualTo(200);
    return TestServer.json(response.body()).get("metadata-location").asText();
  }

  private static String inDatabase(String table) throws Exception {
    try (Connection conn = DriverManager.getConnection(url);
        PreparedStatement ps =
            conn.prepareStatement(
                "SELECT metadata_location FROM contents WHERE catalog_name = ? AND name = ?")) {
      ps.setString(1, catalog);
      ps.setString(2, table);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return rs.getString(1);
      }
    }
  }

  private static String location(Table table) {
    return ((BaseTable) table).operations().current().metadataFileLocation();
  }

  private static void awaitServing(TestServer server) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 15_000;
    while (!store(server).pointerCache().serving()) {
      assertThat(System.currentTimeMillis()).as("cache serving again").isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  private static double metric(TestServer server, String name) throws Exception {
    String text = server.send("GET", "/metrics", null).body();
    for (String line : text.split("\n")) {
      if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    throw new AssertionError("no metric " + name);
  }

  /** Kills every pointer listener connection on this test's database; returns how many. */
  private static int killListeners() throws Exception {
    try (Connection conn = DriverManager.getConnection(url);
        Statement st = conn.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    + " WHERE application_name = 'sluice-pointer-listener'"
                    + " AND datname = current_database()")) {
      int killed = 0;
      while (rs.next()) {
        killed += rs.getBoolean(1) ? 1 : 0;
      }
      return killed;
    }
  }

  @Test
  void aCommitOnOneReplicaIsServedByTheOtherWithinMilliseconds() throws Exception {
    RESTCatalog onA = client(a);
    Table table = onA.createTable(TableIdentifier.of(NS, "stale"), SCHEMA);
    awaitServing(b);
    assertThat(served(b, "stale")).isEqualTo(location(table));
    long hitsBefore = store(b).pointerCache().hits();
    int commits = 200;
    List<Long> micros = new ArrayList<>();
    for (int i = 0; i < commits; i++) {
      table.updateProperties().set("i", Integer.toString(i)).commit();
      long acked = System.nanoTime();
      String expected = location(table);
      long deadline = acked + 5_000_000_000L;
      while (!served(b, "stale").equals(expected)) {
        assertThat(System.nanoTime()).as("B serves commit %d", i).isLessThan(deadline);
      }
      micros.add((System.nanoTime() - acked) / 1_000);
      // Loads in between are what a cache must serve without going stale: hits prove it served.
      served(b, "stale");
    }
    Collections.sort(micros);
    long p50 = micros.get(commits / 2);
    long p99 = micros.get(commits * 99 / 100 - 1);
    long max = micros.get(commits - 1);
    System.out.printf(
        Locale.ROOT,
        "POINTER-STALENESS commits=%d p50_ms=%.2f p99_ms=%.2f max_ms=%.2f b_hits=%d%n",
        commits,
        p50 / 1000.0,
        p99 / 1000.0,
        max / 1000.0,
        store(b).pointerCache().hits() - hitsBefore);
    assertThat(store(b).pointerCache().hits() - hitsBefore)
        .as("B served loads from its cache")
        .isGreaterThan(commits / 2);
    assertThat(p99).as("p99 staleness in µs (target 50 ms)").isLessThan(1_000_000);
  }

  /** The table names one listing page on {@code server} answers for namespace {@code ns}. */
  private static List<String> listed(TestServer server, String ns) throws Exception {
    var response =
        server.send(
            "GET",
            "/api/catalog/v1/" + catalog + "/namespaces/" + ns + "/tables?pageSize=100",
            null);
    assertThat(response.statusCode()).isEqualTo(200);
    List<String> names = new ArrayList<>();
    TestServer.json(response.body())
        .get("identifiers")
        .forEach(id -> names.add(id.get("name").asText()));
    Collections.sort(names);
    return names;
  }

  private static void awaitListed(TestServer server, String ns, List<String> expected)
      throws Exception {
    long deadline = System.currentTimeMillis() + 5_000;
    while (!listed(server, ns).equals(expected)) {
      assertThat(System.currentTimeMillis())
          .as("%s lists %s", server, expected)
          .isLessThan(deadline);
      Thread.sleep(2);
    }
  }

  @Test
  void aCreateRenameOrDropOnOneReplicaIsListedByTheOtherWhoseListingsAreCached() throws Exception {
    RESTCatalog onA = client(a);
    Namespace listedNs = Namespace.of("listed");
    onA.createNamespace(listedNs);
    onA.createTable(TableIdentifier.of(listedNs, "t1"), SCHEMA);
    awaitServing(b);
    awaitListed(b, "listed", List.of("t1"));
    double hits = metric(b, "sluice_store_pointer_listing_hits_total");
    for (int i = 0; i < 20; i++) {
      assertThat(listed(b, "listed")).containsExactly("t1");
    }
    assertThat(metric(b, "sluice_store_pointer_listing_hits_total") - hits)
        .as("B served its unchanged namespace's listing from memory")
        .isGreaterThanOrEqualTo(19);

    onA.createTable(TableIdentifier.of(listedNs, "t2"), SCHEMA);
    awaitListed(b, "listed", List.of("t1", "t2"));
    onA.renameTable(TableIdentifier.of(listedNs, "t1"), TableIdentifier.of(listedNs, "t3"));
    awaitListed(b, "listed", List.of("t2", "t3"));
    onA.dropTable(TableIdentifier.of(listedNs, "t2"));
    awaitListed(b, "listed", List.of("t3"));
    // And B's own change is listed by B at once, and by A.
    client(b).dropTable(TableIdentifier.of(listedNs, "t3"));
    assertThat(listed(b, "listed")).isEmpty();
    awaitListed(a, "listed", List.of());
  }

  @Test
  void aKilledNotificationConnectionNeverLeavesAStalePointerBehind() throws Exception {
    RESTCatalog onA = client(a);
    Table table = onA.createTable(TableIdentifier.of(NS, "killed"), SCHEMA);
    for (int round = 0; round < 5; round++) {
      awaitServing(b);
      served(b, "killed");
      assertThat(served(b, "killed")).isEqualTo(location(table)); // cached on B now
      double reconnects = metric(b, "sluice_store_pointer_listener_reconnects_total");
      assertThat(killListeners()).isGreaterThanOrEqualTo(2);
      // Committed while B's subscription is down (or just back): its NOTIFY may never reach B.
      table.updateProperties().set("round", Integer.toString(round)).commit();
      String expected = location(table);
      long deadline = System.currentTimeMillis() + 15_000;
      while (metric(b, "sluice_store_pointer_listener_reconnects_total") <= reconnects) {
        assertThat(System.currentTimeMillis()).isLessThan(deadline);
        Thread.sleep(5);
      }
      awaitServing(b);
      assertThat(metric(b, "sluice_store_pointer_listener_healthy")).isEqualTo(1.0);
      assertThat(served(b, "killed"))
          .as("round %d, first load after resubscribe", round)
          .isEqualTo(expected);
    }
  }

  @Test
  void aStormWithTheNotificationConnectionKilledLosesNoCommit() throws Exception {
    client(a).createTable(TableIdentifier.of(NS, "storm"), SCHEMA);
    TestServer[] replicas = {a, b};
    int writers = 4;
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    AtomicInteger refused = new AtomicInteger();
    AtomicInteger kills = new AtomicInteger();
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
    List<Future<?>> futures = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int writer = w;
      RESTCatalog c = client(replicas[w % 2]);
      futures.add(
          pool.submit(
              () -> {
                Table t = c.loadTable(TableIdentifier.of(NS, "storm"));
                for (int n = 0; !stop.get(); n++) {
                  String key = "w" + writer + "-" + n;
                  try {
                    t.updateProperties().set(key, "x").commit();
                    acknowledged.add(key);
                  } catch (CommitFailedException e) {
                    refused.incrementAndGet();
                    t.refresh();
                  }
                }
                return null;
              }));
    }
    futures.add(
        pool.submit(
            () -> {
              while (!stop.get()) {
                Thread.sleep(400);
                kills.addAndGet(killListeners());
              }
              return null;
            }));
    Thread.sleep(6_000);
    stop.set(true);
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
    awaitServing(a);
    awaitServing(b);
    String truth = inDatabase("storm");
    assertThat(served(a, "storm")).isEqualTo(truth);
    assertThat(served(b, "storm")).isEqualTo(truth);
    Table finalTable = client(b).loadTable(TableIdentifier.of(NS, "storm"));
    List<String> lost =
        acknowledged.stream().filter(k -> !finalTable.properties().containsKey(k)).toList();
    System.out.printf(
        Locale.ROOT,
        "POINTER-STORM acknowledged=%d refused=%d listener_kills=%d lost=%d%n",
        acknowledged.size(),
        refused.get(),
        kills.get(),
        lost.size());
    assertThat(kills.get()).isGreaterThan(4);
    assertThat(acknowledged).hasSizeGreaterThan(20);
    assertThat(lost).isEmpty();
  }
}

package dev.sluice.testing;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The end-to-end vending scenarios every backend passes, written once: through the real HTTP server
 * and the real Iceberg client (holding no storage key of its own), with a plain client of the store
 * holding one vended credential, so that the store (Ceph RGW, Azurite, or a fake that follows the
 * provider's documented behaviour), not Sluice, refuses what the credential may not do. A backend's
 * test subclasses this, fills in the hooks and keeps its own tests; the vending-level contract
 * without HTTP is {@code vending/StorageBackendContract}.
 *
 * <p>{@link #startBackend()} starts the store and a server with catalog {@link #catalog()} holding
 * namespaces {@code sales} and {@code hr}; the contract then creates {@link WriterAndReader}: the
 * writer with {@link WriterAndReader#WRITE} on both, the reader with read on {@code sales}. The
 * scenarios use tables {@code sales.orders}, {@code sales.ro}, {@code hr.t}, {@code hr.t_sibling},
 * {@code hr.b}, {@code hr.payroll} and a catalog {@code <catalog>_short} of their own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class VendingContract {
  protected static final Schema SCHEMA = RgwVendingBed.SCHEMA;
  private static final String[] ROOT = {TestServer.CLIENT_ID, TestServer.SECRET};

  protected TestServer server;
  protected Admin admin;
  protected WriterAndReader people;
  protected String[] writer;
  protected String[] reader;

  /**
   * A plain client of the store holding one vended credential, built from its client properties
   * only. Locations are full ({@code s3://bucket/key}, ...); each call throws the store's own
   * exception when refused.
   */
  public interface StoreClient {
    byte[] get(String location);

    void put(String location, byte[] content);

    void delete(String location);

    /**
     * Lists the names that start with {@code location}'s path exactly as given (no slash added); a
     * bucket or container root ({@code s3://bucket/}) lists the whole of it. Returns the names.
     */
    List<String> list(String location);
  }

  // ---- hooks ----

  /**
   * Starts the store and the server (its credential sources, catalog {@link #catalog()} with
   * namespaces {@code sales} and {@code hr}, anything the backend's own tests need); returns the
   * server, which it may also set in {@link #server} as soon as it has it. Called once, before any
   * test.
   */
  protected abstract TestServer startBackend() throws Exception;

  /** Stops what {@link #startBackend()} started (the server too). */
  protected abstract void stopBackend() throws Exception;

  /** Called after the writer and reader exist (more grants, more principals). */
  protected void afterPrincipals() throws Exception {}

  /** The catalog the scenarios use. */
  protected abstract String catalog();

  /**
   * Creates catalog {@code name} based at and allowed only at {@code path} below the backend's
   * storage root, with {@code storageExtra} added to its storageConfigInfo; asserts 201.
   */
  protected abstract void createCatalog(String name, String path, Map<String, Object> storageExtra)
      throws Exception;

  /** The storageConfigInfo keys that make a catalog's credentials live {@code seconds}. */
  protected Map<String, Object> shortLived(int seconds) {
    return Map.of("durationSeconds", seconds);
  }

  /** A store client holding only the credential whose client properties are {@code config}. */
  protected abstract StoreClient store(JsonNode config);

  /** The object at {@code location} as the store's administrative identity reads it, or null. */
  protected abstract byte[] adminRead(String location);

  /** Asserts that {@code call} fails because the store refused it (its status, its code). */
  protected abstract void assertRefused(ThrowingCallable call);

  /** What the stack trace of a refusal through the table's FileIO contains. */
  protected String ioRefusal() {
    return "403";
  }

  /** True where the FileIO swallows a refused delete (ADLSFileIO): the object must stay. */
  protected boolean ioSwallowsRefusedDeletes() {
    return false;
  }

  /** The client property naming the refresh endpoint, in the table response's config. */
  protected abstract String refreshEndpointProperty();

  /** The prefix a table's credential is vended for (the table's location, unless wider). */
  protected String credentialPrefix(String tableLocation) {
    return tableLocation;
  }

  /**
   * Round trip: the backend's checks of the writer's load response (its credential's keys, what it
   * must not hold) for {@code table}.
   */
  protected abstract void assertWriterResponse(JsonNode response, Table table) throws Exception;

  /**
   * Round trip: a check to run after it, set up before it (the store's request counters); by
   * default none.
   */
  protected Runnable watchRoundTrip() throws Exception {
    return () -> {};
  }

  /** Round trip: after the purge, nothing of the table is left at {@code tableLocation}. */
  protected void assertPurged(String tableLocation) {}

  /** Reader refused: a check to run after the FileIO's refused write and delete. */
  protected Runnable watchIoRefusals() {
    return () -> {};
  }

  /** Other table refused: whether the credential is as narrow as one table (not its container). */
  protected boolean scopedToTheTable() {
    return true;
  }

  /**
   * Other table refused: existing files outside the catalog's bucket or container, each under a
   * table-like {@code …/data/} folder, written by the store's admin (another bucket, ...).
   */
  protected abstract List<String> filesElsewhere(String tableLocation) throws Exception;

  /** Other table refused: lists wider than the table {@code t} that the credential may not do. */
  protected abstract List<String> widerLists(String t);

  /** Expiry: the client property holding the credential's expiry (epoch milliseconds). */
  protected abstract long expiresAtMillis(JsonNode config);

  /** Expiry: backend checks of the short-lived credential (who it is). */
  protected void assertShortLived(JsonNode config) {}

  /** Expiry: asserts the store refuses {@code config}'s credential, now expired, at a read. */
  protected abstract void assertExpiredRefused(JsonNode config, String location) throws Exception;

  /** Expiry: a check that the client's later read went through a fresh credential. */
  protected Runnable watchRefresh() {
    return () -> {};
  }

  /** Revoked write: checks of a read-write credential's fields. */
  protected void assertReadWrite(JsonNode config) {}

  /** Revoked write: checks of a read-only credential's fields. */
  protected void assertReadOnly(JsonNode config) {}

  // ---- setup ----

  @BeforeAll
  final void startContract() throws Exception {
    server = startBackend();
    admin = new Admin(server);
    people =
        WriterAndReader.create(admin)
            .writes(catalog(), List.of("sales", "hr"))
            .reads(catalog(), List.of("sales"));
    writer = people.writer();
    reader = people.reader();
    afterPrincipals();
  }

  @AfterAll
  final void stopContract() throws Exception {
    stopBackend();
  }

  // ---- the scenarios ----

  /** Round trip: a writer creates, appends, reads back and deletes with vended credentials only. */
  @Test
  void contractWriterCreatesAppendsReadsBackAndPurgesWithVendedCredentialsOnly() throws Exception {
    Runnable watch = watchRoundTrip();
    TableIdentifier id = TableIdentifier.of("sales", "orders");
    String location;
    try (RESTCatalog client = client(catalog(), writer)) {
      Table table = client.createTable(id, SCHEMA);
      location = table.location();
      DataFile file = RgwVendingBed.writeDataFile(table, "a.parquet", "order-1");
      table.newAppend().appendFile(file).commit();
      Table reloaded = client.loadTable(id);
      assertThat(reloaded.currentSnapshot().addedDataFiles(reloaded.io())).hasSize(1);
      assertThat(read(reloaded, file.location())).isEqualTo("order-1");
      assertThat(adminRead(file.location())).isEqualTo("order-1".getBytes(UTF_8));

      JsonNode response = load(writer, catalog(), "sales", "orders", true);
      JsonNode credentials = response.get("storage-credentials");
      assertThat(credentials).hasSize(1);
      assertThat(credentials.get(0).get("prefix").asText()).isEqualTo(credentialPrefix(location));
      assertThat(response.get("config").get(refreshEndpointProperty()).asText())
          .isEqualTo("v1/" + catalog() + "/namespaces/sales/tables/orders/credentials");
      assertWriterResponse(response, table);

      reloaded.io().deleteFile(file.location());
      assertThat(adminRead(file.location())).as("deleted").isNull();
      assertThat(client.dropTable(id, true)).isTrue();
    }
    assertPurged(location);
    watch.run();
  }

  /** Reader refused: a read-only credential reads, and its writes and deletes are refused. */
  @Test
  void contractAReadOnlyPrincipalsWriteAndDeleteAreRefusedByTheStore() throws Exception {
    DataFile file;
    try (RESTCatalog client = client(catalog(), writer)) {
      Table table = client.createTable(TableIdentifier.of("sales", "ro"), SCHEMA);
      file = RgwVendingBed.writeDataFile(table, "x.parquet", "read-me");
      table.newAppend().appendFile(file).commit();
    }
    String location = file.location();
    String evil = location.replace("x.parquet", "evil.parquet");
    byte[] content = "read-me".getBytes(UTF_8);
    try (RESTCatalog client = client(catalog(), reader)) {
      Table table = client.loadTable(TableIdentifier.of("sales", "ro"));
      assertThat(read(table, location)).isEqualTo("read-me");
      Runnable watch = watchIoRefusals();
      assertThatThrownBy(
              () -> {
                try (OutputStream out = table.io().newOutputFile(evil).create()) {
                  out.write(1);
                }
              })
          .hasStackTraceContaining(ioRefusal());
      if (ioSwallowsRefusedDeletes()) {
        try {
          table.io().deleteFile(location);
        } catch (RuntimeException refused) {
          assertThat(refused).hasStackTraceContaining(ioRefusal());
        }
      } else {
        assertThatThrownBy(() -> table.io().deleteFile(location))
            .hasStackTraceContaining(ioRefusal());
      }
      watch.run();
    }
    assertThat(adminRead(evil)).as("after a refused write").isNull();
    assertThat(adminRead(location)).as("after a refused delete").isEqualTo(content);
    String tableRoot = location.substring(0, location.indexOf("/data/") + 1);
    for (JsonNode config : vendedConfigs(reader, catalog(), "sales", "ro")) {
      assertReadOnly(config);
      StoreClient readOnly = store(config);
      assertThat(readOnly.get(location)).isEqualTo(content);
      assertThat(readOnly.list(tableRoot)).isNotEmpty();
      assertRefused(() -> readOnly.put(evil, new byte[] {1}));
      assertRefused(() -> readOnly.put(location, new byte[] {1}));
      assertRefused(() -> readOnly.delete(location));
      assertThat(adminRead(evil)).as("after refused writes").isNull();
      assertThat(adminRead(location)).as("after refused writes and deletes").isEqualTo(content);
    }
  }

  /**
   * Other table refused: a credential for one table cannot touch a sibling table (a name that
   * starts the same), another table, a wider list, or the same names in another bucket.
   */
  @Test
  void contractACredentialForOneTableIsRefusedOnAnotherAndOnASiblingPrefix() throws Exception {
    String t;
    String sibling;
    String other;
    try (RESTCatalog client = client(catalog(), writer)) {
      Table a = client.createTable(TableIdentifier.of("hr", "t"), SCHEMA);
      t = a.location();
      // A table whose location starts like t's: t's prefix ".../t/" must not cover it.
      Table s =
          client.createTable(
              TableIdentifier.of("hr", "t_sibling"),
              SCHEMA,
              PartitionSpec.unpartitioned(),
              t + "2",
              Map.of());
      sibling = s.location();
      s.newAppend().appendFile(RgwVendingBed.writeDataFile(s, "s.parquet", "sibling")).commit();
      Table b = client.createTable(TableIdentifier.of("hr", "b"), SCHEMA);
      other = b.location();
      b.newAppend().appendFile(RgwVendingBed.writeDataFile(b, "b.parquet", "other")).commit();
    }
    assertThat(sibling).isEqualTo(t + "2");
    List<String> outside = new ArrayList<>();
    if (scopedToTheTable()) {
      outside.add(sibling + "/data/s.parquet");
      outside.add(other + "/data/b.parquet");
    }
    outside.addAll(filesElsewhere(t));
    assertThat(outside).as("something outside the credential's scope").isNotEmpty();
    for (JsonNode config : vendedConfigs(writer, catalog(), "hr", "t")) {
      assertReadWrite(config);
      StoreClient store = store(config);
      store.put(t + "/data/ok.parquet", new byte[] {1});
      assertThat(adminRead(t + "/data/ok.parquet")).containsExactly(1);
      assertThat(store.list(t + "/")).isNotEmpty();
      for (String file : outside) {
        String prefix = file.substring(0, file.indexOf("/data/"));
        byte[] before = adminRead(file);
        assertThat(before).as("%s exists", file).isNotNull();
        assertRefused(() -> store.get(file));
        assertRefused(() -> store.list(prefix + "/"));
        assertRefused(() -> store.put(prefix + "/data/evil.parquet", new byte[] {1}));
        assertThat(adminRead(prefix + "/data/evil.parquet")).isNull();
        assertRefused(() -> store.put(file, new byte[] {1}));
        assertRefused(() -> store.delete(file));
        assertThat(adminRead(file)).as("%s after refused writes", file).isEqualTo(before);
      }
      for (String list : widerLists(t)) {
        assertRefused(() -> store.list(list));
      }
    }
  }

  /**
   * Expiry and refresh: a short-lived credential dies at the store; the client that held it
   * refreshes through the catalog and reads on.
   */
  @Test
  void contractAnExpiredCredentialIsRefusedAndTheClientRefreshesThroughTheCatalog()
      throws Exception {
    String name = catalog() + "_short";
    createCatalog(name, "short", shortLived(3));
    HttpResponse<String> ns = namespace(name, "n");
    assertThat(ns.statusCode()).as(ns.body()).isEqualTo(200);
    try (RESTCatalog client = client(name, ROOT)) {
      Table table = client.createTable(TableIdentifier.of("n", "long_read"), SCHEMA);
      DataFile file = RgwVendingBed.writeDataFile(table, "r.parquet", "still-readable");
      table.newAppend().appendFile(file).commit();
      List<JsonNode> first = vendedConfigs(ROOT, name, "n", "long_read");
      long expiresAt = 0;
      for (JsonNode config : first) {
        assertShortLived(config);
        expiresAt = Math.max(expiresAt, expiresAtMillis(config));
      }
      assertThat(expiresAt).isLessThanOrEqualTo(System.currentTimeMillis() + 3000);
      Table reader = client.loadTable(TableIdentifier.of("n", "long_read"));
      // Watched from the load on: Iceberg 1.11's GCS client refreshes ahead of the expiry, while
      // this waits, not at the read.
      Runnable watch = watchRefresh();
      Thread.sleep(Math.max(0, expiresAt - System.currentTimeMillis()) + 1500);
      for (JsonNode config : first) {
        assertExpiredRefused(config, file.location());
      }
      // The client, loaded before its credential expired, keeps reading: it refreshed.
      assertThat(read(reader, file.location())).isEqualTo("still-readable");
      watch.run();
    }
  }

  /** Revoked write: after the write grant is revoked, the next vend cannot write. */
  @Test
  void contractARevokedWriteGrantGivesAReadOnlyCredentialAtTheNextRefresh() throws Exception {
    String[] editor = admin.principal("editor", "editors");
    admin.catalogRole(catalog(), "edit_hr", "editors");
    String write = Admin.grantJson("table", List.of("hr"), "payroll", "TABLE_WRITE_DATA");
    try (RESTCatalog client = client(catalog(), writer)) {
      client.createTable(TableIdentifier.of("hr", "payroll"), SCHEMA);
    }
    admin.grant(catalog(), "edit_hr", write);
    String location =
        load(writer, catalog(), "hr", "payroll", false).get("metadata").get("location").asText();
    String path = tablePath(catalog(), "hr", "payroll") + "/credentials";
    JsonNode rw = refreshResponse(editor, path);
    assertThat(rw.get("storage-credentials").get(0).get("prefix").asText())
        .isEqualTo(credentialPrefix(location));
    JsonNode before = rw.get("storage-credentials").get(0).get("config");
    assertReadWrite(before);
    store(before).put(location + "/data/w.parquet", new byte[] {1});
    assertThat(adminRead(location + "/data/w.parquet")).containsExactly(1);

    admin.revoke(catalog(), "edit_hr", write);
    admin.grant(
        catalog(),
        "edit_hr",
        Admin.grantJson("table", List.of("hr"), "payroll", "TABLE_READ_DATA"));
    JsonNode after = refreshResponse(editor, path).get("storage-credentials").get(0).get("config");
    assertReadOnly(after);
    StoreClient readOnly = store(after);
    assertThat(readOnly.get(location + "/data/w.parquet")).containsExactly(1);
    assertRefused(() -> readOnly.put(location + "/data/w2.parquet", new byte[] {1}));
    assertThat(adminRead(location + "/data/w2.parquet")).isNull();
    // The writer may see every table of hr: a missing one is a 404 to it.
    String token = server.token(writer[0], writer[1]);
    // A plan id that is not the writer's plan on this table names nothing.
    assertThat(server.sendAs(token, "GET", path + "?planId=p1", null).statusCode()).isEqualTo(404);
    assertThat(server.sendAs(token, "GET", path.replace("payroll", "missing"), null).statusCode())
        .isEqualTo(404);
  }

  /**
   * Refresh keys: every answer that vends (create, load, commit, register, stage-create, both
   * credentials endpoints) carries the credential's expiry and where to refresh it, in Iceberg's
   * keys for this backend ({@link RefreshKeysWalk}).
   */
  @Test
  void contractEveryAnswerThatVendsCarriesWhatAClientNeedsToRefresh() throws Exception {
    new RefreshKeysWalk(server, catalog(), writer).walk("hr");
  }

  // ---- helpers the backends' own tests use too ----

  /** The real client, configured with no storage credential at all. */
  protected RESTCatalog client(String catalog, String[] credentials) {
    RESTCatalog client = new RESTCatalog();
    client.initialize(
        "sluice",
        Map.of(
            "uri",
            server.catalogUri(),
            "warehouse",
            catalog,
            "credential",
            credentials[0] + ":" + credentials[1]));
    return client;
  }

  protected HttpResponse<String> namespace(String catalog, String ns) throws Exception {
    return server.send(
        "POST", "/api/catalog/v1/" + catalog + "/namespaces", "{\"namespace\": [\"" + ns + "\"]}");
  }

  protected static String tablePath(String catalog, String ns, String table) {
    return "/api/catalog/v1/" + catalog + "/namespaces/" + ns + "/tables/" + table;
  }

  /** A GET as {@code who}, asking for vended credentials. */
  protected HttpResponse<String> get(String[] who, String path) throws Exception {
    return server.sendAs(
        server.token(who[0], who[1]),
        "GET",
        path,
        null,
        Map.of(RgwVendingBed.DELEGATION, "vended-credentials"));
  }

  /** loadTable (asserting 200), asking for vended credentials or not; the whole response. */
  protected JsonNode load(String[] who, String catalog, String ns, String table, boolean ask)
      throws Exception {
    String path = tablePath(catalog, ns, table);
    HttpResponse<String> response =
        ask ? get(who, path) : server.sendAs(server.token(who[0], who[1]), "GET", path, null);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return TestServer.json(response.body());
  }

  /** The one vended credential's config, through the refresh endpoint. */
  protected JsonNode refreshed(String[] who, String catalog, String ns, String table)
      throws Exception {
    return refreshResponse(who, tablePath(catalog, ns, table) + "/credentials")
        .get("storage-credentials")
        .get(0)
        .get("config");
  }

  private JsonNode refreshResponse(String[] who, String path) throws Exception {
    HttpResponse<String> response = get(who, path);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode body = TestServer.json(response.body());
    assertThat(body.get("storage-credentials")).hasSize(1);
    return body;
  }

  /** The credential a load vends and the one the refresh endpoint vends, in that order. */
  protected List<JsonNode> vendedConfigs(String[] who, String catalog, String ns, String table)
      throws Exception {
    JsonNode loaded = load(who, catalog, ns, table, true).get("storage-credentials");
    assertThat(loaded).hasSize(1);
    return List.of(loaded.get(0).get("config"), refreshed(who, catalog, ns, table));
  }

  protected static String read(Table table, String location) throws Exception {
    try (InputStream in = table.io().newInputFile(location).newStream()) {
      return new String(in.readAllBytes(), UTF_8);
    }
  }
}

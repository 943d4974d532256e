package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Admin;
import dev.sluice.testing.TestServer;
import java.lang.reflect.Field;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * loadTable's spec features, over plain HTTP: the {@code ETag} with {@code If-None-Match} → 304,
 * and {@code snapshots=refs}; and refs mode through the real {@link RESTCatalog}. The tag's
 * dependence on vended credentials is proven against RGW in {@code ConditionalLoadVendingTest}.
 */
class ConditionalLoadTableTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static TestServer server;
  private static Admin admin;
  private static String catalog;
  private static String base;
  // A table with three snapshots and a tag on the first: refs mode shows the first and the third.
  private static final List<Long> HISTORY = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
    admin = new Admin(server);
    catalog = server.createCatalog("etag");
    base = "/api/catalog/v1/" + catalog + "/namespaces/ns/tables/";
    try (RESTCatalog client = client(Map.of())) {
      client.createNamespace(Namespace.of("ns"));
      Table history = client.createTable(TableIdentifier.of("ns", "history"), SCHEMA);
      for (int i = 0; i < 3; i++) {
        history.newFastAppend().appendFile(dataFile(history, i)).commit();
        HISTORY.add(history.currentSnapshot().snapshotId());
      }
      history.manageSnapshots().createTag("first", HISTORY.get(0)).commit();
      client.createTable(TableIdentifier.of("ns", "plain"), SCHEMA);
      client.createTable(TableIdentifier.of("ns", "changing"), SCHEMA);
      client.createTable(TableIdentifier.of("ns", "guarded"), SCHEMA);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static RESTCatalog client(Map<String, String> extra) {
    Map<String, String> props = new HashMap<>(server.clientProperties(catalog));
    props.putAll(extra);
    RESTCatalog client = new RESTCatalog();
    client.initialize("sluice", props);
    return client;
  }

  private static DataFile dataFile(Table table, int i) {
    // Metadata-only appends: the file need not exist for the snapshot to be committed.
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(table.location() + "/data/f" + i + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(10)
        .withRecordCount(1)
        .build();
  }

  private static HttpResponse<String> load(String token, String pathAndQuery, String ifNoneMatch)
      throws Exception {
    return server.sendAs(
        token,
        "GET",
        base + pathAndQuery,
        null,
        ifNoneMatch == null ? Map.of() : Map.of("If-None-Match", ifNoneMatch));
  }

  private static HttpResponse<String> load(String pathAndQuery, String ifNoneMatch)
      throws Exception {
    return load(server.rootToken(), pathAndQuery, ifNoneMatch);
  }

  private static String etagOf(HttpResponse<String> response) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    String etag = response.headers().firstValue("ETag").orElseThrow();
    assertThat(etag).matches("\"[A-Za-z0-9_-]{22}\"");
    return etag;
  }

  private static void assertNotModified(HttpResponse<String> response, String etag) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(304);
    assertThat(response.body()).isEmpty();
    assertThat(response.headers().firstValue("ETag")).contains(etag);
  }

  @Test
  void aLoadCarriesAnETagAndTheSameTagGets304WithoutABody() throws Exception {
    String etag = etagOf(load("plain", null));
    assertThat(etagOf(load("plain", null))).isEqualTo(etag);
    assertNotModified(load("plain", etag), etag);
    // a tag of another response is not this one
    assertThat(load("plain", "\"AAAAAAAAAAAAAAAAAAAAAA\"").statusCode()).isEqualTo(200);
  }

  @Test
  void ifNoneMatchFollowsRfc9110ListsWildcardAndWeakComparison() throws Exception {
    String etag = etagOf(load("plain", null));
    assertNotModified(load("plain", "*"), etag);
    assertNotModified(load("plain", "\"other\", " + etag + " ,\"more\""), etag);
    assertNotModified(load("plain", "W/" + etag), etag);
    assertNotModified(load("plain", "W/\"x\",W/" + etag), etag);
    // unquoted, or a list of others only: the full answer
    assertThat(load("plain", etag.replace("\"", "")).statusCode()).isEqualTo(200);
    assertThat(load("plain", "\"a\", W/\"b\"").statusCode()).isEqualTo(200);
    assertThat(load("plain", "").statusCode()).isEqualTo(200);
  }

  @Test
  void aCommitChangesTheTag() throws Exception {
    String before = etagOf(load("changing", null));
    try (RESTCatalog client = client(Map.of())) {
      client
          .loadTable(TableIdentifier.of("ns", "changing"))
          .updateProperties()
          .set("k", "v")
          .commit();
    }
    HttpResponse<String> after = load("changing", before);
    String now = etagOf(after);
    assertThat(now).isNotEqualTo(before);
    assertThat(TestServer.json(after.body()).get("metadata").get("properties").get("k").asText())
        .isEqualTo("v");
    assertNotModified(load("changing", now), now);
  }

  @Test
  void revokedAccessIs403EvenWithTheCurrentTag() throws Exception {
    String[] dora = admin.principal("dora", "dora_role");
    admin.catalogRole(catalog, "dora_cr", "dora_role");
    String grant = Admin.grantJson("table", List.of("ns"), "guarded", "TABLE_READ_PROPERTIES");
    admin.grant(catalog, "dora_cr", grant);
    String token = server.token(dora[0], dora[1]);
    String etag = etagOf(load(token, "guarded", null));
    assertNotModified(load(token, "guarded", etag), etag);
    admin.revoke(catalog, "dora_cr", grant);
    HttpResponse<String> refused = load(token, "guarded", etag);
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
    assertThat(refused.headers().firstValue("ETag")).isEmpty();
  }

  @Test
  void refsModeReturnsOnlyReferencedSnapshotsUnderItsOwnTag() throws Exception {
    HttpResponse<String> all = load("history", null);
    HttpResponse<String> refs = load("history?snapshots=refs", null);
    assertThat(snapshotIds(all)).containsExactlyInAnyOrderElementsOf(HISTORY);
    assertThat(snapshotIds(refs)).containsExactlyInAnyOrder(HISTORY.get(0), HISTORY.get(2));
    JsonNode refsMetadata = TestServer.json(refs.body()).get("metadata");
    assertThat(refsMetadata.get("refs").has("first")).isTrue();
    assertThat(refsMetadata.get("refs").has("main")).isTrue();
    assertThat(refsMetadata.get("current-snapshot-id").asLong()).isEqualTo(HISTORY.get(2));
    // the same metadata file, as the file has it: location and timestamp unchanged
    JsonNode allMetadata = TestServer.json(all.body()).get("metadata");
    assertThat(TestServer.json(refs.body()).get("metadata-location"))
        .isEqualTo(TestServer.json(all.body()).get("metadata-location"));
    assertThat(refsMetadata.get("last-updated-ms")).isEqualTo(allMetadata.get("last-updated-ms"));
    assertThat(refsMetadata.get("metadata-log")).isEqualTo(allMetadata.get("metadata-log"));

    String allTag = etagOf(all);
    String refsTag = etagOf(refs);
    assertThat(refsTag).isNotEqualTo(allTag);
    assertThat(etagOf(load("history?snapshots=all", null))).isEqualTo(allTag);
    // each mode's tag confirms only its own representation
    assertThat(load("history?snapshots=refs", allTag).statusCode()).isEqualTo(200);
    assertNotModified(load("history?snapshots=refs", refsTag), refsTag);
    // served from the per-mode JSON cache, again and again the same
    assertThat(snapshotIds(load("history?snapshots=refs", null))).hasSize(2);
    assertThat(snapshotIds(load("history", null))).hasSize(3);
  }

  @Test
  void anUnknownSnapshotsModeIs400NamingIt() throws Exception {
    HttpResponse<String> bogus = load("history?snapshots=bogus", null);
    assertThat(bogus.statusCode()).isEqualTo(400);
    assertThat(bogus.body()).contains("bogus").contains("BadRequestException");
  }

  @Test
  void aRestCatalogInRefsModeLoadsHistoryLazily() throws Exception {
    try (RESTCatalog client = client(Map.of("snapshot-loading-mode", "refs"))) {
      Table table = client.loadTable(TableIdentifier.of("ns", "history"));
      TableMetadata metadata = ((BaseTable) table).operations().current();
      assertThat(snapshotsLoaded(metadata)).isFalse();
      assertThat(table.currentSnapshot().snapshotId()).isEqualTo(HISTORY.get(2));
      assertThat(snapshotsLoaded(metadata)).isFalse();
      // asked for all snapshots, the client loads again in "all" mode
      assertThat(table.snapshots()).extracting(Snapshot::snapshotId).hasSize(3);
      assertThat(snapshotsLoaded(metadata)).isTrue();
      assertThat(table.snapshot(HISTORY.get(1))).isNotNull();
    }
    try (RESTCatalog client = client(Map.of())) {
      TableMetadata full =
          ((BaseTable) client.loadTable(TableIdentifier.of("ns", "history")))
              .operations()
              .current();
      assertThat(snapshotsLoaded(full)).isTrue();
    }
  }

  /** TableMetadata's own flag: false while a refs-mode load has not fetched the history. */
  private static boolean snapshotsLoaded(TableMetadata metadata) throws Exception {
    Field loaded = TableMetadata.class.getDeclaredField("snapshotsLoaded");
    loaded.setAccessible(true);
    return loaded.getBoolean(metadata);
  }

  private static Set<Long> snapshotIds(HttpResponse<String> response) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    Set<Long> ids = new TreeSet<>();
    TestServer.json(response.body())
        .get("metadata")
        .get("snapshots")
        .forEach(s -> ids.add(s.get("snapshot-id").asLong()));
    return ids;
  }
}

package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.CatalogRecord;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.PageRequest;
import dev.sluice.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableCommit;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Behaviour beyond Iceberg's suites, through the real RESTCatalog: purge and multi-table commits.
 */
class CatalogBehaviourTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static TestServer server;
  private static Path warehouse;
  private static RESTCatalog catalog;
  private static String catalogName;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
    warehouse = server.dataDir().resolve("behaviour-wh");
    catalogName = server.createCatalog("beh", List.of(warehouse.toUri().toString()), warehouse);
    catalog = new RESTCatalog();
    catalog.initialize("sluice", server.clientProperties(catalogName));
    catalog.createNamespace(Namespace.of("ns"));
  }

  /**
   * An unregistered storageType is refused at creation, naming the supported ones; one stored by a
   * server that knew it (a downgrade) is a clear 503 on use, never served from local disk.
   */
  @Test
  void anUnknownStorageTypeFailsLoudlyAndNeverFallsBackToLocalDisk() throws Exception {
    String body =
        "{\"catalog\":{\"name\":\"hdfs_cat\",\"properties\":{\"default-base-location\":"
            + "\"hdfs://nn/wh\"},\"storageConfigInfo\":{\"storageType\":\"HDFS\"}}}";
    var refused = server.send("POST", "/api/management/v1/catalogs", body);
    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.body())
        .contains("storageConfigInfo.storageType")
        .contains("[FILE, S3, R2, GCS, AZURE]");

    server
        .server()
        .store()
        .createCatalog(
            new CatalogRecord(
                "future_cat",
                "INTERNAL",
                Map.of("default-base-location", "hdfs://nn/wh"),
                "{\"storageType\":\"HDFS\",\"allowedLocations\":[\"hdfs://nn/wh\"]}",
                1,
                0,
                0),
            "service_admin");
    var unavailable =
        server.send("POST", "/api/catalog/v1/future_cat/namespaces", "{\"namespace\":[\"ns\"]}");
    assertThat(unavailable.statusCode()).isEqualTo(503);
    assertThat(unavailable.body()).contains("future_cat").contains("HDFS");
    assertThat(
            server
                .server()
                .store()
                .listNamespaces("future_cat", NamespacePath.ROOT, PageRequest.of(null, null))
                .items())
        .isEmpty();
  }

  @AfterAll
  static void stop() throws Exception {
    catalog.close();
    server.close();
  }

  private static long filesUnder(Path dir) throws Exception {
    if (!Files.exists(dir)) {
      return 0;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      // Hadoop's local filesystem (the client's FileIO here) writes .crc sidecars that no metadata
      // names.
      return files
          .filter(Files::isRegularFile)
          .filter(f -> !f.getFileName().toString().endsWith(".crc"))
          .count();
    }
  }

  private static DataFile dataFileIn(Table table, String name) throws Exception {
    Path file = Path.of(table.location().replaceFirst("^file:", "")).resolve("data").resolve(name);
    Files.createDirectories(file.getParent());
    Files.write(file, new byte[] {1, 2, 3});
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(file.toString())
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(3)
        .withRecordCount(1)
        .build();
  }

  @Test
  void dropWithPurgeDeletesTheTablesFilesAndDropWithoutKeepsThem() throws Exception {
    TableIdentifier purged = TableIdentifier.of("ns", "purged");
    Table table = catalog.createTable(purged, SCHEMA);
    table.newAppend().appendFile(dataFileIn(table, "a.parquet")).commit();
    Path location = Path.of(table.location().replaceFirst("^file:", ""));
    assertThat(filesUnder(location))
        .isGreaterThanOrEqualTo(4); // 2 metadata.json, manifest list, manifest, data

    assertThat(catalog.dropTable(purged, true)).isTrue();
    assertThat(catalog.tableExists(purged)).isFalse();
    assertThat(filesUnder(location)).isZero();

    TableIdentifier kept = TableIdentifier.of("ns", "kept");
    Table keptTable = catalog.createTable(kept, SCHEMA);
    keptTable.newAppend().appendFile(dataFileIn(keptTable, "b.parquet")).commit();
    Path keptLocation = Path.of(keptTable.location().replaceFirst("^file:", ""));
    long before = filesUnder(keptLocation);
    assertThat(catalog.dropTable(kept, false)).isTrue();
    assertThat(catalog.tableExists(kept)).isFalse();
    assertThat(filesUnder(keptLocation)).isEqualTo(before);
  }

  @Test
  void multiTableCommitChangesEveryTable() {
    Table a = catalog.createTable(TableIdentifier.of("ns", "tx_a"), SCHEMA);
    Table b = catalog.createTable(TableIdentifier.of("ns", "tx_b"), SCHEMA);
    org.apache.iceberg.Transaction ta = a.newTransaction();
    ta.updateProperties().set("batch", "1").commit();
    org.apache.iceberg.Transaction tb = b.newTransaction();
    tb.updateSchema().addColumn("extra", Types.StringType.get()).commit();
    catalog.commitTransaction(
        TableCommit.create(
            TableIdentifier.of("ns", "tx_a"),
            ((org.apache.iceberg.HasTableOperations) a).operations().current(),
            ((org.apache.iceberg.BaseTransaction) ta).currentMetadata()),
        TableCommit.create(
            TableIdentifier.of("ns", "tx_b"),
            ((org.apache.iceberg.HasTableOperations) b).operations().current(),
            ((org.apache.iceberg.BaseTransaction) tb).currentMetadata()));
    assertThat(catalog.loadTable(TableIdentifier.of("ns", "tx_a")).properties())
        .containsEntry("batch", "1");
    assertThat(catalog.loadTable(TableIdentifier.of("ns", "tx_b")).schema().findField("extra"))
        .isNotNull();
  }

  @Test
  void listingsArePagedOverHttpAndTheClientFollowsTokens() throws Exception {
    catalog.createNamespace(Namespace.of("paged"));
    for (int i = 0; i < 5; i++) {
      catalog.createTable(TableIdentifier.of("paged", "t" + i), SCHEMA);
      catalog.createNamespace(Namespace.of("paged", "child" + i));
    }
    String base = "/api/catalog/v1/" + catalogName + "/namespaces/paged";
    com.fasterxml.jackson.databind.JsonNode first =
        TestServer.json(server.send("GET", base + "/tables?pageSize=2", null).body());
    assertThat(first.get("identifiers")).hasSize(2);
    String token = first.get("next-page-token").asText();
    com.fasterxml.jackson.databind.JsonNode second =
        TestServer.json(
            server.send("GET", base + "/tables?pageSize=2&pageToken=" + token, null).body());
    assertThat(second.get("identifiers").get(0).get("name").asText()).isEqualTo("t2");

    // The real client, asked for pages of 2, follows next-page-token to the end.
    try (RESTCatalog paging = new RESTCatalog()) {
      java.util.Map<String, String> props =
          new java.util.HashMap<>(server.clientProperties(catalogName));
      props.put("rest-page-size", "2");
      paging.initialize("paging", props);
      assertThat(paging.listTables(Namespace.of("paged"))).hasSize(5);
      assertThat(paging.listNamespaces(Namespace.of("paged")))
          .containsExactly(
              Namespace.of("paged", "child0"),
              Namespace.of("paged", "child1"),
              Namespace.of("paged", "child2"),
              Namespace.of("paged", "child3"),
              Namespace.of("paged", "child4"));
    }
  }
}

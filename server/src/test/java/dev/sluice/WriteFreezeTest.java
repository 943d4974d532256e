package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.catalog.WriteFreeze;
import dev.sluice.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.view.View;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The write freeze ({@code sluice.write-frozen}), through the real RESTCatalog: a frozen table or
 * view refuses every commit but the one that only removes the property, and its drop and rename;
 * the refusal names the property and its reason.
 */
class WriteFreezeTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final String REASON = "moved to https://new.example/api/catalog catalog prod";
  private static TestServer server;
  private static RESTCatalog catalog;
  private static String catalogName;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
    Path warehouse = server.dataDir().resolve("freeze-wh");
    catalogName = server.createCatalog("frz", List.of(warehouse.toUri().toString()), warehouse);
    catalog = new RESTCatalog();
    catalog.initialize("sluice", server.clientProperties(catalogName));
    catalog.createNamespace(Namespace.of("ns"));
  }

  @AfterAll
  static void stop() throws Exception {
    catalog.close();
    server.close();
  }

  @Test
  void aFrozenTableRefusesCommitsDropAndRenameUntilThePropertyAloneIsRemoved() {
    TableIdentifier id = TableIdentifier.of("ns", "frozen");
    Table table = catalog.createTable(id, SCHEMA);
    table.updateProperties().set(WriteFreeze.KEY, REASON).commit();

    assertRefused(() -> catalog.loadTable(id).updateProperties().set("k", "v").commit());
    assertRefused(
        () ->
            catalog
                .loadTable(id)
                .updateSchema()
                .addColumn("more", Types.StringType.get())
                .commit());
    // Removing it together with another change is still a write.
    assertRefused(
        () ->
            catalog
                .loadTable(id)
                .updateProperties()
                .remove(WriteFreeze.KEY)
                .set("k", "v")
                .commit());
    assertRefused(() -> catalog.dropTable(id, false));
    assertRefused(() -> catalog.dropTable(id, true));
    assertRefused(() -> catalog.renameTable(id, TableIdentifier.of("ns", "elsewhere")));
    // A multi-table transaction touching it fails whole.
    TableIdentifier other = TableIdentifier.of("ns", "other");
    catalog.createTable(other, SCHEMA);
    Transaction a = catalog.loadTable(id).newTransaction();
    a.updateProperties().set("k", "v").commit();
    Transaction b = catalog.loadTable(other).newTransaction();
    b.updateProperties().set("k", "v").commit();
    assertRefused(
        () ->
            catalog.commitTransaction(
                List.of(
                    org.apache.iceberg.catalog.TableCommit.create(
                        id,
                        ((org.apache.iceberg.BaseTransaction) a).startMetadata(),
                        ((org.apache.iceberg.BaseTransaction) a).currentMetadata()),
                    org.apache.iceberg.catalog.TableCommit.create(
                        other,
                        ((org.apache.iceberg.BaseTransaction) b).startMetadata(),
                        ((org.apache.iceberg.BaseTransaction) b).currentMetadata()))));
    assertThat(catalog.loadTable(other).properties()).doesNotContainKey("k");
    assertThat(catalog.loadTable(id).properties())
        .containsEntry(WriteFreeze.KEY, REASON)
        .doesNotContainKey("k");

    catalog.loadTable(id).updateProperties().remove(WriteFreeze.KEY).commit();

    catalog.loadTable(id).updateProperties().set("k", "v").commit();
    assertThat(catalog.loadTable(id).properties()).containsEntry("k", "v");
    catalog.renameTable(id, TableIdentifier.of("ns", "thawed"));
    assertThat(catalog.dropTable(TableIdentifier.of("ns", "thawed"), false)).isTrue();
  }

  @Test
  void aFrozenViewRefusesChangesDropAndRenameUntilThePropertyAloneIsRemoved() {
    TableIdentifier id = TableIdentifier.of("ns", "frozen_view");
    View view =
        catalog
            .buildView(id)
            .withSchema(SCHEMA)
            .withDefaultNamespace(Namespace.of("ns"))
            .withQuery("spark", "select 1 as id")
            .withProperty(WriteFreeze.KEY, REASON)
            .create();
    assertThat(view.properties()).containsEntry(WriteFreeze.KEY, REASON);

    assertRefused(() -> catalog.loadView(id).updateProperties().set("k", "v").commit());
    assertRefused(
        () ->
            catalog
                .loadView(id)
                .replaceVersion()
                .withSchema(SCHEMA)
                .withDefaultNamespace(Namespace.of("ns"))
                .withQuery("spark", "select 2 as id")
                .commit());
    assertRefused(() -> catalog.dropView(id));
    assertRefused(() -> catalog.renameView(id, TableIdentifier.of("ns", "elsewhere_view")));

    catalog.loadView(id).updateProperties().remove(WriteFreeze.KEY).commit();
    catalog.loadView(id).updateProperties().set("k", "v").commit();
    assertThat(catalog.dropView(id)).isTrue();
  }

  @Test
  void theConfigAnswerNamesTheFreezeProperty() throws Exception {
    var config = server.send("GET", "/api/catalog/v1/config?warehouse=" + catalogName, null);
    assertThat(config.statusCode()).isEqualTo(200);
    assertThat(TestServer.json(config.body()).path("sluice-write-freeze-property").asText())
        .isEqualTo(WriteFreeze.KEY);
  }

  private static void assertRefused(Runnable write) {
    assertThatThrownBy(write::run)
        .isInstanceOf(ForbiddenException.class)
        .hasMessageContaining("frozen for writes")
        .hasMessageContaining("'" + WriteFreeze.KEY + "'")
        .hasMessageContaining(REASON);
  }
}

package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.catalog.WriteFreeze;
import dev.sluice.testing.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice catalogs import} from one Sluice into another (two servers in this JVM, each its
 * own store, one warehouse folder): nested namespaces, tables and a view; dry run, real run,
 * re-run; {@code --freeze-source} leaves the source refusing writes, naming the property, and the
 * target writable.
 */
class ImportCommandTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final String SECRET_VAR = "IMPORT_TEST_SOURCE_SECRET";
  private static TestServer source;
  private static TestServer target;
  private static String sourceCatalog;
  private static String targetCatalog;
  private static RESTCatalog sourceClient;
  private static RESTCatalog targetClient;

  @BeforeAll
  static void start() throws Exception {
    source = TestServer.startH2();
    target = TestServer.startH2();
    Path warehouse = source.dataDir().resolve("import-wh");
    String allowed = warehouse.toUri().toString();
    sourceCatalog = source.createCatalog("src", List.of(allowed), warehouse);
    targetCatalog = target.createCatalog("dst", List.of(allowed), warehouse);
    sourceClient = new RESTCatalog();
    sourceClient.initialize("source", source.clientProperties(sourceCatalog));
    targetClient = new RESTCatalog();
    targetClient.initialize("target", target.clientProperties(targetCatalog));
    sourceClient.createNamespace(Namespace.of("sales"));
    sourceClient.createNamespace(
        Namespace.of("sales", "eu"), new java.util.HashMap<>(Map.of("owner", "eu-team")));
    sourceClient.createTable(TableIdentifier.of("sales", "orders"), SCHEMA);
    sourceClient.createTable(TableIdentifier.of("sales", "eu", "orders"), SCHEMA);
    sourceClient
        .buildView(TableIdentifier.of("sales", "recent"))
        .withSchema(SCHEMA)
        .withDefaultNamespace(Namespace.of("sales"))
        .withQuery("spark", "select id from sales.orders")
        .create();
    ConnectionOptions.environment = Map.of(SECRET_VAR, TestServer.SECRET)::get;
  }

  @AfterEach
  void keepEnvironment() {
    ConnectionOptions.environment = Map.of(SECRET_VAR, TestServer.SECRET)::get;
  }

  @AfterAll
  static void stop() throws Exception {
    ConnectionOptions.environment = System::getenv;
    sourceClient.close();
    targetClient.close();
    source.close();
    target.close();
  }

  private static Cli.Result importing(String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "catalogs",
                "import",
                targetCatalog,
                "--from",
                source.catalogUri(),
                "--from-warehouse",
                sourceCatalog,
                "--from-client-id",
                TestServer.CLIENT_ID,
                "--from-client-secret-env",
                SECRET_VAR));
    args.addAll(List.of(extra));
    return Cli.live(target, args.toArray(String[]::new));
  }

  @Test
  void sluiceToSluiceWithFreezeSourceThenReRun() throws Exception {
    Cli.Result dry = importing("--dry-run", "--freeze-source");
    assertThat(dry.exit()).as(dry.err()).isZero();
    assertThat(dry.out())
        .contains("namespace sales: would create")
        .contains("namespace sales.eu: would create")
        .contains("[1/3] table sales.orders: would register")
        .contains("view sales.recent: would register")
        .contains("dry run: 2 tables, 1 views: 3 would register, 0 unchanged, 0 skipped");
    assertThat(targetClient.listNamespaces()).isEmpty();
    assertThat(sourceClient.loadTable(TableIdentifier.of("sales", "orders")).properties())
        .doesNotContainKey(WriteFreeze.KEY);

    Cli.Result real = importing("--freeze-source");
    assertThat(real.exit()).as(real.out() + real.err()).isZero();
    assertThat(real.out())
        .contains("namespace sales: created")
        .contains("namespace sales.eu: created")
        .contains("[2/3] view sales.recent: registered")
        .contains("[3/3] table sales.eu.orders: registered")
        .contains("imported 2 tables, 1 views: 3 registered, 0 unchanged, 0 skipped");
    assertThat(targetClient.loadNamespaceMetadata(Namespace.of("sales", "eu")))
        .containsEntry("owner", "eu-team");

    // The source refuses writes, naming the property and where the table went.
    TableIdentifier orders = TableIdentifier.of("sales", "orders");
    assertThat(sourceClient.loadTable(orders).properties())
        .containsEntry(
            WriteFreeze.KEY,
            "moved to " + target.baseUrl() + "/api/catalog, catalog " + targetCatalog);
    assertThatThrownBy(
            () -> sourceClient.loadTable(orders).updateProperties().set("k", "v").commit())
        .isInstanceOf(ForbiddenException.class)
        .hasMessageContaining(WriteFreeze.KEY)
        .hasMessageContaining("moved to " + target.baseUrl());
    assertThatThrownBy(
            () ->
                sourceClient
                    .loadView(TableIdentifier.of("sales", "recent"))
                    .updateProperties()
                    .set("k", "v")
                    .commit())
        .isInstanceOf(ForbiddenException.class)
        .hasMessageContaining(WriteFreeze.KEY);
    // The target is unfrozen and writable.
    assertThat(targetClient.loadTable(orders).properties()).doesNotContainKey(WriteFreeze.KEY);
    targetClient.loadTable(orders).updateProperties().set("k", "v").commit();
    assertThat(targetClient.loadTable(orders).properties()).containsEntry("k", "v");
    assertThat(targetClient.loadView(TableIdentifier.of("sales", "recent")).properties())
        .doesNotContainKey(WriteFreeze.KEY);

    // A re-run changes nothing: the target continues from the frozen source's metadata.
    Cli.Result again = importing("--freeze-source", "--output", "json");
    assertThat(again.exit()).as(again.out() + again.err()).isZero();
    JsonNode summary = again.json().path("summary");
    assertThat(summary.path("unchanged").asInt()).isEqualTo(3);
    assertThat(summary.path("registered").asInt()).isZero();
  }

  @Test
  void badSourceOptionsAreUsageErrorsAndAnUnreachableSourceFailsTheRun() throws Exception {
    // (A source that enforces no freeze refusing --freeze-source: ImportReferenceCatalogTest, e2e.)
    Cli.Result refused =
        Cli.live(
            target,
            "catalogs",
            "import",
            targetCatalog,
            "--from",
            "http://127.0.0.1:1",
            "--freeze-source");
    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.err()).contains("cannot reach http://127.0.0.1:1");
    Cli.Result usage =
        Cli.live(
            target,
            "catalogs",
            "import",
            targetCatalog,
            "--from",
            source.catalogUri(),
            "--from-client-id",
            "x");
    assertThat(usage.exit()).isEqualTo(2);
    assertThat(usage.err()).contains("--from-client-id needs --from-client-secret-env");
  }
}

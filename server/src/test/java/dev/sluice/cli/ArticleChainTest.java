package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.Main;
import dev.sluice.testing.TestServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The reference article's chain, set up only through the CLI against a live server, then exercised
 * by the real RESTCatalog client as the new principal: {@code jane_analyst → analyst → sales_reader
 * → TABLE_READ_DATA + TABLE_LIST on namespace sales}.
 */
class ArticleChainTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static Cli.Result sluice(String... args) {
    List<String> all = new ArrayList<>(Arrays.asList(args));
    all.addAll(
        List.of(
            "--base-url",
            server.baseUrl(),
            "--client-id",
            TestServer.CLIENT_ID,
            "--client-secret",
            TestServer.SECRET));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit =
        new CommandLine(new Main())
            .setOut(new PrintWriter(out))
            .setErr(new PrintWriter(err))
            .execute(all.toArray(String[]::new));
    Cli.Result result = new Cli.Result(exit, out.toString(), err.toString());
    assertThat(result.out() + result.err()).doesNotContain(TestServer.SECRET);
    return result;
  }

  private static void ok(String... args) {
    Cli.Result result = sluice(args);
    assertThat(result.exit())
        .as(String.join(" ", args) + "\n" + result.out() + result.err())
        .isZero();
  }

  private static RESTCatalog client(String clientId, String secret) {
    RESTCatalog catalog = new RESTCatalog();
    catalog.initialize(
        "jane",
        Map.of(
            "uri",
            server.catalogUri(),
            "warehouse",
            "analytics",
            "credential",
            clientId + ":" + secret,
            "scope",
            "PRINCIPAL_ROLE:ALL"));
    return catalog;
  }

  @Test
  void analystReadsSalesAndNothingElse() throws Exception {
    Path warehouse = server.dataDir().resolve("analytics");
    ok(
        "catalogs",
        "create",
        "analytics",
        "--storage-type",
        "FILE",
        "--default-base-location",
        warehouse.toUri().toString());
    ok("principal-roles", "create", "analyst");
    ok("catalog-roles", "create", "--catalog", "analytics", "sales_reader");
    ok(
        "privileges",
        "--catalog",
        "analytics",
        "--catalog-role",
        "sales_reader",
        "namespace",
        "grant",
        "--namespace",
        "sales",
        "TABLE_READ_DATA");
    ok(
        "privileges",
        "--catalog",
        "analytics",
        "--catalog-role",
        "sales_reader",
        "namespace",
        "grant",
        "--namespace",
        "sales",
        "TABLE_LIST");
    ok(
        "catalog-roles",
        "grant",
        "--catalog",
        "analytics",
        "--principal-role",
        "analyst",
        "sales_reader");
    Cli.Result created =
        sluice(
            "principals",
            "create",
            "--principal-role",
            "analyst",
            "jane_analyst",
            "--output",
            "json");
    assertThat(created.exit()).as(created.err()).isZero();
    JsonNode credentials = created.json().get("credentials");
    String janeId = credentials.get("clientId").asText();
    String janeSecret = credentials.get("clientSecret").asText();

    Cli.Result grants =
        sluice(
            "privileges",
            "--catalog",
            "analytics",
            "--catalog-role",
            "sales_reader",
            "list",
            "--output",
            "json");
    assertThat(grants.json().get("grants").findValuesAsText("privilege"))
        .containsExactlyInAnyOrder("TABLE_READ_DATA", "TABLE_LIST");
    Cli.Result roles =
        sluice("principal-roles", "list", "--principal", "jane_analyst", "--output", "json");
    assertThat(roles.json().get("roles").findValuesAsText("name")).containsExactly("analyst");

    try (RESTCatalog root = client(TestServer.CLIENT_ID, TestServer.SECRET)) {
      root.createNamespace(Namespace.of("sales"));
      root.createNamespace(Namespace.of("hr"));
      root.createTable(TableIdentifier.of("sales", "orders"), SCHEMA);
      root.createTable(TableIdentifier.of("hr", "salaries"), SCHEMA);
    }

    try (RESTCatalog jane = client(janeId, janeSecret)) {
      assertThat(jane.listTables(Namespace.of("sales")))
          .containsExactly(TableIdentifier.of("sales", "orders"));
      Table orders = jane.loadTable(TableIdentifier.of("sales", "orders"));
      assertThat(orders.schema().findField("id")).isNotNull();
      assertThatThrownBy(() -> jane.loadTable(TableIdentifier.of("hr", "salaries")))
          .isInstanceOf(ForbiddenException.class);
      assertThatThrownBy(() -> jane.createTable(TableIdentifier.of("sales", "new_one"), SCHEMA))
          .isInstanceOf(ForbiddenException.class);
      assertThatThrownBy(() -> orders.updateProperties().set("k", "v").commit())
          .isInstanceOf(ForbiddenException.class);
      assertThatThrownBy(() -> jane.dropTable(TableIdentifier.of("sales", "orders")))
          .isInstanceOf(ForbiddenException.class);
    }

    // Revoking through the CLI takes effect on the next call.
    ok(
        "privileges",
        "--catalog",
        "analytics",
        "--catalog-role",
        "sales_reader",
        "namespace",
        "revoke",
        "--namespace",
        "sales",
        "TABLE_READ_DATA");
    try (RESTCatalog jane = client(janeId, janeSecret)) {
      assertThatThrownBy(() -> jane.loadTable(TableIdentifier.of("sales", "orders")))
          .isInstanceOf(ForbiddenException.class);
    }

    // Errors print the server's message and exit non-zero.
    Cli.Result denied = sluice("catalogs", "delete", "analytics");
    assertThat(denied.exit()).isNotZero();
    assertThat(denied.err()).contains("not empty");
    Cli.Result unknown = sluice("catalog-roles", "create", "--catalog", "missing", "x");
    assertThat(unknown.exit()).isEqualTo(1);
    assertThat(unknown.err()).contains("Catalog not found");
  }
}

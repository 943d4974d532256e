package dev.sluice;

import static dev.sluice.AuthorizationMatrixTest.SCHEMA;
import static dev.sluice.AuthorizationMatrixTest.SET_PROPS;
import static dev.sluice.AuthorizationMatrixTest.VIEW_VERSION;
import static dev.sluice.AuthorizationMatrixTest.rename;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.AuthorizationMatrixFixture.Catalog;
import dev.sluice.AuthorizationMatrixFixture.Grant;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * "A refused call is 403 whether or not the object exists, and changes nothing"
 * (docs/AUTHORIZATION.md). Bob has standing in the catalog and every privilege on namespace empty,
 * none reaching ns or the missing namespace nope, so no exception of "Missing objects" applies.
 * Each call is made for an existing object and for a missing one: both 403, with the same body once
 * the object's name is put aside, and the catalog as it was.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ForbiddenWhetherOrNotItExistsTest {
  /** The securable an authorization message names: its name is what may differ. */
  private static final Pattern NAMED = Pattern.compile("(table|view|namespace) \\S+ in catalog");

  private AuthorizationMatrixFixture fx;
  private Catalog catalog;

  @BeforeAll
  void start() throws Exception {
    fx = new AuthorizationMatrixFixture(TestServer.startH2());
    catalog = fx.freshCatalog();
    // Objects bob may drop, to rename into ns and nope.
    String empty = catalog.url("/namespaces/empty");
    assertThat(
            fx.server
                .send("POST", empty + "/tables", "{\"name\": \"e\", \"schema\": " + SCHEMA + "}")
                .statusCode())
        .isEqualTo(200);
    assertThat(fx.server.send("POST", empty + "/views", view("w")).statusCode()).isEqualTo(200);
    for (String privilege :
        List.of(
            "NAMESPACE_FULL_METADATA",
            "TABLE_FULL_METADATA",
            "TABLE_WRITE_DATA",
            "VIEW_FULL_METADATA")) {
      fx.admin.grant(
          catalog.name(), "cr", new Grant("namespace", List.of("empty"), null, privilege).json());
    }
  }

  @AfterAll
  void stop() throws Exception {
    fx.close();
  }

  private static String view(String name) {
    return "{\"name\": \""
        + name
        + "\", \"schema\": "
        + SCHEMA
        + ", \"view-version\": "
        + VIEW_VERSION
        + ", \"properties\": {}}";
  }

  /**
   * One call, {@code {x}} being {@code existing} or {@code missing}; {@code probe} is where root
   * finds the object ({@code HEAD}), to show that one exists and the other does not.
   */
  record Row(String name, String existing, String method, String path, String body, String probe) {
    static final String MISSING = "nope";

    String fill(String text, String x) {
      return text == null ? null : text.replace("{x}", x);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private static Row onTable(String name, String method, String path, String body) {
    return new Row(name, "t", method, path, body, "/namespaces/ns/tables/{x}");
  }

  private static Row onView(String name, String method, String path, String body) {
    return new Row(name, "v", method, path, body, "/namespaces/ns/views/{x}");
  }

  private static Row onNamespace(String name, String method, String path, String body) {
    return new Row(name, "ns", method, path, body, "/namespaces/{x}");
  }

  static Stream<Row> rows() {
    String t = "/namespaces/ns/tables/{x}";
    String v = "/namespaces/ns/views/{x}";
    return Stream.of(
        onTable("loadTable", "GET", t, null),
        onTable("tableExists", "HEAD", t, null),
        onTable("updateTable", "POST", t, SET_PROPS),
        onTable("dropTable", "DELETE", t, null),
        onTable("purgeTable", "DELETE", t + "?purgeRequested=true", null),
        onTable(
            "reportMetrics",
            "POST",
            t + "/metrics",
            "{\"report-type\": \"commit-report\", \"table-name\": \"ns.{x}\", \"snapshot-id\": 1,"
                + " \"sequence-number\": 1, \"operation\": \"append\", \"metrics\": {}}"),
        onTable("loadCredentials", "GET", t + "/credentials", null),
        onTable("renameTableFrom", "POST", "/tables/rename", rename("ns", "{x}", "empty", "m")),
        onTable(
            "commitTransaction",
            "POST",
            "/transactions/commit",
            "{\"table-changes\": [{\"identifier\": {\"namespace\": [\"ns\"], \"name\": \"{x}\"},"
                + " \"requirements\": [], \"updates\": [{\"action\": \"set-properties\","
                + " \"updates\": {\"k\": \"v\"}}]}]}"),
        onView("loadView", "GET", v, null),
        onView("viewExists", "HEAD", v, null),
        onView("replaceView", "POST", v, SET_PROPS),
        onView("dropView", "DELETE", v, null),
        onView("renameViewFrom", "POST", "/views/rename", rename("ns", "{x}", "empty", "m")),
        onNamespace("loadNamespace", "GET", "/namespaces/{x}", null),
        onNamespace("namespaceExists", "HEAD", "/namespaces/{x}", null),
        onNamespace(
            "updateNamespaceProperties",
            "POST",
            "/namespaces/{x}/properties",
            "{\"updates\": {\"owner\": \"bob\"}}"),
        onNamespace("dropNamespace", "DELETE", "/namespaces/{x}", null),
        onNamespace("listNamespaces", "GET", "/namespaces?parent={x}", null),
        onNamespace(
            "createNestedNamespace", "POST", "/namespaces", "{\"namespace\": [\"{x}\", \"c\"]}"),
        onNamespace("listTables", "GET", "/namespaces/{x}/tables", null),
        onNamespace(
            "createTable",
            "POST",
            "/namespaces/{x}/tables",
            "{\"name\": \"made\", \"schema\": " + SCHEMA + "}"),
        onNamespace(
            "registerTable",
            "POST",
            "/namespaces/{x}/register",
            "{\"name\": \"made\", \"metadata-location\": \"{meta}\"}"),
        onNamespace("renameTableInto", "POST", "/tables/rename", rename("empty", "e", "{x}", "m")),
        onNamespace("listViews", "GET", "/namespaces/{x}/views", null),
        onNamespace(
            "registerView",
            "POST",
            "/namespaces/{x}/register-view",
            "{\"name\": \"made\", \"metadata-location\": \"{view-meta}\"}"),
        onNamespace("createView", "POST", "/namespaces/{x}/views", view("made")),
        onNamespace("renameViewInto", "POST", "/views/rename", rename("empty", "w", "{x}", "m")));
  }

  /** Status and body with the named securable's name put aside: what the caller can compare. */
  private static String answer(HttpResponse<String> response) {
    return response.statusCode()
        + " "
        + NAMED.matcher(response.body()).replaceAll("$1 {x} in catalog");
  }

  private int rootProbe(Row row, String x) throws Exception {
    return fx.server.send("HEAD", catalog.url(row.fill(row.probe(), x)), null).statusCode();
  }

  private HttpResponse<String> asBob(Row row, String x) throws Exception {
    return fx.server.sendAs(
        fx.bobToken,
        row.method(),
        catalog.url(row.fill(row.path(), x)),
        catalog.fill(row.fill(row.body(), x)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void theSame403ForAnExistingAndAMissingObject(Row row) throws Exception {
    assertThat(rootProbe(row, row.existing())).as("exists").isEqualTo(204);
    assertThat(rootProbe(row, Row.MISSING)).as("missing").isEqualTo(404);
    String before = fx.state(catalog.name());

    HttpResponse<String> existing = asBob(row, row.existing());
    HttpResponse<String> missing = asBob(row, Row.MISSING);

    AuthorizationMatrixFixture.assertForbidden(existing);
    AuthorizationMatrixFixture.assertForbidden(missing);
    assertThat(answer(missing)).as("no existence oracle").isEqualTo(answer(existing));
    assertThat(fx.state(catalog.name())).as("a refused call changes nothing").isEqualTo(before);
    assertThat(rootProbe(row, Row.MISSING)).as("still missing").isEqualTo(404);
  }
}

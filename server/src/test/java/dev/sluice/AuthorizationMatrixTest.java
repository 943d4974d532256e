package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Admin;
import dev.sluice.testing.FileTreeSnapshot;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The negative matrix over every Iceberg REST endpoint: for each, a principal without the privilege
 * gets 403 and the catalog is unchanged; with it granted the call succeeds; after the revoke the
 * very next call is 403 again. Each case runs in a fresh catalog.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuthorizationMatrixTest {
  static final String SCHEMA =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";
  static final String VIEW_VERSION =
      "{\"version-id\":1,\"timestamp-ms\":1,\"schema-id\":0,\"summary\":{},\"default-namespace\":[\"ns\"],"
          + "\"representations\":[{\"type\":\"sql\",\"sql\":\"select 1\",\"dialect\":\"spark\"}]}";
  private static final AtomicInteger CATALOGS = new AtomicInteger();
  private TestServer server;
  private Admin admin;
  private String bobToken;

  /** Each fresh catalog's warehouse folder, whose files are part of its state. */
  private final Map<String, Path> warehouses = new ConcurrentHashMap<>();

  /** One endpoint: what to grant (privilege on a securable), the call, and its success status. */
  record Case(
      String name,
      String privilege,
      String grantType,
      List<String> ns,
      String object,
      String method,
      String path,
      String body,
      int okStatus) {
    @Override
    public String toString() {
      return name;
    }
  }

  @BeforeAll
  void start() throws Exception {
    server = startSluice();
    admin = new Admin(server);
    String[] bob = admin.principal("bob", "bob_role");
    bobToken = server.token(bob[0], bob[1]);
  }

  /** The store under test: an H2 file here; the PostgreSQL subclass overrides this. */
  protected TestServer startSluice() throws Exception {
    return TestServer.startH2();
  }

  @AfterAll
  void stop() throws Exception {
    server.close();
  }

  static final String SET_PROPS =
      "{\"requirements\": [], \"updates\": [{\"action\": \"set-properties\", \"updates\": {\"k\": \"v\"}}]}";

  static Stream<Case> cases() {
    List<String> ns = List.of("ns");
    return Stream.of(
        new Case(
            "listNamespaces",
            "NAMESPACE_LIST",
            "catalog",
            null,
            null,
            "GET",
            "/namespaces",
            null,
            200),
        new Case(
            "listNestedNamespaces",
            "NAMESPACE_LIST",
            "namespace",
            ns,
            null,
            "GET",
            "/namespaces?parent=ns",
            null,
            200),
        new Case(
            "createNamespace",
            "NAMESPACE_CREATE",
            "catalog",
            null,
            null,
            "POST",
            "/namespaces",
            "{\"namespace\": [\"made\"]}",
            200),
        new Case(
            "createNestedNamespace",
            "NAMESPACE_CREATE",
            "namespace",
            ns,
            null,
            "POST",
            "/namespaces",
            "{\"namespace\": [\"ns\", \"made\"]}",
            200),
        new Case(
            "loadNamespace",
            "NAMESPACE_READ_PROPERTIES",
            "namespace",
            ns,
            null,
            "GET",
            "/namespaces/ns",
            null,
            200),
        new Case(
            "namespaceExists",
            "NAMESPACE_READ_PROPERTIES",
            "namespace",
            ns,
            null,
            "HEAD",
            "/namespaces/ns",
            null,
            204),
        new Case(
            "updateNamespaceProperties",
            "NAMESPACE_WRITE_PROPERTIES",
            "namespace",
            ns,
            null,
            "POST",
            "/namespaces/ns/properties",
            "{\"updates\": {\"owner\": \"bob\"}}",
            200),
        new Case(
            "dropNamespace",
            "NAMESPACE_DROP",
            "namespace",
            List.of("empty"),
            null,
            "DELETE",
            "/namespaces/empty",
            null,
            204),
        new Case(
            "listTables",
            "TABLE_LIST",
            "namespace",
            ns,
            null,
            "GET",
            "/namespaces/ns/tables",
            null,
            200),
        new Case(
            "createTable",
            "TABLE_CREATE",
            "namespace",
            ns,
            null,
            "POST",
            "/namespaces/ns/tables",
            "{\"name\": \"made\", \"schema\": " + SCHEMA + "}",
            200),
        new Case(
            "stageCreateTable",
            "TABLE_CREATE",
            "namespace",
            ns,
            null,
            "POST",
            "/namespaces/ns/tables",
            "{\"name\": \"staged\", \"stage-create\": true, \"schema\": " + SCHEMA + "}",
            200),
        new Case(
            "loadTable",
            "TABLE_READ_PROPERTIES",
            "table",
            ns,
            "t",
            "GET",
            "/namespaces/ns/tables/t",
            null,
            200),
        new Case(
            "loadTableWithReadData",
            "TABLE_READ_DATA",
            "table",
            ns,
            "t",
            "GET",
            "/namespaces/ns/tables/t",
            null,
            200),
        new Case(
            "tableExists",
            "TABLE_READ_PROPERTIES",
            "table",
            ns,
            "t",
            "HEAD",
            "/namespaces/ns/tables/t",
            null,
            204),
        new Case(
            "updateTableProperties",
            "TABLE_WRITE_PROPERTIES",
            "table",
            ns,
            "t",
            "POST",
            "/namespaces/ns/tables/t",
            SET_PROPS,
            200),
        new Case(
            "dropTable",
            "TABLE_DROP",
            "table",
            ns,
            "t",
            "DELETE",
            "/namespaces/ns/tables/t",
            null,
            204),
        new Case(
            "reportMetrics",
            "TABLE_READ_DATA",
            "table",
            ns,
            "t",
            "POST",
            "/namespaces/ns/tables/t/metrics",
            "{\"report-type\": \"commit-report\", \"table-name\": \"ns.t\", \"snapshot-id\": 1, \"sequence-number\": 1,"
                + " \"operation\": \"append\", \"metrics\": {}}",
            204),
        new Case(
            "commitTransaction",
            "TABLE_WRITE_PROPERTIES",
            "table",
            ns,
            "t",
            "POST",
            "/transactions/commit",
            "{\"table-changes\": [{\"identifier\": {\"namespace\": [\"ns\"], \"name\": \"t\"}, \"requirements\": [],"
                + " \"updates\": [{\"action\": \"set-properties\", \"updates\": {\"k\": \"v\"}}]}]}",
            204),
        new Case(
            "listViews",
            "VIEW_LIST",
            "namespace",
            ns,
            null,
            "GET",
            "/namespaces/ns/views",
            null,
            200),
        new Case(
            "createView",
            "VIEW_CREATE",
            "namespace",
            ns,
            null,
            "POST",
            "/namespaces/ns/views",
            "{\"name\": \"made\", \"schema\": "
                + SCHEMA
                + ", \"view-version\": "
                + VIEW_VERSION
                + ", \"properties\": {}}",
            200),
        new Case(
            "loadView",
            "VIEW_READ_PROPERTIES",
            "view",
            ns,
            "v",
            "GET",
            "/namespaces/ns/views/v",
            null,
            200),
        new Case(
            "viewExists",
            "VIEW_READ_PROPERTIES",
            "view",
            ns,
            "v",
            "HEAD",
            "/namespaces/ns/views/v",
            null,
            204),
        new Case(
            "replaceView",
            "VIEW_WRITE_PROPERTIES",
            "view",
            ns,
            "v",
            "POST",
            "/namespaces/ns/views/v",
            SET_PROPS,
            200),
        new Case(
            "dropView",
            "VIEW_DROP",
            "view",
            ns,
            "v",
            "DELETE",
            "/namespaces/ns/views/v",
            null,
            204),
        new Case(
            "loadTableViaCatalogGrant",
            "TABLE_READ_PROPERTIES",
            "catalog",
            null,
            null,
            "GET",
            "/namespaces/ns/tables/t",
            null,
            200),
        new Case(
            "loadNestedTableViaNamespaceGrant",
            "TABLE_READ_PROPERTIES",
            "namespace",
            ns,
            null,
            "GET",
            "/namespaces/ns%1Finner/tables/deep",
            null,
            200),
        new Case(
            "loadTableViaManageContent",
            "CATALOG_MANAGE_CONTENT",
            "catalog",
            null,
            null,
            "GET",
            "/namespaces/ns/tables/t",
            null,
            200),
        new Case(
            "updateTableViaWriteData",
            "TABLE_WRITE_DATA",
            "table",
            ns,
            "t",
            "POST",
            "/namespaces/ns/tables/t",
            SET_PROPS,
            200));
  }

  /**
   * A fresh catalog: namespaces ns, ns.inner, empty; table ns.t, ns.inner.deep; view ns.v; role cr
   * held by bob.
   */
  String freshCatalog() throws Exception {
    Path warehouse = server.dataDir().resolve("matrix-" + CATALOGS.incrementAndGet());
    String catalog = server.createCatalog("m", List.of(warehouse.toUri().toString()), warehouse);
    warehouses.put(catalog, warehouse);
    String base = "/api/catalog/v1/" + catalog;
    for (String body :
        List.of(
            "{\"namespace\": [\"ns\"]}",
            "{\"namespace\": [\"ns\", \"inner\"]}",
            "{\"namespace\": [\"empty\"]}")) {
      assertThat(server.send("POST", base + "/namespaces", body).statusCode()).isEqualTo(200);
    }
    assertThat(
            server
                .send(
                    "POST",
                    base + "/namespaces/ns/tables",
                    "{\"name\": \"t\", \"schema\": " + SCHEMA + "}")
                .statusCode())
        .isEqualTo(200);
    assertThat(
            server
                .send(
                    "POST",
                    base + "/namespaces/ns%1Finner/tables",
                    "{\"name\": \"deep\", \"schema\": " + SCHEMA + "}")
                .statusCode())
        .isEqualTo(200);
    assertThat(
            server
                .send(
                    "POST",
                    base + "/namespaces/ns/views",
                    "{\"name\": \"v\", \"schema\": "
                        + SCHEMA
                        + ", \"view-version\": "
                        + VIEW_VERSION
                        + ", \"properties\": {}}")
                .statusCode())
        .isEqualTo(200);
    admin.catalogRole(catalog, "cr", "bob_role");
    return catalog;
  }

  /**
   * Everything in the catalog as root sees it: namespaces with properties, tables and views with
   * metadata pointers; and every file in its warehouse, so that a metadata file written by a call
   * that was then refused shows too (nothing points at it).
   */
  String state(String catalog) throws Exception {
    StringBuilder sb = new StringBuilder();
    walk(catalog, null, sb);
    return sb.append(FileTreeSnapshot.of(warehouses.get(catalog))).toString();
  }

  private void walk(String catalog, String parent, StringBuilder sb) throws Exception {
    String base = "/api/catalog/v1/" + catalog + "/namespaces";
    JsonNode list =
        TestServer.json(
            server.send("GET", base + (parent == null ? "" : "?parent=" + parent), null).body());
    for (JsonNode ns : list.get("namespaces")) {
      StringBuilder key = new StringBuilder();
      ns.forEach(level -> key.append(key.length() == 0 ? "" : "%1F").append(level.asText()));
      sb.append(server.send("GET", base + "/" + key, null).body());
      for (String kind : List.of("tables", "views")) {
        JsonNode ids =
            TestServer.json(server.send("GET", base + "/" + key + "/" + kind, null).body())
                .get("identifiers");
        for (JsonNode id : ids) {
          JsonNode loaded =
              TestServer.json(
                  server
                      .send(
                          "GET",
                          base + "/" + key + "/" + kind + "/" + id.get("name").asText(),
                          null)
                      .body());
          sb.append(kind)
              .append(':')
              .append(id)
              .append('=')
              .append(loaded.get("metadata-location"))
              .append('\n');
        }
      }
      walk(catalog, key.toString(), sb);
    }
  }

  private static void assertForbidden(HttpResponse<String> response) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(403);
    if (!response.body().isEmpty()) { // HEAD answers carry no body
      assertThat(TestServer.json(response.body()).get("error").get("type").asText())
          .isEqualTo("ForbiddenException");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void forbiddenWithoutAllowedWithRefusedAfterRevoke(Case c) throws Exception {
    String catalog = freshCatalog();
    String path = "/api/catalog/v1/" + catalog + c.path();
    String before = state(catalog);

    assertForbidden(server.sendAs(bobToken, c.method(), path, c.body()));
    assertThat(state(catalog)).as("a refused call changes nothing").isEqualTo(before);

    String grant = Admin.grantJson(c.grantType(), c.ns(), c.object(), c.privilege());
    admin.grant(catalog, "cr", grant);
    HttpResponse<String> allowed = server.sendAs(bobToken, c.method(), path, c.body());
    assertThat(allowed.statusCode()).as(allowed.body()).isEqualTo(c.okStatus());

    if (c.name().startsWith("drop")) {
      // Dropping an object drops the grants on it, so a re-created one starts with none.
      assertThat(admin.tryRevoke(catalog, "cr", grant)).isEqualTo(404);
    } else {
      admin.revoke(catalog, "cr", grant);
    }
    String afterSuccess = state(catalog);
    assertForbidden(server.sendAs(bobToken, c.method(), path, c.body()));
    assertThat(state(catalog)).isEqualTo(afterSuccess);
  }
}

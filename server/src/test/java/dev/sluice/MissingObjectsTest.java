package dev.sluice;

import static dev.sluice.AuthorizationMatrixTest.SCHEMA;
import static dev.sluice.AuthorizationMatrixTest.VIEW_VERSION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Admin;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Engines probe names (Trino looks up a view for every table, Spark a table for every view): a
 * missing table or view answers 404 to a caller who could already learn that it is missing, and 403
 * — the same 403 an existing one gets — to everyone else (docs/AUTHORIZATION.md, "Missing
 * objects"). Namespace ns holds tables t and u and view v; x is free; other holds table ot.
 */
class MissingObjectsTest {
  private static final String M = "/api/management/v1";
  private static TestServer server;
  private static String catalog;
  private static String base;
  private static final Map<String, String[]> CREDENTIALS = new HashMap<>();
  private static final Map<String, String> TOKENS = new HashMap<>();

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
    Admin admin = new Admin(server);
    catalog = server.createCatalog("probe");
    base = "/api/catalog/v1/" + catalog + "/namespaces/";
    for (String ns : List.of("ns", "other")) {
      created(
          server.send(
              "POST",
              "/api/catalog/v1/" + catalog + "/namespaces",
              "{\"namespace\":[\"" + ns + "\"], \"properties\": {\"owner\": \"data-eng\"}}"));
    }
    for (String table : List.of("ns/tables:t", "ns/tables:u", "other/tables:ot")) {
      String[] at = table.split(":");
      created(
          server.send(
              "POST", base + at[0], "{\"name\": \"" + at[1] + "\", \"schema\": " + SCHEMA + "}"));
    }
    created(
        server.send(
            "POST",
            base + "ns/views",
            "{\"name\": \"v\", \"schema\": "
                + SCHEMA
                + ", \"view-version\": "
                + VIEW_VERSION
                + ", \"properties\": {}}"));
    List<String> ns = List.of("ns");
    principal(admin, "table_reader", Admin.grantJson("table", ns, "t", "TABLE_READ_DATA"));
    principal(
        admin,
        "ns_reader",
        Admin.grantJson("table", ns, "t", "TABLE_READ_DATA"),
        Admin.grantJson("namespace", ns, null, "NAMESPACE_READ_PROPERTIES"));
    principal(admin, "view_reader", Admin.grantJson("view", ns, "v", "VIEW_READ_PROPERTIES"));
    principal(
        admin, "ns_view_reader", Admin.grantJson("namespace", ns, null, "VIEW_READ_PROPERTIES"));
    // Standing in the catalog, nothing in ns.
    principal(
        admin, "outsider", Admin.grantJson("table", List.of("other"), "ot", "TABLE_FULL_METADATA"));
    // Everything on another table of ns: says nothing about t, v or x.
    principal(admin, "neighbour", Admin.grantJson("table", ns, "u", "TABLE_WRITE_DATA"));
    // Reads every table of the catalog: sees every namespace in its listing.
    principal(admin, "catalog_reader", Admin.grantJson("catalog", null, null, "TABLE_READ_DATA"));
  }

  private static void principal(Admin admin, String name, String... grants) throws Exception {
    String[] credentials = admin.principal(name, name + "_role");
    admin.catalogRole(catalog, name + "_cr", name + "_role");
    for (String grant : grants) {
      admin.grant(catalog, name + "_cr", grant);
    }
    CREDENTIALS.put(name, credentials);
    TOKENS.put(name, server.token(credentials[0], credentials[1]));
  }

  private static void created(HttpResponse<String> response) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  /** GET or HEAD on {@code kind} ("tables" or "views") ns.{@code name} as {@code who}. */
  private static HttpResponse<String> probe(String who, String method, String kind, String name)
      throws Exception {
    String token = who.equals("root") ? server.rootToken() : TOKENS.get(who);
    return server.sendAs(token, method, base + "ns/" + kind + "/" + name, null);
  }

  private static int status(String who, String method, String kind, String name) throws Exception {
    return probe(who, method, kind, name).statusCode();
  }

  /** Status and body with the object's name put aside: what a caller can compare. */
  private static String answer(String who, String method, String kind, String name)
      throws Exception {
    HttpResponse<String> response = probe(who, method, kind, name);
    return response.statusCode() + " " + response.body().replace("ns." + name, "ns.{name}");
  }

  private static RESTCatalog client(String who) {
    String[] credentials = CREDENTIALS.get(who);
    RESTCatalog client = new RESTCatalog();
    client.initialize(
        who,
        Map.of(
            "uri",
            server.catalogUri(),
            "warehouse",
            catalog,
            "credential",
            credentials[0] + ":" + credentials[1]));
    return client;
  }

  private static TableIdentifier ns(String name) {
    return TableIdentifier.of(Namespace.of("ns"), name);
  }

  // (a) a table reader probing views

  @Test
  void aTableReaderLearnsThatItsTableIsNotAView() throws Exception {
    for (String method : List.of("GET", "HEAD")) {
      assertThat(status("table_reader", method, "views", "t")).as(method).isEqualTo(404);
      // Without a namespace-level privilege a free name stays unknown.
      assertThat(status("table_reader", method, "views", "x")).as(method).isEqualTo(403);
    }
    HttpResponse<String> missing = probe("table_reader", "GET", "views", "t");
    assertThat(missing.body()).isEqualTo(probe("root", "GET", "views", "t").body());
    assertThat(TestServer.json(missing.body()).at("/error/type").asText())
        .isEqualTo("NoSuchViewException");
    try (RESTCatalog trino = client("table_reader")) {
      assertThat(trino.viewExists(ns("t"))).isFalse();
      assertThatThrownBy(() -> trino.loadView(ns("t"))).isInstanceOf(NoSuchViewException.class);
      assertThat(trino.loadTable(ns("t")).name()).endsWith("ns.t");
      assertThatThrownBy(() -> trino.viewExists(ns("x"))).isInstanceOf(ForbiddenException.class);
    }
  }

  @Test
  void aNamespaceLevelPrivilegeAnswers404ForAnyMissingView() throws Exception {
    for (String method : List.of("GET", "HEAD")) {
      assertThat(status("ns_reader", method, "views", "t")).as(method).isEqualTo(404);
      assertThat(status("ns_reader", method, "views", "x")).as(method).isEqualTo(404);
    }
    assertThat(probe("ns_reader", "GET", "views", "x").body())
        .isEqualTo(probe("root", "GET", "views", "x").body());
    try (RESTCatalog trino = client("ns_reader")) {
      assertThat(trino.viewExists(ns("t"))).isFalse();
      assertThat(trino.viewExists(ns("x"))).isFalse();
      assertThatThrownBy(() -> trino.loadView(ns("x"))).isInstanceOf(NoSuchViewException.class);
    }
  }

  // (b) an existing view the reader may not read

  @Test
  void anExistingViewItMayNotReadIsStill403() throws Exception {
    for (String who : List.of("table_reader", "ns_reader", "neighbour")) {
      for (String method : List.of("GET", "HEAD")) {
        HttpResponse<String> refused = probe(who, method, "views", "v");
        assertThat(refused.statusCode()).as(who + " " + method).isEqualTo(403);
        assertThat(refused.body()).doesNotContain("select 1").doesNotContain("metadata-location");
      }
    }
    try (RESTCatalog trino = client("ns_reader")) {
      assertThatThrownBy(() -> trino.viewExists(ns("v"))).isInstanceOf(ForbiddenException.class);
      assertThatThrownBy(() -> trino.loadView(ns("v"))).isInstanceOf(ForbiddenException.class);
    }
  }

  // (c) no privilege in the namespace: one answer for all

  @Test
  void aCallerWithNothingInTheNamespaceCannotTellExistingFromMissing() throws Exception {
    for (String who : List.of("outsider", "neighbour")) {
      for (String method : List.of("GET", "HEAD")) {
        for (String kind : List.of("views", "tables")) {
          String existing = answer(who, method, kind, kind.equals("views") ? "v" : "t");
          assertThat(existing).as(who + " " + method + " " + kind).startsWith("403 ");
          for (String name : List.of("x", "t", "v")) {
            assertThat(answer(who, method, kind, name))
                .as(who + " " + method + " " + kind + " " + name)
                .isEqualTo(existing);
          }
        }
      }
    }
    try (RESTCatalog engine = client("outsider")) {
      for (String name : List.of("x", "t", "v")) {
        assertThatThrownBy(() -> engine.viewExists(ns(name)))
            .isInstanceOf(ForbiddenException.class);
        assertThatThrownBy(() -> engine.tableExists(ns(name)))
            .isInstanceOf(ForbiddenException.class);
      }
    }
  }

  // (d) the same for tables

  @Test
  void aViewReaderLearnsThatItsViewIsNotATable() throws Exception {
    for (String method : List.of("GET", "HEAD")) {
      assertThat(status("view_reader", method, "tables", "v")).as(method).isEqualTo(404);
      assertThat(status("view_reader", method, "tables", "x")).as(method).isEqualTo(403);
      assertThat(status("view_reader", method, "tables", "t")).as(method).isEqualTo(403);
    }
    assertThat(probe("view_reader", "GET", "tables", "v").body())
        .isEqualTo(probe("root", "GET", "tables", "v").body());
    try (RESTCatalog spark = client("view_reader")) {
      assertThat(spark.tableExists(ns("v"))).isFalse();
      assertThatThrownBy(() -> spark.loadTable(ns("v"))).isInstanceOf(NoSuchTableException.class);
      assertThat(spark.loadView(ns("v")).name()).endsWith("ns.v");
      assertThatThrownBy(() -> spark.tableExists(ns("x"))).isInstanceOf(ForbiddenException.class);
    }
  }

  @Test
  void aNamespaceLevelViewPrivilegeAnswers404ForAnyMissingTableAnd403ForAnExistingOne()
      throws Exception {
    for (String method : List.of("GET", "HEAD")) {
      assertThat(status("ns_view_reader", method, "tables", "v")).as(method).isEqualTo(404);
      assertThat(status("ns_view_reader", method, "tables", "x")).as(method).isEqualTo(404);
      HttpResponse<String> existing = probe("ns_view_reader", method, "tables", "t");
      assertThat(existing.statusCode()).as(method).isEqualTo(403);
      assertThat(existing.body()).doesNotContain("metadata-location");
    }
    try (RESTCatalog spark = client("ns_view_reader")) {
      assertThat(spark.tableExists(ns("x"))).isFalse();
      assertThatThrownBy(() -> spark.tableExists(ns("t"))).isInstanceOf(ForbiddenException.class);
    }
  }

  // (c) namespace existence checks (Trino checks the schema before SHOW TABLES)

  private static int namespaceStatus(String who, String method, String namespace) throws Exception {
    return server.sendAs(TOKENS.get(who), method, base + namespace, null).statusCode();
  }

  @Test
  void aCallerWhoseGrantsShowTheNamespaceMayCheckThatItExists() throws Exception {
    for (String who : List.of("table_reader", "neighbour", "view_reader", "catalog_reader")) {
      assertThat(namespaceStatus(who, "HEAD", "ns")).as(who).isEqualTo(204);
      // GET too (Flink checks a database with it), but its properties stay behind
      // NAMESPACE_READ_PROPERTIES.
      HttpResponse<String> load = server.sendAs(TOKENS.get(who), "GET", base + "ns", null);
      assertThat(load.statusCode()).as(who + " GET").isEqualTo(200);
      JsonNode answer = TestServer.json(load.body());
      assertThat(answer.get("namespace").toString()).isEqualTo("[\"ns\"]");
      assertThat(answer.path("properties").size()).as(who + " properties").isZero();
      try (RESTCatalog client = client(who)) {
        assertThat(client.namespaceExists(Namespace.of("ns"))).as(who).isTrue();
        assertThat(client.loadNamespaceMetadata(Namespace.of("ns"))).as(who).isEmpty();
      }
    }
    try (RESTCatalog client = client("ns_reader")) {
      assertThat(client.loadNamespaceMetadata(Namespace.of("ns")))
          .containsEntry("owner", "data-eng");
    }
    // The withheld properties are said in the audit trail.
    JsonNode events =
        TestServer.json(
                server
                    .send(
                        "GET",
                        M
                            + "/events?principal=table_reader&decision=ALLOW&securable=namespace%20ns",
                        null)
                    .body())
            .get("events");
    List<String> details = new ArrayList<>();
    events.forEach(
        e -> {
          if (e.get("action").asText().equals("loadNamespace")) {
            details.add(e.path("detail").asText());
          }
        });
    assertThat(details).isNotEmpty().allMatch(d -> d.startsWith("existence only"));
  }

  @Test
  void aCallerWhoseGrantsDoNotReachTheNamespaceCannotLoadIt() throws Exception {
    // Same 403 for a namespace that exists and one that does not.
    for (String who : List.of("table_reader", "neighbour", "view_reader", "ns_view_reader")) {
      assertThat(namespaceStatus(who, "GET", "other")).as(who + " other").isEqualTo(403);
      assertThat(namespaceStatus(who, "GET", "zz")).as(who + " zz").isEqualTo(403);
    }
    assertThat(namespaceStatus("outsider", "GET", "ns")).isEqualTo(403);
  }

  @Test
  void aMissingNamespaceIs404OnlyToACallerWhoseListingWouldShowIt() throws Exception {
    // catalog_reader's grant reaches every namespace, so its listing already says "zz" is absent.
    assertThat(namespaceStatus("catalog_reader", "HEAD", "zz")).isEqualTo(404);
    // The others' grants reach neither "zz" nor "other" (or neither "zz" nor "ns"): 403 for a
    // missing and an existing namespace alike.
    for (String who : List.of("table_reader", "neighbour", "view_reader", "ns_view_reader")) {
      assertThat(namespaceStatus(who, "HEAD", "zz")).as(who + " zz").isEqualTo(403);
      assertThat(namespaceStatus(who, "HEAD", "other")).as(who + " other").isEqualTo(403);
    }
    assertThat(namespaceStatus("outsider", "HEAD", "ns")).isEqualTo(403);
    assertThat(namespaceStatus("outsider", "HEAD", "other")).isEqualTo(204);
  }

  @Test
  void theAnswer404IsAuditedAsARefusal() throws Exception {
    probe("table_reader", "HEAD", "views", "t");
    JsonNode events =
        TestServer.json(
                server
                    .send(
                        "GET",
                        M + "/events?principal=table_reader&decision=DENY&securable=view%20ns.t",
                        null)
                    .body())
            .get("events");
    assertThat(events).isNotEmpty();
    assertThat(events.get(0).get("action").asText()).isEqualTo("viewExists");
    assertThat(events.get(0).get("detail").asText()).startsWith("answered 404");
  }
}

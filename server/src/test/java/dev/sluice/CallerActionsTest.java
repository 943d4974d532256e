package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.Actions;
import dev.sluice.testing.Admin;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code GET /actions} and {@code GET /catalogs/{c}/actions} answer what the real calls allow: for
 * the service admin, a catalog's access manager, a namespace reader and a principal with no role,
 * every probed operation the answer lists is not refused (no 403), and every one it leaves out is
 * refused (403). A caller with no standing learns nothing about a catalog's existence.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CallerActionsTest {
  private static final String M = "/api/management/v1";
  private TestServer server;
  private String catalog;
  private String prefix;
  private final Map<String, String> tokens = new LinkedHashMap<>();

  @BeforeAll
  void start() throws Exception {
    server = TestServer.startH2();
    catalog = server.createCatalog("actions");
    prefix = catalog;
    Admin admin = new Admin(server);
    tokens.put("root", server.rootToken());
    String[] manager = admin.principal("manager", "managers");
    admin.catalogRole(catalog, "managing", "managers");
    admin.grant(
        catalog, "managing", Admin.grantJson("catalog", null, null, "CATALOG_MANAGE_ACCESS"));
    tokens.put("manager", server.token(manager[0], manager[1]));
    String[] reader = admin.principal("reader", "readers");
    admin.catalogRole(catalog, "reading", "readers");
    admin.grant(
        catalog, "reading", Admin.grantJson("namespace", List.of("ns"), null, "TABLE_READ_DATA"));
    admin.grant(
        catalog,
        "reading",
        Admin.grantJson("namespace", List.of("ns"), null, "NAMESPACE_READ_PROPERTIES"));
    tokens.put("reader", server.token(reader[0], reader[1]));
    String[] nobody = admin.principal("nobody", null);
    tokens.put("nobody", server.token(nobody[0], nobody[1]));
    HttpResponse<String> ns =
        server.send(
            "POST",
            "/api/catalog/v1/" + prefix + "/namespaces",
            "{\"namespace\": [\"ns\"], \"properties\": {\"owner\": \"data-eng\"}}");
    assertThat(ns.statusCode()).as(ns.body()).isEqualTo(200);
    HttpResponse<String> table =
        server.send(
            "POST",
            "/api/catalog/v1/" + prefix + "/namespaces/ns/tables",
            "{\"name\": \"t\", \"schema\": {\"type\": \"struct\", \"fields\":"
                + " [{\"id\": 1, \"name\": \"id\", \"required\": true, \"type\": \"long\"}]}}");
    assertThat(table.statusCode()).as(table.body()).isEqualTo(200);
  }

  @Test
  void tableReadRestrictionsAreTheAccessManagers() throws Exception {
    String query = "?namespace=ns&table=t";
    for (String who : tokens.keySet()) {
      check(
          who,
          actions(who, query),
          "listTableReadRestrictions",
          new String[] {
            "GET", M + "/catalogs/" + catalog + "/namespaces/ns/tables/t/read-restrictions"
          });
    }
    assertThat(actions("manager", query))
        .contains("setTableReadRestriction", "removeTableReadRestriction");
    assertThat(actions("reader", query)).doesNotContain("setTableReadRestriction");
  }

  @AfterAll
  void stop() throws Exception {
    server.close();
  }

  private List<String> actions(String who, String query) throws Exception {
    HttpResponse<String> response =
        server.sendAs(
            tokens.get(who), "GET", M + "/catalogs/" + catalog + "/actions" + query, null);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return Admin.read(response, Actions.class).actions();
  }

  /** Probes that change nothing, by operation id. */
  private Map<String, String[]> catalogProbes() {
    Map<String, String[]> probes = new LinkedHashMap<>();
    probes.put("getCatalog", new String[] {"GET", M + "/catalogs/" + catalog});
    probes.put(
        "listCatalogRoles", new String[] {"GET", M + "/catalogs/" + catalog + "/catalog-roles"});
    probes.put(
        "listGrants",
        new String[] {"GET", M + "/catalogs/" + catalog + "/catalog-roles/catalog_admin/grants"});
    probes.put("listNamespaces", new String[] {"GET", "/api/catalog/v1/" + prefix + "/namespaces"});
    return probes;
  }

  @Test
  void catalogActionsAreWhatTheCallsAllow() throws Exception {
    for (String who : tokens.keySet()) {
      List<String> allowed = actions(who, "");
      for (Map.Entry<String, String[]> probe : catalogProbes().entrySet()) {
        int status = status(who, probe.getValue());
        String what = who + " " + probe.getKey() + " (listed: " + allowed + ")";
        if (allowed.contains(probe.getKey())) {
          assertThat(status).as(what).isNotEqualTo(403).isLessThan(300);
        } else {
          assertThat(status).as(what).isEqualTo(403);
        }
      }
    }
    assertThat(actions("root", "")).contains("deleteCatalog", "updateCatalog", "createNamespace");
    assertThat(actions("manager", ""))
        .contains("listGrants", "addGrant")
        .doesNotContain("deleteCatalog");
    assertThat(actions("nobody", "")).isEmpty();
  }

  @Test
  void namespaceActionsAreWhatTheCallsAllow() throws Exception {
    String ns = "?namespace=ns";
    String load = "/api/catalog/v1/" + prefix + "/namespaces/ns";
    String tables = load + "/tables";
    for (String who : tokens.keySet()) {
      List<String> allowed = actions(who, ns);
      checkPropertiesShown(who, allowed, load);
      check(who, allowed, "listTables", new String[] {"GET", tables});
      check(
          who,
          allowed,
          "getNamespaceStorageIdentity",
          new String[] {"GET", M + "/catalogs/" + catalog + "/namespaces/ns/storage-identity"});
    }
    assertThat(actions("root", ns)).contains("setNamespaceStorageIdentity");
    assertThat(actions("manager", ns)).doesNotContain("setNamespaceStorageIdentity");
    assertThat(actions("reader", ns))
        .contains("loadNamespaceMetadata")
        .doesNotContain("dropNamespace", "createTable");
    assertThat(actions("reader", ns + "&table=t"))
        .contains("loadTable")
        .doesNotContain("dropTable");
  }

  @Test
  void serviceActionsAreWhatTheCallsAllow() throws Exception {
    for (String who : tokens.keySet()) {
      HttpResponse<String> response = server.sendAs(tokens.get(who), "GET", M + "/actions", null);
      assertThat(response.statusCode()).isEqualTo(200);
      List<String> allowed = Admin.read(response, Actions.class).actions();
      check(who, allowed, "listPrincipals", new String[] {"GET", M + "/principals"});
      check(who, allowed, "listPrincipalRoles", new String[] {"GET", M + "/principal-roles"});
      check(who, allowed, "listSigningKeys", new String[] {"GET", M + "/signing-keys"});
      check(
          who,
          allowed,
          "listActAsTargets",
          new String[] {"GET", M + "/principal-roles/service_admin/act-as"});
      check(who, allowed, "listEvents", new String[] {"GET", M + "/events"});
      assertThat(allowed).contains("listCatalogs", "getPrincipal");
    }
  }

  @Test
  void noStandingTellsNothingAndTheServiceAdminLearnsWhatIsMissing() throws Exception {
    HttpResponse<String> missing =
        server.sendAs(tokens.get("nobody"), "GET", M + "/catalogs/no_such/actions", null);
    assertThat(missing.statusCode()).isEqualTo(200);
    assertThat(Admin.read(missing, Actions.class).actions()).isEmpty();
    assertThat(server.send("GET", M + "/catalogs/no_such/actions", null).statusCode())
        .isEqualTo(404);
    assertThat(
            server.send("GET", M + "/catalogs/" + catalog + "/actions?table=t", null).statusCode())
        .isEqualTo(400);
  }

  private void check(String who, List<String> allowed, String op, String[] probe) throws Exception {
    int status = status(who, probe);
    String what = who + " " + op + " (listed: " + allowed + ")";
    if (allowed.contains(op)) {
      assertThat(status).as(what).isNotEqualTo(403).isLessThan(300);
    } else {
      assertThat(status).as(what).isEqualTo(403);
    }
  }

  /**
   * loadNamespaceMetadata is listed exactly when the GET shows the namespace's properties; a caller
   * whose grants only reach inside it gets the namespace without them (Flink's database check).
   */
  private void checkPropertiesShown(String who, List<String> allowed, String load)
      throws Exception {
    HttpResponse<String> answer = server.sendAs(tokens.get(who), "GET", load, null);
    String what = who + " loadNamespaceMetadata (listed: " + allowed + ")";
    if (allowed.contains("loadNamespaceMetadata")) {
      assertThat(answer.statusCode()).as(what).isEqualTo(200);
      assertThat(TestServer.json(answer.body()).path("properties").path("owner").asText())
          .as(what)
          .isEqualTo("data-eng");
    } else if (answer.statusCode() == 200) {
      assertThat(TestServer.json(answer.body()).path("properties").size()).as(what).isZero();
    } else {
      assertThat(answer.statusCode()).as(what).isEqualTo(403);
    }
  }

  private int status(String who, String[] probe) throws Exception {
    return server.sendAs(tokens.get(who), probe[0], probe[1], null).statusCode();
  }
}

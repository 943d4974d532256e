package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.Event;
import dev.sluice.api.Grant;
import dev.sluice.api.UpdateCatalogRequest;
import dev.sluice.testing.Admin;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * No existence oracle for catalogs: a caller with no standing in a catalog gets byte for byte the
 * same answer (after putting the name aside) for a catalog that exists and one that does not, on
 * every route family that names a catalog. The service admin still gets 404 for a missing catalog,
 * and a caller with standing in a catalog still gets precise answers there.
 */
class CatalogExistenceOracleTest {
  private static final String M = "/api/management/v1";
  private static final String MISSING = "absent_catalog_zq";
  private static TestServer server;
  private static Admin admin;
  private static String catalog;
  private static String other;
  private static String strangerToken;
  private static String neighbourToken;
  private static String insiderToken;
  private static String roleOnlyToken;

  /** A request naming a catalog as {@code {c}}. */
  record Route(String name, String method, String path, String body) {
    @Override
    public String toString() {
      return name;
    }
  }

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
    admin = new Admin(server);
    catalog = server.createCatalog("oracle");
    other = server.createCatalog("elsewhere");
    assertThat(
            server
                .send(
                    "POST",
                    "/api/catalog/v1/" + catalog + "/namespaces",
                    "{\"namespace\":[\"ns\"]}")
                .statusCode())
        .isEqualTo(200);
    String[] insider = admin.principal("insider", "insider_role");
    admin.catalogRole(catalog, "cr", "insider_role");
    String[] stranger =
        admin.principal(
            "stranger", "stranger_role"); // holds a principal role, no catalog role anywhere
    String[] neighbour =
        admin.principal("neighbour", "neighbour_role"); // grants in another catalog only
    admin.catalogRole(other, "everything", "neighbour_role");
    admin.grant(other, "everything", Grant.onCatalog("CATALOG_MANAGE_CONTENT"));
    admin.grant(other, "everything", Grant.onCatalog("CATALOG_MANAGE_ACCESS"));
    admin.grant(catalog, "cr", Grant.onCatalog("NAMESPACE_READ_PROPERTIES"));
    String[] roleOnly =
        admin.principal("role_only", "role_only_role"); // a catalog role of the catalog, no grant
    admin.catalogRole(catalog, "empty_cr", "role_only_role");
    strangerToken = server.token(stranger[0], stranger[1]);
    neighbourToken = server.token(neighbour[0], neighbour[1]);
    insiderToken = server.token(insider[0], insider[1]);
    roleOnlyToken = server.token(roleOnly[0], roleOnly[1]);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  static Stream<Route> routes() {
    String p = "/api/catalog/v1/{c}";
    return Stream.of(
        new Route("config", "GET", "/api/catalog/v1/config?warehouse={c}", null),
        new Route("list namespaces", "GET", p + "/namespaces", null),
        new Route("create namespace", "POST", p + "/namespaces", "{\"namespace\":[\"x\"]}"),
        new Route("create namespace, bad body", "POST", p + "/namespaces", "{not json"),
        new Route("namespace exists", "HEAD", p + "/namespaces/ns", null),
        new Route("load table", "GET", p + "/namespaces/ns/tables/t", null),
        new Route("table exists", "HEAD", p + "/namespaces/ns/tables/t", null),
        new Route("load view", "GET", p + "/namespaces/ns/views/v", null),
        new Route("view exists", "HEAD", p + "/namespaces/ns/views/v", null),
        new Route(
            "commit transaction", "POST", p + "/transactions/commit", "{\"table-changes\":[]}"),
        new Route("rename view", "POST", p + "/views/rename", "{}"),
        new Route(
            "readable table locations", "GET", p + "/readable-table-locations?bucket=b", null),
        new Route("get catalog", "GET", M + "/catalogs/{c}", null),
        new Route(
            "update catalog",
            "PUT",
            M + "/catalogs/{c}",
            Admin.json(new UpdateCatalogRequest(null, Map.of("a", "b"), null))),
        new Route("delete catalog", "DELETE", M + "/catalogs/{c}", null),
        new Route("verify catalog", "POST", M + "/catalogs/{c}/verify", null),
        new Route("verify catalog, bad body", "POST", M + "/catalogs/{c}/verify", "{not json"),
        new Route("list catalog roles", "GET", M + "/catalogs/{c}/catalog-roles", null),
        new Route(
            "create catalog role",
            "POST",
            M + "/catalogs/{c}/catalog-roles",
            Admin.catalogRoleJson("r")),
        new Route("get catalog role", "GET", M + "/catalogs/{c}/catalog-roles/cr", null),
        new Route("delete catalog role", "DELETE", M + "/catalogs/{c}/catalog-roles/cr", null),
        new Route(
            "principal roles of a catalog role",
            "GET",
            M + "/catalogs/{c}/catalog-roles/cr/principal-roles",
            null),
        new Route("list grants", "GET", M + "/catalogs/{c}/catalog-roles/cr/grants", null),
        new Route(
            "add grant",
            "PUT",
            M + "/catalogs/{c}/catalog-roles/cr/grants",
            Admin.grantJson(Grant.onCatalog("CATALOG_MANAGE_CONTENT"))),
        new Route(
            "revoke grant",
            "POST",
            M + "/catalogs/{c}/catalog-roles/cr/grants",
            Admin.grantJson(Grant.onCatalog("NAMESPACE_READ_PROPERTIES"))),
        new Route(
            "catalog roles of a principal role",
            "GET",
            M + "/principal-roles/insider_role/catalog-roles/{c}",
            null),
        new Route(
            "grant catalog role",
            "PUT",
            M + "/principal-roles/stranger_role/catalog-roles/{c}",
            Admin.grantCatalogRoleJson("cr")),
        new Route(
            "revoke catalog role",
            "DELETE",
            M + "/principal-roles/insider_role/catalog-roles/{c}/cr",
            null));
  }

  private static HttpResponse<String> send(String token, Route route, String catalogName)
      throws Exception {
    return server.sendAs(
        token, route.method(), route.path().replace("{c}", catalogName), route.body());
  }

  /** Status and body with the catalog's name put aside: what a caller can compare. */
  private static String answer(HttpResponse<String> response, String catalogName) {
    return response.statusCode() + " " + response.body().replace(catalogName, "{c}");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("routes")
  void aCallerWithoutStandingCannotTellAnExistingCatalogFromAMissingOne(Route route)
      throws Exception {
    for (String token : List.of(strangerToken, neighbourToken)) {
      HttpResponse<String> exists = send(token, route, catalog);
      HttpResponse<String> missing = send(token, route, MISSING);
      assertThat(exists.statusCode()).as(exists.body()).isEqualTo(403);
      assertThat(answer(exists, catalog)).isEqualTo(answer(missing, MISSING));
      if (!route.method().equals("HEAD")) {
        assertThat(exists.body())
            .doesNotContain("exists\"")
            .doesNotContain("not found")
            .doesNotContain("Unable to find");
      }
    }
    // Nothing was changed by the refused writes.
    assertThat(
            server
                .send("GET", M + "/catalogs/" + catalog + "/catalog-roles/cr/grants", null)
                .body())
        .contains("NAMESPACE_READ_PROPERTIES")
        .doesNotContain("CATALOG_MANAGE_CONTENT");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("routes")
  void theServiceAdminLearnsThatACatalogDoesNotExist(Route route) throws Exception {
    HttpResponse<String> missing = send(server.rootToken(), route, MISSING);
    assertThat(missing.statusCode()).as(route + ": " + missing.body()).isEqualTo(404);
  }

  @Test
  void aCallerWithStandingInTheCatalogGetsPreciseAnswersThere() throws Exception {
    String ns = "/api/catalog/v1/" + catalog + "/namespaces/";
    HttpResponse<String> noNamespace = server.sendAs(insiderToken, "GET", ns + "missing", null);
    assertThat(noNamespace.statusCode()).as(noNamespace.body()).isEqualTo(404);
    assertThat(type(noNamespace)).isEqualTo("NoSuchNamespaceException");
    HttpResponse<String> getCatalog =
        server.sendAs(insiderToken, "GET", M + "/catalogs/" + catalog, null);
    assertThat(getCatalog.statusCode()).isEqualTo(403);
    assertThat(getCatalog.body()).contains("CATALOG_READ_PROPERTIES");
    HttpResponse<String> roles =
        server.sendAs(insiderToken, "GET", M + "/catalogs/" + catalog + "/catalog-roles", null);
    assertThat(roles.statusCode()).isEqualTo(403);
    assertThat(roles.body()).contains("CATALOG_MANAGE_ACCESS");
    // A catalog role without any grant is standing too: the caller sees the catalog in its list.
    HttpResponse<String> roleOnly =
        server.sendAs(roleOnlyToken, "GET", M + "/catalogs/" + catalog, null);
    assertThat(roleOnly.statusCode()).isEqualTo(403);
    assertThat(roleOnly.body()).contains("CATALOG_READ_PROPERTIES");
    // Standing in one catalog says nothing about another name.
    HttpResponse<String> elsewhere =
        server.sendAs(insiderToken, "GET", M + "/catalogs/" + MISSING, null);
    HttpResponse<String> existing =
        server.sendAs(insiderToken, "GET", M + "/catalogs/" + other, null);
    assertThat(answer(elsewhere, MISSING)).isEqualTo(answer(existing, other)).startsWith("403 ");
  }

  @Test
  void theRefusalIsAudited() throws Exception {
    server.sendAs(strangerToken, "GET", "/api/catalog/v1/" + catalog + "/namespaces", null);
    server.sendAs(strangerToken, "GET", "/api/catalog/v1/" + MISSING + "/namespaces", null);
    List<Event> events = admin.events("principal=stranger&decision=DENY&pageSize=200").events();
    assertThat(events).extracting(Event::catalog).contains(catalog, MISSING);
  }

  private static String type(HttpResponse<String> response) throws Exception {
    return TestServer.json(response.body()).at("/error/type").asText();
  }
}

package dev.sluice;

import static dev.sluice.AuthorizationMatrixTest.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.sluice.api.Catalog;
import dev.sluice.api.Catalogs;
import dev.sluice.api.CreateCatalogRequest;
import dev.sluice.api.Event;
import dev.sluice.api.Events;
import dev.sluice.api.Grant;
import dev.sluice.api.PrincipalWithCredentials;
import dev.sluice.testing.Admin;
import dev.sluice.testing.TestServer;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * RBAC beyond single privileges: renames, token scopes, filtered listings, management access,
 * audit.
 */
class RbacBehaviourTest {
  private static final String M = "/api/management/v1";
  private static TestServer server;
  private static Admin admin;
  private static String catalog;
  private static String base;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
    admin = new Admin(server);
    Path warehouse = server.dataDir().resolve("rbac");
    catalog = server.createCatalog("rbac", List.of(warehouse.toUri().toString()), warehouse);
    base = "/api/catalog/v1/" + catalog;
    for (String ns : List.of("a", "b", "c")) {
      assertThat(
              server
                  .send("POST", base + "/namespaces", "{\"namespace\": [\"" + ns + "\"]}")
                  .statusCode())
          .isEqualTo(200);
    }
    for (String t : List.of("t1", "t2", "t3")) {
      assertThat(
              server
                  .send(
                      "POST",
                      base + "/namespaces/a/tables",
                      "{\"name\": \"" + t + "\", \"schema\": " + SCHEMA + "}")
                  .statusCode())
          .isEqualTo(200);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static String tokenFor(String[] credentials, String scope) throws Exception {
    String form =
        "grant_type=client_credentials&client_id="
            + credentials[0]
            + "&client_secret="
            + credentials[1]
            + "&scope="
            + URLEncoder.encode(scope, StandardCharsets.UTF_8);
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.catalogUri() + "/v1/oauth/tokens"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return TestServer.json(response.body()).get("access_token").asText();
  }

  private static List<String> names(HttpResponse<String> response, String field) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    List<String> out = new ArrayList<>();
    for (JsonNode node : TestServer.json(response.body()).get(field)) {
      out.add(node.isObject() ? node.get("name").asText() : node.get(node.size() - 1).asText());
    }
    return out;
  }

  @Test
  void renameNeedsDropOnTheSourceAndCreateOnTheTarget() throws Exception {
    String[] carol = admin.principal("carol", "carol_role");
    admin.catalogRole(catalog, "carol_cr", "carol_role");
    String token = server.token(carol[0], carol[1]);
    String rename =
        "{\"source\": {\"namespace\": [\"a\"], \"name\": \"t3\"}, \"destination\": {\"namespace\": [\"b\"], \"name\": \"t3\"}}";

    admin.grant(catalog, "carol_cr", Grant.onTable(List.of("a"), "t3", "TABLE_DROP"));
    assertThat(server.sendAs(token, "POST", base + "/tables/rename", rename).statusCode())
        .isEqualTo(403);
    admin.revoke(catalog, "carol_cr", Grant.onTable(List.of("a"), "t3", "TABLE_DROP"));
    admin.grant(catalog, "carol_cr", Grant.onNamespace(List.of("b"), "TABLE_CREATE"));
    assertThat(server.sendAs(token, "POST", base + "/tables/rename", rename).statusCode())
        .isEqualTo(403);
    assertThat(server.send("HEAD", base + "/namespaces/a/tables/t3", null).statusCode())
        .isEqualTo(204);

    admin.grant(catalog, "carol_cr", Grant.onTable(List.of("a"), "t3", "TABLE_DROP"));
    admin.grant(catalog, "carol_cr", Grant.onTable(List.of("a"), "t3", "TABLE_READ_PROPERTIES"));
    assertThat(server.sendAs(token, "POST", base + "/tables/rename", rename).statusCode())
        .isEqualTo(204);
    // The table's grants followed it to its new name.
    assertThat(server.sendAs(token, "GET", base + "/namespaces/b/tables/t3", null).statusCode())
        .isEqualTo(200);
  }

  @Test
  void aScopedTokenActivatesOnlyItsRoles() throws Exception {
    String[] dana = admin.principal("dana", "dana_reader");
    admin.principal("unused", "dana_writer");
    assertThat(
            server
                .send(
                    "PUT",
                    M + "/principals/dana/principal-roles",
                    Admin.grantPrincipalRoleJson("dana_writer"))
                .statusCode())
        .isEqualTo(201);
    admin.catalogRole(catalog, "reads", "dana_reader");
    admin.catalogRole(catalog, "writes", "dana_writer");
    admin.grant(catalog, "reads", Grant.onTable(List.of("a"), "t1", "TABLE_READ_DATA"));
    admin.grant(catalog, "writes", Grant.onTable(List.of("a"), "t1", "TABLE_WRITE_DATA"));
    String commit =
        "{\"requirements\": [], \"updates\": [{\"action\": \"set-properties\", \"updates\": {\"by\": \"dana\"}}]}";

    String readerOnly = tokenFor(dana, "PRINCIPAL_ROLE:dana_reader");
    assertThat(
            server.sendAs(readerOnly, "GET", base + "/namespaces/a/tables/t1", null).statusCode())
        .isEqualTo(200);
    assertThat(
            server
                .sendAs(readerOnly, "POST", base + "/namespaces/a/tables/t1", commit)
                .statusCode())
        .isEqualTo(403);

    String all = tokenFor(dana, "PRINCIPAL_ROLE:ALL");
    assertThat(server.sendAs(all, "POST", base + "/namespaces/a/tables/t1", commit).statusCode())
        .isEqualTo(200);

    // Asking for a role the principal does not hold is refused at token time.
    assertThatThrownBy(() -> tokenFor(dana, "PRINCIPAL_ROLE:service_admin"))
        .hasMessageContaining("invalid_scope");
    // Iceberg's default scope ("catalog") activates all roles.
    assertThat(
            server
                .sendAs(tokenFor(dana, "catalog"), "POST", base + "/namespaces/a/tables/t1", commit)
                .statusCode())
        .isEqualTo(200);
    // A role revoked after the token was issued is gone at the next request.
    assertThat(
            server
                .send("DELETE", M + "/principals/dana/principal-roles/dana_writer", null)
                .statusCode())
        .isEqualTo(204);
    assertThat(server.sendAs(all, "POST", base + "/namespaces/a/tables/t1", commit).statusCode())
        .isEqualTo(403);
  }

  @Test
  void aNarrowedTokenCannotActForItsPrincipalBeyondItsRoles() throws Exception {
    // Issue 32: a token narrowed to one role rotated its principal's secret, whose new secret
    // bought a token with every role (and locked the owner out).
    String[] gus = admin.principal("gus_narrow", "gus_reader");
    String narrowed = tokenFor(gus, "PRINCIPAL_ROLE:gus_reader");
    String self = M + "/principals/gus_narrow";
    assertThat(server.sendAs(narrowed, "POST", self + "/rotate", null).statusCode()).isEqualTo(403);
    assertThat(server.sendAs(narrowed, "GET", self, null).statusCode()).isEqualTo(403);
    assertThat(server.sendAs(narrowed, "GET", self + "/principal-roles", null).statusCode())
        .isEqualTo(403);
    // The secret was not rotated: it still buys a token; one with all roles may rotate it.
    String full = tokenFor(gus, "catalog");
    assertThat(server.sendAs(full, "GET", self, null).statusCode()).isEqualTo(200);
    assertThat(server.sendAs(full, "POST", self + "/rotate", null).statusCode()).isEqualTo(200);
  }

  @Test
  void listingsShowOnlyWhatTheCallerMaySee() throws Exception {
    String[] erin = admin.principal("erin", "erin_role");
    admin.catalogRole(catalog, "erin_cr", "erin_role");
    String token = server.token(erin[0], erin[1]);
    assertThat(server.sendAs(token, "GET", base + "/namespaces/a/tables", null).statusCode())
        .isEqualTo(403);
    assertThat(server.sendAs(token, "GET", base + "/namespaces", null).statusCode()).isEqualTo(403);
    assertThat(
            server
                .sendAs(token, "GET", "/api/catalog/v1/config?warehouse=" + catalog, null)
                .statusCode())
        .isEqualTo(403);

    admin.grant(catalog, "erin_cr", Grant.onTable(List.of("a"), "t2", "TABLE_READ_DATA"));
    assertThat(
            server
                .sendAs(token, "GET", "/api/catalog/v1/config?warehouse=" + catalog, null)
                .statusCode())
        .isEqualTo(200);
    assertThat(
            names(server.sendAs(token, "GET", base + "/namespaces/a/tables", null), "identifiers"))
        .containsExactly("t2");
    assertThat(names(server.sendAs(token, "GET", base + "/namespaces", null), "namespaces"))
        .containsExactly("a");
    HttpResponse<String> catalogs = server.sendAs(token, "GET", M + "/catalogs", null);
    assertThat(catalogs.statusCode()).as(catalogs.body()).isEqualTo(200);
    assertThat(Admin.read(catalogs, Catalogs.class).catalogs())
        .extracting(Catalog::name)
        .containsExactly(catalog);

    admin.grant(catalog, "erin_cr", Grant.onNamespace(List.of("a"), "TABLE_LIST"));
    assertThat(
            names(server.sendAs(token, "GET", base + "/namespaces/a/tables", null), "identifiers"))
        .contains("t1", "t2");
  }

  @Test
  void managementNeedsServiceAdminOrCatalogManageAccess() throws Exception {
    String[] frank = admin.principal("frank", "frank_role");
    admin.catalogRole(catalog, "frank_cr", "frank_role");
    String token = server.token(frank[0], frank[1]);
    String newCatalog =
        Admin.json(
            new CreateCatalogRequest(
                Catalog.of(
                    "nope",
                    Map.of("default-base-location", server.dataDir().resolve("nope").toUri() + ""),
                    JsonNodeFactory.instance.objectNode().put("storageType", "FILE")),
                null));
    assertThat(server.sendAs(token, "POST", M + "/catalogs", newCatalog).statusCode())
        .isEqualTo(403);
    assertThat(server.sendAs(token, "GET", M + "/principals", null).statusCode()).isEqualTo(403);
    assertThat(
            server
                .sendAs(token, "POST", M + "/principal-roles", Admin.principalRoleJson("x"))
                .statusCode())
        .isEqualTo(403);
    assertThat(server.sendAs(token, "DELETE", M + "/principals/bob", null).statusCode())
        .isEqualTo(403);
    assertThat(
            server
                .sendAs(token, "GET", M + "/catalogs/" + catalog + "/catalog-roles", null)
                .statusCode())
        .isEqualTo(403);
    assertThat(
            server
                .sendAs(
                    token,
                    "PUT",
                    M + "/catalogs/" + catalog + "/catalog-roles/frank_cr/grants",
                    Admin.grantJson(Grant.onCatalog("CATALOG_MANAGE_CONTENT")))
                .statusCode())
        .isEqualTo(403);
    assertThat(server.sendAs(token, "GET", M + "/catalogs/" + catalog, null).statusCode())
        .isEqualTo(403);
    assertThat(server.sendAs(token, "GET", M + "/events", null).statusCode()).isEqualTo(403);
    // A principal may read itself and rotate its own credentials.
    assertThat(server.sendAs(token, "GET", M + "/principals/frank", null).statusCode())
        .isEqualTo(200);

    admin.grant(catalog, "frank_cr", Grant.onCatalog("CATALOG_MANAGE_ACCESS"));
    assertThat(
            server
                .sendAs(token, "GET", M + "/catalogs/" + catalog + "/catalog-roles", null)
                .statusCode())
        .isEqualTo(200);
    assertThat(
            server
                .sendAs(
                    token,
                    "POST",
                    M + "/catalogs/" + catalog + "/catalog-roles",
                    Admin.catalogRoleJson("made_by_frank"))
                .statusCode())
        .isEqualTo(201);
    assertThat(server.sendAs(token, "GET", M + "/events?catalog=" + catalog, null).statusCode())
        .isEqualTo(200);
    // Which principal roles exist is the service admin's to know: a missing one answers as an
    // existing one that holds none of this catalog's roles (issue 32: 404 against 200).
    HttpResponse<String> missing =
        server.sendAs(
            token, "GET", M + "/principal-roles/no_such_role/catalog-roles/" + catalog, null);
    admin.principal("holder", "holds_none");
    HttpResponse<String> holdsNone =
        server.sendAs(
            token, "GET", M + "/principal-roles/holds_none/catalog-roles/" + catalog, null);
    assertThat(missing.statusCode()).as(missing.body()).isEqualTo(200);
    assertThat(missing.body()).isEqualTo(holdsNone.body());
    assertThat(
            server
                .send("GET", M + "/principal-roles/no_such_role/catalog-roles/" + catalog, null)
                .statusCode())
        .as("the service admin is told")
        .isEqualTo(404);
    // Managing access is not content access.
    assertThat(server.sendAs(token, "GET", base + "/namespaces/a/tables/t1", null).statusCode())
        .isEqualTo(403);
    assertThat(server.sendAs(token, "POST", M + "/catalogs", newCatalog).statusCode())
        .isEqualTo(403);
  }

  @Test
  void deletedPrincipalsAndRotatedCredentialsLoseTheirTokens() throws Exception {
    String[] gus = admin.principal("gus", "gus_role");
    String token = server.token(gus[0], gus[1]);
    assertThat(server.sendAs(token, "GET", M + "/principals/gus", null).statusCode())
        .isEqualTo(200);

    PrincipalWithCredentials rotated =
        Admin.read(
            server.sendAs(token, "POST", M + "/principals/gus/rotate", null),
            PrincipalWithCredentials.class);
    String newSecret = rotated.credentials().clientSecret();
    assertThat(newSecret).isNotEqualTo(gus[1]);
    assertThat(server.sendAs(token, "GET", M + "/principals/gus", null).statusCode())
        .isEqualTo(401);
    assertThatThrownBy(() -> server.token(gus[0], gus[1])).hasMessageContaining("401");
    String fresh = server.token(gus[0], newSecret);
    assertThat(server.sendAs(fresh, "GET", M + "/principals/gus", null).statusCode())
        .isEqualTo(200);
    // Responses never show a secret or its hash again.
    assertThat(server.send("GET", M + "/principals/gus", null).body())
        .doesNotContain(newSecret)
        .doesNotContain("pbkdf2");

    assertThat(server.send("DELETE", M + "/principals/gus", null).statusCode()).isEqualTo(204);
    HttpResponse<String> afterDelete = server.sendAs(fresh, "GET", base + "/namespaces", null);
    assertThat(afterDelete.statusCode()).isEqualTo(401);
    assertThat(server.send("DELETE", M + "/principals/root", null).statusCode()).isEqualTo(400);
  }

  @Test
  void everyDecisionIsAnAuditEvent() throws Exception {
    String[] hal = admin.principal("hal", "hal_role");
    admin.catalogRole(catalog, "hal_cr", "hal_role");
    String token = server.token(hal[0], hal[1]);
    HttpResponse<String> denied =
        server.sendAs(token, "GET", base + "/namespaces/a/tables/t1", null);
    assertThat(denied.statusCode()).isEqualTo(403);
    String requestId = denied.headers().firstValue("X-Request-ID").orElseThrow();
    admin.grant(catalog, "hal_cr", Grant.onTable(List.of("a"), "t1", "TABLE_READ_DATA"));
    assertThat(server.sendAs(token, "GET", base + "/namespaces/a/tables/t1", null).statusCode())
        .isEqualTo(200);

    List<Event> events = admin.events("principal=hal&catalog=" + catalog).events();
    assertThat(events).hasSizeGreaterThanOrEqualTo(2);
    Event newest = events.get(0);
    assertThat(newest.decision()).isEqualTo("ALLOW");
    assertThat(newest.action()).isEqualTo("loadTable");
    assertThat(newest.securable()).isEqualTo("table a.t1");
    assertThat(newest.activatedRoles().get(0)).isEqualTo("hal_role");
    Event deniedEvent = admin.events("principal=hal&decision=DENY").events().get(0);
    assertThat(deniedEvent.requestId()).isEqualTo(requestId);
    assertThat(server.send("GET", M + "/events", null).body())
        .doesNotContain(hal[1])
        .doesNotContain(token);
    // Paging and a time filter.
    Events page = admin.events("pageSize=1");
    assertThat(page.events()).hasSize(1);
    assertThat(page.nextPageToken()).isNotEmpty();
    Events future = admin.events("from=" + (System.currentTimeMillis() + 60_000));
    assertThat(future.events()).isEmpty();
  }
}

package dev.sluice;

import static dev.sluice.AuthorizationMatrixTest.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Admin;
import dev.sluice.testing.TestIdp;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Identities that cannot be confused (issue 32, findings 2 and 6). A principal deleted and created
 * again under its name used to be the same identity: the old token was accepted again (tokens named
 * the name and a credential version that restarts at 1), and stored Idempotency-Key answers went to
 * whoever held the name, including an external OIDC identity of that name.
 */
class PrincipalIdentityTest {
  private static final String M = "/api/management/v1";
  private static TestIdp idp;
  private static TestServer server;
  private static Admin admin;
  private static String base;

  @BeforeAll
  static void start() throws Exception {
    idp = TestIdp.start();
    server = TestServer.start(null, idp.yaml());
    admin = new Admin(server);
    String catalog = server.createCatalog("ident");
    base = "/api/catalog/v1/" + catalog;
    ok(server.send("POST", base + "/namespaces", "{\"namespace\": [\"ns\"]}"));
    ok(server.send("POST", M + "/principal-roles", Admin.principalRoleJson("makers")));
    admin.catalogRole(catalog, "creators", "makers");
    admin.grant(
        catalog, "creators", Admin.grantJson("namespace", List.of("ns"), null, "TABLE_CREATE"));
    admin.grant(
        catalog,
        "creators",
        Admin.grantJson("namespace", List.of("ns"), null, "TABLE_READ_PROPERTIES"));
    admin.grant(
        catalog,
        "creators",
        Admin.grantJson("namespace", List.of("ns"), null, "NAMESPACE_READ_PROPERTIES"));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
    idp.close();
  }

  private static HttpResponse<String> ok(HttpResponse<String> response) {
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 204);
    return response;
  }

  private static String tokenOf(String[] credentials) throws Exception {
    return server.token(credentials[0], credentials[1]);
  }

  private static String id(String principal) throws Exception {
    return TestServer.json(ok(server.send("GET", M + "/principals/" + principal, null)).body())
        .get("id")
        .asText();
  }

  private static HttpResponse<String> createTable(String token, String key, String name)
      throws Exception {
    return server.sendAs(
        token,
        "POST",
        base + "/namespaces/ns/tables",
        "{\"name\": \"" + name + "\", \"schema\": " + SCHEMA + "}",
        Map.of("Idempotency-Key", key));
  }

  @Test
  void aDeletedPrincipalsTokenStaysDeadWhenItsNameIsCreatedAgain() throws Exception {
    String oldToken = tokenOf(admin.principal("gus", "makers"));
    String oldId = id("gus");
    ok(server.sendAs(oldToken, "GET", base + "/namespaces/ns", null));
    ok(server.send("DELETE", M + "/principals/gus", null));
    assertThat(server.sendAs(oldToken, "GET", base + "/namespaces/ns", null).statusCode())
        .isEqualTo(401);

    String newToken = tokenOf(admin.principal("gus", "makers"));
    assertThat(id("gus")).as("a new identity").isNotEqualTo(oldId).startsWith("p-");
    assertThat(server.sendAs(oldToken, "GET", base + "/namespaces/ns", null).statusCode())
        .as("the old gus's token, against the new gus")
        .isEqualTo(401);
    assertThat(server.sendAs(oldToken, "POST", M + "/principals/gus/rotate", null).statusCode())
        .as("nor can it rotate the new gus's secret")
        .isEqualTo(401);
    ok(server.sendAs(newToken, "GET", base + "/namespaces/ns", null));

    // The audit trail tells the two apart: each gus's decisions name his own id.
    String newId = id("gus");
    java.util.Set<String> identities = new java.util.TreeSet<>();
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (identities.size() < 2 && System.nanoTime() < deadline) {
      identities.clear();
      TestServer.json(
              ok(server.send("GET", M + "/events?principal=gus&pageSize=1000", null)).body())
          .get("events")
          .forEach(
              e -> {
                if (e.get("action").asText().equals("loadNamespace")) {
                  identities.add(e.path("principalIdentity").asText());
                }
              });
      Thread.sleep(50);
    }
    assertThat(identities).containsExactlyInAnyOrder("principal:" + oldId, "principal:" + newId);
  }

  @Test
  void aDeletedPrincipalsIdempotencyKeyIsNotTheNewOnes() throws Exception {
    String key = IdempotencyKeyTest.newKey();
    String oldToken = tokenOf(admin.principal("hal", "makers"));
    ok(createTable(oldToken, key, "hal_t"));
    ok(server.send("DELETE", M + "/principals/hal", null));
    String newToken = tokenOf(admin.principal("hal", "makers"));
    HttpResponse<String> retry = createTable(newToken, key, "hal_t");
    assertThat(retry.statusCode()).as(retry.body()).isEqualTo(422);
    assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
    assertThat(retry.body()).contains("another principal");
  }

  @Test
  void anExternalIdentityNamedLikeAPrincipalGetsNoneOfItsAnswers() throws Exception {
    String key = IdempotencyKeyTest.newKey();
    String internal = tokenOf(admin.principal("alice", "makers"));
    ok(createTable(internal, key, "alice_t"));
    String external = idp.token("alice", List.of("makers"));
    ok(server.sendAs(external, "GET", base + "/namespaces/ns", null)); // the IdP's alice works
    HttpResponse<String> retry = createTable(external, key, "alice_t");
    assertThat(retry.statusCode()).as(retry.body()).isEqualTo(422);
    assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
    // And the other way round: the IdP's alice's key is not the principal's.
    String second = IdempotencyKeyTest.newKey();
    ok(createTable(external, second, "alice_ext"));
    assertThat(createTable(internal, second, "alice_ext").statusCode()).isEqualTo(422);
  }
}

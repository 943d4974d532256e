package dev.sluice;

import static dev.sluice.TokenEndpointSecurityTest.ACCESS_TOKEN;
import static dev.sluice.TokenEndpointSecurityTest.EXCHANGE;
import static dev.sluice.TokenEndpointSecurityTest.assertOAuthError;
import static dev.sluice.TokenEndpointSecurityTest.enc;
import static dev.sluice.TokenEndpointSecurityTest.post;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import dev.sluice.auth.AuthenticatedPrincipal;
import dev.sluice.auth.TokenService;
import dev.sluice.store.SigningKey;
import dev.sluice.testing.Admin;
import dev.sluice.testing.TestIdp;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Token exchange with an actor (RFC 8693): an engine principal obtains tokens for the users behind
 * its queries. The engine ({@code engine_role}) may act for {@code analysts} and {@code others},
 * not for {@code finance}; alice holds analysts and finance, bob holds others (no grants). Through
 * HTTP against a real server with an OIDC issuer and unsigned subjects allowed.
 */
class DelegatedTokenTest {
  private static final String JWT_TYPE = "urn:ietf:params:oauth:token-type:jwt";
  private static TestIdp idp;
  private static TestServer server;
  private static String[] alice;
  private static String[] bob;
  private static String[] engine;
  private static String[] mallory;
  private static String orders;
  private static String ledger;

  @BeforeAll
  static void start() throws Exception {
    idp = TestIdp.start();
    server =
        TestServer.start(
            null,
            idp.yaml()
                + "  delegation:\n    unsignedSubjects: true\n"
                + "  tokenThrottle:\n    enabled: false\n");
    Admin admin = new Admin(server);
    Path warehouse = server.dataDir().resolve("deleg");
    String catalog =
        server.createCatalog("deleg", List.of(warehouse.toUri().toString()), warehouse);
    String base = "/api/catalog/v1/" + catalog;
    for (String ns : List.of("sales", "fin")) {
      assertThat(
              server
                  .send("POST", base + "/namespaces", "{\"namespace\": [\"" + ns + "\"]}")
                  .statusCode())
          .isEqualTo(200);
    }
    String schema =
        "{\"type\": \"struct\", \"fields\": [{\"id\": 1, \"name\": \"id\", \"required\": true,"
            + " \"type\": \"long\"}]}";
    for (String t : List.of("sales/tables/orders", "fin/tables/ledger")) {
      String name = t.substring(t.lastIndexOf('/') + 1);
      assertThat(
              server
                  .send(
                      "POST",
                      base + "/namespaces/" + t.substring(0, t.indexOf('/')) + "/tables",
                      "{\"name\": \"" + name + "\", \"schema\": " + schema + "}")
                  .statusCode())
          .isEqualTo(200);
    }
    orders = base + "/namespaces/sales/tables/orders";
    ledger = base + "/namespaces/fin/tables/ledger";
    alice = admin.principal("alice", "analysts");
    admin.principal("fin_holder", "finance"); // creates the finance role
    assertThat(
            server
                .send(
                    "PUT",
                    "/api/management/v1/principals/alice/principal-roles",
                    Admin.grantPrincipalRoleJson("finance"))
                .statusCode())
        .isBetween(200, 204);
    bob = admin.principal("bob", "others");
    engine = admin.principal("engine", "engine_role");
    mallory = admin.principal("mallory", "mallory_role");
    admin.catalogRole(catalog, "sales_readers", "analysts");
    admin.grant(
        catalog,
        "sales_readers",
        Admin.grantJson("namespace", List.of("sales"), null, "TABLE_READ_DATA"));
    admin.catalogRole(catalog, "fin_readers", "finance");
    admin.grant(
        catalog,
        "fin_readers",
        Admin.grantJson("namespace", List.of("fin"), null, "TABLE_READ_DATA"));
    actAs("engine_role", "analysts");
    actAs("engine_role", "others");
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
    idp.close();
  }

  private static void actAs(String actorRole, String target) {
    server.server().store().delegations().grant(actorRole, target);
  }

  private static String token(String[] credentials) throws Exception {
    return server.token(credentials[0], credentials[1]);
  }

  private static String form(String subject, String subjectType, String actor) {
    return "grant_type="
        + enc(EXCHANGE)
        + "&subject_token="
        + enc(subject)
        + "&subject_token_type="
        + enc(subjectType)
        + (actor == null
            ? ""
            : "&actor_token=" + enc(actor) + "&actor_token_type=" + enc(ACCESS_TOKEN));
  }

  private static JsonNode exchange(String subject, String subjectType, String actor, String extra)
      throws Exception {
    HttpResponse<String> r = post(server, form(subject, subjectType, actor) + extra);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return TestServer.json(r.body());
  }

  private static String actedFor(String subject, String subjectType) throws Exception {
    return exchange(subject, subjectType, token(engine), "").get("access_token").asText();
  }

  private static int load(String token, String path) throws Exception {
    return server.sendAs(token, "GET", path, null).statusCode();
  }

  private static String unsigned(String user) {
    return new PlainJWT(
            new JWTClaimsSet.Builder()
                .subject(user)
                .issuer("476")
                .issueTime(new Date())
                .claim("user", user)
                .build())
        .serialize();
  }

  @Test
  void anEngineActsForAUserWithTheUsersRightsThroughTheRolesItMayActFor() throws Exception {
    String delegated = actedFor(token(alice), ACCESS_TOKEN);
    AuthenticatedPrincipal p = server.server().tokens().verify(delegated);
    assertThat(p.name()).isEqualTo("alice");
    assertThat(p.actor().name()).isEqualTo("engine");
    assertThat(p.scopes()).containsExactly("PRINCIPAL_ROLE:analysts");

    assertThat(load(delegated, orders)).isEqualTo(200);
    // alice's finance role is not one the engine may act for: not through the engine.
    assertThat(load(delegated, ledger)).isEqualTo(403);
    assertThat(load(token(alice), ledger)).isEqualTo(200);
    // The engine cannot take over alice's credentials with her delegated token.
    assertThat(
            server
                .sendAs(delegated, "POST", "/api/management/v1/principals/alice/rotate", null)
                .statusCode())
        .isEqualTo(403);
    // The engine itself holds no data grant.
    assertThat(load(token(engine), orders)).isEqualTo(403);

    // bob, through the same engine: his role may be acted for, but grants him nothing.
    String forBob = actedFor(token(bob), ACCESS_TOKEN);
    assertThat(load(forBob, orders)).isEqualTo(403);

    JsonNode events =
        TestServer.json(
                server.send("GET", "/api/management/v1/events?catalog=" + catalogOf(), null).body())
            .get("events");
    assertThat(actorsOf(events, "alice", "loadTable", true)).containsOnly("engine", "");
    assertThat(actorsOf(events, "alice", "loadTable", true)).contains("engine");
    // bob holds no grant in the catalog: refused at the catalog, before the table.
    assertThat(actorsOf(events, "bob", "accessCatalog", false)).containsOnly("engine");
  }

  private static String catalogOf() {
    return orders.split("/")[4];
  }

  private static List<String> actorsOf(
      JsonNode events, String who, String action, boolean allowed) {
    List<String> out = new java.util.ArrayList<>();
    events.forEach(
        e -> {
          if (e.get("principal").asText().equals(who)
              && e.get("action").asText().equals(action)
              && e.get("decision").asText().equals(allowed ? "ALLOW" : "DENY")) {
            out.add(e.path("actor").asText(""));
          }
        });
    return out;
  }

  @Test
  void anActorWithoutTheGrantIsRefusedBeforeTheSubjectIsLookedAt() throws Exception {
    assertOAuthError(
        post(server, form(token(alice), ACCESS_TOKEN, token(mallory))), 400, "unauthorized_client");
    // Even for an unsigned subject naming nobody: no oracle of principal names.
    HttpResponse<String> r = post(server, form(unsigned("nobody"), JWT_TYPE, token(mallory)));
    assertOAuthError(r, 400, "unauthorized_client");
    assertThat(r.body()).doesNotContain("nobody");
    // A user token none of whose active roles the engine may act for.
    assertOAuthError(
        post(server, form(finOnlyToken(), ACCESS_TOKEN, token(engine))),
        400,
        "unauthorized_client");
  }

  private static String finOnlyToken() throws Exception {
    return TestServer.json(
            post(
                    server,
                    "grant_type=client_credentials&client_id="
                        + enc(alice[0])
                        + "&client_secret="
                        + enc(alice[1])
                        + "&scope="
                        + enc("PRINCIPAL_ROLE:finance"))
                .body())
        .get("access_token")
        .asText();
  }

  @Test
  void anExpiredOrForeignSubjectIsRefused() throws Exception {
    // A Sluice token of alice that expired a minute ago, signed with the server's real key.
    TokenService past =
        new TokenService(
            server.server().store(),
            Duration.ofSeconds(60),
            Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-2)));
    past.start();
    String expired = past.issue("alice", principalId("alice"), alice[0], List.of(), 1);
    assertOAuthError(
        post(server, form(expired, ACCESS_TOKEN, token(engine))), 400, "invalid_grant");
    RSAKey key = idp.key();
    String wrongAudience =
        TestIdp.token(key, TestIdp.ISSUER, "someone-else", 300_000, "erin", List.of("analysts"));
    assertOAuthError(
        post(server, form(wrongAudience, JWT_TYPE, token(engine))), 400, "invalid_grant");
    String wrongIssuer =
        TestIdp.token(key, "https://evil.example.test/", "sluice", 300_000, "erin", List.of());
    assertOAuthError(
        post(server, form(wrongIssuer, JWT_TYPE, token(engine))), 400, "invalid_grant");
    // An invalid actor: 401.
    assertOAuthError(
        post(server, form(token(alice), ACCESS_TOKEN, "garbage")), 401, "invalid_client");
    // The user's own token as actor of someone else: alice holds no PRINCIPAL_ACT_AS.
    assertOAuthError(
        post(server, form(token(bob), ACCESS_TOKEN, token(alice))), 400, "unauthorized_client");
  }

  private static String principalId(String name) {
    return server.server().store().access().getPrincipal(name).orElseThrow().id();
  }

  @Test
  void anExternalUsersTokenIsDelegatedWithItsClaimedRolesAndNoLongerThanItLives() throws Exception {
    String erin =
        TestIdp.token(
            idp.key(), TestIdp.ISSUER, "sluice", 90_000, "erin", List.of("analysts", "finance"));
    JsonNode issued = exchange(erin, JWT_TYPE, token(engine), "");
    assertThat(issued.get("expires_in").asLong()).isBetween(1L, 90L);
    String delegated = issued.get("access_token").asText();
    AuthenticatedPrincipal p = server.server().tokens().verify(delegated);
    assertThat(p.name()).isEqualTo("erin");
    assertThat(p.externalRoles()).containsExactly("analysts", "finance");
    assertThat(p.scopes()).containsExactly("PRINCIPAL_ROLE:analysts");
    assertThat(load(delegated, orders)).isEqualTo(200);
    assertThat(load(delegated, ledger)).isEqualTo(403);
    // A refresh keeps user and actor and never outlives erin's token.
    JsonNode refreshed = exchange(delegated, ACCESS_TOKEN, null, "&scope=catalog");
    assertThat(refreshed.get("expires_in").asLong()).isBetween(1L, 90L);
    AuthenticatedPrincipal again =
        server.server().tokens().verify(refreshed.get("access_token").asText());
    assertThat(again.name()).isEqualTo("erin");
    assertThat(again.actor().name()).isEqualTo("engine");
  }

  @Test
  void delegationNeverWidens() throws Exception {
    String subject = token(alice);
    String actor = token(engine);
    for (String scope : List.of("PRINCIPAL_ROLE:finance", "PRINCIPAL_ROLE:ALL")) {
      assertOAuthError(
          post(server, form(subject, ACCESS_TOKEN, actor) + "&scope=" + enc(scope)),
          400,
          "invalid_scope");
    }
    String delegated = actedFor(subject, ACCESS_TOKEN);
    // A delegated token is not a subject to delegate again, nor an actor.
    assertOAuthError(post(server, form(delegated, ACCESS_TOKEN, actor)), 400, "invalid_grant");
    assertOAuthError(
        post(server, form(token(bob), ACCESS_TOKEN, delegated)), 400, "invalid_request");
    assertOAuthError(
        post(server, exchangeWithScope(delegated, "PRINCIPAL_ROLE:finance")), 400, "invalid_scope");
    // Never service_admin: root holds only it, so there is nothing to act through.
    actAs("engine_role", "service_admin");
    try {
      assertOAuthError(
          post(server, form(server.rootToken(), ACCESS_TOKEN, actor)), 400, "unauthorized_client");
    } finally {
      server.server().store().delegations().revoke("engine_role", "service_admin");
    }
  }

  private static String exchangeWithScope(String subject, String scope) {
    return form(subject, ACCESS_TOKEN, null) + "&scope=" + enc(scope);
  }

  @Test
  void anUnsignedSubjectNamesAnExistingPrincipalOnlyWhereAllowed() throws Exception {
    String delegated = actedFor(unsigned("alice"), JWT_TYPE);
    assertThat(server.server().tokens().verify(delegated).actor().name()).isEqualTo("engine");
    assertThat(load(delegated, orders)).isEqualTo(200);
    assertOAuthError(
        post(server, form(unsigned("nobody"), JWT_TYPE, token(engine))), 400, "invalid_grant");
    // Without an actor an unsigned token is nothing.
    assertOAuthError(post(server, form(unsigned("alice"), JWT_TYPE, null)), 401, "invalid_client");
    try (TestServer strict = TestServer.start(null)) {
      Admin admin = new Admin(strict);
      admin.principal("alice", "analysts");
      String[] e = admin.principal("engine", "engine_role");
      strict.server().store().delegations().grant("engine_role", "analysts");
      HttpResponse<String> r =
          post(strict, form(unsigned("alice"), JWT_TYPE, strict.token(e[0], e[1])));
      assertOAuthError(r, 400, "invalid_grant");
      assertThat(r.body()).contains("auth.delegation.unsignedSubjects");
    }
  }

  /** Claims signed with the server's own active key, as only the server could sign them. */
  private static String signedByTheServer(JWTClaimsSet claims) throws Exception {
    SigningKey key = server.server().store().signingKeys().get(0);
    SignedJWT jwt =
        new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(key.kid()).build(), claims);
    jwt.sign(new MACSigner(Base64.getDecoder().decode(key.material())));
    return jwt.serialize();
  }

  @Test
  void externalRolesOrAnActorClaimOfAnyOtherShapeAreRefused() throws Exception {
    long in5 = System.currentTimeMillis() + 300_000;
    JWTClaimsSet.Builder base =
        new JWTClaimsSet.Builder()
            .issuer(TokenService.ISSUER)
            .subject("erin")
            .claim("scope", "")
            .expirationTime(new Date(in5));
    // External roles are only ever issued with an actor.
    String rolesAlone = signedByTheServer(base.claim("ext", List.of("analysts")).build());
    assertThat(load(rolesAlone, orders)).isEqualTo(401);
    String actorAsText = signedByTheServer(base.claim("act", "engine").build());
    assertThat(load(actorAsText, orders)).isEqualTo(401);
    String actorWithoutId =
        signedByTheServer(base.claim("act", java.util.Map.of("sub", "engine", "cv", 1)).build());
    assertThat(load(actorWithoutId, orders)).isEqualTo(401);
  }

  @Test
  void revokingTheGrantOrRotatingTheEngineEndsItsTokens() throws Exception {
    String[] carol = new Admin(server).principal("carol", "analysts");
    String[] engine2 = new Admin(server).principal("engine2", "engine2_role");
    actAs("engine2_role", "analysts");
    String delegated =
        exchange(token(carol), ACCESS_TOKEN, token(engine2), "").get("access_token").asText();
    assertThat(load(delegated, orders)).isEqualTo(200);
    // Through the management API, which clears this replica's caches: effective at once.
    String grant = "/api/management/v1/principal-roles/engine2_role/act-as/analysts";
    assertThat(server.send("DELETE", grant, null).statusCode()).isEqualTo(204);
    assertThat(load(delegated, orders)).isEqualTo(403);
    assertThat(server.send("PUT", grant, null).statusCode()).isEqualTo(204);
    assertThat(load(delegated, orders)).isEqualTo(200);
    HttpResponse<String> rotated =
        server.send("POST", "/api/management/v1/principals/engine2/rotate", null);
    assertThat(rotated.statusCode()).as(rotated.body()).isEqualTo(200);
    assertThat(load(delegated, orders)).isEqualTo(401);
    assertThat(engine2).hasSize(2);
  }
}

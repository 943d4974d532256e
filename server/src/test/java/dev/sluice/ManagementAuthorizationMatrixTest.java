package dev.sluice;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.sluice.api.Catalog;
import dev.sluice.api.CreateCatalogRequest;
import dev.sluice.api.Grant;
import dev.sluice.api.RotatedSigningKey;
import dev.sluice.api.SigningKeys;
import dev.sluice.api.UpdateCatalogRequest;
import dev.sluice.api.UpdatePrincipalRequest;
import dev.sluice.store.PageRequest;
import dev.sluice.store.PrincipalRecord;
import dev.sluice.store.SigningKey;
import dev.sluice.testing.Admin;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The negative matrix over every management endpoint: without the needed standing (the
 * service_admin principal role, or CATALOG_MANAGE_ACCESS on the catalog) 403 and nothing changes;
 * with it, success; after it is taken away, 403 on the very next call. The state compared includes
 * the token signing keys, so a refused rotateSigningKey that rotated would show.
 */
class ManagementAuthorizationMatrixTest {
  private static final String M = "/api/management/v1";
  private static final AtomicInteger RUN = new AtomicInteger();
  private static TestServer server;
  private static Admin admin;
  private static String malloryToken;

  /** {@code {c}} is the case's catalog and {@code {n}} its run number in paths and bodies. */
  record Case(
      String name, boolean serviceAdmin, String method, String path, String body, int okStatus) {
    @Override
    public String toString() {
      return name;
    }
  }

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
    admin = new Admin(server);
    String[] mallory = admin.principal("mallory", "mallory_role");
    malloryToken = server.token(mallory[0], mallory[1]);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "createCatalog",
            true,
            "POST",
            "/catalogs",
            Admin.json(
                new CreateCatalogRequest(
                    Catalog.of(
                        "made{n}",
                        Map.of("default-base-location", "file:/tmp/sluice-made{n}"),
                        JsonNodeFactory.instance.objectNode().put("storageType", "FILE")),
                    null)),
            201),
        new Case("deleteCatalog", true, "DELETE", "/catalogs/{c}", null, 204),
        new Case("getCatalog", true, "GET", "/catalogs/{c}", null, 200),
        new Case(
            "updateCatalog",
            true,
            "PUT",
            "/catalogs/{c}",
            Admin.json(
                new UpdateCatalogRequest(
                    null, Map.of("default-base-location", "{base}", "owner", "x"), null)),
            200),
        new Case("listPrincipals", true, "GET", "/principals", null, 200),
        new Case(
            "createPrincipal", true, "POST", "/principals", Admin.principalJson("made{n}"), 201),
        new Case("getPrincipal", true, "GET", "/principals/victim{n}", null, 200),
        new Case(
            "updatePrincipal",
            true,
            "PUT",
            "/principals/victim{n}",
            Admin.json(new UpdatePrincipalRequest(Map.of("team", "x"))),
            200),
        new Case("deletePrincipal", true, "DELETE", "/principals/victim{n}", null, 204),
        new Case("rotatePrincipal", true, "POST", "/principals/victim{n}/rotate", null, 200),
        new Case(
            "listRolesOfPrincipal",
            true,
            "GET",
            "/principals/victim{n}/principal-roles",
            null,
            200),
        new Case(
            "assignPrincipalRole",
            true,
            "PUT",
            "/principals/victim{n}/principal-roles",
            Admin.grantPrincipalRoleJson("spare{n}"),
            201),
        new Case(
            "revokePrincipalRole",
            true,
            "DELETE",
            "/principals/victim{n}/principal-roles/held{n}",
            null,
            204),
        new Case(
            "createPrincipalRole",
            true,
            "POST",
            "/principal-roles",
            Admin.principalRoleJson("made{n}"),
            201),
        new Case("listPrincipalRoles", true, "GET", "/principal-roles", null, 200),
        new Case("getPrincipalRole", true, "GET", "/principal-roles/spare{n}", null, 200),
        new Case("deletePrincipalRole", true, "DELETE", "/principal-roles/spare{n}", null, 204),
        new Case(
            "listPrincipalsWithRole",
            true,
            "GET",
            "/principal-roles/held{n}/principals",
            null,
            200),
        new Case("listActAsTargets", true, "GET", "/principal-roles/spare{n}/act-as", null, 200),
        new Case("grantActAs", true, "PUT", "/principal-roles/held{n}/act-as/spare{n}", null, 204),
        new Case(
            "revokeActAs", true, "DELETE", "/principal-roles/spare{n}/act-as/held{n}", null, 204),
        new Case(
            "createCatalogRole",
            false,
            "POST",
            "/catalogs/{c}/catalog-roles",
            Admin.catalogRoleJson("made"),
            201),
        new Case("listCatalogRoles", false, "GET", "/catalogs/{c}/catalog-roles", null, 200),
        new Case("getCatalogRole", false, "GET", "/catalogs/{c}/catalog-roles/cr", null, 200),
        new Case("deleteCatalogRole", false, "DELETE", "/catalogs/{c}/catalog-roles/cr", null, 204),
        new Case(
            "listPrincipalRolesWithCatalogRole",
            false,
            "GET",
            "/catalogs/{c}/catalog-roles/cr/principal-roles",
            null,
            200),
        new Case("listGrants", false, "GET", "/catalogs/{c}/catalog-roles/cr/grants", null, 200),
        new Case(
            "addGrant",
            false,
            "PUT",
            "/catalogs/{c}/catalog-roles/cr/grants",
            Admin.grantJson(Grant.onNamespace(List.of("ns"), "TABLE_LIST")),
            201),
        new Case(
            "revokeGrant",
            false,
            "POST",
            "/catalogs/{c}/catalog-roles/cr/grants",
            Admin.grantJson(Grant.onCatalog("TABLE_READ_DATA")),
            201),
        new Case(
            "grantCatalogRole",
            false,
            "PUT",
            "/principal-roles/held{n}/catalog-roles/{c}",
            Admin.grantCatalogRoleJson("cr2"),
            201),
        new Case(
            "revokeCatalogRole",
            false,
            "DELETE",
            "/principal-roles/held{n}/catalog-roles/{c}/cr",
            null,
            204),
        new Case(
            "listCatalogRolesOfPrincipalRole",
            false,
            "GET",
            "/principal-roles/held{n}/catalog-roles/{c}",
            null,
            200),
        new Case("listEvents", false, "GET", "/events", null, 200),
        new Case(
            "explainPrivileges",
            false,
            "GET",
            "/catalogs/{c}/principals/victim{n}/effective-privileges?type=table&namespace=ns&name=t",
            null,
            200),
        new Case("rotateSigningKey", true, "POST", "/signing-keys/rotate", null, 200),
        new Case("listSigningKeys", true, "GET", "/signing-keys", null, 200),
        new Case("retireSigningKey", true, "DELETE", "/signing-keys/{k}", null, 204));
  }

  /**
   * {@code victimCredentials}: victim{n}'s client id and secret as created (only a rotation or a
   * delete takes them away).
   */
  private record Setup(
      String catalog, String base, int n, String[] victimCredentials, String retirableKid) {}

  /**
   * A catalog with catalog roles cr (holding one grant, granted to held{n}) and cr2; principal
   * victim{n} holding held{n}; spare{n} may act for held{n} (PRINCIPAL_ACT_AS).
   */
  private static Setup setup() throws Exception {
    int n = RUN.incrementAndGet();
    Path warehouse = server.dataDir().resolve("mgmt-" + n);
    String catalog = server.createCatalog("mc", List.of(warehouse.toUri().toString()), warehouse);
    String[] victim = admin.principal("victim" + n, "held" + n);
    assertThat(
            server
                .send("POST", M + "/principal-roles", Admin.principalRoleJson("spare" + n))
                .statusCode())
        .isEqualTo(201);
    admin.catalogRole(catalog, "cr", "held" + n);
    assertThat(
            server
                .send("PUT", M + "/principal-roles/spare" + n + "/act-as/held" + n, null)
                .statusCode())
        .isEqualTo(204);
    assertThat(
            server
                .send(
                    "POST",
                    M + "/catalogs/" + catalog + "/catalog-roles",
                    Admin.catalogRoleJson("cr2"))
                .statusCode())
        .isEqualTo(201);
    admin.grant(catalog, "cr", Grant.onCatalog("TABLE_READ_DATA"));
    admin.catalogRole(catalog, "mallory_cr", "mallory_role");
    // A key that signed nothing ({k}): rotated to, then past at once.
    String retirable =
        Admin.read(server.send("POST", M + "/signing-keys/rotate", null), RotatedSigningKey.class)
            .kid();
    server.send("POST", M + "/signing-keys/rotate", null);
    return new Setup(catalog, warehouse.toUri().toString(), n, victim, retirable);
  }

  /**
   * Everything the management API can change, as root sees it; and what it does not show: each
   * principal's credentials as the store holds them (a rotation bumps the version and replaces the
   * hash), and whether victim{n}'s secret still obtains a token.
   */
  private static String state(Setup s) throws Exception {
    StringBuilder sb = new StringBuilder();
    for (String path :
        List.of(
            "/catalogs",
            "/principals",
            "/principal-roles",
            "/catalogs/" + s.catalog() + "/catalog-roles",
            "/catalogs/" + s.catalog() + "/catalog-roles/cr/grants",
            "/catalogs/" + s.catalog() + "/catalog-roles/cr/principal-roles",
            "/principals/victim" + s.n() + "/principal-roles",
            "/principal-roles/held" + s.n() + "/act-as",
            "/principal-roles/spare" + s.n() + "/act-as",
            "/principal-roles/held" + s.n() + "/catalog-roles/" + s.catalog())) {
      HttpResponse<String> response = server.send("GET", M + path, null);
      sb.append(path)
          .append(' ')
          .append(response.statusCode())
          .append(' ')
          .append(response.body())
          .append('\n');
    }
    for (PrincipalRecord p :
        server.server().store().access().listPrincipals(PageRequest.all()).items()) {
      sb.append(p.name())
          .append(" credentials v")
          .append(p.credentialVersion())
          .append(' ')
          .append(p.clientId())
          .append(' ')
          .append(p.secretHash())
          .append('\n');
    }
    sb.append("victim's secret: ").append(obtainsToken(s.victimCredentials())).append('\n');
    return sb.append(signingKeys()).toString();
  }

  /** The stored token signing keys, and the one a token issued now is signed with. */
  private static String signingKeys() throws Exception {
    return "signing keys "
        + server.server().store().signingKeys().stream().map(SigningKey::kid).toList()
        + ", active "
        + kid(server.token(TestServer.CLIENT_ID, TestServer.SECRET))
        + '\n';
  }

  /** The key id in a token's JWS header. */
  private static String kid(String token) throws Exception {
    String header = new String(Base64.getUrlDecoder().decode(token.split("\\.")[0]), UTF_8);
    return TestServer.json(header).get("kid").asText();
  }

  /**
   * Guards the snapshot above for rotateSigningKey: a rotation shows in it, the new key signs new
   * tokens, and a token signed before still verifies.
   */
  @Test
  void theStateSeesASigningKeyRotation() throws Exception {
    Setup s = setup();
    String before = state(s);
    String signedBefore = server.token(TestServer.CLIENT_ID, TestServer.SECRET);

    HttpResponse<String> rotated = server.send("POST", M + "/signing-keys/rotate", null);
    assertThat(rotated.statusCode()).as(rotated.body()).isEqualTo(200);

    assertThat(state(s)).isNotEqualTo(before);
    assertThat(kid(server.token(TestServer.CLIENT_ID, TestServer.SECRET)))
        .isEqualTo(Admin.read(rotated, RotatedSigningKey.class).kid())
        .isNotEqualTo(kid(signedBefore));
    assertThat(server.sendAs(signedBefore, "GET", M + "/principals", null).statusCode())
        .isEqualTo(200);
  }

  /**
   * Issue 32: a leaked signing key stayed valid for ever. Retiring it refuses every token it signed
   * at once (here; other replicas at their next read of the keys, within 30 s); the key new tokens
   * are signed with cannot be retired, and an unknown one is 404.
   */
  @Test
  void aRetiredSigningKeysTokensAreRefused() throws Exception {
    String oldToken = server.token(TestServer.CLIENT_ID, TestServer.SECRET);
    String oldKid = kid(oldToken);
    assertThat(server.sendAs(oldToken, "GET", M + "/principals", null).statusCode()).isEqualTo(200);
    HttpResponse<String> activeRefused =
        server.sendAs(oldToken, "DELETE", M + "/signing-keys/" + oldKid, null);
    assertThat(activeRefused.statusCode()).as(activeRefused.body()).isEqualTo(400);
    assertThat(activeRefused.body()).contains("rotate");

    HttpResponse<String> rotated =
        server.sendAs(oldToken, "POST", M + "/signing-keys/rotate", null);
    String newToken = server.token(TestServer.CLIENT_ID, TestServer.SECRET);
    assertThat(kid(newToken)).isEqualTo(Admin.read(rotated, RotatedSigningKey.class).kid());
    HttpResponse<String> listed = server.sendAs(newToken, "GET", M + "/signing-keys", null);
    assertThat(Admin.read(listed, SigningKeys.class).keys())
        .extracting(SigningKeys.SigningKey::kid)
        .contains(oldKid);
    assertThat(listed.body()).doesNotContain("material");

    assertThat(server.sendAs(newToken, "DELETE", M + "/signing-keys/" + oldKid, null).statusCode())
        .isEqualTo(204);
    assertThat(server.sendAs(oldToken, "GET", M + "/principals", null).statusCode())
        .as("a token of the retired key")
        .isEqualTo(401);
    assertThat(server.sendAs(newToken, "GET", M + "/principals", null).statusCode()).isEqualTo(200);
    assertThat(server.sendAs(newToken, "DELETE", M + "/signing-keys/" + oldKid, null).statusCode())
        .isEqualTo(404);
  }

  /** "token" when the credentials obtain one, else "refused". */
  private static String obtainsToken(String[] credentials) {
    try {
      server.token(credentials[0], credentials[1]);
      return "token";
    } catch (Exception refused) {
      return "refused";
    }
  }

  private static String fill(String text, Setup s) {
    return text == null
        ? null
        : text.replace("{c}", s.catalog())
            .replace("{n}", Integer.toString(s.n()))
            .replace("{base}", s.base())
            .replace("{k}", s.retirableKid());
  }

  private static void giveStanding(Case c, Setup s) throws Exception {
    if (c.serviceAdmin()) {
      assertThat(
              server
                  .send(
                      "PUT",
                      M + "/principals/mallory/principal-roles",
                      Admin.grantPrincipalRoleJson("service_admin"))
                  .statusCode())
          .isEqualTo(201);
    } else {
      admin.grant(s.catalog(), "mallory_cr", Grant.onCatalog("CATALOG_MANAGE_ACCESS"));
    }
  }

  private static void takeStanding(Case c, Setup s) throws Exception {
    if (c.serviceAdmin()) {
      assertThat(
              server
                  .send("DELETE", M + "/principals/mallory/principal-roles/service_admin", null)
                  .statusCode())
          .isEqualTo(204);
    } else {
      admin.revoke(s.catalog(), "mallory_cr", Grant.onCatalog("CATALOG_MANAGE_ACCESS"));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void forbiddenWithoutAllowedWithRefusedAfterRevoke(Case c) throws Exception {
    Setup s = setup();
    String path = M + fill(c.path(), s);
    String body = fill(c.body(), s);
    String before = state(s);

    HttpResponse<String> refused = server.sendAs(malloryToken, c.method(), path, body);
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
    assertThat(TestServer.json(refused.body()).get("error").get("type").asText())
        .isEqualTo("ForbiddenException");
    assertThat(state(s)).as("a refused call changes nothing").isEqualTo(before);

    giveStanding(c, s);
    HttpResponse<String> allowed = server.sendAs(malloryToken, c.method(), path, body);
    assertThat(allowed.statusCode()).as(allowed.body()).isEqualTo(c.okStatus());

    takeStanding(c, s);
    String after = state(s);
    assertThat(server.sendAs(malloryToken, c.method(), path, body).statusCode()).isEqualTo(403);
    assertThat(state(s)).isEqualTo(after);
  }
}

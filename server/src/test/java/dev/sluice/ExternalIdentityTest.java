package dev.sluice;

import static dev.sluice.AuthorizationMatrixTest.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import dev.sluice.testing.Admin;
import dev.sluice.testing.TestIdp;
import dev.sluice.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bearer JWTs from an external OIDC issuer, end to end: the server is configured with the issuer,
 * audience and a JWKS URL served by this test on loopback; the token's roles claim activates
 * principal roles that carry grants.
 */
class ExternalIdentityTest {
  private static final String ISSUER = TestIdp.ISSUER;
  private static TestIdp idp;
  private static RSAKey key;
  private static RSAKey otherKey;
  private static TestServer server;
  private static String base;

  @BeforeAll
  static void start() throws Exception {
    idp = TestIdp.start();
    key = idp.key();
    otherKey = new RSAKeyGenerator(2048).keyID("k1").generate();
    server = TestServer.start(null, idp.yaml());
    Admin admin = new Admin(server);
    Path warehouse = server.dataDir().resolve("ext");
    String catalog = server.createCatalog("ext", List.of(warehouse.toUri().toString()), warehouse);
    base = "/api/catalog/v1/" + catalog;
    assertThat(
            server.send("POST", base + "/namespaces", "{\"namespace\": [\"sales\"]}").statusCode())
        .isEqualTo(200);
    assertThat(
            server
                .send(
                    "POST",
                    base + "/namespaces/sales/tables",
                    "{\"name\": \"orders\", \"schema\": " + SCHEMA + "}")
                .statusCode())
        .isEqualTo(200);
    assertThat(
            server
                .send(
                    "POST",
                    "/api/management/v1/principal-roles",
                    Admin.principalRoleJson("idp_readers"))
                .statusCode())
        .isEqualTo(201);
    admin.catalogRole(catalog, "readers", "idp_readers");
    admin.grant(
        catalog,
        "readers",
        Admin.grantJson("namespace", List.of("sales"), null, "TABLE_READ_DATA"));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
    idp.close();
  }

  private static String token(
      RSAKey signer, String issuer, String audience, long expiresInMs, List<String> groups)
      throws Exception {
    return TestIdp.token(signer, issuer, audience, expiresInMs, "alice", groups);
  }

  @Test
  void rolesFromTheIssuersClaimGrantAccess() throws Exception {
    String good = token(key, ISSUER, "sluice", 300_000, List.of("idp_readers"));
    assertThat(
            server.sendAs(good, "GET", base + "/namespaces/sales/tables/orders", null).statusCode())
        .isEqualTo(200);
    assertThat(
            server
                .sendAs(good, "POST", base + "/namespaces", "{\"namespace\": [\"x\"]}")
                .statusCode())
        .isEqualTo(403);
    String noRoles = token(key, ISSUER, "sluice", 300_000, List.of());
    assertThat(
            server
                .sendAs(noRoles, "GET", base + "/namespaces/sales/tables/orders", null)
                .statusCode())
        .isEqualTo(403);
    assertThat(server.send("GET", "/api/management/v1/events?principal=alice", null).body())
        .contains("loadTable");
  }

  @Test
  void wrongIssuerAudienceExpiryOrSignatureIs401() throws Exception {
    String path = base + "/namespaces/sales/tables/orders";
    List<String> groups = List.of("idp_readers");
    assertThat(
            server
                .sendAs(
                    token(key, "https://evil.example.test/", "sluice", 300_000, groups),
                    "GET",
                    path,
                    null)
                .statusCode())
        .isEqualTo(401);
    assertThat(
            server
                .sendAs(token(key, ISSUER, "someone-else", 300_000, groups), "GET", path, null)
                .statusCode())
        .isEqualTo(401);
    assertThat(
            server
                .sendAs(token(key, ISSUER, "sluice", -120_000, groups), "GET", path, null)
                .statusCode())
        .isEqualTo(401);
    assertThat(
            server
                .sendAs(token(otherKey, ISSUER, "sluice", 300_000, groups), "GET", path, null)
                .statusCode())
        .isEqualTo(401);
  }
}

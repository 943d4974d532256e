package dev.sluice;

import static dev.sluice.AuthorizationMatrixTest.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import dev.sluice.testing.Admin;
import dev.sluice.testing.TestServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Date;
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
  private static final String ISSUER = "https://idp.example.test/";
  private static RSAKey key;
  private static RSAKey otherKey;
  private static HttpServer jwks;
  private static TestServer server;
  private static String base;

  @BeforeAll
  static void start() throws Exception {
    key = new RSAKeyGenerator(2048).keyID("k1").generate();
    otherKey = new RSAKeyGenerator(2048).keyID("k1").generate();
    byte[] body = new JWKSet(key.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
    jwks = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    jwks.createContext(
        "/jwks",
        exchange -> {
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    jwks.start();
    server =
        TestServer.start(
            null,
            "auth:\n  oidc:\n    issuer: \""
                + ISSUER
                + "\"\n    audience: sluice\n"
                + "    jwksUrl: \"http://127.0.0.1:"
                + jwks.getAddress().getPort()
                + "/jwks\"\n"
                + "    principalClaim: preferred_username\n    rolesClaim: groups\n");
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
                    "{\"principalRole\": {\"name\": \"idp_readers\"}}")
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
    jwks.stop(0);
  }

  private static String token(
      RSAKey signer, String issuer, String audience, long expiresInMs, List<String> groups)
      throws Exception {
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .issuer(issuer)
            .audience(audience)
            .subject("00u-alice")
            .claim("preferred_username", "alice")
            .claim("groups", groups)
            .expirationTime(new Date(System.currentTimeMillis() + expiresInMs))
            .build();
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(signer.getKeyID()).build(), claims);
    jwt.sign(new RSASSASigner(signer));
    return jwt.serialize();
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

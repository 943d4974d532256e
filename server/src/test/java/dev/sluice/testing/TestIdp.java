package dev.sluice.testing;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.List;

/**
 * An external OIDC issuer for tests: an RSA key whose JWKS is served on loopback, the {@code
 * auth.oidc} YAML that makes a Sluice trust it (audience {@code sluice}, principal from {@code
 * preferred_username}, roles from {@code groups}), and tokens it signs.
 */
public final class TestIdp implements AutoCloseable {
  public static final String ISSUER = "https://idp.example.test/";
  public static final String AUDIENCE = "sluice";

  private final RSAKey key;
  private final HttpServer jwks;

  private TestIdp(RSAKey key, HttpServer jwks) {
    this.key = key;
    this.jwks = jwks;
  }

  public static TestIdp start() throws Exception {
    RSAKey key = new RSAKeyGenerator(2048).keyID("k1").generate();
    byte[] body = new JWKSet(key.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
    HttpServer jwks = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    jwks.createContext(
        "/jwks",
        exchange -> {
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    jwks.start();
    return new TestIdp(key, jwks);
  }

  /** The signing key, whose public half the JWKS serves. */
  public RSAKey key() {
    return key;
  }

  /** The server YAML that trusts this issuer. */
  public String yaml() {
    return "auth:\n  oidc:\n    issuer: \""
        + ISSUER
        + "\"\n    audience: "
        + AUDIENCE
        + "\n    jwksUrl: \"http://127.0.0.1:"
        + jwks.getAddress().getPort()
        + "/jwks\"\n"
        + "    principalClaim: preferred_username\n    rolesClaim: groups\n";
  }

  /** A token for {@code username} in {@code groups}, valid for ten minutes. */
  public String token(String username, List<String> groups) throws Exception {
    return token(key, ISSUER, AUDIENCE, 600_000, username, groups);
  }

  /** A token as any issuer would sign it, for the refusals. */
  public static String token(
      RSAKey signer,
      String issuer,
      String audience,
      long expiresInMs,
      String username,
      List<String> groups)
      throws Exception {
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .issuer(issuer)
            .audience(audience)
            .subject("00u-" + username)
            .claim("preferred_username", username)
            .claim("groups", groups)
            .expirationTime(new Date(System.currentTimeMillis() + expiresInMs))
            .build();
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(signer.getKeyID()).build(), claims);
    jwt.sign(new RSASSASigner(signer));
    return jwt.serialize();
  }

  @Override
  public void close() {
    jwks.stop(0);
  }
}

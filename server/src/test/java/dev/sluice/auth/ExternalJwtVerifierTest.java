package dev.sluice.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import dev.sluice.auth.ExternalJwtVerifier.Identity;
import dev.sluice.auth.ExternalJwtVerifier.Settings;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ExternalJwtVerifierTest {
  private static final String ISSUER = "https://idp.example.com/realms/sluice";
  private static final String AUDIENCE = "sluice";
  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  private static RSAKey rsaKey;
  private static ECKey ecKey;
  // Same kid as rsaKey, different key material: what a forger without the private key has.
  private static RSAKey impostorKey;
  private static RSAKey unpublishedKey;

  private HttpServer jwksServer;
  private final AtomicInteger jwksFetches = new AtomicInteger();
  private ExternalJwtVerifier verifier;

  @BeforeAll
  static void generateKeys() throws Exception {
    rsaKey = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
    ecKey = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
    impostorKey = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
    unpublishedKey = new RSAKeyGenerator(2048).keyID("rsa-unknown").generate();
  }

  @BeforeEach
  void startJwksServer() throws Exception {
    byte[] body =
        new JWKSet(List.of(rsaKey.toPublicJWK(), ecKey.toPublicJWK()))
            .toString()
            .getBytes(StandardCharsets.UTF_8);
    jwksServer = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    jwksServer.createContext(
        "/jwks",
        exchange -> {
          jwksFetches.incrementAndGet();
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    jwksServer.start();
    verifier = new ExternalJwtVerifier(settings(jwksUrl()), CLOCK);
  }

  @AfterEach
  void stopJwksServer() {
    jwksServer.stop(0);
  }

  private String jwksUrl() {
    return "http://127.0.0.1:" + jwksServer.getAddress().getPort() + "/jwks";
  }

  private static Settings settings(String jwksUrl) {
    return new Settings(ISSUER, AUDIENCE, jwksUrl, "preferred_username", null);
  }

  private static JWTClaimsSet.Builder validClaims() {
    return new JWTClaimsSet.Builder()
        .issuer(ISSUER)
        .audience(List.of("account", AUDIENCE))
        .subject("4f1c-uuid")
        .claim("preferred_username", "alice")
        .claim("roles", List.of("analyst", "engineer"))
        .issueTime(Date.from(NOW.minusSeconds(60)))
        .expirationTime(Date.from(NOW.plusSeconds(600)));
  }

  private static String sign(RSAKey key, JWTClaimsSet claims) throws Exception {
    return sign(new RSASSASigner(key), JWSAlgorithm.RS256, key.getKeyID(), claims);
  }

  private static String sign(JWSSigner signer, JWSAlgorithm alg, String kid, JWTClaimsSet claims)
      throws Exception {
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(alg).keyID(kid).type(JOSEObjectType.JWT).build(), claims);
    jwt.sign(signer);
    return jwt.serialize();
  }

  /** Asserts a 401 whose message has the given reason and never echoes the token. */
  private void assertRefused(String token, String reason) {
    assertThatThrownBy(() -> verifier.verify(token))
        .isInstanceOf(NotAuthorizedException.class)
        .hasMessageContaining(reason)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(token));
  }

  @Test
  void acceptsValidTokenWithRolesArray() throws Exception {
    String token = sign(rsaKey, validClaims().build());

    Identity identity = verifier.verify(token);

    assertThat(identity.principal()).isEqualTo("alice");
    assertThat(identity.roles()).containsExactly("analyst", "engineer");
    assertThat(identity.expiresAtMs()).isEqualTo(NOW.plusSeconds(600).toEpochMilli());
    assertThat(verifier.claimsIssuer(token)).isTrue();
  }

  @Test
  void acceptsSpaceSeparatedRolesAndCustomRolesClaim() throws Exception {
    verifier =
        new ExternalJwtVerifier(new Settings(ISSUER, AUDIENCE, jwksUrl(), "sub", "scope"), CLOCK);
    String token =
        sign(rsaKey, validClaims().claim("scope", " catalog:read  catalog:write ").build());

    Identity identity = verifier.verify(token);

    assertThat(identity.principal()).isEqualTo("4f1c-uuid");
    assertThat(identity.roles()).containsExactly("catalog:read", "catalog:write");
  }

  @Test
  void aClaimMakesNobodyServiceAdminUnlessTheOperatorMapsItByName() throws Exception {
    // Issue 32: any IdP group named service_admin made its members service admins.
    String token =
        sign(rsaKey, validClaims().claim("roles", List.of("service_admin", "analyst")).build());
    assertThat(verifier.verify(token).roles()).containsExactly("analyst");

    verifier =
        new ExternalJwtVerifier(
            new Settings(
                ISSUER,
                AUDIENCE,
                jwksUrl(),
                "preferred_username",
                null,
                java.util.Map.of("idp-platform-admins", "service_admin", "analysts", "analyst")),
            CLOCK);
    String mapped =
        sign(
            rsaKey,
            validClaims()
                .claim("roles", List.of("idp-platform-admins", "analysts", "service_admin", "x"))
                .build());
    // With a mapping, only mapped values count: the literal service_admin group is not one.
    assertThat(verifier.verify(mapped).roles()).containsExactly("service_admin", "analyst");
    assertThat(verifier.verify(token).roles()).as("unmapped values are no roles").isEmpty();
  }

  @Test
  void acceptsStringAudienceAndAbsentRoles() throws Exception {
    String token = sign(rsaKey, validClaims().audience(AUDIENCE).claim("roles", null).build());

    Identity identity = verifier.verify(token);

    assertThat(identity.roles()).isEmpty();
  }

  @Test
  void acceptsEcSignedToken() throws Exception {
    String token =
        sign(new ECDSASigner(ecKey), JWSAlgorithm.ES256, ecKey.getKeyID(), validClaims().build());

    assertThat(verifier.verify(token).principal()).isEqualTo("alice");
  }

  @Test
  void cachesKeys() throws Exception {
    verifier.verify(sign(rsaKey, validClaims().build()));
    verifier.verify(sign(rsaKey, validClaims().build()));

    assertThat(jwksFetches.get()).isEqualTo(1);
  }

  @Test
  void refusesWrongIssuer() throws Exception {
    String token = sign(rsaKey, validClaims().issuer("https://evil.example.com").build());

    assertThat(verifier.claimsIssuer(token)).isFalse();
    assertRefused(token, "issuer");
  }

  @Test
  void refusesWrongAudience() throws Exception {
    assertRefused(sign(rsaKey, validClaims().audience("someone-else").build()), "audience");
    assertRefused(sign(rsaKey, validClaims().audience((String) null).build()), "audience");
  }

  @Test
  void refusesExpiredTokenBeyondSkew() throws Exception {
    assertRefused(
        sign(rsaKey, validClaims().expirationTime(Date.from(NOW.minusSeconds(31))).build()),
        "expired");
    // Within the 30 s skew the token still counts as live.
    String justExpired =
        sign(rsaKey, validClaims().expirationTime(Date.from(NOW.minusSeconds(10))).build());
    assertThat(verifier.verify(justExpired).principal()).isEqualTo("alice");
  }

  @Test
  void refusesTokenWithoutExpiry() throws Exception {
    assertRefused(sign(rsaKey, validClaims().expirationTime(null).build()), "expiry");
  }

  @Test
  void refusesNotYetValidToken() throws Exception {
    assertRefused(
        sign(rsaKey, validClaims().notBeforeTime(Date.from(NOW.plusSeconds(60))).build()),
        "not valid yet");
    String almostValid =
        sign(rsaKey, validClaims().notBeforeTime(Date.from(NOW.plusSeconds(10))).build());
    assertThat(verifier.verify(almostValid).principal()).isEqualTo("alice");
  }

  @Test
  void refusesBadSignature() throws Exception {
    assertRefused(sign(impostorKey, validClaims().build()), "signature is invalid");
  }

  @Test
  void refusesTamperedPayload() throws Exception {
    String[] parts = sign(rsaKey, validClaims().build()).split("\\.");
    String forged =
        parts[0]
            + "."
            + Base64URL.encode(
                validClaims().claim("preferred_username", "admin").build().toString())
            + "."
            + parts[2];

    assertRefused(forged, "signature is invalid");
  }

  @Test
  void refusesUnknownKidRepeatedly() throws Exception {
    String token = sign(unpublishedKey, validClaims().build());

    // The second and third attempts hit nimbus's refresh rate limit; still "no matching key",
    // not "could not be fetched".
    assertRefused(token, "No signing key");
    assertRefused(token, "No signing key");
    assertRefused(token, "No signing key");
  }

  @Test
  void aFloodOfUnknownKidsFetchesTheJwksAtMostTwicePerRateLimitInterval() throws Exception {
    verifier.verify(sign(rsaKey, validClaims().build()));
    assertThat(jwksFetches.get()).isEqualTo(1);
    RSASSASigner signer = new RSASSASigner(unpublishedKey);
    for (int i = 0; i < 200; i++) {
      assertRefused(
          sign(signer, JWSAlgorithm.RS256, "flood-" + i, validClaims().build()), "No signing key");
    }
    // nimbus's rate limiter lets two fetches through per interval: the first one (above) and
    // at most one refetch for all 200 unknown kids.
    assertThat(jwksFetches.get()).isLessThanOrEqualTo(2);
  }

  @Test
  void refusesUnsignedToken() {
    String token = new PlainJWT(validClaims().build()).serialize();

    assertRefused(token, "not signed");
  }

  @Test
  void refusesHmacToken() throws Exception {
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    String token =
        sign(new MACSigner(secret), JWSAlgorithm.HS256, rsaKey.getKeyID(), validClaims().build());

    assertRefused(token, "HS256 is not accepted");
  }

  @Test
  void refusesMissingOrEmptyPrincipal() throws Exception {
    for (Object bad : java.util.Arrays.asList(null, " ", 42)) {
      assertRefused(
          sign(rsaKey, validClaims().claim("preferred_username", bad).build()),
          "preferred_username");
    }
  }

  @Test
  void refusesRolesOfWrongShape() throws Exception {
    assertRefused(sign(rsaKey, validClaims().claim("roles", 7).build()), "roles");
    assertRefused(sign(rsaKey, validClaims().claim("roles", List.of("a", 1)).build()), "roles");
  }

  @Test
  void refusesMalformedToken() {
    for (String token : List.of("not-a-jwt", "a.b.c", "eyJhbGciOiJSUzI1NiJ9.e30", " ")) {
      assertThatThrownBy(() -> verifier.verify(token)).isInstanceOf(NotAuthorizedException.class);
      assertThat(verifier.claimsIssuer(token)).isFalse();
    }
    assertRefused("a.b.c", "Malformed");
    assertThatThrownBy(() -> verifier.verify(null)).isInstanceOf(NotAuthorizedException.class);
    assertThat(verifier.claimsIssuer(null)).isFalse();
  }

  @Test
  void refusesQuicklyWhenJwksEndpointIsDown() throws Exception {
    String token = sign(rsaKey, validClaims().build());
    jwksServer.stop(0);

    assertTimeoutPreemptively(
        Duration.ofSeconds(5), () -> assertRefused(token, "could not be fetched"));
  }

  @Test
  void refusesQuicklyWhenJwksEndpointNeverAnswers() throws Exception {
    String token = sign(rsaKey, validClaims().build());
    // Bound and listening (so connects succeed via the backlog) but never accepted or answered:
    // only the read timeout ends the fetch.
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      verifier =
          new ExternalJwtVerifier(
              settings("http://127.0.0.1:" + silent.getLocalPort() + "/jwks"), CLOCK);

      assertTimeoutPreemptively(
          Duration.ofSeconds(5), () -> assertRefused(token, "could not be fetched"));
    }
  }

  @Test
  void settingsNameTheBadKey() {
    String url = "https://idp.example.com/jwks";
    assertThatThrownBy(() -> new Settings(null, AUDIENCE, url, "sub", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("auth.oidc.issuer");
    assertThatThrownBy(() -> new Settings(ISSUER, " ", url, "sub", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("auth.oidc.audience");
    assertThatThrownBy(() -> new Settings(ISSUER, AUDIENCE, "", "sub", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("auth.oidc.jwksUrl");
    assertThatThrownBy(() -> new Settings(ISSUER, AUDIENCE, url, null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("auth.oidc.principalClaim");
    for (String badUrl :
        List.of("/relative/jwks", "ftp://idp.example.com/jwks", "https:///jwks", "ht tp://x")) {
      assertThatThrownBy(() -> new Settings(ISSUER, AUDIENCE, badUrl, "sub", null))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("auth.oidc.jwksUrl");
    }
  }

  @Test
  void rolesClaimDefaultsToRoles() {
    String url = "https://idp.example.com/jwks";
    assertThat(new Settings(ISSUER, AUDIENCE, url, "sub", null).rolesClaim()).isEqualTo("roles");
    assertThat(new Settings(ISSUER, AUDIENCE, url, "sub", "  ").rolesClaim()).isEqualTo("roles");
    assertThat(new Settings(ISSUER, AUDIENCE, url, "sub", "groups").rolesClaim())
        .isEqualTo("groups");
  }
}
